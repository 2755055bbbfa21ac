"""Term coverage: the IDF-weighted share of the query's words a chunk holds (0–1)."""

from __future__ import annotations

from collections.abc import Iterator

import pytest

from ingestion.search.lexical import query_lexemes, term_coverage
from tests.search.helpers import add_chunk, fresh_term_stats, make_document

pytestmark = pytest.mark.django_db


@pytest.fixture
def chunks() -> Iterator[dict[str, int]]:
    document = make_document("Peraturan Tenaga Kerja Asing")
    for number in range(20):
        add_chunk(document, f"Pemerintah daerah membina pemberi kerja bagian {number}.")
    both = add_chunk(document, "Perpanjangan pengesahan RPTKA diajukan oleh pemberi kerja")
    common = add_chunk(document, "Pemberi kerja, pemberi kerja, dan pemberi kerja lagi")
    none = add_chunk(document, "Ketentuan penutup berlaku sejak diundangkan")
    with fresh_term_stats():
        yield {"both": both.pk, "common": common.pk, "none": none.pk}


def test_a_chunk_holding_every_word_covers_all_of_the_query(chunks: dict[str, int]) -> None:
    coverage = term_coverage(list(chunks.values()), query_lexemes("pengesahan RPTKA pemberi"))
    assert coverage[chunks["both"]] == pytest.approx(1.0)
    assert coverage[chunks["none"]] == 0.0


def test_repeating_a_common_word_covers_less_than_holding_the_rare_one(
    chunks: dict[str, int],
) -> None:
    coverage = term_coverage(list(chunks.values()), query_lexemes("RPTKA pemberi"))
    assert 0.0 < coverage[chunks["common"]] < 0.5 < coverage[chunks["both"]]
