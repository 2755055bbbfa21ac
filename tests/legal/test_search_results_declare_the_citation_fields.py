"""The OpenAPI document declares the additive legal fields of a search result."""

from __future__ import annotations

from aceh_rag.api import api


def test_search_hits_declare_citation_unit_unit_text_and_unit_span() -> None:
    spec = api.get_openapi_schema()
    schemas = spec["components"]["schemas"]
    hit = schemas["SearchHitOut"]["properties"]
    assert {"citation", "unit", "unitText", "unitSpan", "chunkId", "text"} <= set(hit)
    assert set(schemas["LegalUnitOut"]["properties"]) == {"pasal", "ayat", "huruf", "angka"}
    span = hit["unitSpan"]["anyOf"][0]
    assert (span["type"], span["items"]["type"], span["minItems"]) == ("array", "integer", 2)
    degraded = schemas["SearchOut"]["properties"]["degraded"]["anyOf"][0]
    assert set(degraded["enum"]) == {"lexical_only", "no_rerank"}
