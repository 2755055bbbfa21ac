"""``manage.py create_api_token NAME [--scope S]... [--classification C]... [--source-type T]...``:
a new API token, printed once on the last line.

Only the token's sha256 is stored; a lost token cannot be recovered, only revoked and
replaced (``revoke_api_token NAME``). A revoked name can be issued again. Without
``--scope`` a token may search and upload (as every token could before scopes); without
``--classification`` it reads only the public set; without ``--source-type`` every
source type (ingestion.visibility).
"""

from __future__ import annotations

from typing import Any

from django.core.management.base import BaseCommand, CommandError, CommandParser
from django.db import transaction

from aceh_rag.api_support import hash_token, new_token
from ingestion.models import ApiToken, SourceType, TokenScope, default_token_scopes
from ingestion.visibility import normalize


class Command(BaseCommand):
    help = "Buat token API baru untuk klien mesin; token dicetak sekali di baris terakhir."

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("name", help="Nama klien, mis. portal-jdih")
        parser.add_argument(
            "--scope",
            action="append",
            choices=TokenScope.values,
            help="Cakupan (boleh berulang); bawaan: search dan upload",
        )
        parser.add_argument(
            "--classification",
            action="append",
            default=[],
            help="Klasifikasi non-publik yang boleh dibaca, mis. internal (boleh berulang)",
        )
        parser.add_argument(
            "--source-type",
            action="append",
            default=[],
            choices=SourceType.values,
            help="Batasi ke jenis sumber ini (boleh berulang); bawaan: semua",
        )

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
            ApiToken.objects.create(
                name=name,
                token_hash=hash_token(token),
                prefix=token[:12],
                scopes=sorted(set(options["scope"] or default_token_scopes())),
                classifications=sorted(normalize(options["classification"])),
                source_types=sorted(set(options["source_type"])),
            )
        self.stderr.write(
            f"Token '{name}' dibuat. Simpan sekarang: token tidak dapat dilihat lagi."
        )
        self.stdout.write(token)
