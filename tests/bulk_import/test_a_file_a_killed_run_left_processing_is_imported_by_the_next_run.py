"""A run killed outright (SIGKILL, a power cut) leaves the file in hand ``processing``
with no one working on it. The next run hands it back to the queue and imports it,
instead of skipping it as "in progress" forever."""

from __future__ import annotations

from collections.abc import Callable
from datetime import timedelta
from pathlib import Path
from typing import Any

import pytest
from django.core.files import File
from django.utils import timezone

from ingestion.bulk.items import from_paths
from ingestion.bulk.one import ImportSettings, _claim, _with_provenance
from ingestion.jobs import enqueue_upload
from ingestion.models import Document, DocumentStatus, IngestionJob, JobState
from tests.bulk_import.helpers import ImportRun

pytestmark = pytest.mark.django_db


def _killed_mid_file(corpus: Path, settings: Any) -> IngestionJob:
    """What a killed run leaves: its job claimed, and no heartbeat since."""
    item = next(i for i in from_paths([str(corpus)]) if i.path.suffix == ".md")
    with item.path.open("rb") as handle:
        outcome = enqueue_upload(
            File(handle, name=item.path.name),
            meta=_with_provenance(item, ImportSettings()),
            user=None,
        )
    assert outcome.job is not None and _claim(outcome.job)
    long_ago = timezone.now() - timedelta(seconds=settings.JOB_STALE_SECONDS + 60)
    IngestionJob.objects.filter(pk=outcome.job.pk).update(heartbeat_at=long_ago)
    return outcome.job


def test_the_next_run_imports_the_file_a_killed_run_left_processing(
    corpus: Path, import_corpus: Callable[..., ImportRun], settings: Any
) -> None:
    job = _killed_mid_file(corpus, settings)

    rerun = import_corpus(str(corpus))

    assert rerun.statuses() == {"perda/2024/5.txt": "indexed", "perda/6-2024.md": "indexed"}
    job.refresh_from_db()
    assert job.state == JobState.DONE
    assert {d.status for d in Document.objects.all()} == {DocumentStatus.INDEXED}


def test_a_file_whose_run_is_still_beating_is_left_to_it(
    corpus: Path, import_corpus: Callable[..., ImportRun], settings: Any
) -> None:
    job = _killed_mid_file(corpus, settings)
    IngestionJob.objects.filter(pk=job.pk).update(heartbeat_at=timezone.now())

    rerun = import_corpus(str(corpus))

    assert rerun.statuses()["perda/6-2024.md"] == "skipped"
    job.refresh_from_db()
    assert job.state == JobState.PROCESSING
