"""With the gateway unset, a scan's ingest audits each OCR page and each embedding call.

Real Redis (the run's shared server, a stream of this test's own), the real local models,
the real pipeline; the heartbeat then reports both models this process loaded.
"""

from __future__ import annotations

import hashlib
import json
import uuid
from collections import Counter
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
import redis
import zstandard

from aceh_rag.platform.audit import get_auditor, reset_auditor
from aceh_rag.platform.heartbeat import Heartbeat, HeartbeatConfig
from ingestion.errors import PermanentError
from ingestion.pipeline.engines import loaded_models
from ingestion.pipeline.ocr.images import PageImage
from ingestion.pipeline.parse import render_page_image
from ingestion.pipeline.runner import Outcome, ingest
from tests.gateway_server import FakeGateway
from tests.pipeline_core.helpers import doc_id, image_only_pdf, make_request, put_object
from tests.pipeline_ocr.helpers import engine

pytestmark = pytest.mark.django_db

DPI = 150
Entry = dict[str, bytes]


@pytest.fixture
def audit_stream(redis_url: str, settings: Any, tmp_path: Path) -> Iterator[str]:
    stream = f"ahu.ai.audit.test-{uuid.uuid4().hex[:8]}"
    settings.MODEL_GATEWAY_URL = None
    settings.AUDIT_REDIS_URL = redis_url
    settings.AUDIT_STREAM = stream
    settings.AUDIT_SPOOL_DIR = tmp_path / "spool"
    reset_auditor()
    yield stream
    reset_auditor()
    client = redis.Redis.from_url(redis_url)
    client.delete(stream)
    client.close()


def entries(redis_url: str, stream: str) -> list[Entry]:
    client = redis.Redis.from_url(redis_url)
    rows: list[tuple[bytes, dict[bytes, bytes]]] = client.xrange(stream)  # type: ignore[assignment]
    client.close()
    return [{k.decode(): v for k, v in fields.items()} for _, fields in rows]


def body(entry: Entry, name: str) -> Any:
    return json.loads(zstandard.ZstdDecompressor().decompress(entry[name]))


def test_a_two_page_scan_yields_one_ocr_event_per_page_and_its_embed_events(
    audit_stream: str,
    redis_url: str,
    store_dir: Path,
    settings: Any,
    tmp_path: Path,
) -> None:
    settings.OCR_RENDER_DPI = DPI
    pdf = image_only_pdf(pages=2, dpi=DPI)
    key = put_object(store_dir, "jdih/pindaian-2-halaman.pdf", pdf)

    result = ingest(make_request(key, "pdf"))

    assert result.outcome in (Outcome.INDEXED, Outcome.NEEDS_REVIEW), result.error
    auditor = get_auditor()
    assert auditor is not None and auditor.flush(10)
    events = entries(redis_url, audit_stream)
    by_operation = Counter(e["operation"].decode() for e in events)
    print(f"audit events per call type for a 2-page scan ingest: {dict(by_operation)}")
    ocr = [e for e in events if e["operation"] == b"ocr"]
    embed = [e for e in events if e["operation"] == b"embed"]
    assert len(ocr) == 2 and len(embed) >= 1
    assert set(by_operation) == {"ocr", "embed"}

    doc_hash = hashlib.sha256(pdf).hexdigest().encode()
    source = tmp_path / "scan.pdf"
    source.write_bytes(pdf)
    for number, event in enumerate(ocr, start=1):
        assert (event["model"], event["status"], event["error_code"]) == (
            b"rapidocr-ppocr",
            b"ok",
            b"",
        )
        assert (event["upstream"], event["pages"], event["doc_hash"]) == (
            b"in-process",
            b"1",
            doc_hash,
        )
        assert int(event["total_ms"]) > 0 and event["upstream_ms"] != b""
        request = body(event, "request_body")
        # The OCR step hands the engine the decoded page; its digest is over the pixels.
        page = render_page_image(source, number, DPI)
        pixels = page.tobytes()
        assert request["page"] == number
        assert request["image"] == f"raw-RGB-{page.width}x{page.height}"
        assert request["image_sha256"] == hashlib.sha256(pixels).hexdigest()
        assert request["image_bytes"] == len(pixels)
        assert int(event["request_body_bytes"]) < 300  # the digest, not the image
        response = body(event, "response_body")
        assert response["page"] == number
        read = " ".join(line["text"] for line in response["lines"]).lower()
        assert "aceh" in read and "pasal" in read, read
        assert int(event["items"]) == len(response["lines"])

    assert doc_id(result) and sum(int(e["items"]) for e in embed) >= 1
    for event in embed:
        assert event["model"] == b"multilingual-e5-small-q4"
        assert event["doc_hash"] == doc_hash and event["status"] == b"ok"

    # The heartbeat names both models this ingest loaded.
    assert {"rapidocr-ppocr", "multilingual-e5-small-q4"} <= set(loaded_models())


def test_a_page_the_engine_cannot_read_is_audited_as_an_error_with_its_code(
    audit_stream: str, redis_url: str
) -> None:
    broken = b"\x89PNG bukan gambar"
    with pytest.raises(PermanentError):
        engine().recognize(PageImage(page=3, image=broken))

    auditor = get_auditor()
    assert auditor is not None and auditor.flush(10)
    [event] = entries(redis_url, audit_stream)
    assert (event["operation"], event["status"], event["error_code"]) == (
        b"ocr",
        b"error",
        b"image_unreadable",
    )
    request = body(event, "request_body")
    assert request["page"] == 3
    assert request["image_sha256"] == hashlib.sha256(broken).hexdigest()


def test_the_heartbeat_lists_the_ocr_and_embedding_models_once_both_are_loaded(
    gateway_server: FakeGateway,
    store_dir: Path,
    settings: Any,
) -> None:
    settings.MODEL_GATEWAY_URL = None
    settings.OCR_RENDER_DPI = DPI
    key = put_object(store_dir, "jdih/pindaian.pdf", image_only_pdf(dpi=DPI))
    assert ingest(make_request(key, "pdf")).error is None

    config = HeartbeatConfig(manager_url=gateway_server.url, interval_s=60)
    beat = Heartbeat(config, loaded_models)
    try:
        assert beat.beat()
    finally:
        beat.stop()
    [sent] = gateway_server.requests_to("POST", "/v1/heartbeat")
    models = sent.json()["models"]
    assert sorted(models) == ["multilingual-e5-small-q4", "rapidocr-ppocr"]
