from __future__ import annotations

import threading

import pytest

from aceh_rag.platform.context import (
    CallContext,
    Surface,
    TrafficClass,
    call_context,
    current_context,
    get_context,
)


def test_the_header_set_carries_every_known_field_of_the_context() -> None:
    ctx = CallContext(
        surface=Surface.ADMIN,
        user_id="42",
        trace_id="t-1",
        traffic_class=TrafficClass.BATCH,
        doc_hash="ab" * 32,
        job_id="job-9",
        parent_job_id="job-1",
    )

    headers = ctx.headers("3")

    assert headers == {
        "X-Engine": "aceh-rag",
        "X-Surface": "admin",
        "X-User-Id": "42",
        "X-Trace-Id": "t-1",
        "X-Traffic-Class": "batch",
        "X-Doc-Hash": "ab" * 32,
        "X-Job-Id": "job-9",
        "X-Parent-Job-Id": "job-1",
        "X-Config-Version": "3",
    }


def test_unknown_identifiers_are_left_out_rather_than_sent_empty() -> None:
    headers = CallContext(surface=Surface.SEARCH, traffic_class=TrafficClass.INTERACTIVE).headers(
        "1"
    )

    assert set(headers) == {
        "X-Engine",
        "X-Surface",
        "X-Trace-Id",
        "X-Traffic-Class",
        "X-Config-Version",
    }
    assert headers["X-Traffic-Class"] == "interactive"
    assert len(headers["X-Trace-Id"]) == 32


def test_a_nested_block_refines_the_outer_context_and_restores_it_on_exit() -> None:
    assert get_context() is None
    with call_context(surface="ingestion", user_id="u", job_id="parent") as outer:
        with call_context(job_id="child", parent_job_id="parent") as inner:
            assert current_context() is inner
            assert inner.user_id == "u"
            assert inner.trace_id == outer.trace_id
            assert inner.job_id == "child"
        assert current_context() is outer
    assert get_context() is None


def test_without_a_context_calls_default_to_batch_ingestion() -> None:
    ctx = current_context()

    assert ctx.surface is Surface.INGESTION
    assert ctx.traffic_class is TrafficClass.BATCH


def test_a_context_set_in_one_thread_is_invisible_in_another() -> None:
    seen: list[CallContext | None] = []
    with call_context(surface="search", traffic_class="interactive"):
        thread = threading.Thread(target=lambda: seen.append(get_context()))
        thread.start()
        thread.join()

    assert seen == [None]


def test_a_misspelt_field_or_value_fails_loudly() -> None:
    with pytest.raises(TypeError), call_context(jobid="x"):
        pass
    with pytest.raises(ValueError):
        CallContext(surface="kafka")  # type: ignore[arg-type]
