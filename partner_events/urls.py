"""Partner routes: the public contract documentation and the Kafka job pages (admin)."""

from django.urls import path

from partner_events import docs, views

urlpatterns = [
    path("docs/api/partner-events", docs.partner_events_page, name="partner_events_docs"),
    path(
        "docs/api/partner-events/doc-uploaded.schema.json",
        docs.doc_uploaded_schema_view,
        name="partner_events_doc_uploaded_schema",
    ),
    path(
        "docs/api/partner-events/stage-status.schema.json",
        docs.stage_status_schema_view,
        name="partner_events_stage_status_schema",
    ),
    path("jobs/", views.job_list, name="job_list"),
    path("jobs/<uuid:job_id>/", views.job_detail, name="job_detail"),
    path("jobs/<uuid:job_id>/replay", views.job_replay, name="job_replay"),
    path("jobs/<uuid:job_id>/rerun", views.job_rerun, name="job_rerun"),
]
