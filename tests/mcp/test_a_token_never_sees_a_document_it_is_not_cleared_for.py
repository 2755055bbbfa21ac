"""The visibility matrix: token × endpoint × classification, 0 leaks.

Five regulations (no label, "Publik", "internal", "rahasia", and a PPID document marked
"dikecualikan"); the internal one amends the unlabelled one, so relations and the
amend notes of search results are checked too. Four tokens: the default (public set), one
cleared for "internal", one limited to PPID and cleared for "dikecualikan", and an admin.
Every endpoint that names documents — REST search, document, relations, units,
consolidated text; MCP search, list_regulations, law_status, get_unit — must show exactly
what the rule allows, and a hidden regulation must read like one that is not here at all.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

import pytest
from django.test import Client
from mcp.client.session import ClientSession

from ingestion.legal.identity import document_citation
from ingestion.models import Document, SourceType
from tests.mcp.helpers import issue, text_of, with_session
from tests.relations.helpers import Regulation, store_regulation

pytestmark = pytest.mark.django_db(transaction=True)


@dataclass(frozen=True)
class Doc:
    key: str
    number: str
    classification: str | None
    source_type: str = SourceType.JDIH
    amends: str | None = None

    @property
    def word(self) -> str:
        return f"zamrud{self.key}"

    @property
    def citation(self) -> str:
        return f"UU {self.number}/2024"


DOCS = [
    Doc("umum", "5", None),
    Doc("publik", "7", "Publik"),
    Doc("internal", "6", "internal", amends="5"),
    Doc("rahasia", "8", "rahasia"),
    Doc("ppid", "9", "dikecualikan", source_type=SourceType.PPID),
]
TOKENS: dict[str, tuple[str, ...]] = {
    "bawaan": (),
    "internal": ("--classification", "internal"),
    "ppid": ("--source-type", "PPID", "--classification", "dikecualikan"),
    "admin": ("--scope", "admin"),
}
SEES = {
    "bawaan": {"umum", "publik"},
    "internal": {"umum", "publik", "internal"},
    "ppid": {"ppid"},
    "admin": {d.key for d in DOCS},
}


def _store(doc: Doc) -> Document:
    tentang = (
        f"PERUBAHAN ATAS UNDANG-UNDANG NOMOR {doc.amends} TAHUN 2024 TENTANG RETRIBUSI PASAR"
        if doc.amends
        else "RETRIBUSI PASAR"
    )
    text = Regulation(
        heading=f"UNDANG-UNDANG REPUBLIK INDONESIA\nNOMOR {doc.number} TAHUN 2024",
        tentang=tentang,
        pasals=[f"Retribusi {doc.word} dipungut atas pelayanan pasar.", "Pasar ditata."],
    ).text()
    title = f"Undang-Undang Nomor {doc.number} Tahun 2024 tentang {tentang.title()}"
    source = {"jenis": "UU", "nomor": doc.number, "tahun": "2024"}
    if doc.classification:
        source["classification"] = doc.classification
    document = store_regulation(text, title=title, source=source)
    Document.objects.filter(pk=document.pk).update(
        source_type=doc.source_type, citation=document_citation(title, source)
    )
    return document


@pytest.fixture
def stored(settings: Any) -> dict[str, str]:
    settings.API_RATE_LIMIT = "off"
    ids = {doc.key: str(_store(doc).pk) for doc in DOCS}
    from ingestion.relations.graph import refresh_document

    for pk in ids.values():  # either arrival order links the amendment
        refresh_document(Document.objects.get(pk=pk))
    return ids


def _rest_view(client: Client, token: str, ids: dict[str, str]) -> dict[str, set[str]]:
    headers = {"Authorization": f"Bearer {token}"}
    by_id = {pk: key for key, pk in ids.items()}
    seen: dict[str, set[str]] = {
        "search": set(),
        "document": set(),
        "linked": set(),
        "units": set(),
        "consolidated": set(),
    }
    for doc in DOCS:
        body = client.get(f"/api/search?q={doc.word}&limit=20", headers=headers).json()
        for hit in body["results"]:
            seen["search"].add(by_id[hit["documentId"]])
            seen["linked"] |= {c for c in hit["amendedBy"] if c == "UU 6/2024"}
        response = client.get(f"/api/documents/{ids[doc.key]}", headers=headers)
        assert response.status_code in (200, 404)
        if response.status_code == 200:
            seen["document"].add(doc.key)
            for relation in response.json()["relations"]:
                if relation["documentId"]:
                    seen["linked"].add(by_id[relation["documentId"]])
                if relation["citation"] == "UU 6/2024" and relation["kind"] == "amended_by":
                    seen["linked"].add("UU 6/2024")
        else:
            assert response.json()["code"] == "DOCUMENT_UNKNOWN"
        unit = client.get(f"/api/units?ref={doc.citation} Pasal 1", headers=headers)
        if unit.status_code == 200:
            seen["units"].add(doc.key)
        else:
            assert unit.json()["code"] == "UNIT_UNKNOWN"
        text = client.get(f"/api/documents/{ids[doc.key]}/consolidated", headers=headers)
        if text.status_code == 200:
            seen["consolidated"].add(doc.key)
    return seen


async def _mcp_view(session: ClientSession, ids: dict[str, str]) -> dict[str, Any]:
    by_id = {pk: key for key, pk in ids.items()}
    seen: dict[str, Any] = {"search": set(), "list": set(), "status": set(), "unit": set()}
    seen["amended_by"] = set()
    seen["refusals"] = []
    listed = await session.call_tool("list_regulations", {"limit": 50})
    seen["list"] = {by_id[r["documentId"]] for r in listed.structured_content["regulations"]}
    for doc in DOCS:
        found = await session.call_tool("search", {"query": doc.word, "limit": 20})
        seen["search"] |= {by_id[r["documentId"]] for r in found.structured_content["results"]}
        for result in found.structured_content["results"]:
            seen["amended_by"] |= set(result["amendedBy"])
        status = await session.call_tool("law_status", {"ref": doc.citation})
        unit = await session.call_tool("get_unit", {"ref": f"{doc.citation} Pasal 1"})
        if not status.is_error:
            seen["status"].add(doc.key)
            seen["amended_by"] |= {a["citation"] for a in status.structured_content["amendedBy"]}
        else:
            seen["refusals"].append(text_of(status))
        if not unit.is_error:
            seen["unit"].add(doc.key)
    return seen


@pytest.mark.parametrize("token_name", list(TOKENS))
def test_every_endpoint_shows_exactly_what_the_token_may_see(
    token_name: str, stored: dict[str, str], live_url: str, client: Client
) -> None:
    token = issue(f"matriks-{token_name}", *TOKENS[token_name])
    allowed = SEES[token_name]
    rest = _rest_view(client, token, stored)
    assert rest["search"] == allowed
    assert rest["document"] == allowed
    assert rest["units"] == allowed
    assert rest["consolidated"] == allowed
    internal_visible = "internal" in allowed
    assert ("internal" in rest["linked"] or "UU 6/2024" in rest["linked"]) == internal_visible
    mcp = with_session(live_url, token, lambda s: _mcp_view(s, stored))
    assert mcp["search"] == allowed
    assert mcp["list"] == allowed
    assert mcp["status"] == allowed
    assert mcp["unit"] == allowed
    assert ("UU 6/2024" in mcp["amended_by"]) == internal_visible
    for refusal in mcp["refusals"]:  # a hidden regulation reads like an absent one
        assert "tidak ada di basis pengetahuan ini" in refusal


def test_a_hidden_regulation_reads_exactly_like_an_absent_one(
    stored: dict[str, str], live_url: str
) -> None:
    token = issue("matriks-bawaan", *TOKENS["bawaan"])

    async def both(session: ClientSession) -> tuple[str, str]:
        hidden = await session.call_tool("law_status", {"ref": "UU 8/2024"})
        absent = await session.call_tool("law_status", {"ref": "UU 99/2024"})
        return text_of(hidden), text_of(absent)

    hidden, absent = with_session(live_url, token, both)
    assert hidden.replace("8/2024", "N") == absent.replace("99/2024", "N")
