"""Where a chunk sits: its region outlined on the page image, doubtful OCR lines on review."""

from __future__ import annotations

import io
from pathlib import Path
from typing import Any

import pytest

from ingestion.management.commands.ensure_admin import ADMIN_GROUP
from ingestion.models import Chunk, Document, DocumentStatus
from tests.browser.helpers import WAIT_MS, Worker, log_in, screenshot
from tests.ui.helpers import PASSWORD, make_user, text_pdf

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

PROSE = "Qanun Aceh tentang arsip daerah. Pasal 1: Arsip daerah dikelola dengan tertib."


def _upload(page: Any, base: str, path: Path) -> None:
    page.goto(f"{base}/upload/")
    page.set_input_files("#id_files", [str(path)])
    page.click("#upload-submit")
    page.wait_for_selector("#upload-results .result")


def _box(page: Any, selector: str) -> dict[str, float]:
    return dict(page.locator(selector).first.bounding_box())


def test_selecting_a_chunk_outlines_its_region_on_the_page_image(
    page: Any, live_server: Any, worker: Worker, tmp_path: Path
) -> None:
    make_user("admin", group=ADMIN_GROUP)
    log_in(page, live_server.url, "admin", PASSWORD)
    pdf = tmp_path / "qanun-letak.pdf"
    pdf.write_bytes(text_pdf(PROSE, pages=2))
    _upload(page, live_server.url, pdf)
    page.wait_for_selector('#upload-results .job-live[data-state="done"]', timeout=WAIT_MS)
    document = Document.objects.get()
    chunk = Chunk.objects.filter(document=document).order_by("ordinal").first()
    assert chunk is not None and chunk.regions, worker.log()

    page.goto(f"{live_server.url}/documents/{document.pk}/")
    thumbs = page.locator("[data-testid=page-thumbs] img")
    assert thumbs.count() == 2
    page.wait_for_function(
        "() => [...document.querySelectorAll('[data-testid=page-thumbs] img')]"
        ".every(img => img.complete && img.naturalWidth > 0)"
    )
    page.click(f"[data-testid=locate-{chunk.ordinal}]")
    figure = page.locator("[data-testid=chunk-region]").first
    figure.wait_for()
    page.wait_for_function(
        "() => { const img = document.querySelector('[data-testid=chunk-region] img');"
        " return img && img.complete && img.naturalWidth > 0; }"
    )
    outline = figure.locator("rect.region")
    assert outline.count() >= 1
    image = _box(page, "[data-testid=chunk-region] img")
    rect = _box(page, "[data-testid=chunk-region] rect.region")
    # text_pdf writes the line at x = 72 pt, baseline y = 90 pt on an A4 page (595 × 842 pt).
    assert abs((rect["x"] - image["x"]) / image["width"] - 72 / 595) < 0.02
    assert abs((rect["y"] - image["y"]) / image["height"] - 80 / 842) < 0.02
    figure.scroll_into_view_if_needed()
    screenshot(page, "document-chunk-outline")


def test_the_review_page_outlines_doubtful_lines_and_highlights_the_one_being_edited(
    page: Any, live_server: Any, worker: Worker, tmp_path: Path
) -> None:
    from tests.pipeline_ocr.helpers import LEGAL_LINES, render_lines, ruin

    make_user("admin", group=ADMIN_GROUP)
    log_in(page, live_server.url, "admin", PASSWORD)
    scan = tmp_path / "pindaian-buram.png"
    buffer = io.BytesIO()
    ruin(render_lines(LEGAL_LINES)).save(buffer, format="PNG")
    scan.write_bytes(buffer.getvalue())
    _upload(page, live_server.url, scan)
    page.wait_for_selector('#upload-results .job-live[data-state="needs_review"]', timeout=WAIT_MS)
    document = Document.objects.get()
    assert document.status == DocumentStatus.NEEDS_REVIEW

    page.goto(f"{live_server.url}/review/{document.pk}/")
    article = page.locator("article.review-chunk").first
    page.wait_for_function(
        "() => { const img = document.querySelector('article.review-chunk img');"
        " return img && img.complete && img.naturalWidth > 0; }"
    )
    low = article.locator(".page-overlay rect.line-low")
    assert low.count() >= 1
    assert "baris diragukan ditandai" in article.locator("figcaption").inner_text()
    assert article.locator(".page-overlay rect.line-active").count() == 0
    page.keyboard.press("e")
    page.wait_for_function(
        "() => document.querySelectorAll('article.review-chunk .page-overlay rect.line-active')"
        ".length === 1"
    )
    active = _box(page, "article.review-chunk .page-overlay rect.line-active")
    first_line = _box(page, "article.review-chunk .page-overlay rect[data-o]")
    assert active["y"] == pytest.approx(first_line["y"], abs=1)  # the caret is at the start
    screenshot(page, "review-line-outlines")
    page.keyboard.press("End")
    page.keyboard.press("Control+End")
    page.wait_for_function(
        "() => { const rects = [...document.querySelectorAll("
        "'article.review-chunk .page-overlay rect[data-o]')];"
        " return rects.length < 2 || rects[rects.length - 1].classList.contains('line-active'); }"
    )
