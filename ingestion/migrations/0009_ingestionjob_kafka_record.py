from django.db import migrations, models


class Migration(migrations.Migration):
    dependencies = [
        ("ingestion", "0008_chunk_regions"),
    ]

    operations = [
        migrations.AddField(
            model_name="ingestionjob",
            name="kafka_record",
            field=models.CharField(blank=True, default="", max_length=300),
        ),
    ]
