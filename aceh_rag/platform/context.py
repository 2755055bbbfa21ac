"""Who is calling a model, and why: the context every gateway call and audit event carries.

The pipeline, a job or a web request sets the context once with :func:`call_context`; the
gateway client and the audit SDK read it, so no model call needs the caller's details
threaded through its arguments. A ``ContextVar`` keeps concurrent requests and threads apart.
"""

from __future__ import annotations

import contextvars
import logging
import uuid
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field, fields, replace
from enum import StrEnum
from typing import Any

log = logging.getLogger(__name__)

ENGINE = "aceh-rag"


class Surface(StrEnum):
    INGESTION = "ingestion"
    ADMIN = "admin"
    SEARCH = "search"
    API = "api"


class TrafficClass(StrEnum):
    INTERACTIVE = "interactive"
    BATCH = "batch"


def new_trace_id() -> str:
    return uuid.uuid4().hex


@dataclass(frozen=True, slots=True)
class CallContext:
    """The §2 header values for one unit of work (a document job, a search request)."""

    surface: Surface = Surface.INGESTION
    user_id: str | None = None
    trace_id: str = field(default_factory=new_trace_id)
    traffic_class: TrafficClass = TrafficClass.BATCH
    doc_hash: str | None = None
    job_id: str | None = None
    parent_job_id: str | None = None

    def __post_init__(self) -> None:
        # Accept plain strings from callers but fail early on a value the gateway would reject.
        object.__setattr__(self, "surface", Surface(self.surface))
        object.__setattr__(self, "traffic_class", TrafficClass(self.traffic_class))

    @property
    def interactive(self) -> bool:
        return self.traffic_class is TrafficClass.INTERACTIVE

    def with_fields(self, **changes: Any) -> CallContext:
        return replace(self, **changes)

    def headers(self, config_version: str, engine: str = ENGINE) -> dict[str, str]:
        """The §2 header set. Identifiers that are unknown for this call are omitted, not
        sent empty, so the gateway records them as absent rather than as ``""``."""
        headers = {
            "X-Engine": engine,
            "X-Surface": self.surface.value,
            "X-Trace-Id": self.trace_id,
            "X-Traffic-Class": self.traffic_class.value,
            "X-Config-Version": config_version,
        }
        optional = {
            "X-User-Id": self.user_id,
            "X-Doc-Hash": self.doc_hash,
            "X-Job-Id": self.job_id,
            "X-Parent-Job-Id": self.parent_job_id,
        }
        headers.update({name: str(value) for name, value in optional.items() if value})
        return headers


CONTEXT_FIELDS = frozenset(f.name for f in fields(CallContext))

_current: contextvars.ContextVar[CallContext | None] = contextvars.ContextVar(
    "aceh_rag_call_context", default=None
)


def current_context() -> CallContext:
    """The active context, or a batch-ingestion default so a forgotten ``call_context``
    still produces a valid header set (and a log line to find the caller)."""
    ctx = _current.get()
    if ctx is None:
        log.debug("no call_context set; using the batch ingestion default")
        return CallContext()
    return ctx


def get_context() -> CallContext | None:
    return _current.get()


@contextmanager
def call_context(**changes: Any) -> Iterator[CallContext]:
    """Set (or refine, when nested) the call context for the block.

    ``with call_context(surface="search", traffic_class="interactive", user_id="7"): ...``
    Nested blocks inherit the outer fields they do not override, so a child job only names
    what differs (e.g. ``job_id`` and ``parent_job_id``).
    """
    unknown = set(changes) - CONTEXT_FIELDS
    if unknown:
        raise TypeError(f"unknown call context fields: {sorted(unknown)}")
    outer = _current.get()
    ctx = outer.with_fields(**changes) if outer is not None else CallContext(**changes)
    token = _current.set(ctx)
    try:
        yield ctx
    finally:
        _current.reset(token)
