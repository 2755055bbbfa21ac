"""Many files: in this process or in ``workers`` forked processes, stoppable between files.

A stop (``stop.set()``, which ``import_corpus`` does on SIGINT/SIGTERM) lets the files
in hand finish and starts no new one: every document is written in its own transaction
by the pipeline, so nothing is left half-written and the next run picks up the rest.
Worker processes ignore SIGINT themselves (Ctrl-C reaches the whole process group) so the
parent decides when to stop.

Workers are processes, not threads: PyMuPDF must not run on two threads at once, and two
cores parse faster than one. They are spawned, not forked: a parent that has loaded the
embedding model (its ONNX thread pool) cannot be forked safely. Each child sets Django up
with the parent's settings as they are now (its database, object storage, model gateway:
whatever the parent's configuration resolved to, overrides included) and opens its own
connection.

A run that was killed outright (SIGKILL, a power cut) leaves its file in hand
``processing``. The next run hands such jobs back to the queue first, by the rule
``ingest_worker`` uses (no heartbeat, lock free), so the file is imported, not skipped
as "in progress" forever.
"""

from __future__ import annotations

import logging
import multiprocessing
import pickle
import threading
import time
from collections.abc import Callable, Iterator, Sequence
from concurrent.futures import FIRST_COMPLETED, Future, ProcessPoolExecutor, wait
from datetime import timedelta
from typing import Any

from django.conf import settings
from django.db import DatabaseError, connection

from ingestion.bulk.child import child_import, child_started
from ingestion.bulk.items import ImportItem
from ingestion.bulk.one import ImportSettings, ItemResult, ItemStatus, import_item, plan_item
from ingestion.jobs import requeue_stale_jobs
from ingestion.models import Chunk, Document, LegalUnit

log = logging.getLogger(__name__)

OnResult = Callable[[ItemResult], None]
WRITTEN = (ItemStatus.INDEXED, ItemStatus.NEEDS_REVIEW)
SEARCHED = (Chunk, LegalUnit, Document)  # where an import's dead rows slow a search


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
    if dry_run:
        return list(_inline(items, options, plan_item, stop, report))
    requeue_stale_jobs(timedelta(seconds=settings.JOB_STALE_SECONDS))
    if workers <= 1:
        results = list(_inline(items, options, import_item, stop, report))
    else:
        results = list(_pooled(items, options, workers, stop, report))
    if any(r.status in WRITTEN for r in results) and not stop.is_set():
        ready_for_search()
    return results


def ready_for_search() -> None:
    """VACUUM (ANALYZE) the tables search reads, as autovacuum would some minutes later.

    An import that replaced documents leaves dead rows, and until a vacuum marks the pages
    all-visible every index match fetches its heap page to check them: at 5,871
    regulations, after 77 were re-imported, `/api/search` p95 was 164-168 ms without this
    step and 134 ms with it (docs/scaling.md). New statistics also tell the lexical match how
    common each word now is. Skipped inside a transaction (VACUUM cannot run there); a
    failure is logged and the import's outcome stands, since autovacuum will get there."""
    if connection.in_atomic_block:
        return
    started = time.monotonic()
    tables = ", ".join(connection.ops.quote_name(m._meta.db_table) for m in SEARCHED)
    try:
        connection.close_if_unusable_or_obsolete()  # the parent idled through a pooled run
        with connection.cursor() as cursor:
            cursor.execute(f"VACUUM (ANALYZE) {tables}")
    except DatabaseError:
        log.warning("import: VACUUM (ANALYZE) failed; autovacuum will follow", exc_info=True)
        return
    log.info("import: %s vacuumed and analysed in %.1fs", tables, time.monotonic() - started)


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


def settings_snapshot() -> dict[str, Any]:
    """The parent's resolved settings a child adopts (the picklable upper-case ones)."""
    snapshot: dict[str, Any] = {}
    for name in dir(settings):
        if name.isupper():
            value = getattr(settings, name)
            try:
                pickle.dumps(value)
            except Exception:
                continue
            snapshot[name] = value
    return snapshot


def _pooled(
    items: Sequence[ImportItem],
    options: ImportSettings,
    workers: int,
    stop: threading.Event,
    report: OnResult,
) -> Iterator[ItemResult]:
    context = multiprocessing.get_context("spawn")
    pending = iter(items)
    in_hand: set[Future[ItemResult]] = set()
    with ProcessPoolExecutor(
        workers, mp_context=context, initializer=child_started, initargs=(settings_snapshot(),)
    ) as pool:
        while True:
            while not stop.is_set() and len(in_hand) < workers * 2:
                item = next(pending, None)
                if item is None:
                    break
                in_hand.add(pool.submit(child_import, item, options))
            if not in_hand:
                return
            done, in_hand = wait(in_hand, return_when=FIRST_COMPLETED)
            for future in done:
                result = future.result()
                report(result)
                yield result
