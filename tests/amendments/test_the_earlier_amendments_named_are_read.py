"""'sebagaimana telah diubah dengan …' names the earlier amendments of the chain."""

from __future__ import annotations

from ingestion.legal.amendments.read import read_amendments
from tests.amendments.conftest import UU_19_2016, BuildAmending


def test_one_earlier_amendment_is_named(build_amending: BuildAmending) -> None:
    text = build_amending(
        ["Pasal 3 dihapus."],
        earlier="Undang-Undang Nomor 2 Tahun 2015 tentang Penetapan Peraturan Pemerintah "
        "Pengganti Undang-Undang Nomor 2 Tahun 2014 menjadi Undang-Undang",
    )
    [amendment] = read_amendments(text, UU_19_2016)
    assert amendment.target is not None and amendment.target.short == "UU 11/2008"
    assert [r.short for r in amendment.earlier] == ["UU 2/2015"]


def test_a_listed_chain_names_every_earlier_amendment(build_amending: BuildAmending) -> None:
    text = build_amending(
        ["Pasal 3 dihapus."],
        earlier="Undang-Undang:\na. Nomor 9 Tahun 1994 (Lembaran Negara Tahun 1994 Nomor 59);\n"
        "b. Nomor 16 Tahun 2000 (Lembaran Negara Tahun 2000 Nomor 126),",
    )
    [amendment] = read_amendments(text, UU_19_2016)
    assert [r.short for r in amendment.earlier] == ["UU 9/1994", "UU 16/2000"]
