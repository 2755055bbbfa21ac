"""Every job gets its own timeline of milestones (``JobMilestone``), filled from the logged
stage events; the stage-event outbox then leaves this app (see 0007)."""

from typing import Any

import django.db.models.deletion
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
        rows.append(
            JobMilestone(
                job_id=event.job_id,
                seq=event.seq,
                milestone=key,
                error=str(error) if error else "",
                created_at=event.created_at,
            )
        )
        if len(rows) >= 2000:
            JobMilestone.objects.bulk_create(rows)
            rows = []
    JobMilestone.objects.bulk_create(rows)
    # auto_now_add overwrote created_at; put the events' own times back.
    schema_editor.execute(
        "UPDATE ingestion_jobmilestone m SET created_at = e.created_at "
        "FROM ingestion_stageevent e WHERE e.job_id = m.job_id AND e.seq = m.seq"
    )


class Migration(migrations.Migration):
    dependencies = [("ingestion", "0005_legal_units")]

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
                ("created_at", models.DateTimeField(auto_now_add=True)),
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
