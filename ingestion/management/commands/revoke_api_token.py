"""``manage.py revoke_api_token NAME``: the token stops working at once."""

from __future__ import annotations

from typing import Any

from django.core.management.base import BaseCommand, CommandError, CommandParser
from django.utils import timezone

from ingestion.models import ApiToken


class Command(BaseCommand):
    help = "Cabut token API berdasarkan namanya."

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("name")

    def handle(self, *args: Any, **options: Any) -> None:
        name = str(options["name"]).strip()
        updated = ApiToken.objects.filter(name=name, revoked_at__isnull=True).update(
            revoked_at=timezone.now()
        )
        if not updated:
            raise CommandError(f"Tidak ada token aktif bernama '{name}'")
        self.stdout.write(f"Token '{name}' dicabut")
