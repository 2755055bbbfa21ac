"""A passage outside a regulation's body (its cover, Menimbang, Mengingat, or the general
part of its Penjelasan) states reasons, not the rule: a question about the rule is answered
by a Pasal first, even when the preamble repeats the question's words more often. Named
alone, a regulation is still answered by its opening."""

from __future__ import annotations

import pytest

from ingestion.search.named import is_opening
from ingestion.search.service import SearchQuery, search
from tests.relations.helpers import Regulation, StoreRegulation
from tests.search.helpers import HashEmbedder

pytestmark = pytest.mark.django_db

QUESTION = "Bagaimana pasar tradisional dilindungi dari persaingan pasar modern?"
REASON = (
    "bahwa pasar tradisional perlu dilindungi dari persaingan pasar modern, karena pasar "
    "tradisional dan pedagang pasar tradisional kalah bersaing dengan pasar modern"
)
RULE = (
    "Pemerintah Daerah membatasi jarak pasar modern paling dekat 1 kilometer dari pasar "
    "tradisional."
)
GENERAL_ELUCIDATION = (
    "PENJELASAN\nATAS\nPERATURAN DAERAH KABUPATEN BANJARNEGARA\nNOMOR 5 TAHUN 2024\n"
    "I. UMUM\nPasar tradisional perlu dilindungi dari persaingan pasar modern. Persaingan "
    "pasar modern membuat pasar tradisional dan pedagang pasar tradisional kalah bersaing.\n"
)


def _stored(regulation: StoreRegulation, *, preamble: str, elucidation: str = "") -> None:
    text = Regulation(
        menimbang=(preamble, "bahwa perlu menetapkan Peraturan Daerah"),
        pasals=["Retribusi dipungut atas pelayanan pasar.", RULE],
    ).text()
    regulation(
        text + elucidation, title="Peraturan Daerah Kabupaten Banjarnegara Nomor 5 Tahun 2024"
    )


def _heading_paths(text: str) -> list[str]:
    hits = search(SearchQuery(text=text, limit=10), embedder=HashEmbedder()).results
    return [hit.heading_path for hit in hits]


def test_the_pasal_comes_before_a_menimbang_that_repeats_the_question(
    regulation: StoreRegulation,
) -> None:
    _stored(regulation, preamble=REASON)
    paths = _heading_paths(QUESTION)
    assert is_opening(paths[-1]), paths  # the preamble is found, and comes last
    assert paths[0].endswith("Pasal 2"), paths


def test_the_pasal_comes_before_the_general_part_of_the_penjelasan(
    regulation: StoreRegulation,
) -> None:
    _stored(regulation, preamble="bahwa pasar perlu ditata", elucidation=GENERAL_ELUCIDATION)
    paths = _heading_paths(QUESTION)
    assert any(path.startswith("PENJELASAN") for path in paths), paths
    assert paths[0].endswith("Pasal 2"), paths


def test_named_alone_the_regulation_is_still_answered_by_its_opening(
    regulation: StoreRegulation,
) -> None:
    _stored(regulation, preamble=REASON)
    paths = _heading_paths("Peraturan Daerah Kabupaten Banjarnegara Nomor 5 Tahun 2024")
    assert is_opening(paths[0]), paths
