"""Asked for, a repealed regulation's matching unit is shown, marked not in force, even
when the regulation that repealed it says nearly the same: a person comparing the old
wording with the new must see both."""

from __future__ import annotations

import pytest

from ingestion.search.service import SearchQuery, search
from tests.relations.helpers import Regulation, StoreRegulation
from tests.search.helpers import HashEmbedder

pytestmark = pytest.mark.django_db

DUTIES = [
    f"Kepala Dinas {topic} melaksanakan tugas pembinaan dan pengawasan di bidangnya."
    for topic in (
        "Pendidikan",
        "Kesehatan",
        "Perhubungan",
        "Pertanian",
        "Perikanan",
        "Kehutanan",
        "Pariwisata",
        "Perdagangan",
        "Perindustrian",
        "Kebudayaan",
    )
]
OLD = "Peraturan Gubernur Aceh Nomor 5 Tahun 2019 tentang Tugas Dinas"


def _pergub(number: str, year: str, closing: list[str]) -> str:
    return Regulation(
        heading=f"PERATURAN GUBERNUR ACEH\nNOMOR {number} TAHUN {year}",
        tentang="TUGAS DINAS",
        menetapkan="PERATURAN GUBERNUR TENTANG TUGAS DINAS.",
        pasals=DUTIES,
        closing=closing,
    ).text()


@pytest.fixture
def pergubs(regulation: StoreRegulation) -> None:
    regulation(
        _pergub("5", "2019", ["Peraturan Gubernur ini mulai berlaku."]),
        title="Pergub 5/2019",
        source_key="old",
    )
    repeal = (
        f"Pada saat Peraturan Gubernur ini mulai berlaku, {OLD} dicabut dan dinyatakan"
        " tidak berlaku."
    )
    regulation(
        _pergub("7", "2024", [repeal, "Peraturan Gubernur ini mulai berlaku."]),
        title="Pergub 7/2024",
        source_key="new",
    )


def _hits(include_repealed: bool) -> list[tuple[str, bool | None]]:
    query = SearchQuery(
        text="Kepala Dinas Perikanan melaksanakan tugas pembinaan dan pengawasan",
        limit=5,
        include_repealed=include_repealed,
    )
    return [(h.title, h.in_force) for h in search(query, embedder=HashEmbedder()).results]


def test_the_repealed_unit_is_hidden_unless_asked_for(pergubs: None) -> None:
    assert all(title == "Pergub 7/2024" for title, _ in _hits(False))


def test_asked_for_the_repealed_unit_is_shown_not_in_force(pergubs: None) -> None:
    hits = _hits(True)
    assert hits[0] == ("Pergub 7/2024", True)
    assert ("Pergub 5/2019", False) in hits
