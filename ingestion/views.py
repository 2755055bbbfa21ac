"""Admin UI views (placeholder dashboard until the UI issue lands)."""

from django.contrib.auth.decorators import login_required
from django.http import HttpRequest, HttpResponse
from django.shortcuts import render


@login_required
def dashboard(request: HttpRequest) -> HttpResponse:
    return render(request, "ingestion/dashboard.html", {})
