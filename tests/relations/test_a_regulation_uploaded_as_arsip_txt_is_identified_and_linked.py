"""Through the real pipeline: a regulation whose file says nothing ("arsip.txt") is known
by its own printed heading, even an OCR-damaged one, so its repeal or amendment is linked
in the graph whichever side arrives first."""

from __future__ import annotations

from pathlib import Path

import pytest

from ingestion.models import Document, RegulationRelation
from tests.relations.helpers import Regulation, ingest_file, plain

pytestmark = pytest.mark.django_db


def scanned(regulation: Regulation) -> str:
    """The text as a poor scan leaves it: no "DENGAN RAHMAT TUHAN", "Menimbang" misread."""
    text = regulation.text().replace("DENGAN RAHMAT TUHAN YANG MAHA ESA\n", "")
    return text.replace("Menimbang :", "ivlenimbang :")


def test_an_amending_perda_uploaded_as_arsip_txt_is_linked_to_the_perda_it_amends(
    store_dir: Path,
) -> None:
    target = ingest_file(
        store_dir, "perda_3_2010.txt", plain("3", "2010").encode(), title="Perda 3/2010"
    )
    amending = Regulation(
        heading="PERATURAN DAERAH KABUPATEN BANJARNEGARA\nNOMOR I1 TAHVN 2O24",
        tentang="PERUBAHAN ATAS PERATURAN DAERAH NOMOR 3 TAHUN 2010 TENTANG RETRIBUSI PASAR",
    )
    arsip = ingest_file(store_dir, "arsip.txt", scanned(amending).encode(), title="arsip.txt")
    document = Document.objects.get(pk=arsip)
    assert document.citation == "Perda Banjarnegara 11/2024"
    assert document.regulation_key == "peraturan daerah|11|2024"
    assert "Perda Banjarnegara No. 11/2024" in document.title_labels.splitlines()
    relation = RegulationRelation.objects.get(source_document_id=arsip)
    assert (relation.kind, relation.target_document_id) == ("amends", target)


def test_a_repealed_perda_uploaded_later_as_arsip_txt_is_found_and_marked_not_in_force(
    store_dir: Path,
) -> None:
    repealing = Regulation(
        heading="PERATURAN DAERAH KABUPATEN BANJARNEGARA\nNOMOR 9 TAHUN 2024",
        closing=[
            "Pada saat Peraturan Daerah ini mulai berlaku, Peraturan Daerah Nomor 3 Tahun"
            " 2010 tentang Retribusi Pasar dicabut dan dinyatakan tidak berlaku.",
            "Peraturan Daerah ini mulai berlaku pada tanggal diundangkan.",
        ],
    )
    new = ingest_file(store_dir, "perda_9_2024.txt", repealing.text().encode(), title="Perda 9")
    old_text = scanned(
        Regulation(heading="PERATURAN DAERAH KABUPATEN BANJARNEGARA\nN0MOR 3 TAHUN 2O1O")
    )
    old = ingest_file(store_dir, "arsip.txt", old_text.encode(), title="arsip.txt")
    assert RegulationRelation.objects.get(source_document_id=new).target_document_id == old
    assert Document.objects.get(pk=old).in_force is False
    assert Document.objects.get(pk=new).citation == "Perda Banjarnegara 9/2024"
