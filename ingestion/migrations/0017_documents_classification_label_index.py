"""An index on the classification label visibility filters on (``visibility.CLASSIFICATION_SQL``).

Its purpose is the planner's statistics more than lookups: without them Postgres guessed that
27 of 1,550 regulations were public (1,394 were), scanned every chunk of those for the nearest
vectors instead of walking the HNSW index, and a token's dense search took 965 ms instead of
0.5 ms (docs/scaling.md, issue #35).
"""

from django.db import migrations

LABEL = (
    "lower(btrim(coalesce(metadata -> 'source' ->> 'classification', "
    "metadata ->> 'classification', '')))"
)


class Migration(migrations.Migration):
    dependencies = [("ingestion", "0016_corpus_export")]

    operations = [
        migrations.RunSQL(
            f"CREATE INDEX IF NOT EXISTS documents_classification_label ON documents (({LABEL}))",
            "DROP INDEX IF EXISTS documents_classification_label",
        ),
    ]
