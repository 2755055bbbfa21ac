"""Through the real pipeline: the UU Cipta Kerja pages are ingested first and amend laws
that are not here yet; when UU 26/2007 arrives later it is linked as amended, in force.
A generated Perda repealing one that arrives after it ends not in force."""

from __future__ import annotations

from pathlib import Path

import pytest

from ingestion.models import Document, RegulationRelation
from tests.relations.helpers import Regulation, ingest_file, plain, repealing

pytestmark = pytest.mark.django_db

CIPTA_KERJA = Path("/work/shared/corpus/docs/uu_cipta_kerja_pages_3-13.pdf")
PENATAAN_RUANG = Regulation(
    heading="UNDANG-UNDANG REPUBLIK INDONESIA\nNOMOR 26 TAHUN 2007",
    tentang="PENATAAN RUANG",
    menetapkan="UNDANG-UNDANG TENTANG PENATAAN RUANG.",
    pasals=["Ruang adalah wadah yang meliputi ruang darat.", "Penataan ruang berasaskan."],
).text()


def test_an_amended_law_that_arrives_later_is_linked_and_stays_in_force(store_dir: Path) -> None:
    if not CIPTA_KERJA.exists():
        pytest.skip("corpus absent")
    omnibus = ingest_file(
        store_dir, "cipta_kerja.pdf", CIPTA_KERJA.read_bytes(), title="UU Cipta Kerja", fmt="pdf"
    )
    found = set(
        RegulationRelation.objects.filter(source_document_id=omnibus).values_list(
            "kind", "target_citation", "target_document"
        )
    )
    assert found == {
        ("amends", c, None) for c in ("UU 26/2007", "UU 27/2007", "UU 32/2014", "UU 4/2011")
    }
    later = ingest_file(
        store_dir, "uu_26_2007.txt", PENATAAN_RUANG.encode(), title="UU 26/2007 Penataan Ruang"
    )
    relation = RegulationRelation.objects.get(target_citation="UU 26/2007")
    assert relation.target_document_id == later
    assert Document.objects.get(pk=later).in_force is True


def test_a_repeal_ingested_before_its_target_marks_it_not_in_force(store_dir: Path) -> None:
    target = "Peraturan Daerah Nomor 3 Tahun 2010 tentang Retribusi Pasar"
    new = ingest_file(
        store_dir, "perda_9_2024.txt", repealing(target).encode(), title="Perda 9/2024"
    )
    old = ingest_file(
        store_dir, "perda_3_2010.txt", plain("3", "2010").encode(), title="Perda 3/2010"
    )
    assert Document.objects.get(pk=old).in_force is False
    assert Document.objects.get(pk=new).in_force is True
    assert RegulationRelation.objects.get().target_document_id == old
