"""Title search labels: the ways people write a regulation's name, for title search.

A search for "Perda No. 12/2026" or "UU 13 2003" must find the document titled
"Peraturan Daerah Nomor 12 Tahun 2026". The labels are extra text indexed beside the
title (``Document.title_labels``): the names of the jenis (long name, abbreviation and
aliases, from the one jenis table :data:`ingestion.legal.citation.JENIS`), with and without
the region, combined with the nomor and tahun in the usual spellings. Which regulation a
document is comes from :mod:`ingestion.legal.identity` (``title_labels``).
"""

from __future__ import annotations

from collections.abc import Mapping

from ingestion.legal.citation import RegulationRef, canonical_jenis


def _clean(value: object) -> str | None:
    if not isinstance(value, str):
        return None
    value = " ".join(value.split())
    return value if value and value != "-" else None


def _names(ref: RegulationRef) -> list[str]:
    """The jenis written every way people write it, then the same with the region."""
    if ref.jenis is None:
        return []
    jenis = canonical_jenis(ref.jenis)
    names = [jenis.name, jenis.abbr, *jenis.aliases] if jenis else [ref.jenis]
    if ref.region:
        # "Peraturan Daerah Kabupaten Aceh Besar" is how a regional act is usually cited.
        region = ref.region
        names += [f"{name} {region}" for name in names if region.lower() not in name.lower()]
    return list(dict.fromkeys(names))


def _numbered(name: str, nomor: str | None, tahun: str | None) -> list[str]:
    if nomor and tahun:
        return [
            f"{name} Nomor {nomor} Tahun {tahun}",
            f"{name} No. {nomor}/{tahun}",
            f"{name} {nomor}/{tahun}",
            f"{name} {nomor} {tahun}",
        ]
    if nomor:
        return [f"{name} Nomor {nomor}", f"{name} No. {nomor}"]
    if tahun:
        return [f"{name} Tahun {tahun}"]
    return [name]


def labels_for(title: str, ref: RegulationRef | None, source_metadata: Mapping[str, object]) -> str:
    """Newline-separated search labels for a document's regulation ``ref`` (its identity).

    ``bentuk_singkat`` (the partner's own short form, e.g. "Perda") is added as a name of
    the jenis, and ``wilayah`` on its own; the title itself is never repeated.
    """
    ref = ref or RegulationRef(None)
    names = _names(ref)
    short = _clean(source_metadata.get("bentuk_singkat"))
    if short:
        names.append(short)
    labels = [label for name in names for label in _numbered(name, ref.nomor, ref.tahun)]
    if ref.short:
        labels.append(ref.short)  # "Permenkeu 12/2020": a ministry folded into the abbreviation
    if not names and ref.nomor and ref.tahun:
        labels += [f"Nomor {ref.nomor} Tahun {ref.tahun}", f"No. {ref.nomor}/{ref.tahun}"]
    wilayah = _clean(source_metadata.get("wilayah"))
    if wilayah:
        labels.append(wilayah)
    title_key = " ".join(title.split()).lower()
    return "\n".join(dict.fromkeys(lab for lab in labels if lab.lower() != title_key))
