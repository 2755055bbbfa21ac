"""Fair shares of the CPU between API clients: a client that has had far more waits while a
far lighter one is served.

A rate and a calls-in-flight cap keep one API token from taking every thread, but not from
taking the CPU: its one search in flight runs beside everyone else's, and on a small
server another token's searches slow by a third to a half (``bench/mcp_tools.py``). So
every API read is registered here for its client while it runs, and reaches *checkpoints*
(every SQL statement, see :func:`checkpoints`). At a checkpoint a call pauses while a call
of a much lighter client — served less than ``LIGHTER`` times as much — is running or
about to; it goes on when that call is done. "Served" is the time a client's calls ran,
decaying with ``HORIZON_SECONDS``; paused time does not count.

Clients with about equal use never pause each other, so when several are busy at once they
run side by side as before (the throughput of the process is kept). A pause is bounded
(``MAX_PAUSE_SECONDS`` at one checkpoint, ``MAX_CALL_PAUSE_SECONDS`` over a whole call):
past it the call goes on, so a light call that runs long (a slow gateway) or a steady stream
of light calls never stalls the others for good, and nothing can deadlock here. A paused
call looks again every ``WAIT_SLICE_SECONDS``: the lighter call's share grows while it runs,
and once it is no longer much lighter nobody else tells the paused one. Only read-only
calls take part: a writer paused at a checkpoint could hold row locks the lighter call
needs.
"""

from __future__ import annotations

import math
import threading
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from typing import Any

HORIZON_SECONDS = 1.0
MAX_PAUSE_SECONDS = 0.25
MAX_CALL_PAUSE_SECONDS = 1.0
WAIT_SLICE_SECONDS = 0.02
LIGHTER = 0.5  # a client served less than half as much as the caller is "much lighter"
MIN_SERVED_SECONDS = 0.02  # below this a client is never held back: it has had next to nothing


@dataclass(slots=True)
class _Served:
    seconds: float = 0.0
    at: float = 0.0

    def now(self, at: float) -> float:
        return self.seconds * math.exp(-(at - self.at) / HORIZON_SECONDS)


@dataclass(slots=True)
class _Call:
    client: str
    since: float | None  # running since; None while paused
    paused: float = 0.0  # seconds this call has paused, against MAX_CALL_PAUSE_SECONDS


class FairShare:
    """The registry of running API reads and what each client has had; one per process."""

    def __init__(self, *, enabled: bool = True, clock: Callable[[], float] = time.monotonic):
        self.enabled = enabled
        self._clock = clock
        self._cond = threading.Condition()
        self._served: dict[str, _Served] = {}
        self._calls: dict[int, _Call] = {}  # by thread

    @contextmanager
    def serve(self, client: str) -> Iterator[None]:
        """Register the calling thread's call for ``client`` for the ``with`` block; it
        pauses first if a much lighter client's call is running."""
        me = threading.get_ident()
        if not self.enabled or me in self._calls:  # a nested call is part of the outer one
            yield
            return
        with self._cond:
            self._calls[me] = _Call(client, self._clock())
        try:
            self.checkpoint()
            yield
        finally:
            with self._cond:
                self._stop_clock(self._calls.pop(me))
                self._cond.notify_all()

    def checkpoint(self) -> None:
        """Pause while a much lighter client's call runs (bounded per checkpoint and call)."""
        me = threading.get_ident()
        with self._cond:
            call = self._calls.get(me)
            budget = min(MAX_PAUSE_SECONDS, MAX_CALL_PAUSE_SECONDS - call.paused) if call else 0
            if call is None or budget <= 0 or not self._lighter_running(call):
                return
            self._stop_clock(call)
            started = self._clock()
            deadline = started + budget
            while self._lighter_running(call):
                remaining = deadline - self._clock()
                if remaining <= 0:
                    break  # bounded: go on whatever the others are doing
                self._cond.wait(min(remaining, WAIT_SLICE_SECONDS))
            call.since = self._clock()
            call.paused += call.since - started

    def served(self, client: str) -> float:
        """Seconds ``client``'s calls have run, decayed (for tests and metrics)."""
        with self._cond:
            return self._usage(client, self._clock())

    def _lighter_running(self, call: _Call) -> bool:
        now = self._clock()
        mine = self._usage(call.client, now)
        if mine < MIN_SERVED_SECONDS:
            return False
        others = {other.client for other in self._calls.values()} - {call.client}
        return any(self._usage(client, now) < LIGHTER * mine for client in others)

    def _usage(self, client: str, now: float) -> float:
        served = self._served.get(client)
        total = served.now(now) if served else 0.0
        for call in self._calls.values():
            if call.client == client and call.since is not None:
                total += now - call.since
        return total

    def _stop_clock(self, call: _Call) -> None:
        """Add the call's running time since it last started to its client's share."""
        if call.since is None:
            return
        now = self._clock()
        served = self._served.setdefault(call.client, _Served())
        served.seconds, served.at = served.now(now) + (now - call.since), now
        call.since = None
        if len(self._served) > 10_000:  # clients come and go; forget the long idle
            self._served = {k: v for k, v in self._served.items() if now - v.at < 60}
        self._cond.notify_all()


@contextmanager
def checkpoints(share: FairShare) -> Iterator[None]:
    """Every SQL statement the calling thread runs in the block is a checkpoint."""
    # Imported here: the registry itself is plain Python; only this hook needs Django.
    from django.db import connection

    def wrapper(execute: Any, sql: Any, params: Any, many: bool, context: Any) -> Any:
        share.checkpoint()
        return execute(sql, params, many, context)

    with connection.execute_wrapper(wrapper):
        yield
