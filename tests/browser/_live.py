"""A live server, an ingestion worker subprocess on the same test database, and Chromium."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest

from ingestion import storage as storage_module
from tests.harness.database import current_database_url

REPO = Path(__file__).resolve().parents[2]
ARTIFACTS = REPO / "tests" / "artifacts"
CHROMIUM = Path("/usr/bin/chromium")
CHROMIUM_ARGS = [
    "--headless",
    "--no-sandbox",
    "--disable-gpu",
    "--disable-quic",
    "--no-first-run",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
]
WAIT_MS = 240_000  # first documents load the embedding and OCR models in the worker


@dataclass
class Worker:
    process: subprocess.Popen[bytes]
    paused_file: Path
    log_path: Path

    def pause(self) -> None:
        self.paused_file.touch()

    def resume(self) -> None:
        self.paused_file.unlink(missing_ok=True)

    def log(self) -> str:
        return self.log_path.read_text(errors="replace")[-4000:]


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
    paused = tmp_path / "worker.paused"
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
                "--paused-file",
                str(paused),
                "--poll-seconds",
                "0.3",
            ],
            cwd=REPO,
            env=env,
            stdout=log_file,
            stderr=subprocess.STDOUT,
        )
    handle = Worker(process, paused, log_path)
    yield handle
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
def page(browser: Any) -> Iterator[Any]:
    context = browser.new_context(viewport={"width": 1360, "height": 900}, locale="id-ID")
    tab = context.new_page()
    tab.set_default_timeout(30_000)
    yield tab
    context.close()


def screenshot(page: Any, name: str) -> None:
    ARTIFACTS.mkdir(parents=True, exist_ok=True)
    page.screenshot(path=str(ARTIFACTS / f"{name}.png"), full_page=True)


def log_in(page: Any, base_url: str, username: str, password: str) -> None:
    page.goto(f"{base_url}/login/")
    page.fill("#id_username", username)
    page.fill("#id_password", password)
    page.click("button[type=submit]")
    page.wait_for_url(f"{base_url}/")
