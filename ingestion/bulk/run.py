"""Many files: in this process or in ``workers`` forked processes, stoppable between files.

A stop (``stop.set()``, which ``import_corpus`` does on SIGINT/SIGTERM) lets the files
in hand finish and starts no new one: every document is written in its own transaction
by the pipeline, so nothing is left half-written and the next run picks up the rest.
Worker processes ignore SIGINT themselves (Ctrl-C reaches the whole process group) so the
parent decides when to stop.

Workers are processes, not threads: PyMuPDF must not run on two threads at once, and two
cores parse faster than one. They are forked while the parent holds no database
connection (each child opens its own), all at once on the first submit (the ``fork``
start method of :class:`~concurrent.futures.ProcessPoolExecutor`).
"""

from __future__ import annotations

import logging
import multiprocessing
import signal
import threading
from collections.abc import Callable, Iterator, Sequence
from concurrent.futures import FIRST_COMPLETED, Future, ProcessPoolExecutor, wait

from django.db import connections

from ingestion.bulk.items import ImportItem
from ingestion.bulk.one import ImportSettings, ItemResult, import_item, plan_item
from ingestion.pipeline import embed

log = logging.getLogger(__name__)

OnResult = Callable[[ItemResult], None]


def run_import(
    items: Sequence[ImportItem],
    options: ImportSettings,
    *,
    workers: int = 1,
    dry_run: bool = False,
    stop: threading.Event | None = None,
    on_result: OnResult | None = None,
) -> list[ItemResult]:
    """Import (or plan) every item, in order of submission; results in order of completion."""
    stop = stop or threading.Event()
    report = on_result or (lambda _result: None)
    if dry_run or workers <= 1:
        step = plan_item if dry_run else import_item
        return list(_inline(items, options, step, stop, report))
    return list(_pooled(items, options, workers, stop, report))


def _inline(
    items: Sequence[ImportItem],
    options: ImportSettings,
    step: Callable[[ImportItem, ImportSettings], ItemResult],
    stop: threading.Event,
    report: OnResult,
) -> Iterator[ItemResult]:
    for item in items:
        if stop.is_set():
            log.info("import stopped before %s", item.where)
            return
        result = step(item, options)
        report(result)
        yield result


def _child_started() -> None:
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    signal.signal(signal.SIGTERM, signal.SIG_IGN)
    # A model the parent loaded (its thread pool did not survive the fork) is loaded
    # again here, on the first document.
    embed.forget_embedders()


def _child_import(item: ImportItem, options: ImportSettings) -> ItemResult:
    try:
        return import_item(item, options)
    finally:
        connections.close_all()  # between files: a child may sit idle for long


def _pooled(
    items: Sequence[ImportItem],
    options: ImportSettings,
    workers: int,
    stop: threading.Event,
    report: OnResult,
) -> Iterator[ItemResult]:
    connections.close_all()  # no connection may be shared with the forked children
    context = multiprocessing.get_context("fork")
    pending = iter(items)
    in_hand: set[Future[ItemResult]] = set()
    with ProcessPoolExecutor(workers, mp_context=context, initializer=_child_started) as pool:
        while True:
            while not stop.is_set() and len(in_hand) < workers * 2:
                item = next(pending, None)
                if item is None:
                    break
                in_hand.add(pool.submit(_child_import, item, options))
            if not in_hand:
                return
            done, in_hand = wait(in_hand, return_when=FIRST_COMPLETED)
            for future in done:
                result = future.result()
                report(result)
                yield result
