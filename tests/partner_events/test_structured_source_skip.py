"""Tabular files from structured sources are a no-op: skip with indexed/skipped 100."""

from __future__ import annotations

from datetime import UTC, datetime

import pytest

from partner_events.contract.validate import ContractConfig
from tests.partner_events.helpers import DOCUMENT_ID, JOB_ID, accepted, check, event

XLSX = "application/vnd.openxmlformats-officedocument.spreadsheetml.sheet"
TS = datetime(2026, 10, 7, 9, 12, 3, tzinfo=UTC)


@pytest.mark.parametrize("collection", ["SatuData", "Open Data"])
@pytest.mark.parametrize(("key", "mime"), [("d/t.csv", "text/csv"), ("d/t.xlsx", XLSX)])
def test_a_structured_table_is_skipped(collection: str, key: str, mime: str) -> None:
    verdict = check(event(collectionName=collection, storageKey=key, mimeType=mime))
    assert verdict.outcome == "skip"
    assert verdict.error is None
    assert verdict.normalized is not None
    assert verdict.status_event(TS) == {
        "v": 1,
        "jobId": JOB_ID,
        "registryId": DOCUMENT_ID,
        "aiDocumentId": None,
        "stage": "indexed",
        "status": "skipped",
        "progress": 100,
        "error": None,
        "meta": {"chunkCount": 0},
        "ts": "2026-10-07T09:12:03.000Z",
    }


def test_the_skip_verdict_reports_the_skipped_topic_and_no_normalized_record() -> None:
    config = ContractConfig(stage_topics={**ContractConfig().stage_topics, "skipped": "dms.skip"})
    verdict = check(event(collectionName="SatuData", storageKey="d/t.csv", mimeType="text/csv"))
    output = verdict.to_json(config)
    assert output["outcome"] == "skip"
    assert output["topic"] == "dms.skip"
    assert output["normalized"] is None
    assert output["statusEvent"]["status"] == "skipped"


@pytest.mark.parametrize(
    ("collection", "key", "mime"),
    [
        ("SatuData", "d/laporan.pdf", "application/pdf"),
        ("JDIH", "d/t.csv", "text/csv"),
        ("PPID", "d/t.xlsx", XLSX),
    ],
)
def test_documents_and_tables_from_other_sources_are_ingested(
    collection: str, key: str, mime: str
) -> None:
    verdict = accepted(event(collectionName=collection, storageKey=key, mimeType=mime))
    assert verdict.status_event() is None


def test_the_structured_rule_is_configuration() -> None:
    config = ContractConfig(structured_source_types=frozenset({"PPID"}))
    payload = event(collectionName="PPID", storageKey="d/t.csv", mimeType="text/csv")
    assert check(payload, config).outcome == "skip"
    satu = event(collectionName="SatuData", storageKey="d/t.csv", mimeType="text/csv")
    assert check(satu, config).outcome == "accept"
