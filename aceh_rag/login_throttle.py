"""What a locked-out login sees: the login page again, saying when to try again.

django-axes decides *whether* a username + IP pair is locked (settings ``AXES_*``); this
module only shapes the answer: HTTP 429 with ``Retry-After`` and an Indonesian message with
the local time the lock ends, rounded up to the minute so "setelah 10:16" is never early.
"""

from __future__ import annotations

import math
from datetime import datetime, timedelta

from axes.helpers import get_client_username, get_cool_off
from axes.models import AccessAttempt
from django.db.models import Max
from django.http import HttpRequest, HttpResponse
from django.shortcuts import render
from django.utils import timezone
from django.utils.translation import gettext as _


def lockout_ends_at(request: HttpRequest, credentials: dict | None = None) -> datetime:
    """When the lock on this request's username + IP ends: last counted failure + cool-off.

    Failures during a lockout are not counted (``AXES_RESET_COOL_OFF_ON_FAILURE_DURING_LOCKOUT``
    is off), so this time does not move while the user waits.
    """
    cool_off = get_cool_off(request) or timedelta(0)
    username = get_client_username(request, credentials)
    ip_address = getattr(request, "axes_ip_address", None)
    latest = AccessAttempt.objects.filter(username=username, ip_address=ip_address).aggregate(
        latest=Max("attempt_time")
    )["latest"]
    return (latest or timezone.now()) + cool_off


def lockout_message(ends_at: datetime) -> str:
    local = timezone.localtime(ends_at)
    if local.second or local.microsecond:
        local = local.replace(second=0, microsecond=0) + timedelta(minutes=1)
    return _("Terlalu banyak percobaan masuk. Coba lagi setelah %(time)s.") % {
        "time": local.strftime("%H:%M")
    }


def lockout_response(
    request: HttpRequest,
    original_response: HttpResponse | None = None,
    credentials: dict | None = None,
) -> HttpResponse:
    """``AXES_LOCKOUT_CALLABLE``: the login page with the lockout message, status 429."""
    ends_at = lockout_ends_at(request, credentials)
    context = {
        "lockout_message": lockout_message(ends_at),
        "next": request.POST.get("next", "") or request.GET.get("next", ""),
    }
    response = render(request, "registration/login.html", context, status=429)
    wait = (ends_at - timezone.now()).total_seconds()
    response["Retry-After"] = str(max(math.ceil(wait), 1))
    return response
