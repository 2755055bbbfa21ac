"""The words beyond a regulation's name ask when it takes effect only when every one of them
says so; a question about anything else the regulation governs is not that question."""

from __future__ import annotations

import pytest

from ingestion.legal.entry_into_force import asks_entry_into_force


@pytest.mark.parametrize(
    "words", ["mulai berlaku", "berlaku", "tanggal mulai berlaku", "berlakunya"]
)
def test_when_in_force_words_alone_ask_it(words: str) -> None:
    assert asks_entry_into_force(words)


@pytest.mark.parametrize(
    "words",
    ["", "mulai", "ketentuan peralihan berlaku pkwt", "upah minimum mulai berlaku", "diundangkan"],
)
def test_any_other_word_or_none_of_the_kind_does_not(words: str) -> None:
    assert not asks_entry_into_force(words)
