"""Per-document advisory locks shared by every worker process (contract: doc-uploaded:<key>).

Session-level Postgres advisory locks on the job's own database connection: held across
the pipeline's transactions, released at the end, and dropped by Postgres if the process
dies, so a crash never leaves a document locked.

Workers keep their connection for their whole life, and a session lock outlives every
transaction on it: a lock whose release fails on a live connection would stay held until
the process exits (and, being re-entrant, would even let this process take it "again"
while every other worker defers forever). So a failed release closes the connection,
which is the one release Postgres always honours.
"""

from __future__ import annotations

import logging
from collections.abc import Iterator
from contextlib import contextmanager

from django.db import connection

log = logging.getLogger(__name__)

_TRY = "SELECT pg_try_advisory_lock(hashtextextended(%s, 0))"
_UNLOCK = "SELECT pg_advisory_unlock(hashtextextended(%s, 0))"


def _try_lock(key: str) -> bool:
    with connection.cursor() as cursor:
        cursor.execute(_TRY, [key])
        row = cursor.fetchone()
    return bool(row and row[0])


def _release(key: str) -> None:
    try:
        with connection.cursor() as cursor:
            cursor.execute(_UNLOCK, [key])
            row = cursor.fetchone()
        if row and row[0]:
            return
        log.warning("lock %s was no longer held by this session", key)
    except Exception:
        log.warning("could not release lock %s; closing the connection", key, exc_info=True)
        _drop_session()


def _drop_session() -> None:
    """Close the connection so Postgres ends the session and every lock it holds."""
    if connection.in_atomic_block:
        # The caller's transaction (a test, ingest_event in a transaction) owns it.
        log.warning("connection kept: still inside the caller's transaction")
        return
    try:
        connection.close()
    except Exception:
        log.warning("closing the connection failed", exc_info=True)


@contextmanager
def advisory_lock(key: str) -> Iterator[bool]:
    """Yield True when this process now holds ``key``, False when another one does."""
    acquired = _try_lock(key)
    if not acquired:
        log.info("lock %s held elsewhere; deferring", key)
    try:
        yield acquired
    finally:
        if acquired:
            _release(key)


def held_elsewhere(key: str) -> bool:
    """True when another session holds ``key`` now (a lock this session holds is not)."""
    if not _try_lock(key):
        return True
    _release(key)
    return False
