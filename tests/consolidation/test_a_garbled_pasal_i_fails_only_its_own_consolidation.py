"""A garbled Pasal I is kept as unparsed instructions; a consolidation that fails (the
applier raising) is recorded as failed, and the document is indexed all the same."""

from __future__ import annotations

from pathlib import Path

import pytest

from ingestion.legal.amendments.apply import Consolidation as Built
from ingestion.models import (
    AmendmentInstruction,
    Consolidation,
    ConsolidationState,
    Document,
    DocumentStatus,
    InstructionState,
    RegulationRelation,
)
from ingestion.relations import consolidation
from tests.consolidation.helpers import TIPIKOR, amending_tipikor, ingest

pytestmark = pytest.mark.django_db

GARBLED = (
    "1. Ketentuan Pasal %%%% dlubah se#ingga ~~~ \u00ff\u00fe\n"
    "2. ;;;; ))))(((( 0O0O0O Pasa1 Pasa1 Pasa1 diantara dan dan disisipkan\n"
)


def test_a_garbled_pasal_i_is_kept_unparsed_and_the_document_indexed(store_dir: Path) -> None:
    ingest(store_dir, TIPIKOR[0])
    amending = ingest(store_dir, "uu_5_2003_perubahan_kedua_tipikor.md", amending_tipikor(GARBLED))
    assert Document.objects.get(pk=amending).status == DocumentStatus.INDEXED
    assert Consolidation.objects.get().state == ConsolidationState.BUILT
    states = set(AmendmentInstruction.objects.values_list("state", flat=True))
    assert states <= {InstructionState.UNPARSED}


def test_an_applier_that_raises_fails_only_the_consolidation(
    store_dir: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    def hostile(*args: object) -> Built:
        raise RecursionError("maximum recursion depth exceeded")

    # Fault injection: the reader and applier promise not to raise, so the failure a
    # hostile Pasal I could still cause is injected where they are called.
    monkeypatch.setattr(consolidation, "consolidate", hostile)
    ingest(store_dir, TIPIKOR[0])
    amending = ingest(store_dir, TIPIKOR[1])
    assert Document.objects.get(pk=amending).status == DocumentStatus.INDEXED
    assert RegulationRelation.objects.filter(target_document__isnull=False).exists()
    failed = Consolidation.objects.get()
    assert failed.state == ConsolidationState.FAILED
    assert "RecursionError" in failed.error
    assert not failed.versions.exists()
