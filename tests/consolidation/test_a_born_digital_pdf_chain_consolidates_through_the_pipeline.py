"""A real JDIH chain as the agency published it (BAPETEN's born-digital PDFs): its
amending regulation restates Pasal without their headings, one instruction restates a
whole ayat, and its pages carry folios and catchwords. Through the pipeline and the API the
wording in force is right, reads as sentences, and search cites the consolidated unit."""

from __future__ import annotations

from pathlib import Path

import pytest
from django.test import Client

from tests.api.helpers import bearer, issue_token
from tests.consolidation.helpers import search_fresh
from tests.corpus import CORPUS
from tests.relations.helpers import ingest_file

pytestmark = pytest.mark.django_db
PDFS = CORPUS / "amendments" / "pdf"
CHAIN = ("perba_3_2012_pnbp.pdf", "perba_1_2013_perubahan_pnbp.pdf")


@pytest.fixture
def pnbp(store_dir: Path) -> tuple[str, str]:
    if not (PDFS / CHAIN[0]).exists():
        pytest.skip("corpus absent")
    original, amending = (
        str(ingest_file(store_dir, name, (PDFS / name).read_bytes(), title=name, fmt="pdf"))
        for name in CHAIN
    )
    return original, amending


def _consolidated(client: Client, document: str) -> dict[str, object]:
    url = f"/api/documents/{document}/consolidated"
    return client.get(url, headers=bearer(issue_token())).json()  # type: ignore[no-any-return]


def _pasals(client: Client, document: str) -> dict[str, dict[str, object]]:
    return {p["number"]: p for p in _consolidated(client, document)["pasals"]}  # type: ignore[attr-defined]


def test_the_reader_counts_the_numbered_items_and_those_it_read(
    client: Client, pnbp: tuple[str, str]
) -> None:
    amendments: list[dict[str, dict[str, int]]] = _consolidated(client, pnbp[0])["amendments"]  # type: ignore[assignment]
    (amendment,) = amendments
    counts = amendment["counts"]
    assert (counts["numbered"], counts["read"], counts["applied"]) == (4, 4, 4)


def test_the_wording_in_force_is_right_and_reads_as_sentences(
    client: Client, pnbp: tuple[str, str]
) -> None:
    pasals = _pasals(client, pnbp[0])
    assert {n for n, p in pasals.items() if p["state"] == "amended"} == {"5", "6", "8", "10"}
    assert str(pasals["5"]["text"]).startswith(
        "Bendahara Penerimaan melakukan Penagihan PNBP kepada Wajib Bayar setelah "
        "diterbitkannya surat pemberitahuan hasil penilaian persyaratan yang menyatakan:\n"
    )
    pasal_10 = str(pasals["10"]["text"])
    assert "b. BAPETEN akan mencabut izin" in pasal_10
    assert "tidak menerbitkan izin" not in pasal_10  # the ayat (4) it replaced
    assert pasal_10.count("(4) Apabila") == 1
    assert ". . ." not in str(pasals["6"]["text"]) and "..." not in str(pasals["6"]["text"])


def test_search_cites_the_restated_pasal_as_the_amended_regulations_unit(
    pnbp: tuple[str, str],
) -> None:
    hits = search_fresh(
        "Bendahara Penerimaan melakukan Penagihan PNBP kepada Wajib Bayar setelah "
        "diterbitkannya surat pemberitahuan hasil penilaian persyaratan"
    )
    assert hits and str(hits[0].citation).endswith("3/2012 Pasal 5") and hits[0].consolidated
