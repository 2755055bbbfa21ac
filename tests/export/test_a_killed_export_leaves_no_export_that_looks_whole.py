"""An export killed half-way (SIGKILL: no clean-up runs) leaves either nothing at the
target or the previous export still whole — never a half export that looks whole."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import time
from io import StringIO
from pathlib import Path

import pytest
from django.core.management import call_command
from django.core.management.base import CommandError

from tests.export.small import export, small_document
from tests.harness.database import current_database_url

ROOT = Path(__file__).resolve().parents[2]

pytestmark = pytest.mark.django_db(transaction=True)


def _killed_mid_export(target: Path, store: Path, *args: str) -> None:
    env = {
        **os.environ,
        "DATABASE_URL": current_database_url(),
        "OBJECT_STORAGE_URL": store.as_uri(),
    }
    child = subprocess.Popen(
        [sys.executable, "manage.py", "export_corpus", str(target), "--no-progress", *args],
        cwd=ROOT,
        env=env,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
    )
    try:
        deadline = time.monotonic() + 120
        while not list(target.parent.glob(f".{target.name}.partial-*")):
            assert child.poll() is None, "the export ended before it could be killed"
            assert time.monotonic() < deadline
            time.sleep(0.002)
        child.send_signal(signal.SIGKILL)
    finally:
        child.wait(timeout=30)


def _documents(store: Path, count: int, first: int = 0) -> None:
    for n in range(first, first + count):
        big = f"dokumen {n} ".encode() + b"isi " * 250_000
        small_document(store, f"besar-{n}", f"dokumen {n}", original=big)


def test_a_first_export_killed_leaves_no_target(store_dir: Path, tmp_path: Path) -> None:
    if "DATABASE_URL" not in os.environ:
        pytest.skip("DATABASE_URL tidak di-set: jalankan lewat scripts/test_runner.py")
    _documents(store_dir, 20)
    target = tmp_path / "ekspor"
    _killed_mid_export(target, store_dir)
    assert not target.exists()
    with pytest.raises(CommandError, match="bukan folder atau zip"):
        call_command("verify_export", str(target), stdout=StringIO())


def test_an_incremental_export_killed_keeps_the_previous_one_whole(
    store_dir: Path, tmp_path: Path
) -> None:
    if "DATABASE_URL" not in os.environ:
        pytest.skip("DATABASE_URL tidak di-set: jalankan lewat scripts/test_runner.py")
    _documents(store_dir, 2)
    target = tmp_path / "ekspor"
    export(target)
    _documents(store_dir, 20, first=2)
    _killed_mid_export(target, store_dir, "--compare-checksums")
    out = StringIO()
    call_command("verify_export", str(target), stdout=out)
    assert "utuh" in out.getvalue()
