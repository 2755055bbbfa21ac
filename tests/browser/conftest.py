"""A live server, an ingestion worker subprocess on the same test database, and Chromium.

Every ``page`` watches for Content-Security-Policy violations (the page's
``securitypolicyviolation`` events and Chromium's console reports) and fails its test at
teardown if any page it visited reported one; ``csp_violations`` is the list it checks.
"""

from __future__ import annotations

import os
import signal
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from ingestion import storage as storage_module
from tests.browser.helpers import CHROMIUM, CHROMIUM_ARGS, REPO, CspViolation, Worker
from tests.harness.database import current_database_url

# Runs in every document before its own scripts (Playwright injects it over CDP, so the
# page's CSP does not apply to it) and reports each violation back to Python.
_CSP_LISTENER = """
document.addEventListener("securitypolicyviolation", (e) => {
  window.__reportCspViolation({
    page_url: document.location.href,
    directive: e.effectiveDirective || e.violatedDirective,
    blocked: e.blockedURI || "",
    sample: e.sample || "",
  });
});
"""


@pytest.fixture
def object_store(tmp_path: Path, settings: Any) -> Iterator[Path]:
    root = tmp_path / "objects"
    root.mkdir()
    settings.OBJECT_STORAGE_URL = root.as_uri()
    settings.PAGE_IMAGE_CACHE_DIR = tmp_path / "page-cache"
    storage_module._cached.cache_clear()
    yield root
    storage_module._cached.cache_clear()


@pytest.fixture
def worker(live_server: Any, object_store: Path, tmp_path: Path) -> Iterator[Worker]:
    if "DATABASE_URL" not in os.environ:
        pytest.skip("DATABASE_URL tidak di-set: jalankan lewat scripts/test_runner.py")
    log_path = tmp_path / "worker.log"
    env = {
        **os.environ,
        "DATABASE_URL": current_database_url(),
        "DATABASE_CONN_MAX_AGE": "0",
        "OBJECT_STORAGE_URL": object_store.as_uri(),
        "KAFKA_ENABLED": "false",
        "ACEH_RAG_DATA_DIR": str(tmp_path / "worker-data"),
    }
    env.pop("MODEL_GATEWAY_URL", None)
    with log_path.open("wb") as log_file:
        process = subprocess.Popen(
            [
                sys.executable,
                "manage.py",
                "ingest_worker",
                "--poll-seconds",
                "0.3",
            ],
            cwd=REPO,
            env=env,
            stdout=log_file,
            stderr=subprocess.STDOUT,
        )
    handle = Worker(process, log_path)
    yield handle
    handle.resume()  # a stopped process would not act on SIGTERM
    process.send_signal(signal.SIGTERM)
    try:
        process.wait(60)
    except subprocess.TimeoutExpired:
        process.kill()
        process.wait()


@pytest.fixture(scope="module")
def browser() -> Iterator[Any]:
    if not CHROMIUM.exists():
        pytest.skip("Chromium tidak terpasang di /usr/bin/chromium")
    from playwright.sync_api import sync_playwright

    # Playwright's sync API keeps an event loop in this thread; Django then refuses ORM calls
    # (database setup, test data) as if they were async. They are plain synchronous code.
    previous = os.environ.get("DJANGO_ALLOW_ASYNC_UNSAFE")
    os.environ["DJANGO_ALLOW_ASYNC_UNSAFE"] = "true"
    with sync_playwright() as playwright:
        instance = playwright.chromium.launch(
            executable_path=str(CHROMIUM), args=CHROMIUM_ARGS, headless=True
        )
        yield instance
        instance.close()
    if previous is None:
        os.environ.pop("DJANGO_ALLOW_ASYNC_UNSAFE", None)
    else:
        os.environ["DJANGO_ALLOW_ASYNC_UNSAFE"] = previous


@pytest.fixture
def csp_violations() -> list[CspViolation]:
    """What ``page`` saw; a test that provokes a violation on purpose empties it."""
    return []


def _watch_csp(context: Any, tab: Any, violations: list[CspViolation]) -> None:
    def report(_source: Any, data: dict[str, str]) -> None:
        violations.append(CspViolation(**data))

    def on_console(message: Any) -> None:
        text = message.text
        if "Content Security Policy" in text and not any(v.sample == text for v in violations):
            violations.append(CspViolation(tab.url, "console", "", text))

    context.expose_binding("__reportCspViolation", report)
    context.add_init_script(_CSP_LISTENER)
    tab.on("console", on_console)


@pytest.fixture
def page(browser: Any, csp_violations: list[CspViolation]) -> Iterator[Any]:
    context = browser.new_context(viewport={"width": 1360, "height": 900}, locale="id-ID")
    tab = context.new_page()
    tab.set_default_timeout(30_000)
    _watch_csp(context, tab, csp_violations)
    yield tab
    context.close()
    assert csp_violations == [], "pelanggaran Content-Security-Policy di halaman yang dikunjungi"
