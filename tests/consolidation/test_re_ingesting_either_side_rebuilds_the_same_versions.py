"""A new edition of either side, or ``relink_regulations``, rebuilds the same versions."""

from __future__ import annotations

from pathlib import Path

import pytest
from django.core.management import call_command

from ingestion.models import Amendment, AmendmentInstruction, Consolidation, PasalVersion
from tests.consolidation.helpers import TIPIKOR, corpus_text, ingest, versions

pytestmark = pytest.mark.django_db


def _counts() -> tuple[int, int, int, int]:
    return (
        Consolidation.objects.count(),
        Amendment.objects.count(),
        AmendmentInstruction.objects.count(),
        PasalVersion.objects.count(),
    )


def test_a_new_edition_of_the_amending_law_rebuilds_idempotently(store_dir: Path) -> None:
    original, amending = TIPIKOR
    ingest(store_dir, original)
    ingest(store_dir, amending)
    before, counts = versions(), _counts()
    newer = ingest(store_dir, amending, corpus_text(amending) + "\n", version="2")
    assert versions() == before
    assert _counts() == counts
    assert Amendment.objects.get().amending_document_id == newer


def test_a_new_edition_of_the_amended_law_moves_the_consolidation_to_it(store_dir: Path) -> None:
    original, amending = TIPIKOR
    ingest(store_dir, original)
    ingest(store_dir, amending)
    before, counts = versions(), _counts()
    newer = ingest(store_dir, original, corpus_text(original) + "\n", version="2")
    assert versions() == before
    assert _counts() == counts
    assert Consolidation.objects.get().document_id == newer


def test_relink_regulations_rebuilds_the_consolidation(store_dir: Path) -> None:
    for name in TIPIKOR:
        ingest(store_dir, name)
    before, counts = versions(), _counts()
    Consolidation.objects.all().delete()
    call_command("relink_regulations", "--no-progress")
    assert versions() == before
    assert _counts() == counts
