"""The job page is Admin-only, so a Peninjau sees the partner jobId as text, not a dead link."""

from __future__ import annotations

import uuid

import pytest
from django.test import Client

from ingestion.models import Document, JobOrigin
from tests.ui.helpers import make_document, make_job

pytestmark = pytest.mark.django_db


def _document_with_partner_job() -> tuple[Document, uuid.UUID]:
    document = make_document()
    partner_job_id = uuid.uuid4()
    make_job(document, origin=JobOrigin.KAFKA, partner_job_id=partner_job_id)
    return document, partner_job_id


def test_a_reviewer_sees_the_partner_job_id_without_a_link(reviewer_client: Client) -> None:
    document, partner_job_id = _document_with_partner_job()
    body = reviewer_client.get(f"/documents/{document.pk}/").content.decode()
    assert f"jobId {partner_job_id}" in body
    assert f"/jobs/{partner_job_id}/" not in body


def test_an_admin_gets_a_link_to_the_job_page(admin_client: Client) -> None:
    document, partner_job_id = _document_with_partner_job()
    body = admin_client.get(f"/documents/{document.pk}/").content.decode()
    assert f'href="/jobs/{partner_job_id}/"' in body
