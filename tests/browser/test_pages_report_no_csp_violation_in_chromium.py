"""In Chromium, no page breaks the strict CSP; the ``page`` fixture fails the test if one does.

Each page test in this folder is watched the same way (``conftest.py``); this one walks the
pages the other tests do not reach, including the htmx interactions and the archive confirm.
"""

from __future__ import annotations

from typing import Any

import pytest
from django.contrib.auth.models import Group, User

from ingestion.management.commands.ensure_admin import ADMIN_GROUP
from ingestion.models import DocumentStatus
from tests.browser.helpers import CspViolation, log_in
from tests.ui.helpers import make_document

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

PASSWORD = "kata-sandi-uji-123"


def _admin() -> User:
    user = User.objects.create_user(username="admin-csp", password=PASSWORD)
    user.groups.add(Group.objects.get_or_create(name=ADMIN_GROUP)[0])
    return user


def test_a_violation_is_caught_by_the_page_fixture(
    page: Any, live_server: Any, csp_violations: list[CspViolation]
) -> None:
    page.goto(f"{live_server.url}/login/")
    # What an injected or forgotten inline script would do; the policy must block it.
    page.evaluate(
        """() => {
          const script = document.createElement("script");
          script.textContent = "document.title = 'disuntik';";
          document.head.append(script);
        }"""
    )
    for _ in range(40):  # the report arrives asynchronously
        if csp_violations:
            break
        page.wait_for_timeout(50)
    assert page.title() != "disuntik"
    assert any(v.directive.startswith("script-src") for v in csp_violations), csp_violations
    csp_violations.clear()  # caught on purpose: the fixture must not fail this test


def test_the_admin_pages_run_without_a_csp_violation(page: Any, live_server: Any) -> None:
    _admin()
    document = make_document(title="Qanun Aceh tentang Zakat")
    base = live_server.url
    log_in(page, base, "admin-csp", PASSWORD)
    for path in ["/", "/documents/", "/upload/", "/review/", "/jobs/", "/api/docs", "/x404/"]:
        page.goto(f"{base}{path}")
        page.wait_for_load_state("networkidle")
    page.goto(f"{base}/docs/api/partner-events")

    # htmx swaps (search results) and the archive confirm, both driven by static JS.
    page.goto(f"{base}/search/")
    page.fill("input[name=q]", "zakat")
    page.keyboard.press("Enter")
    page.wait_for_selector("#search-results")
    page.goto(f"{base}/documents/{document.pk}/")
    dialogs: list[str] = []

    def on_dialog(dialog: Any) -> None:
        dialogs.append(dialog.message)
        dialog.dismiss()

    page.once("dialog", on_dialog)
    page.click("button:has-text('Arsipkan')")
    assert dialogs == ["Arsipkan dokumen ini? Dokumen tidak akan muncul di pencarian."]
    document.refresh_from_db()
    assert document.status == DocumentStatus.INDEXED  # dismissed: not archived
