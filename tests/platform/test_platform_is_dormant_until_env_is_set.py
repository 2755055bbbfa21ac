"""Unset platform env = unchanged behaviour: no gateway client, no audit thread, no files,
no heartbeat (conventions §8, last item)."""

from __future__ import annotations

import threading
from collections.abc import Iterator
from pathlib import Path

import pytest
from pytest_django.fixtures import Settings as SettingsWrapper

from aceh_rag.platform import audit, heartbeat
from aceh_rag.platform.audit import audit_call, get_auditor, reset_auditor
from aceh_rag.platform.gateway import client as gateway
from aceh_rag.platform.gateway.client import get_gateway_client
from aceh_rag.platform.heartbeat import start_heartbeat, stop_heartbeat


@pytest.fixture
def unset_platform_env(settings: SettingsWrapper, tmp_path: Path) -> Iterator[Path]:
    settings.MODEL_GATEWAY_URL = None
    settings.AUDIT_REDIS_URL = None
    settings.MANAGER_URL = None
    settings.AUDIT_SPOOL_DIR = tmp_path / "spool"
    reset_auditor()
    stop_heartbeat()
    yield tmp_path / "spool"
    reset_auditor()
    stop_heartbeat()


def platform_threads() -> set[str]:
    return {t.name for t in threading.enumerate()} & {"audit-sender", "heartbeat"}


def test_without_a_gateway_url_there_is_no_gateway_client(unset_platform_env: Path) -> None:
    assert get_gateway_client() is None
    with pytest.raises(RuntimeError):
        gateway.embed(["a"])


def test_with_a_gateway_url_the_client_targets_its_v1_api(
    unset_platform_env: Path, settings: SettingsWrapper
) -> None:
    settings.MODEL_GATEWAY_URL = "http://127.0.0.1:9"

    client = get_gateway_client()

    assert client is not None
    assert client.config.api_url == "http://127.0.0.1:9/v1"
    assert get_gateway_client() is client


def test_without_an_audit_url_auditing_is_a_no_op_with_no_thread_or_files(
    unset_platform_env: Path,
) -> None:
    with audit_call("embed", "multilingual-e5-small-q4", request_body="teks") as event:
        event.tokens_in = 1

    assert get_auditor() is None
    assert audit._auditor is None
    assert "audit-sender" not in platform_threads()
    assert not unset_platform_env.exists()


def test_without_a_manager_url_no_heartbeat_starts(unset_platform_env: Path) -> None:
    assert start_heartbeat(lambda: ["rapidocr-ppocr"]) is None
    assert heartbeat._heartbeat is None
    assert "heartbeat" not in platform_threads()
