"""One timer decides that a worker died; its former Kafka-only name is still accepted."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
PRINT = "from django.conf import settings; print(settings.JOB_STALE_SECONDS)"


def _stale_seconds(**env: str) -> float:
    clean = {
        k: v
        for k, v in os.environ.items()
        if k not in ("JOB_STALE_SECONDS", "KAFKA_ORPHAN_GRACE_SECONDS")
    }
    result = subprocess.run(
        [sys.executable, "-c", PRINT],
        cwd=ROOT,
        env={**clean, "DJANGO_SETTINGS_MODULE": "aceh_rag.settings", **env},
        capture_output=True,
        text=True,
        timeout=60,
        check=True,
    )
    return float(result.stdout.strip().splitlines()[-1])


@pytest.mark.parametrize(
    ("env", "expected"),
    [
        ({}, 60.0),
        ({"JOB_STALE_SECONDS": "120"}, 120.0),
        ({"KAFKA_ORPHAN_GRACE_SECONDS": "45"}, 45.0),
        ({"JOB_STALE_SECONDS": "120", "KAFKA_ORPHAN_GRACE_SECONDS": "45"}, 120.0),
    ],
)
def test_job_stale_seconds_reads_its_old_name_when_unset(
    env: dict[str, str], expected: float
) -> None:
    assert _stale_seconds(**env) == expected
