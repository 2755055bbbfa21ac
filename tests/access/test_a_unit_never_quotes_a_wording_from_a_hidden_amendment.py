"""``GET /api/units`` and MCP ``get_unit`` answer from the same service: when the amending
regulation is classified beyond the token's clearance, the unit reads as if that
amendment were not here (its wording, citation and id are never quoted); a token cleared
for it gets the wording in force."""

from __future__ import annotations

from pathlib import Path

import pytest
from django.test import Client

from ingestion.models import Document
from tests.api.helpers import bearer, issue_token
from tests.consolidation.helpers import TIPIKOR, ingest
from tests.mcp.helpers import issue

pytestmark = pytest.mark.django_db

REF = "UU 31/1999 Pasal 5"


@pytest.fixture
def hidden_amendment(store_dir: Path) -> str:
    _original, amending = (ingest(store_dir, name) for name in TIPIKOR)
    document = Document.objects.get(pk=amending)
    document.metadata = {**document.metadata, "classification": "internal"}
    document.save(update_fields=["metadata"])
    return str(amending)


def test_a_public_token_reads_the_unit_without_the_hidden_amendment(
    client: Client, hidden_amendment: str
) -> None:
    body = client.get("/api/units", {"ref": REF}, headers=bearer(issue_token())).json()
    assert body["state"] == "original"
    assert body["changedBy"] == []
    assert [h["state"] for h in body["history"]] == ["original"]
    assert hidden_amendment not in str(body)
    assert "20/2001" not in str(body)


def test_a_token_cleared_for_it_reads_the_wording_in_force(
    client: Client, hidden_amendment: str
) -> None:
    token = issue("berizin", "--classification", "internal")
    body = client.get("/api/units", {"ref": REF}, headers=bearer(token)).json()
    assert body["state"] == "amended"
    assert body["changedBy"][0]["documentId"] == hidden_amendment
