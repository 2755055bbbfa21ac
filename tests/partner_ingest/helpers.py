"""Helpers for the partner-ingest tests: real storage, real Postgres, the real command."""

from __future__ import annotations

import io
import json
import uuid
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any

from jsonschema import Draft202012Validator

from partner_events.publisher import Delivery, DeliveryResult, OutgoingEvent, StdoutPublisher
from partner_events.schemas import STAGE_STATUS_SCHEMA
from tests.object_store import put_object as put_object

LEGAL_TEXT = (
    "QANUN ACEH NOMOR 3 TAHUN 2026\n\n"
    "BAB I KETENTUAN UMUM\n\n"
    "Pasal 1\n\n"
    "Dalam Qanun ini yang dimaksud dengan Pemerintah Aceh adalah unsur penyelenggara "
    "pemerintahan Aceh yang terdiri atas Gubernur dan perangkat daerah Aceh.\n\n"
    "Pasal 2\n\n"
    "Retribusi pelayanan kesehatan dipungut atas pelayanan di pusat kesehatan masyarakat.\n"
)
# Fewer words render larger and OCR faster; still a legal text with a structure.
SCAN_TEXT = (
    "QANUN ACEH NOMOR 7 TAHUN 2025\n\n"
    "Pasal 1\n\n"
    "Pemerintah Aceh menetapkan retribusi pelayanan kesehatan daerah.\n"
)
VALIDATOR = Draft202012Validator(
    STAGE_STATUS_SCHEMA, format_checker=Draft202012Validator.FORMAT_CHECKER
)


def doc_uploaded(key: str, mime: str = "text/plain", **fields: Any) -> dict[str, Any]:
    """A valid doc.uploaded event with fresh identities."""
    event = {
        "jobId": str(uuid.uuid4()),
        "documentId": str(uuid.uuid4()),
        "storageKey": key,
        "mimeType": mime,
        "collectionId": str(uuid.uuid4()),
        "collectionName": "JDIH",
        "uploadedBy": str(uuid.uuid4()),
        "uploadedAt": "2026-08-05T09:12:03.412Z",
    }
    event.update(fields)
    return event


@dataclass
class Run:
    code: int
    lines: list[dict[str, Any]]
    stderr: str

    @property
    def values(self) -> list[dict[str, Any]]:
        return [line["value"] for line in self.lines]

    @property
    def wire(self) -> list[tuple[str, str, str, int, bool]]:
        """(routing key, stage, status, progress, aiDocumentId set) per event, in order."""
        return [
            (
                line["routingKey"],
                line["value"]["stage"],
                line["value"]["status"],
                line["value"]["progress"],
                line["value"]["aiDocumentId"] is not None,
            )
            for line in self.lines
        ]


def schema_errors(value: dict[str, Any]) -> list[str]:
    return [error.message for error in VALIDATOR.iter_errors(value)]


def ingest_event(record: dict[str, Any] | bytes, *, publish: str = "stdout") -> Run:
    """``manage.py ingest_event - --publish …`` with the record on stdin."""
    from django.core.management import call_command

    raw = record if isinstance(record, bytes) else json.dumps(record).encode("utf-8")
    out, err = io.StringIO(), io.StringIO()
    code = 0
    try:
        call_command(
            "ingest_event", "-", publish=publish, stdin=io.BytesIO(raw), stdout=out, stderr=err
        )
    except SystemExit as exc:
        code = int(exc.code or 0)
    lines = [json.loads(line) for line in out.getvalue().splitlines() if line.strip()]
    for line in lines:
        assert schema_errors(line["value"]) == [], line
    return Run(code, lines, err.getvalue())


def text_pdf(text: str = LEGAL_TEXT) -> bytes:
    import pymupdf

    doc = pymupdf.open()
    page = doc.new_page(width=595, height=842)
    page.insert_textbox(pymupdf.Rect(50, 50, 545, 800), text, fontsize=11)
    data: bytes = doc.tobytes()
    return data


def scan_pdf(text: str = SCAN_TEXT, *, dpi: int = 150, fontsize: int = 16) -> bytes:
    """One image-only page: a picture of typeset text, no text layer."""
    import pymupdf

    source = pymupdf.open()
    page = source.new_page(width=595, height=842)
    page.insert_textbox(pymupdf.Rect(50, 50, 545, 800), text, fontsize=fontsize)
    picture = page.get_pixmap(dpi=dpi).tobytes("png")
    scan = pymupdf.open()
    target = scan.new_page(width=595, height=842)
    target.insert_image(target.rect, stream=picture)
    data: bytes = scan.tobytes()
    return data


# --- formerly publishers.py ---


class RefusingPublisher(StdoutPublisher):
    """Prints what it accepts; refuses events for which ``refuse(event)`` is true."""

    name = "refusing"
    delivers_to_partner = True

    def __init__(self, refuse: Callable[[OutgoingEvent], bool]) -> None:
        self.buffer = io.StringIO()
        super().__init__(self.buffer)
        self.refuse = refuse
        self.attempted: list[tuple[str, int]] = []

    def deliver(self, events: Sequence[OutgoingEvent]) -> list[DeliveryResult]:
        results = []
        for event in events:
            self.attempted.append((event.key, event.value["progress"]))
            if self.refuse(event):
                results.append(DeliveryResult(Delivery.FAILED, "broker tidak tersedia"))
            else:
                results.extend(super().deliver([event]))
        return results

    @property
    def lines(self) -> list[dict[str, Any]]:
        return [json.loads(line) for line in self.buffer.getvalue().splitlines()]
