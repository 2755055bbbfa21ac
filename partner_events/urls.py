"""Public partner documentation, mounted at ``/docs/api/``."""

from django.urls import path

from partner_events import docs

urlpatterns = [
    path("partner-events", docs.partner_events_page, name="partner_events_docs"),
    path(
        "partner-events/doc-uploaded.schema.json",
        docs.doc_uploaded_schema_view,
        name="partner_events_doc_uploaded_schema",
    ),
    path(
        "partner-events/stage-status.schema.json",
        docs.stage_status_schema_view,
        name="partner_events_stage_status_schema",
    ),
]
