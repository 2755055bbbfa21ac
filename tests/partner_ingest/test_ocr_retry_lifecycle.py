"""Every actual OCR attempt, retries included, announces itself with ocr_pending/started.

A retry adds no other event; a pipeline that fails after OCR started reports fetched, the
OCR starts, then failed/failed carrying the engine's own reason — no milestone between.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from ingestion.errors import TransientError
from ingestion.pipeline.ocr import factory
from tests.partner_ingest.helpers import doc_uploaded, ingest_event, put_object, scan_pdf

pytestmark = pytest.mark.django_db(transaction=True)

REASON = "Layanan OCR sedang sibuk"


class FlakyEngine:
    """Fails the first ``failures`` pages it is given, then reads like the real engine."""

    def __init__(self, real: Any, failures: int) -> None:
        self.real = real
        self.name = real.name
        self.failures = failures

    def recognize(self, page: Any, on_queue: Any = None) -> Any:
        if self.failures > 0:
            self.failures -= 1
            raise TransientError(REASON)
        return self.real.recognize(page, on_queue=on_queue)


def _with_engine(monkeypatch: pytest.MonkeyPatch, failures: int) -> None:
    engine = FlakyEngine(factory.get_ocr_engine(), failures)
    monkeypatch.setattr(factory, "get_ocr_engine", lambda: engine)


def test_a_retried_ocr_attempt_emits_a_second_ocr_pending_and_nothing_else(
    store_dir: Path, settings: Any, monkeypatch: pytest.MonkeyPatch
) -> None:
    settings.OCR_REVIEW_THRESHOLD = 0.0
    _with_engine(monkeypatch, failures=1)
    key = put_object(store_dir, "jdih/scan/retry.pdf", scan_pdf())

    run = ingest_event(doc_uploaded(key, "application/pdf"))

    assert run.code == 0, run.stderr
    assert [(w[1], w[2], w[3]) for w in run.wire] == [
        ("extracting", "done", 10),
        ("ocr_pending", "started", 25),
        ("ocr_pending", "started", 25),
        ("extracting", "done", 25),
        ("ocr_done", "done", 45),
        ("chunking", "done", 65),
        ("embedding", "done", 85),
        ("indexed", "done", 100),
    ]


def test_ocr_that_keeps_failing_ends_failed_with_the_engines_reason(
    store_dir: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    _with_engine(monkeypatch, failures=100)
    key = put_object(store_dir, "jdih/scan/broken.pdf", scan_pdf())

    run = ingest_event(doc_uploaded(key, "application/pdf"))

    assert run.code == 1
    assert [(w[1], w[2], w[3]) for w in run.wire] == [
        ("extracting", "done", 10),
        ("ocr_pending", "started", 25),
        ("ocr_pending", "started", 25),
        ("failed", "failed", 100),
    ]
    assert run.values[-1]["error"] == REASON
    assert run.values[-1]["meta"] is None
