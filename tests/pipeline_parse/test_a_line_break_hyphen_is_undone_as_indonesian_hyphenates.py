"""Two lines of one paragraph join as the words were written: a syllable hyphen at the
line's end goes, a hyphen the word has anyway stays (ingestion.pipeline.reflow)."""

from __future__ import annotations

import pytest

from ingestion.pipeline.reflow import join_broken


@pytest.mark.parametrize(
    ("head", "tail", "joined"),
    [
        ("hasil penilai-", "an persyaratan", "hasil penilaian persyaratan"),
        ("ke-", "wajiban", "kewajiban"),
        ("dalam masing-", "masing Pasal", "dalam masing-masing Pasal"),
        ("dengan sebaik-", "baiknya", "dengan sebaik-baiknya"),
        ("dalam Undang-", "Undang ini", "dalam Undang-Undang ini"),
        ("melalui e-", "mail", "melalui e-mail"),
        ("pegawai", "negeri", "pegawai negeri"),
        ("", "awal", "awal"),
    ],
)
def test_lines_join_as_the_words_were_written(head: str, tail: str, joined: str) -> None:
    assert join_broken(head, tail) == joined
