"""POST /api/documents: a browser session needs the Admin role, as on the upload page."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from django.core.files.uploadedfile import SimpleUploadedFile
from django.test import Client, override_settings

from ingestion.management.commands.ensure_admin import ADMIN_GROUP, REVIEWER_GROUP
from ingestion.models import IngestionJob
from tests.ui.helpers import client_for, make_user

pytestmark = pytest.mark.django_db


@pytest.fixture(autouse=True)
def _store(tmp_path: Path) -> Iterator[None]:
    with override_settings(OBJECT_STORAGE_URL=(tmp_path / "store").as_uri()):
        yield


def _post(client: Client, headers: dict[str, str] | None = None, **extra: str) -> Any:
    data = {"file": SimpleUploadedFile("qanun.txt", b"Pasal 1\nIsi.", "text/plain"), **extra}
    return client.post("/api/documents", data=data, headers=headers or {})


def test_a_reviewer_session_cannot_upload_through_the_api() -> None:
    client = client_for(make_user("peninjau", group=REVIEWER_GROUP))
    response = _post(client)
    assert response.status_code == 403
    assert response.json()["code"] == "FORBIDDEN"
    assert not IngestionJob.objects.exists()


def test_a_session_without_a_role_cannot_upload_through_the_api() -> None:
    response = _post(client_for(make_user("tamu")))
    assert response.status_code == 403
    assert not IngestionJob.objects.exists()


def test_an_admin_session_can_upload_through_the_api() -> None:
    response = _post(client_for(make_user("admin", group=ADMIN_GROUP)))
    assert response.status_code == 202
