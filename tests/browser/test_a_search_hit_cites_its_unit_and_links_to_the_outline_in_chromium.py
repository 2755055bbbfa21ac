"""In Chromium: a search hit shows its citation in bold with the unit highlighted, copies
it with "Salin sitasi", and links to that ayat in the document page's outline."""

from __future__ import annotations

from typing import Any
from urllib.parse import quote

import pytest

from tests.browser.helpers import log_in, screenshot
from tests.legal.helpers import index_corpus_regulation
from tests.ui.helpers import PASSWORD, make_user

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

CITATION = "PP 34/2021 Pasal 21 ayat (4) huruf g"


def test_citation_on_the_search_page_and_outline_on_the_document_page(
    page: Any, live_server: Any
) -> None:
    source = {"jenis": "Peraturan Pemerintah", "nomor": "34", "tahun": "2021"}
    index_corpus_regulation("galqa/docs/pp_34_2021.txt", "txt", "pp_34_2021.txt", source)
    make_user("pembaca")
    log_in(page, live_server.url, "pembaca", PASSWORD)

    page.goto(f"{live_server.url}/search/?q={quote('Pasal 21 ayat (4) huruf g PP 34/2021')}")
    first = page.locator("article.hit").first
    citation = first.locator(".hit-citation strong.citation")
    assert citation.inner_text() == CITATION
    assert first.locator("mark.unit-text").inner_text().startswith("g. laporan realisasi")
    button = first.get_by_role("button", name="Salin sitasi")
    assert button.get_attribute("data-copy-citation") == CITATION
    # Headless Chromium has a clipboard once the page's origin is allowed to use it.
    page.context.grant_permissions(["clipboard-read", "clipboard-write"], origin=live_server.url)
    handle = button.element_handle()  # its label changes once copied
    handle.click()
    page.wait_for_function("b => b.dataset.copied !== undefined", arg=handle, timeout=5000)
    assert handle.get_attribute("data-copied") == "true"
    assert page.evaluate("navigator.clipboard.readText()") == CITATION
    screenshot(page, "search-citation")

    citation.locator("a").click()
    page.wait_for_url("**/documents/**#unit-pasal-21-ayat-4")
    outline = page.locator("#outline")
    assert "Kerangka peraturan" in outline.locator("h2").inner_text()
    assert "PP 34/2021" in outline.locator("h2").inner_text()
    target = page.locator("#unit-pasal-21-ayat-4")
    assert target.is_visible()
    assert target.locator(".outline-label").inner_text() == "ayat (4)"
    assert outline.locator("#unit-pasal-21 > a.outline-label").inner_text() == "Pasal 21"
    assert outline.locator("details.outline-bab summary").first.inner_text().startswith("BAB")
    screenshot(page, "document-outline")
