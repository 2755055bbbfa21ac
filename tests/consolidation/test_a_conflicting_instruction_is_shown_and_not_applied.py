"""An instruction naming a Pasal the amended law does not have is a conflict: stored with
its reason, not applied, while the other instructions are."""

from __future__ import annotations

from pathlib import Path

import pytest

from ingestion.models import AmendmentInstruction, InstructionState, PasalVersion
from tests.consolidation.helpers import TIPIKOR, amending_tipikor, ingest

pytestmark = pytest.mark.django_db

ITEMS = (
    "1. Ketentuan Pasal 3 diubah sehingga berbunyi sebagai berikut:\n"
    "\u201cPasal 3\nSetiap orang yang menyalahgunakan kewenangan dipidana dengan pidana"
    " penjara seumur hidup.\u201d\n"
    "2. Ketentuan Pasal 99 diubah sehingga berbunyi sebagai berikut:\n"
    "\u201cPasal 99\nKetentuan yang tidak pernah ada.\u201d\n"
)


def test_the_unknown_pasal_is_a_conflict_and_the_known_one_is_applied(store_dir: Path) -> None:
    ingest(store_dir, TIPIKOR[0])
    ingest(store_dir, "uu_5_2003_perubahan_kedua_tipikor.md", amending_tipikor(ITEMS))
    conflict = AmendmentInstruction.objects.get(state=InstructionState.CONFLICT)
    assert "99" in conflict.target and conflict.reason
    assert not PasalVersion.objects.filter(number="99").exists()
    pasal_3 = PasalVersion.objects.filter(number="3").order_by("seq").last()
    assert pasal_3 is not None and pasal_3.state == "amended"
    assert "seumur hidup" in pasal_3.text
