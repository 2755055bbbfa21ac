"""The fetch stage: bytes from object storage to a local temp file, hashed while streaming.

The whole object is never held in memory; the size cap (``INGEST_MAX_BYTES``) is enforced
from the declared length and again while streaming. Transient failures, including a
missing object (see :mod:`ingestion.storage`), are retried with bounded backoff.
"""

from __future__ import annotations

import logging
import os
import tempfile
import time
from collections.abc import Callable
from pathlib import Path, PurePosixPath

from ingestion.pipeline.retry import RetryPolicy, with_retries
from ingestion.storage import FetchedFile, ObjectStorage, get_storage

log = logging.getLogger(__name__)


def _suffix(key: str) -> str:
    suffix = PurePosixPath(key).suffix
    return suffix if 0 < len(suffix) <= 10 and suffix[1:].isalnum() else ""


def fetch(
    key: str,
    *,
    max_bytes: int,
    dest_dir: Path,
    storage: ObjectStorage | None = None,
    policy: RetryPolicy | None = None,
    sleep: Callable[[float], None] = time.sleep,
) -> FetchedFile:
    """Download ``key`` into a new file in ``dest_dir``; raise Permanent/TransientError."""
    store = storage or get_storage()
    retry = policy or RetryPolicy.from_settings()
    started = time.monotonic()

    def attempt() -> FetchedFile:
        fd, name = tempfile.mkstemp(dir=dest_dir, prefix="fetch-", suffix=_suffix(key))
        os.close(fd)  # only the unique name is wanted; download_to rewrites the file
        try:
            return store.download_to(key, Path(name), max_bytes)
        except BaseException:
            Path(name).unlink(missing_ok=True)
            raise

    fetched = with_retries(attempt, retry, what=f"fetch {key}", sleep=sleep)
    log.info(
        "fetch: %s (%s bytes, sha256 %s) in %.3fs",
        key,
        fetched.size,
        fetched.sha256[:12],
        time.monotonic() - started,
    )
    return fetched
