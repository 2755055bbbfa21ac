"""A token may have ``API_CONCURRENCY`` calls in flight. One more is refused with 429 and
``Retry-After: 1`` at once, before it waits for a thread; another token is still served,
and the slot is free again when the call ends. The same holds with the slots in Redis,
where a slot left by a worker that died is dropped after ``WEB_TIMEOUT``."""

from __future__ import annotations

import time
from typing import Any, cast

import anyio
import httpx
import pytest

from aceh_rag.platform import ratelimit
from ingestion.rate_gate import RateGate
from tests.api.helpers import bearer, issue_token

pytestmark = pytest.mark.django_db(transaction=True)

HOLD = "x-hold"


class HeldApp:
    """Django's place behind the gate: a call sent with ``X-Hold`` waits for ``release``,
    so it stays in flight for as long as the test needs."""

    def __init__(self) -> None:
        self.entered = anyio.Event()
        self.release = anyio.Event()

    async def __call__(self, scope: dict[str, Any], receive: Any, send: Any) -> None:
        if any(name == HOLD.encode() for name, _ in scope["headers"]):
            self.entered.set()
            await self.release.wait()
        await send({"type": "http.response.start", "status": 200, "headers": []})
        await send({"type": "http.response.body", "body": b"{}"})


def _statuses_while_one_call_is_held(greedy: str, calm: str) -> dict[str, Any]:
    async def scenario() -> dict[str, Any]:
        app = HeldApp()
        transport = httpx.ASGITransport(app=cast(Any, RateGate(app)))
        seen: dict[str, Any] = {}
        async with httpx.AsyncClient(transport=transport, base_url="http://gate") as client:

            async def held() -> None:
                headers = {**bearer(greedy), HOLD: "1"}
                seen["held"] = (await client.get("/api/search", headers=headers)).status_code

            async with anyio.create_task_group() as tasks:
                tasks.start_soon(held)
                await app.entered.wait()
                seen["second"] = await client.get("/api/search", headers=bearer(greedy))
                seen["other token"] = (
                    await client.get("/api/search", headers=bearer(calm))
                ).status_code
                app.release.set()
            seen["after"] = (await client.get("/api/search", headers=bearer(greedy))).status_code
        return seen

    return anyio.run(scenario)


@pytest.fixture
def one_at_a_time(settings: Any) -> None:
    settings.API_CONCURRENCY = 1
    settings.API_RATE_LIMIT = "off"


def test_the_call_beyond_the_cap_gets_429_with_retry_after_one_second(one_at_a_time: Any) -> None:
    seen = _statuses_while_one_call_is_held(issue_token("serakah"), issue_token("sabar"))
    second = seen["second"]
    assert second.status_code == 429
    assert second.headers["Retry-After"] == "1"
    assert second.json()["code"] == "RATE_LIMITED"
    assert "serentak" in second.json()["detail"]
    assert seen["other token"] == 200
    assert seen["held"] == 200
    assert seen["after"] == 200


def test_the_slots_are_shared_through_redis(
    one_at_a_time: Any, settings: Any, redis_url: str
) -> None:
    settings.REDIS_URL = redis_url
    seen = _statuses_while_one_call_is_held(issue_token("serakah-r"), issue_token("sabar-r"))
    assert seen["second"].status_code == 429
    assert (seen["other token"], seen["held"], seen["after"]) == (200, 200, 200)


def test_a_slot_left_by_a_dead_worker_is_dropped_after_the_web_timeout(
    one_at_a_time: Any, settings: Any, redis_url: str
) -> None:
    settings.REDIS_URL = redis_url
    settings.WEB_TIMEOUT_SECONDS = 1
    client = f"token:yatim-{time.time_ns()}"
    assert isinstance(ratelimit.take_slot(client), ratelimit.Slot)  # never released
    assert isinstance(ratelimit.take_slot(client), ratelimit.Refusal)
    time.sleep(1.2)
    assert isinstance(ratelimit.take_slot(client), ratelimit.Slot)


def test_zero_turns_the_cap_off(settings: Any) -> None:
    settings.API_CONCURRENCY = 0
    slots = [ratelimit.take_slot("token:tanpa-batas") for _ in range(50)]
    assert all(isinstance(slot, ratelimit.Slot) for slot in slots)


def test_a_client_calling_one_at_a_time_is_never_refused(one_at_a_time: Any, live_url: str) -> None:
    """The slot is free before the answer's last byte, so the next call never races it."""
    token = issue_token("berurutan")
    with httpx.Client(base_url=live_url, headers=bearer(token)) as client:
        statuses = [client.get("/api/search", params={"q": "pajak"}).status_code for _ in range(15)]
        body = {"jsonrpc": "2.0", "id": 1, "method": "ping"}
        accept = {"Accept": "application/json, text/event-stream"}
        statuses += [client.post("/mcp", json=body, headers=accept).status_code for _ in range(15)]
    assert set(statuses) == {200}
