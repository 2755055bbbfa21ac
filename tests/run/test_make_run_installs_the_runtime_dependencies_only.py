"""``make run`` installs the application without the test and lint extras; ``make test``
and ``make lint`` still install theirs."""

from __future__ import annotations

import subprocess
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]


def _planned(target: str) -> str:
    done = subprocess.run(
        ["make", "-n", "-B", target], cwd=ROOT, capture_output=True, text=True, check=True
    )
    return done.stdout


def test_make_run_installs_no_extras() -> None:
    installs = [line for line in _planned("run").splitlines() if "pip install" in line]
    assert any(line.rstrip().endswith("-e .") for line in installs), installs
    assert not any("[test" in line or "lint]" in line for line in installs), installs


def test_make_test_and_lint_still_install_their_extras() -> None:
    assert "'.[test,lint]'" in _planned("test")
    assert "'.[test,lint]'" in _planned("lint")
