"""Helpers for the browser tests (the fixtures live in ``conftest.py``)."""

from __future__ import annotations

import subprocess
from dataclasses import dataclass
from pathlib import Path
from typing import Any

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


@dataclass
class CspViolation:
    """One violation, as the page's ``securitypolicyviolation`` event or console saw it."""

    page_url: str
    directive: str
    blocked: str
    sample: str = ""


def screenshot(page: Any, name: str) -> None:
    ARTIFACTS.mkdir(parents=True, exist_ok=True)
    # caret="initial": hiding the caret leaves style="" on every input, which htmx's settle
    # step then copies onto swapped-in fields, a style-src violation under the strict CSP.
    page.screenshot(path=str(ARTIFACTS / f"{name}.png"), full_page=True, caret="initial")


def log_in(page: Any, base_url: str, username: str, password: str) -> None:
    page.goto(f"{base_url}/login/")
    page.fill("#id_username", username)
    page.fill("#id_password", password)
    page.click("button[type=submit]")
    page.wait_for_url(f"{base_url}/")
