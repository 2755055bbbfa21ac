"""What the caller may see: the one rule, as one SQL predicate on ``documents``.

A document is visible to a caller when

- its classification is empty, or one of ``settings.PUBLIC_CLASSIFICATIONS``, or one the
  caller is cleared for (compared trimmed and case-insensitively); the classification is
  ``metadata.source.classification`` (where the partner's ``classification`` and an
  upload's are stored), else a top-level ``metadata.classification``;
- and, when the caller is limited to some source types, its ``sourceType`` is one of them.

The caller is a context variable: the API token's grant, set by the token auth (and by the
MCP server per tool call); the admin UI's logged-in users and code outside a request
(pipeline, workers, commands) see everything (``Visibility.ALL``), an anonymous request
only the public set. Every read path that names documents — search lists, named
regulations, relations, references, document pages in the API, MCP — applies
:func:`predicate` (raw SQL) or :func:`visible` (a QuerySet), so a hidden document is never
found, counted, linked or cited.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator
from contextlib import contextmanager
from contextvars import ContextVar
from dataclasses import dataclass
from typing import Any, ClassVar, TypeVar

from django.conf import settings
from django.db.models import Model, QuerySet

CLASSIFICATION_SQL = (
    "lower(btrim(coalesce({a}.metadata -> 'source' ->> 'classification', "
    "{a}.metadata ->> 'classification', '')))"
)


def normalize(labels: Iterable[str]) -> frozenset[str]:
    return frozenset(label.strip().lower() for label in labels if label and label.strip())


@dataclass(frozen=True, slots=True)
class Visibility:
    """A grant. ``everything`` skips the rule; otherwise the public set, plus
    ``classifications``, within ``source_types`` (empty: every source type)."""

    everything: bool = False
    classifications: frozenset[str] = frozenset()
    source_types: frozenset[str] = frozenset()

    ALL: ClassVar[Visibility]
    PUBLIC: ClassVar[Visibility]

    @classmethod
    def grant(cls, classifications: Iterable[str], source_types: Iterable[str]) -> Visibility:
        return cls(
            classifications=normalize(classifications),
            source_types=frozenset(s.strip() for s in source_types if s.strip()),
        )

    def labels(self) -> list[str]:
        """The classification labels readable besides "none"."""
        return sorted(normalize(settings.PUBLIC_CLASSIFICATIONS) | self.classifications)

    def allows(self, classification: str | None, source_type: str) -> bool:
        """The same rule in Python, for values already read (never instead of the SQL)."""
        if self.everything:
            return True
        if self.source_types and source_type not in self.source_types:
            return False
        label = (classification or "").strip().lower()
        return not label or label in self.labels()


Visibility.ALL = Visibility(everything=True)
Visibility.PUBLIC = Visibility()

_current: ContextVar[Visibility] = ContextVar("aceh_rag_visibility", default=Visibility.ALL)


def current() -> Visibility:
    return _current.get()


def set_current(visibility: Visibility) -> None:
    """For the request's whole life (the middleware resets it when the request ends)."""
    _current.set(visibility)


@contextmanager
def acting_as(visibility: Visibility) -> Iterator[None]:
    token = _current.set(visibility)
    try:
        yield
    finally:
        _current.reset(token)


def predicate(alias: str = "d", visibility: Visibility | None = None) -> tuple[str, list[Any]]:
    """The WHERE fragment (``%s`` parameters) that keeps what ``visibility`` may see."""
    grant = visibility or current()
    if grant.everything:
        return "TRUE", []
    label = CLASSIFICATION_SQL.format(a=alias)
    sql = f"({label} = '' OR {label} = ANY(%s::text[]))"
    params: list[Any] = [grant.labels()]
    if grant.source_types:
        sql += f' AND {alias}."sourceType" = ANY(%s::text[])'
        params.append(sorted(grant.source_types))
    return f"({sql})", params


def named_predicate(alias: str = "d") -> tuple[str, dict[str, Any]]:
    """:func:`predicate` with named parameters (``%(vis_n)s``), for dict-parameter SQL."""
    sql, params = predicate(alias)
    named: dict[str, Any] = {}
    for index, value in enumerate(params):
        name = f"vis_{index}"
        sql = sql.replace("%s", f"%({name})s", 1)
        named[name] = value
    return sql, named


M = TypeVar("M", bound=Model)


def visible(queryset: QuerySet[M]) -> QuerySet[M]:
    """``queryset`` (of :class:`~ingestion.models.Document`) limited to what may be seen."""
    sql, params = predicate(queryset.model._meta.db_table)
    if sql == "TRUE":
        return queryset
    return queryset.extra(where=[sql], params=params)


def visible_ids(document_ids: Iterable[Any]) -> set[str]:
    """The ids among ``document_ids`` that may be seen."""
    from ingestion.models import Document

    ids = {str(i) for i in document_ids if i}
    if not ids or current().everything:
        return ids
    return {
        str(pk) for pk in visible(Document.objects.filter(pk__in=ids)).values_list("pk", flat=True)
    }


class VisibilityMiddleware:
    """Sets the request's grant: a logged-in user of the admin UI sees everything (roles
    still decide what they may do), anyone else the public set until a token says more.
    Reset when the request ends: a worker thread serves many requests."""

    def __init__(self, get_response: Any) -> None:
        self.get_response = get_response

    def __call__(self, request: Any) -> Any:
        user = getattr(request, "user", None)
        signed_in = bool(user is not None and user.is_authenticated)
        token = _current.set(Visibility.ALL if signed_in else Visibility.PUBLIC)
        try:
            return self.get_response(request)
        finally:
            _current.reset(token)
