"""A regulation states a rule once in general and again in each sector's section ("Bagian
Ketujuh Sektor Perindustrian"). Each candidate carries the share of its section titles'
words the question does not hold, and the share of the question's words its titles hold;
the shipped fusion counts both against it. They are two columns among many, so these tests
read the columns as search computes them from the database, and the model's signs; the
bench's folds and outside set measure what they do to rankings (docs/decisions.md)."""

from __future__ import annotations

import pytest

from ingestion.search.features import _section
from ingestion.search.fusion import load_model
from ingestion.search.service import Prepared, SearchQuery, SearchTuning, prepare
from tests.search.helpers import HashEmbedder, add_chunk, fresh_term_stats, make_document

pytestmark = pytest.mark.django_db

TITLE = "Peraturan Pemerintah Nomor 5 Tahun 2021 tentang Perizinan Berusaha Berbasis Risiko"
GENERAL = "BAB II PENGATURAN PERIZINAN BERUSAHA › Bagian Kesatu Umum"
RULE = "Perizinan Berusaha untuk kegiatan usaha dengan tingkat Risiko rendah berupa NIB."
SECTOR_RULE = RULE  # each sector restates it in the same words
SECTORS = ["Perindustrian", "Perdagangan", "Pariwisata", "Kesehatan", "Pertanian"]


def _stored() -> None:
    document = make_document(TITLE)
    add_chunk(document, "Pasal 12\n" + RULE, heading_path=f"{GENERAL} › Pasal 12")
    for number, sector in enumerate(SECTORS, start=60):
        heading = f"BAB III › Bagian Ketujuh Sektor {sector} › Pasal {number}"
        add_chunk(document, f"Pasal {number}\n{SECTOR_RULE}", heading_path=heading)
    # Other Pasal, so that the rule's words are not in every chunk (their IDF would be 0).
    for filler in range(30):
        number = 100 + filler
        text = f"Pasal {number}\nKetentuan lain nomor {filler}."
        add_chunk(document, text, heading_path=f"Pasal {number}")


def _signals(question: str) -> dict[str, dict[str, float]]:
    """Each candidate's section columns, by the last part of its heading path."""
    with fresh_term_stats():
        prepared: Prepared = prepare(
            SearchQuery(text=question), HashEmbedder(), SearchTuning.from_settings()
        )
    return {
        row.heading_path.rsplit("› ", 1)[-1]: {
            name: row.values[name] for name in ("section_unasked", "section_asked")
        }
        for row in prepared.rows
    }


def test_a_sector_pasal_holds_section_words_a_general_question_does_not() -> None:
    _stored()
    signals = _signals("Apa bentuk Perizinan Berusaha untuk kegiatan usaha dengan Risiko rendah?")
    general, sector = signals["Pasal 12"], signals["Pasal 60"]
    assert general["section_unasked"] < sector["section_unasked"], signals
    assert general["section_asked"] > 0.0, signals
    assert sector["section_asked"] == 0.0, signals


def test_a_question_naming_the_sector_shares_that_section_s_words() -> None:
    _stored()
    signals = _signals("Apa bentuk Perizinan Berusaha sektor pariwisata untuk Risiko rendah?")
    named, other = signals["Pasal 62"], signals["Pasal 60"]  # Pariwisata, Perindustrian
    assert named["section_unasked"] < other["section_unasked"], signals
    assert named["section_asked"] > other["section_asked"], signals


def test_the_pasal_s_own_number_is_not_a_section_word() -> None:
    _stored()
    signals = _signals("Pasal 100 tentang ketentuan lain nomor 0")
    assert signals["Pasal 100"] == {"section_unasked": 0.0, "section_asked": 0.0}, signals


def test_the_numbers_below_the_section_titles_are_not_section_words() -> None:
    document = make_document(TITLE)
    heading = "BAB I KETENTUAN UMUM › Pasal 1 › angka 7"
    add_chunk(document, "7. Risiko adalah potensi terjadinya cedera.", heading_path=heading)
    for filler in range(5):
        add_chunk(document, f"Pasal {100 + filler}\nKetentuan lain nomor {filler}.")
    signals = _signals("Pasal 1 angka 7 risiko")
    assert signals["angka 7"]["section_asked"] == 0.0, signals


def test_the_shipped_fusion_counts_both_section_signals_against_a_chunk() -> None:
    model = load_model()
    weights = dict(zip(model.features, model.weights, strict=True))
    assert weights["section_unasked"] < 0.0, weights
    assert weights["section_asked"] < 0.0, weights


def test_section_words_the_question_does_not_hold_count_by_their_weight() -> None:
    idf = {"sektor": 2.0, "industri": 3.0, "izin": 1.0}
    assert _section(["sektor", "industri"], {"izin"}, idf) == {
        "section_unasked": 1.0,
        "section_asked": 0.0,
    }
    both = _section(["sektor", "industri"], {"izin", "industri"}, idf)
    assert both == {"section_unasked": 2.0 / 5.0, "section_asked": 3.0 / 4.0}


def test_a_chunk_without_section_titles_has_neither_signal() -> None:
    assert _section([], {"izin"}, {"izin": 1.0}) == {"section_unasked": 0.0, "section_asked": 0.0}
