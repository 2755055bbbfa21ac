"""The two JSON Schemas are served as JSON, publicly."""

from __future__ import annotations

import pytest
from django.test import Client, override_settings

from partner_events.schemas import STAGE_STATUS_SCHEMA


@pytest.mark.django_db
def test_the_stage_status_schema_is_served_as_json(client: Client) -> None:
    response = client.get("/docs/api/partner-events/stage-status.schema.json")
    assert response.status_code == 200
    assert response["Content-Type"].startswith("application/json")
    assert response.json() == STAGE_STATUS_SCHEMA


@pytest.mark.django_db
def test_the_doc_uploaded_schema_uses_the_active_filename_field(client: Client) -> None:
    with override_settings(PARTNER_FILENAME_FIELD="originalName"):
        response = client.get("/docs/api/partner-events/doc-uploaded.schema.json")
    assert response.status_code == 200
    properties = response.json()["properties"]
    assert "originalName" in properties
    assert "fileName" not in properties
