"""/metrics has no export series before the first export, then the time of the last one."""

from __future__ import annotations

import re
import time
from pathlib import Path
from uuid import UUID

from django.test import Client

from tests.export.small import export

SERIES = re.compile(r"^aceh_rag_last_export_timestamp_seconds (\S+)$", re.MULTILINE)


def test_the_last_successful_export_is_a_timestamp(
    small: list[UUID], tmp_path: Path, client: Client
) -> None:
    assert not SERIES.search(client.get("/metrics").content.decode())
    before = time.time()
    export(tmp_path / "ekspor")
    found = SERIES.search(client.get("/metrics").content.decode())
    assert found is not None
    assert before - 1 <= float(found.group(1)) <= time.time() + 1
