"""A born-digital regulation's text comes out as it is printed: justified lines back into
their sentences, hyphenated words whole, each ayat, huruf and angka on a line of its own,
and nothing of the page furniture (running head, folio, catchword) inside the text."""

from __future__ import annotations

from pathlib import Path

import pymupdf
import pytest

from ingestion.pipeline.parsers.pdf import parse_pdf
from ingestion.pipeline.parsers.safety import ParseLimits
from tests.pipeline_parse.helpers import GAZETTE_LEFT, gazette_page, write

ITEM = GAZETTE_LEFT + 20  # where an item's text hangs


@pytest.fixture
def regulation(tmp_path: Path) -> Path:
    doc = pymupdf.open()
    gazette_page(
        doc,
        [
            (270, "Pasal 5", True),
            (GAZETTE_LEFT, "(1) Bendahara Penerimaan melakukan Penagihan PNBP kepada Wajib", False),
            (ITEM, "Bayar setelah diterbitkannya surat pemberitahuan hasil penilai-", False),
            (ITEM, "an persyaratan yang menyatakan:", True),
            (ITEM, "a. permohonan atas pelayanan sebagaimana dimaksud dalam masing-", False),
            (ITEM + 15, "masing Pasal 2 ayat (2) dinyatakan lengkap dan memenuhi", False),
            (ITEM + 15, "syarat; dan", True),
            (ITEM, "b. Wajib Bayar dapat mengikuti ujian dalam Undang-", False),
            (ITEM + 15, "Undang ini sebagaimana dimaksud dalam Pasal 2 ayat (2) huruf e", False),
        ],
        catchword="Pasal 6 . . .",
    )
    gazette_page(
        doc,
        [
            (ITEM + 15, "yang berlaku pada tanggal penetapan.", True),
            (270, "Pasal 6", True),
            (GAZETTE_LEFT, "Peraturan ini mulai berlaku pada tanggal diundangkan.", True),
        ],
        folio="- 2 -",
    )
    for number in (3, 4):
        gazette_page(doc, [(GAZETTE_LEFT, "Cukup jelas.", True)], folio=f"- {number} -")
    return write(doc, tmp_path / "regulation.pdf")


def _texts(path: Path) -> list[str]:
    return [b.text for b in parse_pdf(path, ParseLimits()).blocks]


def test_justified_lines_come_back_as_one_line_per_ayat_and_huruf(regulation: Path) -> None:
    texts = _texts(regulation)
    assert texts[:2] == [
        "Pasal 5",
        "(1) Bendahara Penerimaan melakukan Penagihan PNBP kepada Wajib Bayar setelah "
        "diterbitkannya surat pemberitahuan hasil penilaian persyaratan yang menyatakan:",
    ]
    assert texts[2].startswith("a. permohonan atas pelayanan")
    assert texts[3].startswith("b. Wajib Bayar dapat mengikuti ujian")


def test_a_syllable_hyphen_goes_and_the_languages_own_hyphens_stay(regulation: Path) -> None:
    texts = _texts(regulation)
    assert "hasil penilaian persyaratan" in texts[1]
    assert "dalam masing-masing Pasal 2" in texts[2]
    assert "dalam Undang-Undang ini" in texts[3]


def test_running_head_folio_and_catchword_are_not_text(regulation: Path) -> None:
    joined = "\n".join(_texts(regulation))
    assert "PRESIDEN" not in joined
    assert "- 2 -" not in joined
    assert ". . ." not in joined


def test_a_sentence_over_a_page_break_goes_on_from_the_page_before(regulation: Path) -> None:
    blocks = parse_pdf(regulation, ParseLimits()).blocks
    runs_on = next(b for b in blocks if b.text.startswith("yang berlaku pada tanggal"))
    assert runs_on.page == 2 and runs_on.joins_previous
    assert not next(b for b in blocks if b.text == "Pasal 6").joins_previous


def test_a_heading_opening_many_pages_is_not_taken_for_a_running_head(tmp_path: Path) -> None:
    doc = pymupdf.open()
    for number in range(1, 7):
        gazette_page(
            doc,
            [(270, f"Pasal {number}", True), (GAZETTE_LEFT, "Cukup jelas.", True)],
            folio=f"- {number} -",
        )
    texts = _texts(write(doc, tmp_path / "penjelasan.pdf"))
    assert [t for t in texts if t.startswith("Pasal")] == [f"Pasal {n}" for n in range(1, 7)]
