"""Every job gets its own timeline of milestones (``JobMilestone``), filled from the logged
stage events; the stage-event outbox then leaves this app (see 0011)."""

from typing import Any

from datetime import datetime

import django.db.models.deletion
import django.utils.timezone
from django.db import migrations, models


def backfill(apps: Any, schema_editor: Any) -> None:
    StageEvent = apps.get_model("ingestion", "StageEvent")
    JobMilestone = apps.get_model("ingestion", "JobMilestone")
    rows = []
    for event in StageEvent.objects.order_by("job_id", "seq").iterator(chunk_size=2000):
        payload = event.payload if isinstance(event.payload, dict) else {}
        key = event.routing_key
        if key == "indexed" and payload.get("status") == "needs_review":
            key = "needs_review"
        error = payload.get("error")
        try:  # the moment the stage ended, which held events carry as ``ts``
            at = datetime.fromisoformat(str(payload["ts"]).replace("Z", "+00:00"))
        except (KeyError, ValueError):
            at = event.created_at
        rows.append(
            JobMilestone(
                job_id=event.job_id,
                seq=event.seq,
                milestone=key,
                error=str(error) if error else "",
                created_at=at,
            )
        )
        if len(rows) >= 2000:
            JobMilestone.objects.bulk_create(rows)
            rows = []
    JobMilestone.objects.bulk_create(rows)


class Migration(migrations.Migration):
    dependencies = [("ingestion", "0009_ingestionjob_kafka_record")]

    operations = [
        migrations.CreateModel(
            name="JobMilestone",
            fields=[
                (
                    "id",
                    models.BigAutoField(
                        auto_created=True, primary_key=True, serialize=False, verbose_name="ID"
                    ),
                ),
                ("seq", models.PositiveIntegerField()),
                ("milestone", models.CharField(max_length=32)),
                ("error", models.TextField(blank=True, default="")),
                ("created_at", models.DateTimeField(default=django.utils.timezone.now)),
                (
                    "job",
                    models.ForeignKey(
                        on_delete=django.db.models.deletion.CASCADE,
                        related_name="milestones",
                        to="ingestion.ingestionjob",
                    ),
                ),
            ],
            options={"ordering": ["job", "seq"]},
        ),
        migrations.AddConstraint(
            model_name="jobmilestone",
            constraint=models.UniqueConstraint(
                fields=("job", "seq"), name="job_milestone_unique_seq"
            ),
        ),
        migrations.RunPython(backfill, migrations.RunPython.noop),
    ]
