"""The audit spool: encoded events on local disk while the Redis stream is unreachable.

One file per event, named ``<emit time ns>-<pid>-<seq>.json`` so that sorting names replays
events in the order they were emitted, across restarts and across processes sharing the
directory. Files are written to a temporary name and renamed, so a crash never leaves a
half-written event behind; replay holds an advisory lock so two processes never send the
same file twice.

The spool is bounded by ``max_bytes`` (``AUDIT_SPOOL_MAX_BYTES``). An audit record is worth
more than the payload it carries, so the last tenth of the budget holds metadata only:
an event that would take the spool past 90 % is written without its bodies (their size and
sha256 stay, ``truncation_reason=spool_cap`` says why), and one whose metadata alone would
pass 100 % is refused with :class:`SpoolFull`.
"""

from __future__ import annotations

import base64
import fcntl
import json
import logging
import os
import threading
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path

import zstandard

log = logging.getLogger(__name__)

Fields = dict[str, str | bytes]
_SUFFIX = ".json"
_LOCK_NAME = ".replay.lock"
BODY_FIELDS = ("request_body", "response_body")
SPOOL_MAX_BYTES = 512 * 1024 * 1024  # AUDIT_SPOOL_MAX_BYTES' default
# Above this share of max_bytes, events are spooled without their bodies.
BODY_SHARE = 0.9
# Other processes may share the directory: the running total is re-counted this often.
RESCAN_SECONDS = 10.0
SPOOL_CAP_REASON = "spool_cap"
_EMPTY_ZSTD = zstandard.ZstdCompressor(level=3).compress(b"")


class SpoolFull(Exception):
    """Even the event's metadata would take the spool past ``max_bytes``."""


@dataclass(frozen=True, slots=True)
class Spooled:
    path: Path
    size: int
    bodies_dropped: bool


def without_bodies(fields: Fields) -> Fields:
    """The event with empty bodies; sizes and sha256 of the originals are kept."""
    stripped = dict(fields)
    for name in BODY_FIELDS:
        if name in stripped and stripped.get(f"{name}_bytes", "0") != "0":
            stripped[name] = _EMPTY_ZSTD
            stripped[f"{name}_truncated"] = "true"
    stripped["truncation_reason"] = SPOOL_CAP_REASON
    return stripped


class Spool:
    def __init__(self, directory: Path, max_bytes: int | None = None) -> None:
        self.directory = Path(directory)
        self.max_bytes = max_bytes
        self._lock = threading.Lock()
        self._used: int | None = None
        self._counted_at = 0.0

    def used_bytes(self) -> int:
        """Bytes the spool holds on disk (files of every process sharing the directory)."""
        with self._lock:
            return self._used_locked()

    def write(self, emitted_ns: int, seq: int, fields: Fields) -> Spooled:
        """Spool one event, without its bodies near the cap; :class:`SpoolFull` past it."""
        raw = _dump(fields)
        bodies_dropped = False
        with self._lock:
            used = self._used_locked()
            if self.max_bytes is not None and used + len(raw) > self.max_bytes * BODY_SHARE:
                raw = _dump(without_bodies(fields))
                bodies_dropped = True
                if used + len(raw) > self.max_bytes:
                    raise SpoolFull(f"{used} of {self.max_bytes} bytes used")
            self._used = used + len(raw)
        self.directory.mkdir(parents=True, exist_ok=True)
        name = f"{emitted_ns:020d}-{os.getpid():07d}-{seq:010d}{_SUFFIX}"
        path = self.directory / name
        tmp = path.with_suffix(".tmp")
        try:
            tmp.write_bytes(raw)
            os.replace(tmp, path)
        except OSError:
            self._forget(len(raw))
            tmp.unlink(missing_ok=True)
            raise
        return Spooled(path, len(raw), bodies_dropped)

    def _used_locked(self) -> int:
        now = time.monotonic()
        if self._used is None or now - self._counted_at >= RESCAN_SECONDS:
            self._used = self._count()
            self._counted_at = now
        return self._used

    def _count(self) -> int:
        total = 0
        try:
            entries = list(os.scandir(self.directory))
        except FileNotFoundError:
            return 0
        for entry in entries:
            if entry.name == _LOCK_NAME:
                continue
            try:
                total += entry.stat().st_size
            except FileNotFoundError:
                continue  # replayed meanwhile
        return total

    def _forget(self, size: int) -> None:
        with self._lock:
            if self._used is not None:
                self._used = max(self._used - size, 0)

    def pending(self) -> list[Path]:
        if not self.directory.is_dir():
            return []
        return sorted(p for p in self.directory.iterdir() if p.name.endswith(_SUFFIX))

    def has_pending(self) -> bool:
        if not self.directory.is_dir():
            return False
        return any(p.name.endswith(_SUFFIX) for p in self.directory.iterdir())

    def replay(self, send: Callable[[Fields], None]) -> int:
        """Send spooled events oldest first, deleting each once sent. Stops at the first
        failure (the exception propagates) so order is kept. Returns how many were sent."""
        sent = 0
        with self._locked() as locked:
            if not locked:
                return 0  # another process is replaying this directory right now
            for path in self.pending():
                try:
                    raw = path.read_bytes()
                    fields = _load(raw)
                except FileNotFoundError:
                    continue
                except ValueError:
                    log.error("audit spool: unreadable event %s moved aside", path.name)
                    path.rename(path.with_suffix(".bad"))
                    continue
                send(fields)
                path.unlink(missing_ok=True)
                self._forget(len(raw))
                sent += 1
        return sent

    @contextmanager
    def _locked(self) -> Iterator[bool]:
        self.directory.mkdir(parents=True, exist_ok=True)
        with open(self.directory / _LOCK_NAME, "a+b") as handle:
            try:
                fcntl.flock(handle, fcntl.LOCK_EX | fcntl.LOCK_NB)
            except BlockingIOError:
                yield False
                return
            try:
                yield True
            finally:
                fcntl.flock(handle, fcntl.LOCK_UN)


def _dump(fields: Fields) -> bytes:
    # A list keeps the field order, so a replayed stream entry looks like a live one.
    items = [
        [k, "b", base64.b64encode(v).decode("ascii")] if isinstance(v, bytes) else [k, "s", v]
        for k, v in fields.items()
    ]
    return json.dumps({"fields": items}, ensure_ascii=False).encode()


def _load(raw: bytes) -> Fields:
    try:
        items = json.loads(raw)["fields"]
        return {k: base64.b64decode(v) if kind == "b" else str(v) for k, kind, v in items}
    except (KeyError, TypeError) as exc:
        raise ValueError("not a spooled audit event") from exc
