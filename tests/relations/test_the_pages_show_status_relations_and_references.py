"""The document page's "Status dan hubungan" panel and the search page's legal notes."""

from __future__ import annotations

import pytest
from django.test import Client

from tests.relations.helpers import StoreRegulation, amending, plain, repealing

pytestmark = pytest.mark.django_db

TARGET = "Peraturan Daerah Nomor 3 Tahun 2010 tentang Retribusi Pasar"
QUERY = "/search/?q=retribusi+dipungut+atas+pelayanan+pasar"


def test_a_partner_status_that_overrides_the_relations_shows_both(
    admin_client: Client, regulation: StoreRegulation
) -> None:
    old = regulation(
        plain("3", "2010"),
        title="Perda 3/2010",
        source_key="old",
        source={"status_berlaku": "Berlaku"},
    )
    new = regulation(repealing(TARGET), title="Perda 9/2024", source_key="new")
    html = admin_client.get(f"/documents/{old.pk}/").content.decode()
    assert "Status dan hubungan" in html
    assert '<span class="badge badge-in-force">Berlaku</span>' in html
    assert "Status dari mitra (status_berlaku): <strong>Berlaku</strong>" in html
    assert "menurut relasi di korpus: dicabut" in html
    assert f'href="/documents/{new.pk}/">Perda Banjarnegara 9/2024</a>' in html


def test_an_amending_regulation_lists_what_it_amends(
    admin_client: Client, regulation: StoreRegulation
) -> None:
    old = regulation(plain("3", "2010"), title="Perda 3/2010", source_key="old")
    new = regulation(amending(TARGET), title="Perda 1/2024", source_key="new")
    html = admin_client.get(f"/documents/{new.pk}/").content.decode()
    assert "<dt>Mengubah</dt>" in html and f'href="/documents/{old.pk}/"' in html
    html = admin_client.get(f"/documents/{old.pk}/").content.decode()
    assert "<dt>Diubah oleh</dt>" in html


def test_a_document_that_is_no_regulation_has_no_panel(
    admin_client: Client, regulation: StoreRegulation
) -> None:
    notice = regulation("Pengumuman lelang barang milik daerah.\n", title="Pengumuman")
    assert (
        "Status dan hubungan" not in admin_client.get(f"/documents/{notice.pk}/").content.decode()
    )


def test_search_says_amended_by_and_hides_repealed_behind_the_toggle(
    admin_client: Client, regulation: StoreRegulation
) -> None:
    regulation(plain("3", "2010"), title="Perda 3/2010", source_key="old")
    regulation(amending(TARGET), title="Perda 1/2024", source_key="amend")
    regulation(repealing(TARGET, number="9"), title="Perda 9/2024", source_key="new")
    html = admin_client.get(QUERY).content.decode()
    assert "Perda 3/2010" not in html and "Tampilkan yang dicabut" in html
    html = admin_client.get(QUERY + "&include_repealed=on").content.decode()
    assert "diubah oleh Perda Banjarnegara 1/2024" in html
    assert "dicabut oleh Perda Banjarnegara 9/2024" in html


def test_a_reference_in_a_search_result_links_to_its_unit(
    admin_client: Client, regulation: StoreRegulation
) -> None:
    from tests.relations.helpers import Regulation

    text = Regulation(
        pasals=[
            "(1) Retribusi pasar dipungut setiap hari.\n(2) Besaran retribusi sebagaimana"
            " dimaksud pada ayat (1) ditetapkan Bupati.",
            "Pelayanan pasar.",
        ]
    ).text()
    document = regulation(text, title="Perda 5/2024", source_key="perda")
    html = admin_client.get("/search/?q=besaran+retribusi+ditetapkan+Bupati").content.decode()
    assert f'href="/documents/{document.pk}/#unit-pasal-1-ayat-1">Pasal 1 ayat (1)</a>' in html
