from django.apps import AppConfig


class IngestionConfig(AppConfig):
    name = "ingestion"
    verbose_name = "Ingesti dokumen"
    default_auto_field = "django.db.models.BigAutoField"
