"""The amended law first or its amendment first: the same Pasal versions."""

from __future__ import annotations

from pathlib import Path

import pytest

from ingestion.models import Amendment, Consolidation, ConsolidationState, PasalVersion
from tests.consolidation.helpers import TIPIKOR, ingest, versions

pytestmark = pytest.mark.django_db


def _chain(
    root: Path, order: tuple[str, ...]
) -> set[tuple[str, int, str, str, str | None, str | None]]:
    for name in order:
        ingest(root, name)
    consolidation = Consolidation.objects.get()
    assert consolidation.state == ConsolidationState.BUILT, consolidation.error
    assert Amendment.objects.get().citation == "UU 20/2001"
    return versions()


def test_the_original_first_and_the_amendment_first_give_the_same_versions(
    store_dir: Path, django_db_blocker: object
) -> None:
    forward = _chain(store_dir, TIPIKOR)
    assert PasalVersion.objects.filter(number="5", state="amended").exists()
    from ingestion.models import Document

    Document.objects.all().delete()
    backward = _chain(store_dir, tuple(reversed(TIPIKOR)))
    assert forward == backward
