"""``import_corpus --via-kafka``: the files go to object storage as doc.uploaded records
that two kafka_workers in one group index, each once; a second send publishes nothing."""

from __future__ import annotations

import csv
import io
import time
import uuid
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from django.core.management import call_command

from ingestion import storage as storage_module
from ingestion.models import Document, DocumentStatus
from partner_events.bulk import IDENTITY_NAMESPACE
from partner_events.models import StageEvent
from tests.bulk_import.helpers import regulation_text, write
from tests.harness.fixtures import KafkaTopics, S3Bucket
from tests.kafka_worker.helpers import WorkerProcess, worker_env

pytestmark = pytest.mark.kafka
FILES = 4


def _send(folder: Path, summary: Path) -> list[dict[str, str]]:
    call_command(
        "import_corpus",
        str(folder),
        "--via-kafka",
        "--no-progress",
        "--summary",
        str(summary),
        stdout=io.StringIO(),
    )
    with summary.open(encoding="utf-8") as handle:
        return list(csv.DictReader(handle))


def _wait_indexed(count: int, timeout: float = 240.0) -> None:
    deadline = time.monotonic() + timeout
    while Document.objects.filter(status=DocumentStatus.INDEXED).count() < count:
        assert time.monotonic() < deadline, list(Document.objects.values("title", "status"))
        time.sleep(0.5)


def test_two_workers_index_every_imported_file_once_and_a_resend_publishes_nothing(
    start_worker: Callable[..., WorkerProcess],
    unique_topics: KafkaTopics,
    s3_bucket: S3Bucket,
    settings: Any,
    tmp_path: Path,
) -> None:
    settings.OBJECT_STORAGE_URL = f"s3://{s3_bucket.name}/{s3_bucket.prefix}"
    settings.KAFKA_BOOTSTRAP_SERVERS = unique_topics.bootstrap
    settings.KAFKA_DOC_UPLOADED_TOPIC = unique_topics.input_topic
    storage_module._cached.cache_clear()
    folder = tmp_path / "perda"
    for nomor in range(1, FILES + 1):
        write(folder, f"{nomor}.txt", regulation_text(nomor, 2022, f"urusan {nomor}", "urusan"))
    env = worker_env(unique_topics, s3_bucket)
    for worker in (start_worker(env), start_worker(env)):
        worker.wait_ready()

    sent = _send(folder, tmp_path / "first.csv")
    assert [r["status"] for r in sent] == ["published"] * FILES
    _wait_indexed(FILES)

    documents = list(Document.objects.all())
    assert len(documents) == FILES
    assert {d.source_key for d in documents} == {
        f"import:import_corpus:perda/{n}.txt" for n in range(1, FILES + 1)
    }
    assert all(d.source.get("sourceSystem") == "import_corpus" for d in documents)
    assert all(d.regulation_key for d in documents)
    expected = str(uuid.uuid5(IDENTITY_NAMESPACE, "import:import_corpus:perda/1.txt"))
    assert Document.objects.filter(registry_id=expected).count() == 1
    events = StageEvent.objects.count()

    again = _send(folder, tmp_path / "second.csv")
    assert {(r["status"], r["reason"]) for r in again} == {("skipped", "Sudah terindeks")}
    time.sleep(2.0)
    assert StageEvent.objects.count() == events
    storage_module._cached.cache_clear()
