"""Where a subprocess (a worker under test) finds the test's own database."""

from __future__ import annotations

import os

from django.db import connection
from psycopg.conninfo import make_conninfo


def current_database_url() -> str:
    """The URL of the database this test uses (pytest-django's test_… database)."""
    params = connection.settings_dict
    return make_conninfo(os.environ["DATABASE_URL"], dbname=params["NAME"])
