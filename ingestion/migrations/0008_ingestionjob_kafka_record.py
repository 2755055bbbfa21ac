from django.db import migrations, models


class Migration(migrations.Migration):
    dependencies = [
        ("ingestion", "0007_job_gpu_queue_ms"),
    ]

    operations = [
        migrations.AddField(
            model_name="ingestionjob",
            name="kafka_record",
            field=models.CharField(blank=True, default="", max_length=300),
        ),
    ]
