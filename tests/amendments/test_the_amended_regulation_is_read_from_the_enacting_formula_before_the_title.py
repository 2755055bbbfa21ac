"""PP 46/1980 as JDIH holds it: its title line says it amends PP 16/1974, its enacting
formula and its Pasal I say PP 16/1980. The enacted text decides; read from the title, PP
16/1974's Pasal 1 (on state houses) was overwritten with a pension allowance."""

from __future__ import annotations

from ingestion.legal.amendments.read import read_amendments
from ingestion.legal.citation import RegulationRef

PP_46_1980 = RegulationRef("Peraturan Pemerintah", "46", "1980")


def pp_46_1980(formula: str) -> str:
    return (
        "PERATURAN PEMERINTAH REPUBLIK INDONESIA NOMOR 46 TAHUN 1980 TENTANG PERUBAHAN ATAS "
        "PERATURAN PEMERINTAH NOMOR 16 TAHUN 1974 TENTANG PEMBERIAN TUNJANGAN\n"
        "Menimbang :\na. bahwa perlu mengubah besarnya tunjangan;\n"
        f"MEMUTUSKAN:\nMenetapkan : {formula}\n"
        "Pasal I\n"
        "Pasal 1 Peraturan Pemerintah Nomor 16 Tahun 1980 diubah sehingga berbunyi sebagai "
        "berikut:\nPasal 1\nTunjangan perbaikan penghasilan ditetapkan sebesar Rp 10.000,00.\n"
        "Pasal II\nPeraturan Pemerintah ini mulai berlaku pada tanggal diundangkan.\n"
    )


def test_the_enacting_formula_names_the_target_over_a_mistyped_title() -> None:
    formula = (
        "PERATURAN PEMERINTAH TENTANG PERUBAHAN ATAS PERATURAN PEMERINTAH NOMOR 16 TAHUN 1980 "
        "TENTANG PEMBERIAN TUNJANGAN."
    )
    [amendment] = read_amendments(pp_46_1980(formula), PP_46_1980)
    assert amendment.target is not None and amendment.target.short == "PP 16/1980"


def test_a_formula_that_names_no_regulation_leaves_the_title_to_name_it() -> None:
    [amendment] = read_amendments(pp_46_1980("PERATURAN PEMERINTAH TENTANG TUNJANGAN."), PP_46_1980)
    assert amendment.target is not None and amendment.target.short == "PP 16/1974"
