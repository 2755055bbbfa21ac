"""Helpers every admin page shares: the page renderer, safe links, lazy integrations."""

from __future__ import annotations

import logging
from typing import Any

from django.core.paginator import Page, Paginator
from django.db.models import QuerySet
from django.http import HttpRequest, HttpResponse
from django.shortcuts import render

from ingestion.permissions import roles_context

log = logging.getLogger(__name__)

PAGE_SIZE = 25


def page(
    request: HttpRequest, template: str, context: dict[str, Any], *, status: int = 200
) -> HttpResponse:
    """Render with the role flags the navigation needs."""
    return render(request, template, {**roles_context(request), **context}, status=status)


def paginate(request: HttpRequest, queryset: QuerySet[Any], *, param: str = "page") -> Page:
    # The full count is one indexed query even at 10k rows; no need for keyset paging yet.
    return Paginator(queryset, PAGE_SIZE).get_page(request.GET.get(param))


def is_htmx(request: HttpRequest) -> bool:
    """True for requests htmx made (django-htmx middleware sets ``request.htmx``)."""
    return bool(getattr(request, "htmx", False))


def query_string_without(request: HttpRequest, *names: str) -> str:
    """The current filters as a query string, for pagination links."""
    params = request.GET.copy()
    for name in names:
        params.pop(name, None)
    return params.urlencode()
