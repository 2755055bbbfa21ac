"""``manage.py list_api_tokens``: every token with its scopes, clearance and last use.

One line per token, tab-separated after a header: name, prefix, scopes, classifications,
source types, created, last used, revoked ("-" for none). Never the token itself (only
its hash is stored).
"""

from __future__ import annotations

from datetime import datetime
from typing import Any

from django.core.management.base import BaseCommand

from ingestion.models import ApiToken

HEADER = (
    "nama",
    "awalan",
    "cakupan",
    "klasifikasi",
    "jenis_sumber",
    "dibuat",
    "terakhir_dipakai",
    "dicabut",
)


def _when(value: datetime | None) -> str:
    return value.isoformat(timespec="seconds") if value else "-"


def _labels(values: list[str] | None) -> str:
    return ",".join(values) if values else "-"


class Command(BaseCommand):
    help = "Tampilkan semua token API dengan cakupan, klasifikasi, dan pemakaian terakhir."

    def handle(self, *args: Any, **options: Any) -> None:
        self.stdout.write("\t".join(HEADER))
        for token in ApiToken.objects.order_by("name"):
            row = (
                token.name,
                token.prefix,
                _labels(token.scopes),
                _labels(token.classifications) if token.classifications else "publik",
                _labels(token.source_types) if token.source_types else "semua",
                _when(token.created_at),
                _when(token.last_used_at),
                _when(token.revoked_at),
            )
            self.stdout.write("\t".join(row))
