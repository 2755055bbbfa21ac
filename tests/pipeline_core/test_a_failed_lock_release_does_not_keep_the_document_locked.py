"""Workers keep their connection: a lock whose release fails must still end up released.

A session-level advisory lock outlives every transaction on a persistent connection, so
when the unlock statement fails the connection is closed, which ends the session's locks.
"""

from __future__ import annotations

import psycopg
import pytest
from django.db import DatabaseError, connection

from ingestion.pipeline import locks

pytestmark = pytest.mark.django_db(transaction=True)

KEY = "doc-uploaded:jdih-release-test"


def _other_session() -> psycopg.Connection:
    params = connection.get_connection_params()
    for name in ("cursor_factory", "context", "prepare_threshold"):
        params.pop(name, None)
    return psycopg.connect(autocommit=True, **params)


def test_a_lock_whose_unlock_statement_fails_is_released_by_closing_the_connection() -> None:
    with locks.advisory_lock(KEY) as acquired:
        assert acquired
        # Leave the live session in an aborted transaction (behind Django's back), so the
        # unlock statement fails while the connection itself is fine.
        with connection.cursor() as cursor:
            cursor.execute("BEGIN")
            with pytest.raises(DatabaseError):
                cursor.execute("SELECT 1 / 0")
    with connection.cursor() as cursor:  # the worker reconnects on its next statement
        cursor.execute("SELECT 1")
        assert cursor.fetchone() == (1,)
    with _other_session() as other:
        row = other.execute(
            "SELECT pg_try_advisory_lock(hashtextextended(%s, 0))", [KEY]
        ).fetchone()
        assert row == (True,)
        other.execute("SELECT pg_advisory_unlock(hashtextextended(%s, 0))", [KEY])


def test_a_lock_this_session_holds_is_not_held_elsewhere() -> None:
    with locks.advisory_lock(KEY) as acquired:
        assert acquired
        assert not locks.held_elsewhere(KEY)
    with _other_session() as other:
        other.execute("SELECT pg_advisory_lock(hashtextextended(%s, 0))", [KEY])
        assert locks.held_elsewhere(KEY)
        other.execute("SELECT pg_advisory_unlock(hashtextextended(%s, 0))", [KEY])
    # held_elsewhere's own probe never leaves the lock taken.
    with _other_session() as other:
        row = other.execute(
            "SELECT pg_try_advisory_lock(hashtextextended(%s, 0))", [KEY]
        ).fetchone()
        assert row == (True,)
