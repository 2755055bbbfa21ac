"""The contract's migration 0007: one row per ("sourceType", source_version, source_key)."""

import django.db.models.fields.json
from django.db import migrations, models


class Migration(migrations.Migration):
    dependencies = [("ingestion", "0002_unique_checksum_version")]

    operations = [
        migrations.AddConstraint(
            model_name="document",
            constraint=models.UniqueConstraint(
                models.F("source_type"),
                django.db.models.fields.json.KeyTextTransform("source_version", "metadata"),
                django.db.models.fields.json.KeyTextTransform("source_key", "metadata"),
                name="documents_unique_type_version_key",
            ),
        ),
    ]
