"""A known Pasal's ayat and huruf come back with the right labels, spans and pages."""

from __future__ import annotations

from uuid import UUID

import pytest

from ingestion.legal.units import UnitKind
from ingestion.models import LegalUnit
from tests.legal.helpers import IndexRegulation

pytestmark = pytest.mark.django_db


def _unit(document_id: UUID, label: str) -> LegalUnit:
    return LegalUnit.objects.select_related("chunk").get(document_id=document_id, label=label)


def test_uu_13_2003_pasal_59_ayat_1_huruf_d_has_its_label_span_and_page(
    index_regulation: IndexRegulation,
) -> None:
    document = index_regulation(
        "docs/uu_13_2003_ketenagakerjaan.pdf", "pdf", "uu_13_2003_ketenagakerjaan.pdf"
    )
    huruf = _unit(document.pk, "Pasal 59 ayat (1) huruf d")
    assert (huruf.kind, huruf.pasal, huruf.ayat, huruf.huruf) == (UnitKind.HURUF, "59", "1", "d")
    assert huruf.text.startswith("d. pekerjaan yang berhubungan dengan produk baru")
    assert huruf.chunk.text[huruf.start : huruf.end] == huruf.text
    assert huruf.page == 19  # huruf a-c are on page 18, d continues on 19
    assert _unit(document.pk, "Pasal 59 ayat (1) huruf a").page == 18
    ayat = _unit(document.pk, "Pasal 59 ayat (1)")
    assert ayat.text.startswith("(1) Perjanjian kerja untuk waktu tertentu hanya dapat dibuat")
    assert ayat.start <= huruf.start and huruf.end <= ayat.end
    # a huruf is indexed with its ayat's lead-in, so "pekerjaan tertentu … yaitu" finds it
    assert "hanya dapat dibuat untuk pekerjaan tertentu" in huruf.context
    assert document.citation == "UU 13/2003"  # from the document's own heading


def test_pp_34_2021_pasal_21_ayat_4_huruf_g(index_regulation: IndexRegulation) -> None:
    document = index_regulation("galqa/docs/pp_34_2021.txt", "txt", "pp_34_2021.txt")
    huruf = _unit(document.pk, "Pasal 21 ayat (4) huruf g")
    assert huruf.text.startswith("g. laporan realisasi pelaksanaan pendidikan dan pelatihan kerja")
    assert huruf.chunk.text[huruf.start : huruf.end] == huruf.text
    assert (huruf.page, huruf.depth) == (1, 2)
    labels = list(
        LegalUnit.objects.filter(document=document, pasal="21", penjelasan=False)
        .exclude(huruf="")
        .filter(ayat="4")
        .values_list("huruf", flat=True)
    )
    assert labels == list("abcdefg")
    assert document.citation == "PP 34/2021"


def test_pp_37_2021_markdown_pasal_4_ayat_2_huruf_b(index_regulation: IndexRegulation) -> None:
    document = index_regulation("docs/pp_37_2021_jkp.md", "md", "PP 37 Tahun 2021 tentang JKP")
    huruf = _unit(document.pk, "Pasal 4 ayat (2) huruf b")
    assert huruf.text.startswith("b. belum mencapai usia 54 (lima puluh empat) tahun")
    assert document.citation == "PP 37/2021"


def test_pasal_1_definitions_are_angka_units(index_regulation: IndexRegulation) -> None:
    document = index_regulation("galqa/docs/pp_34_2021.txt", "txt", "pp_34_2021.txt")
    angka = _unit(document.pk, "Pasal 1 angka 4")
    assert angka.kind == UnitKind.ANGKA
    assert "RPTKA adalah rencana penggunaan TKA" in angka.text
