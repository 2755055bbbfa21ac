"""A Ketentuan Umum (the chunks of Pasal 1 "yang dimaksud dengan: 1. … adalah …") is a list
of definitions; an ordinary Pasal is not. Search withholds term coverage from such lists
unless the question asks for a definition."""

from __future__ import annotations

import pytest

from ingestion.legal.definitions import asked_term, definition_lists
from ingestion.models import Chunk
from tests.legal.helpers import IndexRegulation

pytestmark = pytest.mark.django_db


def test_the_chunks_of_pasal_1_are_lists_and_the_others_are_not(
    index_regulation: IndexRegulation,
) -> None:
    meta = {"jenis": "Peraturan Pemerintah", "nomor": "44", "tahun": "2015"}
    document = index_regulation("galqa/docs/pp_44_2015.txt", "txt", "pp_44_2015.txt", meta)
    chunks = list(Chunk.objects.filter(document=document).values_list("id", "heading_path"))
    lists = definition_lists([chunk_id for chunk_id, _ in chunks])
    pasal_1 = {chunk_id for chunk_id, heading in chunks if heading.split(" › ")[1:2] == ["Pasal 1"]}
    assert pasal_1 and lists == pasal_1


@pytest.mark.parametrize(
    ("query", "term"),
    [
        ("Apa yang dimaksud dengan JKM dalam PP 44/2015?", ["jkm"]),
        ("Apa yang dimaksud dengan Pasal 5 PP 44/2015?", None),
        ("Siapa peserta program JKK dan JKM?", None),
    ],
)
def test_the_asked_term_leaves_out_the_named_regulation(query: str, term: list[str] | None) -> None:
    assert asked_term(query) == term
