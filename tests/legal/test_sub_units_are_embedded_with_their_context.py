"""Ayat, huruf and angka get their own vector, embedded with the heading path and lead-in."""

from __future__ import annotations

import pytest
from django.conf import settings

from ingestion.legal.store import unit_passages
from ingestion.models import Document, DocumentStatus, LegalUnit, SourceType
from ingestion.pipeline.chunk import chunk_document
from ingestion.pipeline.index import write_document
from ingestion.pipeline.parse import ParseLimits, parse
from tests.legal.helpers import corpus_file

pytestmark = pytest.mark.django_db


def test_every_sub_unit_is_stored_with_its_vector_and_the_pasal_is_not() -> None:
    path = corpus_file("galqa/docs/pp_34_2021.txt")
    drafts = chunk_document(
        parse(path, "txt", ParseLimits()).blocks, budget_tokens=350, overlap_tokens=40
    )
    passages = unit_passages(drafts)
    huruf_g = next(p for p in passages if "\ng. laporan realisasi pelaksanaan" in p)
    assert huruf_g.startswith("BAB III PENGESAHAN RENCANA PENGGUNAAN TENAGA KERJA ASING › Pasal 21")
    assert "(4). Permohonan perpanjangan Pengesahan RPTKA" in huruf_g  # the ayat's lead-in
    document = Document.objects.create(
        source_type=SourceType.JDIH,
        title="pp_34_2021.txt",
        file_name="pp_34_2021.txt",
        mime_type="text/plain",
        format="txt",
        storage_key="corpus/pp_34_2021.txt",
        checksum="pp34",
        status=DocumentStatus.PROCESSING,
        metadata={"source_key": "pp34", "source_version": "1", "source": {}},
    )
    dim = settings.EMBEDDING_DIM
    unit_vectors = [[(i % 7 + 1) / 10.0] * dim for i in range(len(passages))]
    write_document(
        document,
        drafts,
        [[0.5] * dim for _ in drafts],
        model_id="test-model",
        threshold=0.0,
        page_count=1,
        unit_vectors=unit_vectors,
    )
    embedded = LegalUnit.objects.filter(document=document).exclude(embedding=None)
    assert embedded.count() == len(passages)
    assert not embedded.filter(depth=0).exists()
    assert set(embedded.values_list("embedding_model", flat=True)) == {"test-model"}
    assert not LegalUnit.objects.filter(document=document, depth__gt=0, embedding=None).exists()


def test_a_vector_count_that_does_not_match_the_units_is_refused() -> None:
    path = corpus_file("galqa/docs/pp_34_2021.txt")
    drafts = chunk_document(
        parse(path, "txt", ParseLimits()).blocks, budget_tokens=350, overlap_tokens=40
    )
    document = Document.objects.create(
        source_type=SourceType.JDIH,
        title="x",
        file_name="x.txt",
        mime_type="text/plain",
        format="txt",
        storage_key="x",
        checksum="x",
        metadata={"source_key": "x", "source_version": "1", "source": {}},
    )
    dim = settings.EMBEDDING_DIM
    with pytest.raises(ValueError, match="embedded units"):
        write_document(
            document,
            drafts,
            [[0.5] * dim for _ in drafts],
            model_id="m",
            threshold=0.0,
            page_count=1,
            unit_vectors=[[0.5] * dim],
        )
