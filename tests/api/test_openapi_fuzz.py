"""Every API operation, fed inputs generated from our own OpenAPI document, answers without
a server error and with a response its declaration allows.

Schemathesis drives the Django WSGI app in-process (same thread, same database connection,
so the test transaction is shared), authenticated by an API token made in the test.
"""

from __future__ import annotations

import uuid
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
import schemathesis
from django.core.signals import request_finished, request_started
from django.db import close_old_connections
from django.test import override_settings
from hypothesis import HealthCheck, settings
from schemathesis import Case
from schemathesis.checks import not_a_server_error
from schemathesis.specs.openapi.checks import response_schema_conformance, status_code_conformance

from aceh_rag.api import api
from aceh_rag.api_support import hash_token, new_token
from aceh_rag.wsgi import application
from ingestion.models import ApiToken, Document, IngestionJob, JobOrigin, JobState
from ingestion.pipeline.embed import get_embedder
from tests.search.helpers import add_chunk, make_document

pytestmark = pytest.mark.django_db

schema = schemathesis.openapi.from_dict(api.get_openapi_schema())
schema.app = application


@pytest.fixture(autouse=True)
def connection_survives_each_request() -> Iterator[None]:
    """The WSGI handler closes the connection after every request (CONN_MAX_AGE=0); that
    would close the test transaction too. Django's test Client unhooks it the same way."""
    request_started.disconnect(close_old_connections)
    request_finished.disconnect(close_old_connections)
    try:
        yield
    finally:
        request_started.connect(close_old_connections)
        request_finished.connect(close_old_connections)


@pytest.fixture
def auth_headers(tmp_path: Path) -> Iterator[dict[str, str]]:
    token = new_token()
    ApiToken.objects.create(name="fuzz", token_hash=hash_token(token), prefix=token[:12])
    # Hundreds of generated calls from one token: its rate limit is a separate test
    # (tests/access), here it would only turn declared answers into 429s.
    with override_settings(
        OBJECT_STORAGE_URL=(tmp_path / "store").as_uri(),
        API_RATE_LIMIT="off",
        API_UPLOAD_RATE_LIMIT="off",
    ):
        yield {"Authorization": f"Bearer {token}"}


@schema.parametrize()
# The token and storage fixture are meant to outlive the generated inputs of one operation.
@settings(
    max_examples=20,
    deadline=None,
    derandomize=True,
    suppress_health_check=[HealthCheck.function_scoped_fixture],
)
def test_no_operation_fails_or_breaks_its_declaration(
    case: Case, auth_headers: dict[str, str]
) -> None:
    case.call_and_validate(
        headers=auth_headers,
        checks=[not_a_server_error, status_code_conformance, response_schema_conformance],
    )


@pytest.fixture
def indexed_document() -> Document:
    document = make_document("Qanun Aceh Nomor 3 Tahun 2026", source={"tahun": "2026"})
    add_chunk(document, "Setiap orang dilarang membuang sampah ke sungai", embedder=get_embedder())
    add_chunk(document, "Ketentuan peralihan", indexed=False)
    return document


def _call(path: str, auth_headers: dict[str, str], **parts: Any) -> Any:
    case = schema[path]["GET"].Case(**parts)
    response = case.call_and_validate(
        headers=auth_headers, checks=[status_code_conformance, response_schema_conformance]
    )
    assert response.status_code == 200
    return response.json()


# Random ids only ever reach the 404 branch; real records check the 200 declarations.
@pytest.mark.parametrize("state", JobState.values)
def test_a_known_job_is_answered_as_declared(
    state: str, indexed_document: Document, auth_headers: dict[str, str]
) -> None:
    job = IngestionJob.objects.create(
        origin=JobOrigin.UPLOAD,
        document=indexed_document,
        state=state,
        partner_job_id=uuid.uuid4(),
        error="PDF rusak / tidak dapat dibaca" if state == JobState.FAILED else "",
    )
    _call("/api/jobs/{job_id}", auth_headers, path_parameters={"job_id": str(job.pk)})


def test_a_known_document_and_a_search_hit_are_answered_as_declared(
    indexed_document: Document, auth_headers: dict[str, str]
) -> None:
    document_id = str(indexed_document.pk)
    _call(
        "/api/documents/{document_id}", auth_headers, path_parameters={"document_id": document_id}
    )
    found = _call("/api/search", auth_headers, query={"q": "membuang sampah", "editions": "all"})
    assert found["results"], "the hit's declared shape must actually be checked"
