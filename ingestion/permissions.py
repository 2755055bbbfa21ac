"""Roles of the admin UI and the view decorators that enforce them.

Two groups exist (created by ``manage.py ensure_admin``): "Admin" uploads, reprocesses,
archives and manages jobs; "Peninjau" works the review queue. Superusers count as Admin,
and an Admin may also review. Every check happens in the view, so a hidden button is never
the only barrier.
"""

from __future__ import annotations

from collections.abc import Callable
from functools import wraps
from typing import Any, TypeVar

from django.contrib.auth.decorators import login_required
from django.contrib.auth.models import AnonymousUser
from django.core.exceptions import PermissionDenied
from django.http import HttpRequest, HttpResponse

from ingestion.management.commands.ensure_admin import ADMIN_GROUP, REVIEWER_GROUP

ViewFunc = TypeVar("ViewFunc", bound=Callable[..., HttpResponse])


def _group_names(user: Any) -> set[str]:
    # Cached on the user object: one query per request, however many checks a page makes.
    cached = getattr(user, "_aceh_group_names", None)
    if cached is None:
        cached = set(user.groups.values_list("name", flat=True))
        user._aceh_group_names = cached
    return cached


def is_admin(user: Any) -> bool:
    if isinstance(user, AnonymousUser) or not user.is_authenticated or not user.is_active:
        return False
    return bool(user.is_superuser) or ADMIN_GROUP in _group_names(user)


def is_reviewer(user: Any) -> bool:
    if is_admin(user):
        return True
    if not user.is_authenticated or not user.is_active:
        return False
    return REVIEWER_GROUP in _group_names(user)


def _require(check: Callable[[Any], bool], view: ViewFunc) -> ViewFunc:
    @wraps(view)
    def wrapped(request: HttpRequest, *args: Any, **kwargs: Any) -> HttpResponse:
        if not check(request.user):
            raise PermissionDenied("Anda tidak memiliki hak akses untuk halaman ini.")
        return view(request, *args, **kwargs)

    return login_required(wrapped)  # type: ignore[return-value]


def admin_required(view: ViewFunc) -> ViewFunc:
    """Login first (redirect), then the Admin role (403)."""
    return _require(is_admin, view)


def reviewer_required(view: ViewFunc) -> ViewFunc:
    """Login first (redirect), then the Peninjau or Admin role (403)."""
    return _require(is_reviewer, view)


def roles_context(request: HttpRequest) -> dict[str, bool]:
    """Template flags for showing or hiding controls (the views still enforce)."""
    user = request.user
    return {"can_admin": is_admin(user), "can_review": is_reviewer(user)}
