"""The admin UI end to end in headless Chromium, with a real ingestion worker behind it."""

from __future__ import annotations

import io
from pathlib import Path
from typing import Any

import pytest
from django.contrib.auth.models import Group, User

from ingestion.management.commands.ensure_admin import ADMIN_GROUP, REVIEWER_GROUP
from ingestion.models import Document, DocumentStatus
from tests.browser.helpers import WAIT_MS, Worker, log_in, screenshot
from tests.ui.helpers import text_pdf

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

PASSWORD = "kata-sandi-uji-123"
PROSE = (
    "Qanun Aceh tentang pengelolaan arsip daerah. Pasal 1: Arsip daerah dikelola oleh "
    "Dinas Perpustakaan dan Kearsipan Aceh secara tertib dan berkelanjutan."
)


def _user(name: str, group: str) -> User:
    user = User.objects.create_user(username=name, password=PASSWORD)
    user.groups.add(Group.objects.get_or_create(name=group)[0])
    return user


def _pdf_file(tmp_path: Path, name: str, text: str) -> Path:
    path = tmp_path / name
    path.write_bytes(text_pdf(text))
    return path


def _upload(page: Any, base: str, files: list[Path]) -> None:
    page.goto(f"{base}/upload/")
    page.set_input_files("#id_files", [str(f) for f in files])
    page.click("#upload-submit")
    page.wait_for_selector("#upload-results .result")


def _bad_scan(tmp_path: Path) -> Path:
    from tests.pipeline_ocr.helpers import LEGAL_LINES, render_lines, ruin

    path = tmp_path / "pindaian-buram.png"
    buffer = io.BytesIO()
    ruin(render_lines(LEGAL_LINES)).save(buffer, format="PNG")
    path.write_bytes(buffer.getvalue())
    return path


def test_an_anonymous_visitor_is_sent_to_login(page: Any, live_server: Any) -> None:
    page.goto(f"{live_server.url}/documents/")
    assert "/login/?next=/documents/" in page.url
    assert page.locator("h1").inner_text() == "Masuk"
    screenshot(page, "login")


def test_a_reviewer_cannot_reach_the_upload_page(page: Any, live_server: Any) -> None:
    _user("peninjau", REVIEWER_GROUP)
    log_in(page, live_server.url, "peninjau", PASSWORD)
    assert page.locator("nav.mainnav a", has_text="Unggah").count() == 0
    response = page.goto(f"{live_server.url}/upload/")
    assert response is not None and response.status == 403
    assert "Akses ditolak" in page.content()


def test_an_uploaded_pdf_is_followed_until_terindeks(
    page: Any, live_server: Any, worker: Worker, tmp_path: Path
) -> None:
    _user("admin", ADMIN_GROUP)
    log_in(page, live_server.url, "admin", PASSWORD)
    screenshot(page, "dashboard-empty")
    _upload(page, live_server.url, [_pdf_file(tmp_path, "qanun-arsip.pdf", PROSE)])
    result = page.locator("#upload-results .result").first
    assert "Diterima" in result.inner_text()
    page.wait_for_selector('#upload-results .job-live[data-state="done"]', timeout=WAIT_MS)
    assert "Terindeks" in result.inner_text(), worker.log()
    screenshot(page, "upload")
    document = Document.objects.get()
    assert document.status == DocumentStatus.INDEXED
    page.goto(f"{live_server.url}/documents/")
    row = page.locator(f"#doc-{document.pk}")
    assert "Terindeks" in row.inner_text()
    screenshot(page, "documents")
    page.goto(f"{live_server.url}/documents/{document.pk}/")
    assert "Linimasa tahap" in page.content()
    screenshot(page, "document-detail")
    page.goto(f"{live_server.url}/")
    screenshot(page, "dashboard")


def test_a_paused_worker_shows_each_files_queue_position(
    page: Any, live_server: Any, worker: Worker, tmp_path: Path
) -> None:
    worker.pause()
    _user("admin", ADMIN_GROUP)
    log_in(page, live_server.url, "admin", PASSWORD)
    files = [_pdf_file(tmp_path, f"perda-{i}.pdf", f"{PROSE} Nomor {i}") for i in (1, 2, 3)]
    _upload(page, live_server.url, files)
    results = page.locator("#upload-results .result")
    assert results.count() == 3
    assert "Dalam antrean — posisi 3" in results.nth(2).inner_text()
    assert "Dalam antrean — posisi 1" in results.nth(0).inner_text()
    screenshot(page, "upload-queued")
    page.goto(f"{live_server.url}/documents/")
    assert "Dalam antrean — posisi 2" in page.locator(".pending-panel").inner_text()
    screenshot(page, "documents-queued")


def test_a_bad_scan_is_reviewed_corrected_and_becomes_searchable(
    page: Any, live_server: Any, worker: Worker, tmp_path: Path
) -> None:
    _user("admin", ADMIN_GROUP)
    _user("peninjau", REVIEWER_GROUP)
    log_in(page, live_server.url, "admin", PASSWORD)
    _upload(page, live_server.url, [_bad_scan(tmp_path)])
    page.wait_for_selector('#upload-results .job-live[data-state="needs_review"]', timeout=WAIT_MS)
    document = Document.objects.get()
    assert document.status == DocumentStatus.NEEDS_REVIEW

    reviewer = page.context.browser.new_context(viewport={"width": 1360, "height": 900})
    tab = reviewer.new_page()
    tab.on("dialog", lambda dialog: dialog.accept())
    log_in(tab, live_server.url, "peninjau", PASSWORD)
    tab.goto(f"{live_server.url}/review/")
    tab.click(f"a[href='/review/{document.pk}/']")
    tab.wait_for_selector("article.review-chunk img")
    tab.wait_for_function(
        "() => [...document.querySelectorAll('article.review-chunk img')]"
        ".every(img => img.complete && img.naturalWidth > 0)"
    )
    screenshot(tab, "review")
    first = tab.locator("article.review-chunk").first
    first.locator("textarea").fill(
        "Pasal 7 (1) Pemerintah Aceh menyelenggarakan urusan pemerintahan kearsipan istimewa."
    )
    first.get_by_role("button", name="Setujui").click()
    tab.wait_for_selector("article.review-chunk[data-state='approved']")
    if tab.locator("#review-status.done").count() == 0:
        # More than one parked chunk: approve the rest as they are (lands on the document).
        with tab.expect_navigation():
            tab.click("#approve-all")
    else:
        assert "Dokumen kini terindeks" in tab.locator("#review-status").inner_text()
    document.refresh_from_db()
    assert document.status == DocumentStatus.INDEXED
    tab.goto(f"{live_server.url}/documents/{document.pk}/")
    assert "Riwayat tinjauan" in tab.content() and "Koreksi teks" in tab.content()
    screenshot(tab, "document-after-review")

    tab.goto(f"{live_server.url}/search/?q=kearsipan+istimewa")
    hits = tab.locator("article.hit")
    assert hits.count() >= 1
    assert "kearsipan istimewa" in hits.first.inner_text()
    screenshot(tab, "search")
    reviewer.close()
