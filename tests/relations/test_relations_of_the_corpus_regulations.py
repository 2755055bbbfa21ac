"""Relations read from the real regulations of the development corpus (skipped when absent).

UU 13/2003 repeals older labour laws in its Ketentuan Penutup; the UU Cipta Kerja pages
amend four laws (one of them "sebagaimana telah diubah dengan" a fifth, which is not a
target); Pergub Bali 1/2021 and the Banjarnegara abstract amend by their titles; GALQA's
Peraturan Pemerintah repeal in their closing provisions, one of them only in part.
"""

from __future__ import annotations

import pytest

from ingestion.legal.citation import parse_regulation
from ingestion.legal.relations import SectionText, extract_relations
from ingestion.pipeline.chunk import chunk_document
from ingestion.pipeline.parse import ParseLimits, parse
from tests.corpus import CORPUS


def relations(relative: str) -> set[tuple[str, str]]:
    path = CORPUS / relative
    if not path.exists():
        pytest.skip("corpus absent")
    parsed = parse(path, path.suffix.lstrip(".").replace("markdown", "md"), ParseLimits())
    drafts = chunk_document(parsed.blocks, budget_tokens=350, overlap_tokens=40)
    sections = [SectionText(d.heading_path_text, d.text, d.page_from) for d in drafts]
    found = extract_relations(path.name, sections, parse_regulation(path.stem))
    return {(r.kind, r.citation) for r in found}


def test_uu_13_2003_repeals_the_older_labour_laws() -> None:
    repealed = relations("docs/uu_13_2003_ketenagakerjaan.pdf")
    assert repealed == {
        ("repeals", citation)
        for citation in (
            "Ordonansi 9/1949",
            "UU 1/1951",
            "UU 21/1954",
            "UU 3/1958",
            "UU 8/1961",
            "UU 14/1969",
            "UU 25/1997",
            "UU 11/1998",
            "UU 28/2000",
        )
    }
    # Named only inside item 15's title ("… tentang Penetapan Perppu 3/2000 …").
    assert ("repeals", "Perppu 3/2000") not in repealed


def test_the_cipta_kerja_pages_amend_four_laws_not_the_earlier_amendment() -> None:
    assert relations("docs/uu_cipta_kerja_pages_3-13.pdf") == {
        ("amends", "UU 26/2007"),
        ("amends", "UU 27/2007"),
        ("amends", "UU 32/2014"),
        ("amends", "UU 4/2011"),
    }


def test_perba_7_2019_repeals_the_agency_heads_regulation_it_replaces() -> None:
    # Pages read by OCR in the pipeline carry no text here; Pasal 49 is on a typed page.
    assert relations("docs/perba_7_2019_izin_bekerja_MIXED.pdf") == {
        ("repeals", "Perka Pengawas Tenaga Nuklir 6/2013")
    }


def test_pergub_bali_1_2021_amends_pergub_bali_29_2019_by_its_title() -> None:
    assert relations("docs/pergub_bali_1_2021_kelas_jabatan.pdf") == {
        ("amends", "Pergub Bali 29/2019")
    }


def test_the_banjarnegara_abstract_names_the_amended_perda() -> None:
    assert relations("docs/perda_banjarnegara_8_2025_abstrak.pdf") == {
        ("amends", "Perda Banjarnegara 8/2023")
    }


@pytest.mark.parametrize(
    ("name", "expected"),
    [
        ("pp_10_2020", {"PP 4/2013"}),
        ("pp_34_2021", {"Perpres 20/2018"}),
        ("pp_59_2021", {"PP 3/2013", "PP 5/2013", "PP 4/2015", "Perpres 64/2011"}),
        # PP 53/2010 is repealed "sepanjang tidak mengatur …": only in part, still in force.
        ("pp_94_2021", {"PP 6/1974"}),
        # Cites PP 44/2015 "sebagaimana telah diubah dengan PP 82/2019" throughout.
        ("pp_49_2020", set()),
        # "ketentuan mengenai … yang diatur dalam PP 99/2013 … diberlakukan": no repeal.
        ("pp_37_2021", set()),
    ],
)
def test_galqa_regulations_repeal_in_their_closing_provisions(
    name: str, expected: set[str]
) -> None:
    assert relations(f"galqa/docs/{name}.txt") == {("repeals", c) for c in expected}
