"""``manage.py unlock_login USERNAME [--ip IP]``: lift a login lockout before it expires.

The lock is django-axes' record of failed attempts for a username + IP pair; deleting the
records is what unlocks it. Without ``--ip`` every IP's lock on that username is lifted.
"""

from __future__ import annotations

from typing import Any

from axes.utils import reset
from django.core.management.base import BaseCommand, CommandParser


class Command(BaseCommand):
    help = "Buka kunci masuk (setelah terlalu banyak percobaan gagal) untuk nama pengguna."

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("username", help="Nama pengguna yang terkunci")
        parser.add_argument("--ip", help="Hanya kunci dari alamat IP ini")

    def handle(self, *args: Any, **options: Any) -> None:
        username = str(options["username"]).strip()
        ip = options.get("ip")
        removed = reset(username=username, ip=ip)
        where = f" dari {ip}" if ip else ""
        if removed:
            self.stdout.write(
                f"Kunci masuk '{username}'{where} dibuka ({removed} catatan percobaan dihapus)"
            )
        else:
            self.stdout.write(f"Tidak ada kunci masuk untuk '{username}'{where}")
