"""Streams on the real Redis: XADD/XRANGE, and data that survives a restart."""

from __future__ import annotations

import uuid

import redis

from scripts.services import RedisServer


def test_an_entry_added_to_a_stream_is_read_back_by_xrange(redis_url: str) -> None:
    client = redis.Redis.from_url(redis_url)
    stream = f"test-audit-{uuid.uuid4().hex}"

    entry_id = client.xadd(stream, {"event": "ocr", "model": "rapidocr"})
    entries = client.xrange(stream)

    assert entries == [(entry_id, {b"event": b"ocr", b"model": b"rapidocr"})]


def test_a_stopped_redis_refuses_clients_and_keeps_its_data_after_start(
    redis_server: RedisServer,
) -> None:
    client = redis.Redis.from_url(redis_server.url, socket_timeout=2)
    client.xadd("ahu.ai.audit", {"n": "1"})

    redis_server.stop()
    refused = False
    try:
        client.ping()
    except redis.ConnectionError:
        refused = True
    redis_server.start()

    assert refused
    assert client.xlen("ahu.ai.audit") == 1
