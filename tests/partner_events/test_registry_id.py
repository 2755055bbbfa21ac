"""registryId: optional UUID, defaulting to documentId on a valid event."""

from __future__ import annotations

import pytest

from tests.partner_events.helpers import (
    DOCUMENT_ID,
    MISSING,
    REGISTRY_ID,
    accepted,
    event,
    rejected,
)


@pytest.mark.parametrize("value", [MISSING, None])
def test_an_absent_or_null_registry_id_defaults_to_the_document_id(value: object) -> None:
    verdict = accepted(event(registryId=value))
    assert verdict.normalized is not None
    assert verdict.normalized.registry_id == DOCUMENT_ID
    assert verdict.registry_id == DOCUMENT_ID


def test_an_explicit_registry_id_is_kept() -> None:
    record = accepted(event(registryId=REGISTRY_ID)).normalized
    assert record is not None
    assert record.registry_id == REGISTRY_ID


@pytest.mark.parametrize("value", ["", "registry-7", 42, {"id": REGISTRY_ID}])
def test_an_invalid_non_null_registry_id_is_rejected(value: object) -> None:
    assert "registryId" in (rejected(event(registryId=value)).error or "")
