"""Per-document advisory locks shared by every worker process (contract: doc-uploaded:<key>).

Session-level Postgres advisory locks on the job's own database connection: held across
the pipeline's transactions, released at the end, and dropped by Postgres if the process
dies, so a crash never leaves a document locked.
"""

from __future__ import annotations

import logging
from collections.abc import Iterator
from contextlib import contextmanager

from django.db import connection

log = logging.getLogger(__name__)

_TRY = "SELECT pg_try_advisory_lock(hashtextextended(%s, 0))"
_UNLOCK = "SELECT pg_advisory_unlock(hashtextextended(%s, 0))"


@contextmanager
def advisory_lock(key: str) -> Iterator[bool]:
    """Yield True when this process now holds ``key``, False when another one does."""
    with connection.cursor() as cursor:
        cursor.execute(_TRY, [key])
        row = cursor.fetchone()
    acquired = bool(row and row[0])
    if not acquired:
        log.info("lock %s held elsewhere; deferring", key)
    try:
        yield acquired
    finally:
        if acquired:
            try:
                with connection.cursor() as cursor:
                    cursor.execute(_UNLOCK, [key])
            except Exception:
                # A broken connection has already released the session's locks.
                log.warning("could not release lock %s", key, exc_info=True)
