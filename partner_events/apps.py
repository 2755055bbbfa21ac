from django.apps import AppConfig


class PartnerEventsConfig(AppConfig):
    name = "partner_events"
    verbose_name = "Event mitra (Kafka)"
    default_auto_field = "django.db.models.BigAutoField"

    def ready(self) -> None:
        # Imported here: models may only be imported once the app registry is ready.
        from ingestion.signals import job_settled_by_review
        from partner_events.outbox import on_job_settled_by_review

        job_settled_by_review.connect(on_job_settled_by_review, dispatch_uid="partner-terminal")
