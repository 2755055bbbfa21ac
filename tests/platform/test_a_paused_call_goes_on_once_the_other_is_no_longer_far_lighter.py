"""Fair shares: a paused call looks again while it waits. The lighter call's share grows as
it runs; once it is no longer far lighter the paused call goes on, before that call ends."""

from __future__ import annotations

import threading
import time

import pytest

from aceh_rag.platform import fairness
from aceh_rag.platform.fairness import FairShare


def test_a_paused_call_goes_on_once_the_other_is_no_longer_far_lighter(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    # Bounds far past the expected ~0.1 s: only looking again can end the pause early.
    monkeypatch.setattr(fairness, "MAX_PAUSE_SECONDS", 2.0)
    monkeypatch.setattr(fairness, "MAX_CALL_PAUSE_SECONDS", 5.0)
    share = FairShare()
    events: list[str] = []
    waited = [0.0]
    ready, started = threading.Event(), threading.Event()

    def heavy() -> None:
        with share.serve("heavy"):
            time.sleep(0.2)
            ready.set()
            started.wait(5)
            t0 = time.monotonic()
            share.checkpoint()  # "other" catches up with half of heavy's share in ~0.1 s
            waited[0] = time.monotonic() - t0
            events.append("heavy resumed")

    def other() -> None:
        ready.wait(5)
        with share.serve("other"):
            events.append("other in")
            started.set()
            time.sleep(3.0)
            events.append("other done")

    threads = [threading.Thread(target=heavy), threading.Thread(target=other)]
    for t in threads:
        t.start()
    for t in threads:
        t.join(10)
    assert events == ["other in", "heavy resumed", "other done"]
    assert 0 < waited[0] < 1.0
