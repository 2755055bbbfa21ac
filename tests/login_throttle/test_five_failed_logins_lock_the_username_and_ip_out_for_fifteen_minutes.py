"""Five wrong passwords for one username from one IP lock that pair out for 15 minutes."""

from __future__ import annotations

import re
from datetime import timedelta
from typing import Any

from axes.models import AccessAttempt
from django.test import Client
from django.utils import timezone

from tests.login_throttle.conftest import PASSWORD, attempt, fail

MESSAGE = re.compile(r"Terlalu banyak percobaan masuk\. Coba lagi setelah (\d\d):(\d\d)\.")


def test_four_failures_still_show_the_ordinary_wrong_password_message(
    client: Client, petugas: Any
) -> None:
    response = fail(client, "petugas", 4)
    assert response.status_code == 200
    assert "Nama pengguna atau kata sandi salah." in response.content.decode()
    assert attempt(client, "petugas", PASSWORD).status_code == 302


def test_the_fifth_failure_locks_out_and_says_when_to_try_again(
    client: Client, petugas: Any
) -> None:
    before = timezone.localtime()
    response = fail(client, "petugas", 5)
    body = response.content.decode()
    assert response.status_code == 429
    match = MESSAGE.search(body)
    assert match, body
    retry_after = int(response["Retry-After"])
    assert 14 * 60 < retry_after <= 15 * 60
    # The time shown is the lock's end in local time, rounded up to the minute.
    shown = before.replace(hour=int(match[1]), minute=int(match[2]), second=0, microsecond=0)
    if shown < before:
        shown += timedelta(days=1)
    assert timedelta(minutes=15) <= shown - before <= timedelta(minutes=16, seconds=5)


def test_the_right_password_is_refused_during_the_lockout(client: Client, petugas: Any) -> None:
    fail(client, "petugas", 5)
    response = attempt(client, "petugas", PASSWORD)
    assert response.status_code == 429
    assert MESSAGE.search(response.content.decode())
    assert "_auth_user_id" not in client.session


def test_guesses_during_the_lockout_do_not_extend_it(client: Client, petugas: Any) -> None:
    first = fail(client, "petugas", 5)
    later = fail(client, "petugas", 3)
    shown_first = MESSAGE.search(first.content.decode())
    shown_later = MESSAGE.search(later.content.decode())
    assert shown_first and shown_later and shown_first[0] == shown_later[0]
    assert AccessAttempt.objects.get(username="petugas").failures_since_start == 5


def test_the_lock_holds_only_for_that_username_and_ip(client: Client, petugas: Any) -> None:
    fail(client, "petugas", 5, ip="10.1.1.1")
    assert attempt(Client(), "petugas", PASSWORD, ip="10.2.2.2").status_code == 302
    other = attempt(Client(), "tamu", "salah", ip="10.1.1.1")
    assert other.status_code == 200


def test_after_fifteen_minutes_the_user_can_log_in_again(client: Client, petugas: Any) -> None:
    fail(client, "petugas", 5)
    AccessAttempt.objects.update(attempt_time=timezone.now() - timedelta(minutes=15, seconds=1))
    assert attempt(client, "petugas", PASSWORD).status_code == 302
