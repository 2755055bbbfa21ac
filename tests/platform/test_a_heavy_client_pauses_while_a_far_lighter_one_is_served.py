"""Fair shares: at a checkpoint, a client that has had far more pauses while a far lighter
client's call runs, and goes on when it is done; clients with about equal use run side by
side; a pause never outlasts ``MAX_PAUSE_SECONDS``; switched off, nothing is registered."""

from __future__ import annotations

import threading
import time

from aceh_rag.platform import fairness
from aceh_rag.platform.fairness import FairShare


def _heavy_meets(share: FairShare, other: str, *, other_runs: float = 0.05) -> list[str]:
    """``heavy`` has run 200 ms when ``other`` starts a call; heavy then reaches a
    checkpoint. The order of what happens next. (The other call would have to run 100 ms
    before heavy's checkpoint to stop being far lighter: a loaded machine does not change
    the answer.)"""
    events: list[str] = []
    ready, started = threading.Event(), threading.Event()

    def heavy() -> None:
        with share.serve("heavy"):
            time.sleep(0.2)
            ready.set()
            started.wait(5)
            share.checkpoint()
            events.append("heavy resumed")

    def light() -> None:
        ready.wait(5)
        with share.serve(other):
            events.append(f"{other} in")
            started.set()
            time.sleep(other_runs)
            events.append(f"{other} done")

    threads = [threading.Thread(target=heavy), threading.Thread(target=light)]
    for t in threads:
        t.start()
    for t in threads:
        t.join(5)
    return events


def test_a_heavy_client_pauses_until_the_far_lighter_call_is_done() -> None:
    assert _heavy_meets(FairShare(), "light") == ["light in", "light done", "heavy resumed"]


def test_clients_with_about_equal_use_do_not_pause_each_other() -> None:
    share = FairShare()
    with share.serve("peer"):
        time.sleep(0.25)  # the peer has had about as much as heavy will have
    assert _heavy_meets(share, "peer") == ["peer in", "heavy resumed", "peer done"]


def test_a_pause_never_outlasts_the_bound() -> None:
    share = FairShare()
    started = time.monotonic()
    events = _heavy_meets(share, "slow", other_runs=1.5)
    assert events == ["slow in", "heavy resumed", "slow done"]
    assert time.monotonic() - started < 1.5 + fairness.MAX_PAUSE_SECONDS


def test_switched_off_nothing_is_registered_or_paused() -> None:
    share = FairShare(enabled=False)
    with share.serve("a"):
        share.checkpoint()
    assert share.served("a") == 0.0


def test_time_served_is_counted_per_client_and_decays() -> None:
    now = [100.0]
    share = FairShare(clock=lambda: now[0])
    with share.serve("a"):
        now[0] += 0.5
    assert share.served("a") == 0.5
    now[0] += fairness.HORIZON_SECONDS
    assert 0.18 < share.served("a") < 0.19  # 0.5 / e
    assert share.served("b") == 0.0
