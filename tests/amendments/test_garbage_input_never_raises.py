"""A hostile or garbled text yields unparsed instructions or nothing, never an exception."""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st

from ingestion.legal.amendments.apply import consolidate
from ingestion.legal.amendments.pasal import pasal_texts
from ingestion.legal.amendments.read import read_amendments
from tests.amendments.conftest import UU_11_2008, UU_19_2016, amending_text

WORDS = st.sampled_from(
    [
        "Pasal",
        "I",
        "II",
        "1.",
        "2.",
        "Ketentuan",
        "diubah",
        "sehingga",
        "berbunyi",
        "sebagai",
        "berikut:",
        "Di antara",
        "dan",
        "disisipkan",
        "yakni",
        "ayat",
        "(1)",
        "(21",
        "huruf",
        "d1",
        "angka",
        "6a",
        "dihapus.",
        "Bab",
        "V",
        "Lampiran",
        "perkataan",
        '"',
        "“",
        "diganti dengan",
        "Undang-Undang Nomor 11 Tahun 2008",
        "...",
        "…",
        "\n",
        "Beberapa ketentuan dalam",
        "Diundangkan di Jakarta pada tanggal 31 Februari 2O2X",
    ]
)
GARBLE = st.lists(st.one_of(WORDS, st.text(max_size=8)), max_size=120).map(" ".join)


@settings(max_examples=150, deadline=None)
@given(garbage=GARBLE)
def test_garbled_pasal_i_never_raises(garbage: str) -> None:
    text = amending_text([garbage, "Pasal 3 dihapus.", garbage])
    amendments = read_amendments(text, UU_19_2016)
    for amendment in amendments:
        for instruction in amendment.instructions:
            assert instruction.operation is not None or instruction.reason
    consolidate(pasal_texts(garbage), None, amendments, [UU_19_2016] * len(amendments))


@settings(max_examples=100, deadline=None)
@given(garbage=st.text(max_size=400))
def test_any_text_at_all_is_read_without_raising(garbage: str) -> None:
    read_amendments(garbage, UU_11_2008)
    pasal_texts(garbage)
