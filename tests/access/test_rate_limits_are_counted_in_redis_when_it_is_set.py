"""With REDIS_URL set, every web worker shares one count: the counters are Redis keys, and
a second process (a fresh limiter on the same Redis) sees the same spent budget."""

from __future__ import annotations

from typing import Any

import pytest
import redis
from django.test import Client

from aceh_rag.platform import ratelimit
from tests.api.helpers import bearer, issue_token

pytestmark = pytest.mark.django_db


def test_counts_live_in_redis_and_are_shared(client: Client, settings: Any, redis_url: str) -> None:
    settings.REDIS_URL = redis_url
    settings.API_RATE_LIMIT = "1/minute"
    settings.API_RATE_BURST = 2
    ratelimit.reset()
    token = issue_token("bersama-redis")
    assert client.get("/api/search?q=x", headers=bearer(token)).status_code == 200
    keys = redis.Redis.from_url(redis_url).keys("*bersama-redis*")
    assert keys, "no counter in Redis"
    ratelimit._limiters.clear()  # another worker: a new limiter, the same Redis
    assert client.get("/api/search?q=x", headers=bearer(token)).status_code == 200
    assert client.get("/api/search?q=x", headers=bearer(token)).status_code == 429
    ratelimit.reset()
