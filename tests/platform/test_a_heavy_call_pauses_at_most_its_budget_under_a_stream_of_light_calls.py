"""Fair shares: however many light clients come by, one call's pauses add up to at most
``MAX_CALL_PAUSE_SECONDS``; each checkpoint alone is bounded by ``MAX_PAUSE_SECONDS``."""

from __future__ import annotations

import threading
import time

from aceh_rag.platform import fairness
from aceh_rag.platform.fairness import FairShare

STREAM_SECONDS = 3.0


def test_a_heavy_call_pauses_at_most_its_budget_under_a_stream_of_light_calls() -> None:
    share = FairShare()
    stop = threading.Event()
    paused = [0.0]

    def heavy() -> None:
        with share.serve("heavy"):
            time.sleep(0.2)
            began = time.monotonic()
            while time.monotonic() - began < STREAM_SECONDS:
                t0 = time.monotonic()
                share.checkpoint()
                paused[0] += time.monotonic() - t0
                time.sleep(0.005)
        stop.set()

    def light_stream() -> None:
        n = 0
        while not stop.is_set():
            with share.serve(f"light-{n}"):  # a new client each time: always far lighter
                time.sleep(0.05)
            n += 1

    threads = [threading.Thread(target=heavy), threading.Thread(target=light_stream)]
    for t in threads:
        t.start()
    for t in threads:
        t.join(STREAM_SECONDS + 5)
    assert paused[0] > fairness.MAX_PAUSE_SECONDS / 2, "the light calls should hold heavy back"
    assert paused[0] < fairness.MAX_CALL_PAUSE_SECONDS + 0.15
