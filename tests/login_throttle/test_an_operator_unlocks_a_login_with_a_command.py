"""``manage.py unlock_login`` lifts a lockout at once, for one IP or all of them."""

from __future__ import annotations

from io import StringIO
from typing import Any

from axes.models import AccessAttempt
from django.core.management import call_command
from django.test import Client

from tests.login_throttle.conftest import PASSWORD, attempt, fail


def unlock(*args: str) -> str:
    out = StringIO()
    call_command("unlock_login", *args, stdout=out)
    return out.getvalue()


def test_unlocking_a_username_lets_it_log_in_again(client: Client, petugas: Any) -> None:
    fail(client, "petugas", 5)
    assert attempt(client, "petugas", PASSWORD).status_code == 429

    output = unlock("petugas")

    assert "Kunci masuk 'petugas' dibuka" in output
    assert attempt(client, "petugas", PASSWORD).status_code == 302


def test_unlocking_one_ip_leaves_the_others_locked(petugas: Any) -> None:
    fail(Client(), "petugas", 5, ip="10.1.1.1")
    fail(Client(), "petugas", 5, ip="10.2.2.2")

    unlock("petugas", "--ip", "10.1.1.1")

    assert attempt(Client(), "petugas", PASSWORD, ip="10.1.1.1").status_code == 302
    assert attempt(Client(), "petugas", PASSWORD, ip="10.2.2.2").status_code == 429


def test_unlocking_a_name_that_is_not_locked_says_so(petugas: Any) -> None:
    assert "Tidak ada kunci masuk untuk 'petugas'" in unlock("petugas")
    assert AccessAttempt.objects.count() == 0
