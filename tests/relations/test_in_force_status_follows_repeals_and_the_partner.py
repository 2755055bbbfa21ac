"""inForce: repealed by a corpus regulation → False; amended → still True; the partner's
``status_berlaku`` wins over what the relations say; editions share one status."""

from __future__ import annotations

import pytest
from django.test import Client

from ingestion.models import Document, DocumentStatus
from ingestion.relations.graph import refresh_document
from tests.relations.helpers import StoreRegulation, amending, plain, repealing

pytestmark = pytest.mark.django_db

TARGET = "Peraturan Daerah Nomor 3 Tahun 2010 tentang Retribusi Pasar"


def _in_force(document: Document) -> bool | None:
    document.refresh_from_db()
    return document.in_force


def test_an_amended_regulation_stays_in_force(regulation: StoreRegulation) -> None:
    old = regulation(plain("3", "2010"), title="Perda 3/2010", source_key="old")
    regulation(amending(TARGET), title="Perda 1/2024", source_key="new")
    assert old.relations_in.get().kind == "amends"
    assert _in_force(old) is True


def test_the_partners_berlaku_wins_over_an_extracted_repeal(regulation: StoreRegulation) -> None:
    old = regulation(
        plain("3", "2010"),
        title="Perda 3/2010",
        source_key="old",
        source={"status_berlaku": "Berlaku"},
    )
    regulation(repealing(TARGET), title="Perda 9/2024", source_key="new")
    assert old.relations_in.get().kind == "repeals"  # the relation is kept and shown
    assert _in_force(old) is True


def test_the_partners_tidak_berlaku_marks_a_regulation_not_in_force(
    regulation: StoreRegulation,
) -> None:
    old = regulation(
        plain("3", "2010"),
        title="Perda 3/2010",
        source_key="old",
        source={"status_berlaku": "Tidak Berlaku"},
    )
    assert _in_force(old) is False


def test_a_text_that_is_no_regulation_has_no_status(regulation: StoreRegulation) -> None:
    notice = regulation("Pengumuman lelang barang milik daerah.\n", title="Pengumuman lelang")
    assert _in_force(notice) is None


def test_every_edition_of_a_repealed_regulation_is_not_in_force(
    regulation: StoreRegulation,
) -> None:
    first = regulation(plain("3", "2010"), title="Perda 3/2010", source_key="old")
    second = regulation(
        plain("3", "2010", "RETRIBUSI PASAR (SALINAN)"),
        title="Perda 3/2010",
        source_key="old",
        source_version="2",
    )
    regulation(repealing(TARGET), title="Perda 9/2024", source_key="new")
    assert second.relations_in.count() == 1  # linked to the current edition
    assert (_in_force(first), _in_force(second)) == (False, False)


def test_archiving_the_repealer_puts_the_regulation_back_in_force(
    regulation: StoreRegulation, admin_client: Client
) -> None:
    old = regulation(plain("3", "2010"), title="Perda 3/2010", source_key="old")
    new = regulation(repealing(TARGET), title="Perda 9/2024", source_key="new")
    assert _in_force(old) is False
    response = admin_client.post(f"/documents/{new.pk}/archive")
    assert response.status_code == 302
    assert Document.objects.get(pk=new.pk).status == DocumentStatus.ARCHIVED
    assert _in_force(old) is True


def test_a_merged_status_berlaku_is_applied_on_refresh(regulation: StoreRegulation) -> None:
    old = regulation(plain("3", "2010"), title="Perda 3/2010", source_key="old")
    assert _in_force(old) is True
    old.metadata = {**old.metadata, "source": {"status_berlaku": "Dicabut"}}
    old.save()
    refresh_document(old)
    assert _in_force(old) is False
