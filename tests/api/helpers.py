"""Issuing tokens the way an operator does, and the header a client sends."""

from __future__ import annotations

from io import StringIO

from django.core.management import call_command


def issue_token(name: str = "klien-uji") -> str:
    out = StringIO()
    call_command("create_api_token", name, stdout=out, stderr=StringIO())
    return out.getvalue().strip().splitlines()[-1]


def bearer(token: str) -> dict[str, str]:
    return {"Authorization": f"Bearer {token}"}
