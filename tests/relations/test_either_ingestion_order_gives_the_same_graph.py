"""A repeal links to its target whether the target arrived before or after the repealer."""

from __future__ import annotations

import pytest

from ingestion.models import Document, RegulationRelation
from tests.relations.helpers import StoreRegulation, plain, repealing

pytestmark = pytest.mark.django_db

TARGET = "Peraturan Daerah Nomor 3 Tahun 2010 tentang Retribusi Pasar"


def _graph() -> set[tuple[str, str, str, str | None]]:
    return {
        (
            r.source_document.title,
            r.kind,
            r.target_citation,
            getattr(r.target_document, "title", None),
        )
        for r in RegulationRelation.objects.select_related("source_document", "target_document")
    }


@pytest.mark.parametrize("target_first", [True, False], ids=["target-first", "target-later"])
def test_a_repeal_links_to_its_target_in_either_order(
    regulation: StoreRegulation, target_first: bool
) -> None:
    def old() -> Document:
        return regulation(plain("3", "2010"), title="Perda Banjarnegara 3/2010", source_key="old")

    def new() -> Document:
        return regulation(repealing(TARGET), title="Perda Banjarnegara 9/2024", source_key="new")

    if target_first:
        old(), new()
    else:
        new(), old()
    assert _graph() == {
        (
            "Perda Banjarnegara 9/2024",
            "repeals",
            "Perda Banjarnegara 3/2010",
            "Perda Banjarnegara 3/2010",
        )
    }
    in_force = dict(Document.objects.values_list("title", "in_force"))
    assert in_force == {"Perda Banjarnegara 3/2010": False, "Perda Banjarnegara 9/2024": True}


def test_a_regulation_of_another_region_is_not_linked(regulation: StoreRegulation) -> None:
    other = regulation(
        plain("3", "2010"),
        title="Perda Pinrang 3/2010",
        source_key="pinrang",
        source={"jenis": "Peraturan Daerah", "wilayah": "Kabupaten Pinrang", "nomor": "3"},
    )
    regulation(repealing(TARGET), title="Perda Banjarnegara 9/2024", source_key="new")
    relation = RegulationRelation.objects.get()
    assert relation.target_document is None
    other.refresh_from_db()
    assert other.in_force is True
