"""A passage outside a regulation's body (its cover, Menimbang, Mengingat, or the general
part of its Penjelasan) states reasons, not the rule: a question about the rule is answered
by a Pasal first, even when the preamble repeats the question's words more often. Named
alone, a regulation is still answered by its opening. A document without a body (a
circular, a PPID page) has no opening, and an annex is part of the regulation."""

from __future__ import annotations

import pytest

from ingestion.search.named import is_opening
from ingestion.search.service import SearchHit, SearchQuery, search
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


def _hits(text: str) -> list[SearchHit]:
    return search(SearchQuery(text=text, limit=10), embedder=HashEmbedder()).results


def _heading_paths(text: str) -> list[str]:
    return [hit.heading_path for hit in _hits(text)]


def test_the_pasal_comes_before_a_menimbang_that_repeats_the_question(
    regulation: StoreRegulation,
) -> None:
    _stored(regulation, preamble=REASON)
    hits = _hits(QUESTION)
    preamble = [i for i, hit in enumerate(hits) if "kalah bersaing" in hit.text]
    assert preamble and is_opening(hits[preamble[0]].heading_path), hits  # found, an opening
    assert hits[0].heading_path.endswith("Pasal 2"), [hit.heading_path for hit in hits]


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


def test_a_document_without_a_body_is_not_demoted_as_an_opening(
    regulation: StoreRegulation,
) -> None:
    _stored(regulation, preamble="bahwa pasar perlu ditata")
    circular = regulation(
        "SURAT EDARAN BUPATI BANJARNEGARA\n" + GENERAL_ELUCIDATION.split("I. UMUM\n", 1)[1],
        title="Surat Edaran Bupati tentang Pasar Tradisional",
    )
    hits = _hits(QUESTION)
    assert hits[0].document_id == str(circular.pk), [h.heading_path for h in hits]


def test_an_annex_is_part_of_the_regulation_not_an_opening() -> None:
    assert not is_opening("LAMPIRAN I")
    assert is_opening("Pembukaan") and is_opening("PENJELASAN") and is_opening("Penutup")
