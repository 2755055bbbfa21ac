"""``unit_in_force``: the amended wording today, the original before the amendment."""

from __future__ import annotations

from datetime import date
from pathlib import Path

import pytest

from ingestion.relations.consolidated import UnitNotFound, unit_in_force
from tests.consolidation.helpers import TIPIKOR, ingest

pytestmark = pytest.mark.django_db


def test_pasal_5_of_the_tipikor_law_reads_as_amended_today_and_as_enacted_in_2000(
    store_dir: Path,
) -> None:
    for name in TIPIKOR:
        ingest(store_dir, name)
    today = unit_in_force("UU 31/1999 Pasal 5 ayat (1)")
    assert today.citation == "UU 31/1999 Pasal 5 ayat (1)"
    assert (
        today.citation_full
        == "UU 31/1999 Pasal 5 ayat (1) sebagaimana telah diubah dengan UU 20/2001"
    )
    assert today.text is not None and "pegawai negeri atau penyelenggara negara" in today.text
    assert [c.citation for c in today.pasal.changed_by] == ["UU 20/2001"]
    before = unit_in_force("UU 31/1999 Pasal 5", as_of=date(2000, 6, 1))
    assert before.pasal.state == "original"
    assert before.text is not None and "Pasal 209 Kitab Undang-undang Hukum Pidana" in before.text


def test_a_reference_that_names_nothing_here_is_refused_in_indonesian(store_dir: Path) -> None:
    for name in TIPIKOR:
        ingest(store_dir, name)
    with pytest.raises(UnitNotFound, match="tidak memuat Pasal 999"):
        unit_in_force("UU 31/1999 Pasal 999")
    with pytest.raises(UnitNotFound, match="tidak ada dalam korpus"):
        unit_in_force("UU 5/1960 Pasal 1")
