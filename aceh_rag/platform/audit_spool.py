"""The audit spool: encoded events on local disk while the Redis stream is unreachable.

One file per event, named ``<emit time ns>-<pid>-<seq>.json`` so that sorting names replays
events in the order they were emitted, across restarts and across processes sharing the
directory. Files are written to a temporary name and renamed, so a crash never leaves a
half-written event behind; replay holds an advisory lock so two processes never send the
same file twice.
"""

from __future__ import annotations

import base64
import fcntl
import json
import logging
import os
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path

log = logging.getLogger(__name__)

Fields = dict[str, str | bytes]
_SUFFIX = ".json"


class Spool:
    def __init__(self, directory: Path) -> None:
        self.directory = Path(directory)

    def write(self, emitted_ns: int, seq: int, fields: Fields) -> Path:
        self.directory.mkdir(parents=True, exist_ok=True)
        name = f"{emitted_ns:020d}-{os.getpid():07d}-{seq:010d}{_SUFFIX}"
        path = self.directory / name
        tmp = path.with_suffix(".tmp")
        tmp.write_bytes(_dump(fields))
        os.replace(tmp, path)
        return path

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
                    fields = _load(path.read_bytes())
                except FileNotFoundError:
                    continue
                except ValueError:
                    log.error("audit spool: unreadable event %s moved aside", path.name)
                    path.rename(path.with_suffix(".bad"))
                    continue
                send(fields)
                path.unlink(missing_ok=True)
                sent += 1
        return sent

    @contextmanager
    def _locked(self) -> Iterator[bool]:
        self.directory.mkdir(parents=True, exist_ok=True)
        with open(self.directory / ".replay.lock", "a+b") as handle:
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
