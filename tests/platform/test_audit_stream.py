"""Audit events from in-process models land on the Redis stream with every §5 field."""

from __future__ import annotations

import hashlib
import json
from collections.abc import Iterator
from pathlib import Path

import pytest
import zstandard

from aceh_rag.platform.audit import AuditConfig, Auditor, audit_call
from aceh_rag.platform.context import call_context
from tests.platform.helpers import RedisProcess, redis_available

pytestmark = pytest.mark.skipif(not redis_available(), reason="no redis-server binary")

SCHEMA_V1 = {
    "event_id", "schema_ver", "ts", "engine", "surface", "user_id", "trace_id", "upstream",
    "model", "upstream_class", "traffic_class", "operation", "status", "error_code",
    "queue_ms", "upstream_ms", "total_ms", "tokens_in", "tokens_out", "doc_hash", "pages",
    "job_id", "parent_job_id", "config_version", "request_body", "response_body",
}  # fmt: skip


@pytest.fixture
def redis_server(tmp_path: Path) -> Iterator[RedisProcess]:
    server = RedisProcess(tmp_path).start()
    yield server
    server.stop()


def make_auditor(url: str, spool: Path, **overrides: object) -> Auditor:
    values: dict = {"redis_url": url, "spool_dir": spool, "retry_interval_s": 0.2}
    values.update(overrides)
    return Auditor(AuditConfig(**values))


def entries(server: RedisProcess) -> list[dict[str, bytes]]:
    client = server.client()
    rows: list[tuple[bytes, dict[bytes, bytes]]] = client.xrange("ahu.ai.audit")  # type: ignore[assignment]
    client.close()
    return [{k.decode(): v for k, v in fields.items()} for _, fields in rows]


def unzstd(value: bytes) -> bytes:
    return zstandard.ZstdDecompressor().decompress(value)


def test_an_audited_call_lands_with_every_schema_field(
    redis_server: RedisProcess, tmp_path: Path
) -> None:
    auditor = make_auditor(redis_server.url, tmp_path / "spool", config_version="4")
    request = {"input": ["Qanun Aceh tentang zakat"]}
    model = "multilingual-e5-small-q4"

    with (
        call_context(
            surface="ingestion", user_id="9", trace_id="tr-1", doc_hash="ab" * 32,
            job_id="job-2", parent_job_id="job-1",
        ),
        audit_call("embed", model, request_body=request, auditor=auditor) as ev,
    ):  # fmt: skip
        ev.response_body = {"dims": 384}
        ev.tokens_in = 6
    assert auditor.flush(5)
    auditor.close()

    [event] = entries(redis_server)
    assert SCHEMA_V1 <= set(event)
    text = {k: v.decode() for k, v in event.items() if not k.endswith("_body")}
    assert text["schema_ver"] == "1"
    assert text["engine"] == "aceh-rag"
    assert text["surface"] == "ingestion" and text["traffic_class"] == "batch"
    assert text["user_id"] == "9" and text["trace_id"] == "tr-1"
    assert text["doc_hash"] == "ab" * 32
    assert text["job_id"] == "job-2" and text["parent_job_id"] == "job-1"
    assert text["operation"] == "embed" and text["model"] == "multilingual-e5-small-q4"
    assert text["upstream_class"] == "on_prem" and text["upstream"] == "in-process"
    assert text["status"] == "ok" and text["error_code"] == ""
    assert text["tokens_in"] == "6" and text["config_version"] == "4"
    assert text["ts"].endswith("Z") and len(text["event_id"]) == 36
    assert int(text["total_ms"]) >= 0
    assert json.loads(unzstd(event["request_body"])) == request
    assert json.loads(unzstd(event["response_body"])) == {"dims": 384}
    assert text["request_body_truncated"] == "false"


def test_a_failing_call_is_audited_as_an_error_and_still_raises(
    redis_server: RedisProcess, tmp_path: Path
) -> None:
    auditor = make_auditor(redis_server.url, tmp_path / "spool")

    with pytest.raises(ValueError), audit_call("ocr", "rapidocr-ppocr", pages=3, auditor=auditor):
        raise ValueError("gambar kosong")
    assert auditor.flush(5)
    auditor.close()

    [event] = entries(redis_server)
    assert event["status"] == b"error"
    assert event["error_code"] == b"ValueError"
    assert event["operation"] == b"ocr" and event["pages"] == b"3"


def test_a_body_over_the_cap_is_truncated_with_the_full_content_hash(
    redis_server: RedisProcess, tmp_path: Path
) -> None:
    auditor = make_auditor(redis_server.url, tmp_path / "spool", body_cap_bytes=1000)
    body = bytes(range(256)) * 20

    with audit_call("ocr", "rapidocr-ppocr", request_body=body, auditor=auditor):
        pass
    assert auditor.flush(5)
    auditor.close()

    [event] = entries(redis_server)
    assert unzstd(event["request_body"]) == body[:1000]
    assert event["request_body_truncated"] == b"true"
    assert event["request_body_bytes"] == str(len(body)).encode()
    assert event["request_body_sha256"] == hashlib.sha256(body).hexdigest().encode()


def test_the_default_cap_is_ten_megabytes(redis_server: RedisProcess, tmp_path: Path) -> None:
    auditor = make_auditor(redis_server.url, tmp_path / "spool")
    body = b"a" * (10 * 1024 * 1024 + 7)

    with audit_call("ocr", "rapidocr-ppocr", auditor=auditor) as ev:
        ev.response_body = body
    assert auditor.flush(10)
    auditor.close()

    [event] = entries(redis_server)
    assert len(unzstd(event["response_body"])) == 10 * 1024 * 1024
    assert len(event["response_body"]) < 10 * 1024 * 1024
    assert event["response_body_truncated"] == b"true"
