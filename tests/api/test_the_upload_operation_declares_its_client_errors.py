"""The OpenAPI document names every client error POST /api/documents can answer, so a
generated client knows the 422 (missing file, bad form field) and 413 (body too large)."""

from __future__ import annotations

from aceh_rag.api import api


def test_the_upload_operation_declares_validation_and_size_errors() -> None:
    responses = api.get_openapi_schema()["paths"]["/api/documents"]["post"]["responses"]
    assert {"400", "401", "403", "413", "422"} <= {str(status) for status in responses}
