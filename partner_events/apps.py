from django.apps import AppConfig


class PartnerEventsConfig(AppConfig):
    name = "partner_events"
    verbose_name = "Event mitra (Kafka)"
    default_auto_field = "django.db.models.BigAutoField"
