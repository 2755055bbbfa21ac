"""An instruction that gives only an ayat's new wording edits that ayat inside the Pasal."""

from __future__ import annotations

from ingestion.legal.amendments.apply import PasalState, consolidate
from ingestion.legal.amendments.pasal import pasal_texts
from ingestion.legal.amendments.read import read_amendments
from tests.amendments.conftest import UU_19_2016, BuildAmending, BuildOriginal

PASAL_8 = "(1) Satu.\n(2) Dua lama.\n(3) Tiga."


def _apply(items: list[str], build_amending: BuildAmending, build_original: BuildOriginal) -> str:
    original = pasal_texts(build_original([("8", PASAL_8)]))
    amendments = read_amendments(build_amending(items), UU_19_2016)
    result = consolidate(original, None, amendments, [UU_19_2016])
    assert not result.conflicts and not result.unparsed
    [pasal] = result.pasals
    assert pasal.versions[-1].state is PasalState.AMENDED
    return pasal.versions[-1].text


def test_a_replaced_ayat_keeps_the_others(
    build_amending: BuildAmending, build_original: BuildOriginal
) -> None:
    item = "Ketentuan ayat (2) Pasal 8 diubah sehingga berbunyi sebagai berikut:\n(2) Dua baru."
    text = _apply([item], build_amending, build_original)
    assert text == "(1) Satu.\n(2) Dua baru.\n(3) Tiga."


def test_a_deleted_ayat_reads_dihapus(
    build_amending: BuildAmending, build_original: BuildOriginal
) -> None:
    text = _apply(["Pasal 8 ayat (3) dihapus."], build_amending, build_original)
    assert text == "(1) Satu.\n(2) Dua lama.\n(3) Dihapus."


def test_an_inserted_ayat_goes_after_the_one_named(
    build_amending: BuildAmending, build_original: BuildOriginal
) -> None:
    item = (
        "Di antara ayat (1) dan ayat (2) Pasal 8 disisipkan 1 (satu) ayat, yakni ayat (1a), "
        "yang berbunyi sebagai berikut:\n(1a) Satu a."
    )
    text = _apply([item], build_amending, build_original)
    assert text == "(1) Satu.\n(1a) Satu a.\n(2) Dua lama.\n(3) Tiga."


def test_a_wording_given_without_its_marker_replaces_the_one_unit_named(
    build_amending: BuildAmending, build_original: BuildOriginal
) -> None:
    item = 'Pasal 8 ayat (2) diubah sehingga berbunyi: "Dua baru."'
    text = _apply([item], build_amending, build_original)
    assert text == "(1) Satu.\n(2) Dua baru.\n(3) Tiga."


def test_an_ocr_damaged_marker_in_the_new_wording_is_read(
    build_amending: BuildAmending, build_original: BuildOriginal
) -> None:
    item = (
        "Pada Pasal 8 diantara ayat (1) dan ayat (2) disisipkan ketentuan yang dijadikan "
        "ayat (1a) yang berbunyi :\n(la)Satu a."
    )
    text = _apply([item], build_amending, build_original)
    assert text == "(1) Satu.\n(1a) Satu a.\n(2) Dua lama.\n(3) Tiga."


def test_a_pasal_heading_over_only_the_named_ayat_still_edits_that_ayat(
    build_amending: BuildAmending, build_original: BuildOriginal
) -> None:
    # PP 14/1998 on PP 50/1994: the quoted wording repeats the Pasal's heading but restates
    # only the ayat named; the other ayat stay in force.
    item = (
        'Mengubah ketentuan Pasal 8 ayat (2), sehingga berbunyi sebagai berikut: "Pasal 8\n'
        '(2) Dua baru."'
    )
    text = _apply([item], build_amending, build_original)
    assert text == "(1) Satu.\n(2) Dua baru.\n(3) Tiga."


def test_a_pasal_restated_whole_after_naming_one_ayat_replaces_it_whole(
    build_amending: BuildAmending, build_original: BuildOriginal
) -> None:
    item = (
        "Ketentuan Pasal 8 ayat (2) diubah, sehingga Pasal 8 berbunyi sebagai berikut:\nPasal 8\n"
        "(1) Satu.\n(2) Dua baru."
    )
    text = _apply([item], build_amending, build_original)
    assert text == "(1) Satu.\n(2) Dua baru."
