"""An MCP client answers "apakah UU 31/1999 masih berlaku dan pasal mana yang diubah?"
from law_status and get_unit alone (UU 11/2008 is not in the corpus; the Tipikor chain of
the amendments set stands in: UU 31/1999 amended by UU 20/2001)."""

from __future__ import annotations

from typing import Any

import pytest

from ingestion.legal.identity import document_citation
from ingestion.models import Document
from tests.corpus import CORPUS
from tests.mcp.helpers import call_tool, issue, payload
from tests.relations.helpers import store_regulation

pytestmark = pytest.mark.django_db(transaction=True)


def _corpus_text(name: str) -> str:
    path = CORPUS / "amendments" / name
    if not path.exists():
        pytest.skip("corpus absent")
    return path.read_text(encoding="utf-8")


def _stored(text: str, title: str, source: dict[str, str]) -> Document:
    """As the index step leaves it, with the citation it computes."""
    document = store_regulation(text, title=title, source=source)
    Document.objects.filter(pk=document.pk).update(citation=document_citation(title, source))
    return document


@pytest.fixture
def tipikor() -> None:
    _stored(
        _corpus_text("uu_31_1999_tipikor.md"),
        "Undang-Undang Nomor 31 Tahun 1999 tentang Pemberantasan Tindak Pidana Korupsi",
        {"jenis": "UU", "nomor": "31", "tahun": "1999"},
    )
    _stored(
        _corpus_text("uu_20_2001_perubahan_tipikor.md"),
        "Undang-Undang Nomor 20 Tahun 2001 tentang Perubahan atas Undang-Undang Nomor 31 "
        "Tahun 1999 tentang Pemberantasan Tindak Pidana Korupsi",
        {"jenis": "UU", "nomor": "20", "tahun": "2001"},
    )


def test_law_status_says_in_force_amended_by_and_which_pasal(live_url: str, tipikor: Any) -> None:
    token = issue("asisten")
    status = payload(call_tool(live_url, token, "law_status", {"ref": "UU 31/1999"}))
    assert status["citation"] == "UU 31/1999"
    assert status["inForce"] is True
    assert status["why"]
    assert [a["citation"] for a in status["amendedBy"]] == ["UU 20/2001"]
    changed = {c["pasal"] for c in status["amendedBy"][0]["changes"]}
    assert {"5", "12", "12A", "26A"} <= changed
    assert status["chain"] == ["UU 31/1999", "UU 20/2001"]
    assert status["chainComplete"] is True
    assert status["link"] == f"{live_url}/documents/{status['documentId']}/konsolidasi/"


def test_get_unit_gives_the_changed_pasal_its_state_and_changed_by(
    live_url: str, tipikor: Any
) -> None:
    token = issue("asisten")
    unit = payload(call_tool(live_url, token, "get_unit", {"ref": "UU 31/1999 Pasal 5"}))
    assert unit["citation"] == "UU 31/1999 Pasal 5"
    assert unit["state"] == "amended"
    assert [c["citation"] for c in unit["changedBy"]] == ["UU 20/2001"]
    assert "sebagaimana telah diubah dengan UU 20/2001" in unit["citationFull"]
    # The wording in force is UU 20/2001's restated Pasal 5, not the original.
    assert unit["text"] != unit["history"][0]["unitText"]
    assert "Rp 50.000.000,00" in unit["text"]
    assert unit["link"].endswith("/konsolidasi/#pasal-5")
    untouched = payload(call_tool(live_url, token, "get_unit", {"ref": "UU 31/1999 Pasal 1"}))
    assert untouched["state"] == "original"
    assert untouched["changedBy"] == []
