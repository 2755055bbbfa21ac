"""``manage.py create_api_token NAME``: a new API token, printed once on the last line.

Only the token's sha256 is stored; a lost token cannot be recovered, only revoked and
replaced (``revoke_api_token NAME``). A revoked name can be issued again.
"""

from __future__ import annotations

from typing import Any

from django.core.management.base import BaseCommand, CommandError, CommandParser
from django.db import transaction

from aceh_rag.api_support import hash_token, new_token
from ingestion.models import ApiToken


class Command(BaseCommand):
    help = "Buat token API baru untuk klien mesin; token dicetak sekali di baris terakhir."

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("name", help="Nama klien, mis. portal-jdih")

    def handle(self, *args: Any, **options: Any) -> None:
        name = str(options["name"]).strip()
        if not name:
            raise CommandError("Nama token tidak boleh kosong")
        token = new_token()
        with transaction.atomic():
            existing = ApiToken.objects.select_for_update().filter(name=name).first()
            if existing is not None and existing.revoked_at is None:
                raise CommandError(
                    f"Token '{name}' sudah ada dan aktif; cabut dulu dengan revoke_api_token"
                )
            if existing is not None:
                existing.delete()
            ApiToken.objects.create(name=name, token_hash=hash_token(token), prefix=token[:12])
        self.stderr.write(
            f"Token '{name}' dibuat. Simpan sekarang: token tidak dapat dilihat lagi."
        )
        self.stdout.write(token)
