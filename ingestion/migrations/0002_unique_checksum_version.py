"""The contract's migration 0006: one row per (checksum, source_version)."""

import django.db.models.fields.json
from django.db import migrations, models


class Migration(migrations.Migration):
    dependencies = [("ingestion", "0001_initial")]

    operations = [
        migrations.AddConstraint(
            model_name="document",
            constraint=models.UniqueConstraint(
                models.F("checksum"),
                django.db.models.fields.json.KeyTextTransform("source_version", "metadata"),
                name="documents_unique_checksum_version",
            ),
        ),
    ]
