"""The legal units' HNSW index goes: no query walks it.

Search reads a unit's vector only through its chunk (the candidate chunks' units are
re-scored by ``chunk_id``), never as a nearest neighbour of the query. After the 1,535 UU
the index was 352 MB of 1,475 (0 scans in a whole bench run), and every embedded ayat and
huruf paid an HNSW insert at import (docs/decisions.md). Dropping it is instant; reversing
the migration rebuilds it.
"""

from django.db import migrations


class Migration(migrations.Migration):
    dependencies = [
        ("ingestion", "0018_passage_digest_replaces_embedding_cache"),
    ]

    operations = [
        migrations.RemoveIndex(
            model_name="legalunit",
            name="legal_unit_embedding_hnsw",
        ),
    ]
