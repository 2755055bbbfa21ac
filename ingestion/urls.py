"""Admin UI routes (behind login, roles enforced in the views), and the public page on
connecting an AI assistant over MCP."""

from django.urls import path

from ingestion import views
from ingestion.mcp.docs import ai_assistants_page

urlpatterns = [
    path("", views.dashboard, name="dashboard"),
    path("upload/", views.upload, name="upload"),
    path("upload/jobs/<uuid:pk>/status", views.upload_job_status, name="upload_job_status"),
    path("documents/", views.document_list, name="document_list"),
    path("documents/<uuid:pk>/", views.document_detail, name="document_detail"),
    path("documents/<uuid:pk>/konsolidasi/", views.regulation_reader, name="regulation_reader"),
    path("documents/<uuid:pk>/download", views.document_download, name="document_download"),
    path("documents/<uuid:pk>/archive", views.document_archive, name="document_archive"),
    path("documents/<uuid:pk>/reprocess", views.document_reprocess, name="document_reprocess"),
    path("documents/<uuid:pk>/pages/<int:number>.png", views.page_image, name="page_image"),
    path(
        "documents/<uuid:pk>/chunks/<int:chunk_id>/letak", views.chunk_region, name="chunk_region"
    ),
    path("review/", views.review_queue, name="review_queue"),
    path("review/<uuid:pk>/", views.review_document, name="review_document"),
    path("review/<uuid:pk>/approve-all", views.approve_all, name="review_approve_all"),
    path("review/<uuid:pk>/approve-above", views.approve_above, name="review_approve_above"),
    path("review/chunks/<int:chunk_id>/save", views.chunk_save, name="review_chunk_save"),
    path("review/chunks/<int:chunk_id>/approve", views.chunk_approve, name="review_chunk_approve"),
    path("review/chunks/<int:chunk_id>/reject", views.chunk_reject, name="review_chunk_reject"),
    path("search/", views.search_page, name="search"),
    # Public, like the partner contract page: how to connect an AI assistant over MCP.
    path("docs/ai-assistants", ai_assistants_page, name="ai_assistants_docs"),
]
