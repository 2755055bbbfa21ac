"""The definition reader's table: the term a question asks about, the term a unit defines,
and how well one covers the other."""

from __future__ import annotations

import pytest

from ingestion.legal.definitions import (
    MIN_MATCH,
    defined_terms,
    definition_term,
    match_score,
    words,
)

QUESTIONS: list[tuple[str, str | None]] = [
    ("Apa yang dimaksud dengan JKM?", "jkm"),
    ("apa yang dimaksudkan dengan pemberi kerja", "pemberi kerja"),
    ("Apakah yang dimaksud dengan Iuran ?", "iuran"),
    ("Apa itu Perjanjian Kerja?", "perjanjian kerja"),
    ("Apa pengertian dari tahapan represif non yustisia?", "tahapan represif non yustisia"),
    ("definisi Pekerja Migran Indonesia", "pekerja migran indonesia"),
    ("Apa yang dimaksud dengan PKL dalam Peraturan Pemerintah ini?", "pkl"),
    ("Apa yang dimaksud dengan Perwakilan RI di Luar Negeri?", "perwakilan ri di luar negeri"),
    ("Jelaskan pengertian Upah Minimum", "upah minimum"),
    ("Apa yang dimaksud Pekerja Migran Indonesia?", "pekerja migran indonesia"),
    ("Bagaimana tata cara pembayaran iuran JKK?", None),
    ("Apa yang dimaksud dalam Pasal 5?", None),
    ("Siapa yang dimaksud sebagai peserta?", None),
]


@pytest.mark.parametrize(("question", "term"), QUESTIONS)
def test_the_asked_term_is_read_from_a_definition_question(question: str, term: str | None) -> None:
    assert definition_term(question) == (term.split() if term else None)


UNITS: list[tuple[str, list[str]]] = [
    ("3. Pemberi Kerja adalah orang perseorangan, pengusaha, badan hukum", ["pemberi kerja"]),
    (
        "2. Jaminan Kematian yang selanjutnya disingkat JKM adalah manfaat uang tunai",
        ["jaminan kematian", "jkm"],
    ),
    (
        "11. Badan Penyelenggara Jaminan Sosial Ketenagakerjaan yang selanjutnya disebut "
        "BPJS Ketenagakerjaan adalah badan hukum publik",
        ["badan penyelenggara jaminan sosial ketenagakerjaan", "bpjs ketenagakerjaan"],
    ),
    (
        "(3). Tahapan represif non yustisia sebagaimana dimaksud pada ayat (1) huruf b, "
        "merupakan upaya paksa diluar lembaga pengadilan",
        ["tahapan represif non yustisia"],
    ),
    ("b. represif non yustisia, dan/atau", []),
    ("(2) Pemberi Kerja wajib mendaftarkan Pekerja kepada BPJS.", []),
]


@pytest.mark.parametrize(("text", "terms"), UNITS)
def test_the_defined_term_and_its_short_form_are_read_from_a_unit(
    text: str, terms: list[str]
) -> None:
    assert defined_terms(text) == [t.split() for t in terms]


def test_an_exact_definition_beats_one_that_only_starts_with_the_term() -> None:
    asked = words("Peserta Bukan Penerima Upah")
    exact = match_score(asked, words("Peserta Bukan Penerima Upah"))
    shorter = match_score(asked, words("Peserta"))
    assert exact == 1.0
    assert shorter < MIN_MATCH


def test_a_qualified_question_still_matches_the_plain_definition() -> None:
    asked = words("Pemberi Kerja terkait dengan Pekerja Migran Indonesia")
    assert match_score(asked, words("Pemberi Kerja")) > 0
    assert match_score(asked, words("Pemberi Kerja")) < match_score(asked, asked)


def test_a_short_form_named_by_its_head_matches() -> None:
    assert match_score(["ltsa"], words("LTSA Pekerja Migran Indonesia")) >= MIN_MATCH


def test_terms_that_only_share_a_later_word_do_not_match() -> None:
    assert match_score(words("perjanjian kerja"), words("kerja sama")) == 0.0
