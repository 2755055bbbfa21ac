"""'Proses ulang' queues one job; clicking again while it waits does not queue another."""

from __future__ import annotations

import pytest
from django.test import Client

from ingestion.models import DocumentStatus, IngestionJob, JobState
from tests.ui.helpers import make_document

pytestmark = pytest.mark.django_db


def test_a_second_click_while_the_reprocess_job_waits_queues_nothing(admin_client: Client) -> None:
    document = make_document(status=DocumentStatus.INDEXED)
    admin_client.post(f"/documents/{document.pk}/reprocess")
    response = admin_client.post(f"/documents/{document.pk}/reprocess", follow=True)
    assert IngestionJob.objects.filter(document=document, state=JobState.QUEUED).count() == 1
    assert "sudah di antrean" in response.content.decode()


def test_reprocess_is_possible_again_once_the_job_settled(admin_client: Client) -> None:
    document = make_document(status=DocumentStatus.INDEXED)
    admin_client.post(f"/documents/{document.pk}/reprocess")
    IngestionJob.objects.filter(document=document).update(state=JobState.DONE)
    admin_client.post(f"/documents/{document.pk}/reprocess")
    assert IngestionJob.objects.filter(document=document).count() == 2
