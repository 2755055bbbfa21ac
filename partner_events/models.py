"""The stage-event outbox: every StageStatusEvent of a Kafka job, logged before it is sent.

The table kept its name (``ingestion_stageevent``) when the model moved here from
``ingestion``: the move changed only which app owns it (migration
``partner_events.0001_stage_event_outbox``).
"""

from __future__ import annotations

from django.db import models

from ingestion.models import IngestionJob


class PublishStatus(models.TextChoices):
    """pending → published | failed(retrying) → published; not_applicable when no Kafka."""

    PENDING = "pending", "Menunggu terbit"
    PUBLISHED = "published", "Terbit"
    FAILED = "failed", "Gagal terbit (akan dicoba lagi)"
    NOT_APPLICABLE = "not_applicable", "Tidak dikirim"


class StageEvent(models.Model):
    """Durable log (outbox) of every StageStatusEvent produced for a job, in order."""

    job = models.ForeignKey(IngestionJob, on_delete=models.CASCADE, related_name="stage_events")
    seq = models.PositiveIntegerField()
    routing_key = models.CharField(max_length=32)
    topic = models.CharField(max_length=249, blank=True, default="")
    record_key = models.CharField(max_length=64, blank=True, default="")
    payload = models.JSONField()
    publish_status = models.CharField(
        max_length=16, choices=PublishStatus.choices, default=PublishStatus.PENDING
    )
    publish_attempts = models.PositiveIntegerField(default=0)
    publish_error = models.TextField(blank=True, default="")
    created_at = models.DateTimeField(auto_now_add=True)
    published_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        db_table = "ingestion_stageevent"
        ordering = ["job", "seq"]
        constraints = [
            models.UniqueConstraint(fields=["job", "seq"], name="stage_event_unique_seq"),
        ]
        indexes = [
            models.Index(
                fields=["publish_status", "id"],
                condition=~models.Q(publish_status__in=["published", "not_applicable"]),
                name="stage_event_unpublished",
            ),
        ]

    def __str__(self) -> str:
        return f"{self.job_id}#{self.seq} {self.routing_key}"
