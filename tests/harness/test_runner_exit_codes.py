"""The test runner never reports success for a run that collected no tests."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

REPO_DIR = Path(__file__).resolve().parents[2]


def test_a_run_that_collects_nothing_exits_non_zero() -> None:
    cmd = [sys.executable, "scripts/test_runner.py", "--no-kafka", "-p", "no:cacheprovider"]
    cmd += ["tests/harness/test_missing_service_policy.py", "-k", "no_test_has_this_name"]

    result = subprocess.run(cmd, cwd=REPO_DIR, capture_output=True, text=True, timeout=120)

    assert result.returncode == 1, result.stderr[-2000:]
    assert "tidak menjalankan satu pun tes" in result.stderr
