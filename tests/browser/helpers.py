"""Helpers for the browser tests (the fixtures live in ``conftest.py``)."""

from __future__ import annotations

import signal
import subprocess
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from ingestion.models import Chunk, Document, DocumentStatus
from tests.ui.helpers import make_chunks, make_document, text_pdf

REPO = Path(__file__).resolve().parents[2]
ARTIFACTS = REPO / "tests" / "artifacts"
CHROMIUM = Path("/usr/bin/chromium")
CHROMIUM_ARGS = [
    "--headless",
    "--no-sandbox",
    "--disable-gpu",
    "--disable-quic",
    "--no-first-run",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
]
WAIT_MS = 240_000  # first documents load the embedding and OCR models in the worker


@dataclass
class Worker:
    """The ``ingest_worker`` subprocess; paused with SIGSTOP so queued jobs stay queued."""

    process: subprocess.Popen[bytes]
    log_path: Path

    def pause(self) -> None:
        self.process.send_signal(signal.SIGSTOP)

    def resume(self) -> None:
        self.process.send_signal(signal.SIGCONT)

    def log(self) -> str:
        return self.log_path.read_text(errors="replace")[-4000:]


@dataclass
class CspViolation:
    """One violation, as the page's ``securitypolicyviolation`` event or console saw it."""

    page_url: str
    directive: str
    blocked: str
    sample: str = ""


def screenshot(page: Any, name: str) -> None:
    ARTIFACTS.mkdir(parents=True, exist_ok=True)
    # caret="initial": hiding the caret leaves style="" on every input, which htmx's settle
    # step then copies onto swapped-in fields, a style-src violation under the strict CSP.
    page.screenshot(path=str(ARTIFACTS / f"{name}.png"), full_page=True, caret="initial")


def log_in(page: Any, base_url: str, username: str, password: str) -> None:
    page.goto(f"{base_url}/login/")
    page.fill("#id_username", username)
    page.fill("#id_password", password)
    page.click("button[type=submit]")
    page.wait_for_url(f"{base_url}/")


def parked_document(object_store: Path, confidences: list[float], *, pages: int = 2) -> Document:
    """A needs_review document whose original PDF is in the object store, with parked chunks."""
    document = make_document(status=DocumentStatus.NEEDS_REVIEW, page_count=pages)
    path = object_store / document.storage_key
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_bytes(text_pdf("Qanun Aceh tentang kearsipan. Pasal 1 arsip daerah", pages=pages))
    chunks = make_chunks(document, len(confidences), parked=True)
    for chunk, confidence in zip(chunks, confidences, strict=True):
        chunk.ocr_confidence = confidence
        chunk.page_from = chunk.page_to = 1 + chunk.ordinal % pages
    Chunk.objects.bulk_update(chunks, ["ocr_confidence", "page_from", "page_to"])
    return document
