"""In Chromium: five wrong passwords lock the login and the page says until when."""

from __future__ import annotations

import re
from typing import Any

import pytest
from django.contrib.auth.models import User

from tests.browser.helpers import screenshot

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

PASSWORD = "kata-sandi-uji-123"
LOCKOUT = re.compile(r"^Terlalu banyak percobaan masuk\. Coba lagi setelah \d\d:\d\d\.$")


def _submit(page: Any, base: str, password: str) -> Any:
    page.goto(f"{base}/login/")
    page.fill("#id_username", "petugas")
    page.fill("#id_password", password)
    with page.expect_navigation() as navigation:
        page.click("button[type=submit]")
    return navigation.value


def test_the_fifth_wrong_password_shows_the_lockout_message(page: Any, live_server: Any) -> None:
    User.objects.create_user(username="petugas", password=PASSWORD)
    for _ in range(4):
        response = _submit(page, live_server.url, "tebakan-salah")
        assert response.status == 200
        assert "Nama pengguna atau kata sandi salah." in page.locator(".alert-error").inner_text()

    response = _submit(page, live_server.url, "tebakan-salah")

    assert response.status == 429
    assert LOCKOUT.match(page.locator("#lockout-message").inner_text())
    screenshot(page, "login-lockout")

    # Even the right password waits for the lock to end.
    response = _submit(page, live_server.url, PASSWORD)
    assert response.status == 429
    assert LOCKOUT.match(page.locator("#lockout-message").inner_text())
    assert page.url.endswith("/login/")
