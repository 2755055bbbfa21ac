"""The "Status dan hubungan" panel in Chromium: a repealed Perda says by what, links to its
repealer, and the repealer lists what it repeals; search hides the repealed result until
"Tampilkan yang dicabut" is ticked. No CSP violation on the way (the page fixture checks)."""

from __future__ import annotations

from typing import Any

import pytest

from ingestion.management.commands.ensure_admin import ADMIN_GROUP
from tests.browser.helpers import log_in, screenshot
from tests.relations.helpers import plain, repealing, store_regulation
from tests.ui.helpers import PASSWORD, make_user

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

TARGET = "Peraturan Daerah Nomor 3 Tahun 2010 tentang Retribusi Pasar"


def test_the_status_panel_links_a_repealed_regulation_to_its_repealer(
    page: Any, live_server: Any
) -> None:
    make_user("admin", group=ADMIN_GROUP)
    old = store_regulation(plain("3", "2010"), title="Perda 3/2010", source_key="old")
    new = store_regulation(repealing(TARGET), title="Perda 9/2024", source_key="new")
    log_in(page, live_server.url, "admin", PASSWORD)

    page.goto(f"{live_server.url}/documents/{old.pk}/")
    panel = page.locator("#status-hubungan")
    assert "Status dan hubungan" in panel.inner_text()
    assert panel.locator(".badge-repealed").inner_text() == "Dicabut"
    assert "Dicabut oleh" in panel.inner_text()
    screenshot(page, "status-panel-repealed")
    panel.locator("a.relation-link", has_text="Perda Banjarnegara 9/2024").click()
    page.wait_for_url(f"{live_server.url}/documents/{new.pk}/")
    panel = page.locator("#status-hubungan")
    assert panel.locator(".badge-in-force").inner_text() == "Berlaku"
    assert "Mencabut" in panel.inner_text()
    assert panel.locator("a.relation-link").get_attribute("href") == f"/documents/{old.pk}/"
    screenshot(page, "status-panel-repealer")

    page.goto(f"{live_server.url}/search/?q=retribusi+dipungut+atas+pelayanan+pasar")
    titles = page.locator("#search-results .hit-title").all_inner_texts()
    assert "Perda 3/2010" not in titles and "Perda 9/2024" in titles
    page.check("#id_include_repealed")
    page.click(".search-form button[type=submit]")
    page.locator("#search-results .badge-repealed").first.wait_for()
    assert "dicabut oleh Perda Banjarnegara 9/2024" in page.locator("#search-results").inner_text()
    screenshot(page, "search-include-repealed")
