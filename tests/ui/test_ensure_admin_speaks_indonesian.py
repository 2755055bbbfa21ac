"""The operator reads ``manage.py ensure_admin --help`` in Indonesian, like every other command."""

from __future__ import annotations

from ingestion.management.commands.ensure_admin import Command


def test_the_help_text_is_indonesian() -> None:
    assert Command.help == "Buat grup Admin/Peninjau dan akun admin bila belum ada."
