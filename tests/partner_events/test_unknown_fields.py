"""Unknown top-level fields are ignored and never stored as source metadata."""

from __future__ import annotations

from tests.partner_events.helpers import accepted, event


def test_unknown_top_level_fields_are_ignored() -> None:
    payload = event(workspace="secret", aiDocumentId="x", priority=9, tahun="2026")
    verdict = accepted(payload)
    assert verdict.normalized is not None
    as_json = verdict.normalized.to_json()
    assert "workspace" not in as_json
    assert "workspace" not in verdict.normalized.source_fields()
    assert "tahun" not in verdict.normalized.source_fields()
    assert verdict.warnings == []
