"""Only the newest edition of a source is searched unless all editions are asked for."""

from __future__ import annotations

from datetime import timedelta

import pytest
from django.utils import timezone

from ingestion.models import DocumentStatus
from ingestion.search.service import Editions, SearchQuery, search
from tests.search.helpers import HashEmbedder, add_chunk, make_document

pytestmark = pytest.mark.django_db

TEXT = "Tarif retribusi parkir kendaraan bermotor roda dua"


def editions(source_key: str, count: int) -> list[str]:
    now = timezone.now()
    ids = []
    for number in range(count):
        document = make_document(
            "Qanun Retribusi Parkir",
            source_key=source_key,
            source_version=f"v{number + 1}",
            created_at=now - timedelta(days=count - number),
        )
        add_chunk(document, f"{TEXT} edisi {number + 1}")
        ids.append(str(document.id))
    return ids


def found(editions_mode: Editions = Editions.LATEST) -> list[str]:
    query = SearchQuery(text="tarif retribusi parkir", editions=editions_mode)
    return [hit.document_id for hit in search(query, embedder=HashEmbedder()).results]


def test_by_default_only_the_latest_edition_is_found() -> None:
    _old, new = editions("jdih-parkir", 2)
    assert found() == [new]


def test_editions_all_also_finds_older_editions() -> None:
    old, new = editions("jdih-parkir", 2)
    assert set(found(Editions.ALL)) == {old, new}


def test_editions_of_other_sources_do_not_hide_each_other() -> None:
    first = editions("jdih-parkir", 1)
    second = editions("jdih-pasar", 1)
    assert set(found()) == set(first + second)


def test_a_newer_edition_without_indexed_chunks_does_not_hide_the_current_one() -> None:
    (current,) = editions("jdih-parkir", 1)
    pending = make_document(
        "Qanun Retribusi Parkir",
        source_key="jdih-parkir",
        source_version="v2",
        status=DocumentStatus.NEEDS_REVIEW,
    )
    add_chunk(pending, f"{TEXT} hasil pindaian buram", indexed=False)
    assert found() == [current]


def test_an_archived_newest_edition_gives_way_to_the_previous_one() -> None:
    old, new = editions("jdih-parkir", 2)
    from ingestion.models import Document

    Document.objects.filter(pk=new).update(status=DocumentStatus.ARCHIVED)
    assert found() == [old]
