"""The OCR decision on every real PDF of the development corpus (skipped when absent)."""

from __future__ import annotations

import pymupdf
import pytest

from ingestion.pipeline.parse import decide_page_ocr
from tests.pipeline_parse.helpers import CORPUS_DOCS

# page numbers that need OCR, per corpus PDF (read from the corpus README and by eye)
EXPECTED_OCR_PAGES = {
    "perba_7_2019_izin_bekerja_MIXED.pdf": [1, 26, 29, 41, 43, 56],
    "perda_banjarnegara_8_2025_abstrak.pdf": [],
    "pergub_bali_1_2021_kelas_jabatan.pdf": [],
    # Its hidden OCR layer is good on pages 1-7 and garbage from page 8 on (rotated tables).
    "perpres_60_2019_keselamatan_nuklir_SCAN_OCR.pdf": list(range(8, 88)),
    "pinrang_perda_3_2017_SCAN.pdf": [1, 2, 3],
    "uu_13_2003_ketenagakerjaan.pdf": [],
    "uu_cipta_kerja_pages_3-13.pdf": [],
}


@pytest.mark.parametrize("name", sorted(EXPECTED_OCR_PAGES))
def test_each_corpus_pdf_gets_the_expected_ocr_pages(name: str) -> None:
    path = CORPUS_DOCS / name
    if not path.exists():
        pytest.skip("corpus absent")
    with pymupdf.open(path) as doc:
        needs = [page.number + 1 for page in doc if decide_page_ocr(page).needs_ocr]
    assert needs == EXPECTED_OCR_PAGES[name]


def test_a_good_hidden_layer_is_used_and_a_garbled_one_is_ocrd() -> None:
    path = CORPUS_DOCS / "perpres_60_2019_keselamatan_nuklir_SCAN_OCR.pdf"
    if not path.exists():
        pytest.skip("corpus absent")
    with pymupdf.open(path) as doc:
        reasons = [decide_page_ocr(page).reason for page in doc]
    assert set(reasons[:7]) == {"hidden_text_layer"}
    assert set(reasons[7:]) == {"garbled_hidden_layer"}
