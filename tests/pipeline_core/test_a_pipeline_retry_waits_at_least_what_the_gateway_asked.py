"""A stage retried after gateway backpressure waits at least the Retry-After it was given."""

from __future__ import annotations

import pytest

from aceh_rag.platform.gateway.errors import GatewayBackpressure
from ingestion.errors import PermanentError, stage_error
from ingestion.pipeline.retry import RetryPolicy, with_retries


def test_backpressure_with_retry_after_is_retried_no_sooner_than_told() -> None:
    slept: list[float] = []
    calls = 0

    def busy_then_ok() -> str:
        nonlocal calls
        calls += 1
        if calls == 1:
            busy = GatewayBackpressure("penuh", status=429, retry_after_s=30.0, queue_depth=9)
            raise stage_error(busy)
        return "ok"

    policy = RetryPolicy(retries=3, backoff_s=2.0)
    assert with_retries(busy_then_ok, policy, what="embed", sleep=slept.append) == "ok"
    assert slept == [30.0]


def test_a_permanent_verdict_is_never_retried() -> None:
    slept: list[float] = []
    calls = 0

    def refused() -> None:
        nonlocal calls
        calls += 1
        raise PermanentError("PDF rusak / tidak dapat dibaca")

    with pytest.raises(PermanentError):
        with_retries(refused, RetryPolicy(retries=3), what="ocr", sleep=slept.append)
    assert (calls, slept) == (1, [])
