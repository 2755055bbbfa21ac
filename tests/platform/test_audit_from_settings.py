"""With AUDIT_REDIS_URL set, the process auditor starts itself and keyword emits land."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest
from pytest_django.fixtures import Settings

from aceh_rag.platform.audit import emit_model_call, get_auditor, reset_auditor
from aceh_rag.platform.context import call_context
from tests.platform.helpers import RedisProcess, redis_available

pytestmark = pytest.mark.skipif(not redis_available(), reason="no redis-server binary")


@pytest.fixture
def audit_env(settings: Settings, tmp_path: Path) -> Iterator[RedisProcess]:
    server = RedisProcess(tmp_path).start()
    settings.AUDIT_REDIS_URL = server.url
    settings.AUDIT_STREAM = "ahu.ai.audit"
    settings.AUDIT_SPOOL_DIR = tmp_path / "spool"
    settings.GATEWAY_CONFIG_VERSION = "5"
    reset_auditor()
    yield server
    reset_auditor()
    server.stop()


def test_a_keyword_emit_reaches_the_stream_through_the_process_auditor(
    audit_env: RedisProcess,
) -> None:
    with call_context(surface="admin", user_id="1", job_id="job-8"):
        emit_model_call(
            operation="embed",
            model="multilingual-e5-small-q4",
            upstream="in-process",
            total_ms=12,
            items=3,
        )
    auditor = get_auditor()
    assert auditor is not None
    assert auditor.flush(5)

    client = audit_env.client()
    [(_, fields)] = client.xrange("ahu.ai.audit")  # type: ignore[misc]
    client.close()
    assert fields[b"surface"] == b"admin"
    assert fields[b"job_id"] == b"job-8"
    assert fields[b"items"] == b"3"
    assert fields[b"total_ms"] == b"12"
    assert fields[b"config_version"] == b"5"
    assert get_auditor() is auditor
