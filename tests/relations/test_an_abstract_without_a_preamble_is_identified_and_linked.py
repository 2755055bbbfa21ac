"""A JDIH abstract has no preamble: it prints "PERDA NO.8, LD 2025/NO.8" under a year and
then its subject. It is still known as Perda 8/2025, from its text alone, and the Perda it
amends is linked."""

from __future__ import annotations

import pytest

from ingestion.legal.identity import document_identity, opening_of
from ingestion.pipeline.chunk import chunk_document
from ingestion.pipeline.parse import ParseLimits, parse
from tests.corpus import CORPUS
from tests.relations.helpers import StoreRegulation, plain

ABSTRACT = """PAJAK - RETRIBUSI
2025
PERDA NO.8, LD 2025/NO.8, 11 HLM.
PERATURAN DAERAH TENTANG PERUBAHAN ATAS PERATURAN DAERAH NOMOR 8 TAHUN 2023
TENTANG PAJAK DAERAH DAN RETRIBUSI DAERAH
ABSTRAK
:
- Kebijakan pajak daerah dilaksanakan berdasarkan prinsip demokrasi. Sebagai tindak lanjut
dari Pasal 99 Undang-Undang Nomor 1 Tahun 2022 tentang Hubungan Keuangan perlu perubahan.
CATATAN : Peraturan Daerah ini mulai berlaku pada tanggal diundangkan.
"""


@pytest.mark.django_db
def test_a_stored_abstract_gets_its_citation_and_links_the_perda_it_amends(
    regulation: StoreRegulation,
) -> None:
    target = regulation(plain("8", "2023", "PAJAK DAERAH"), title="Perda 8/2023")
    abstract = regulation(ABSTRACT, title="arsip.pdf")
    assert abstract.regulation_key == "peraturan daerah|8|2025"
    relation = abstract.relations_out.get()
    assert (relation.kind, relation.target_document_id) == ("amends", target.pk)


def test_the_corpus_abstract_is_identified_from_its_text_alone() -> None:
    path = CORPUS / "docs" / "perda_banjarnegara_8_2025_abstrak.pdf"
    if not path.exists():
        pytest.skip("corpus absent")
    blocks = parse(path, "pdf", ParseLimits()).blocks
    drafts = chunk_document(blocks, budget_tokens=350, overlap_tokens=40)
    opening = opening_of((d.heading_path_text, d.text) for d in drafts)
    ref = document_identity("arsip.pdf", {}, opening)
    assert ref is not None and ref.short == "Perda 8/2025"
