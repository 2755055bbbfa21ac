"""Title search labels: the ways people write a regulation's name, for title search.

A search for "Perda No. 12/2026" or "UU 13 2003" must find the document titled
"Peraturan Daerah Nomor 12 Tahun 2026". The labels are extra text indexed beside the
title (``Document.title_labels``): the long and short names of the jenis, combined with
the nomor and tahun in the usual spellings.
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from dataclasses import dataclass

# Long form → short forms. Matching is on the lower-cased long or short form.
JENIS_FORMS: tuple[tuple[str, tuple[str, ...]], ...] = (
    ("Undang-Undang", ("UU",)),
    ("Peraturan Pemerintah Pengganti Undang-Undang", ("Perppu",)),
    ("Peraturan Pemerintah", ("PP",)),
    ("Peraturan Presiden", ("Perpres",)),
    ("Keputusan Presiden", ("Keppres",)),
    ("Instruksi Presiden", ("Inpres",)),
    ("Peraturan Menteri", ("Permen",)),
    ("Keputusan Menteri", ("Kepmen",)),
    ("Peraturan Daerah", ("Perda",)),
    ("Peraturan Gubernur", ("Pergub",)),
    ("Keputusan Gubernur", ("Kepgub",)),
    ("Instruksi Gubernur", ("Ingub",)),
    ("Peraturan Bupati", ("Perbup",)),
    ("Keputusan Bupati", ("Kepbup",)),
    ("Peraturan Wali Kota", ("Perwal", "Peraturan Walikota")),
    ("Keputusan Wali Kota", ("Kepwal", "Keputusan Walikota")),
    ("Qanun Aceh", ("Qanun",)),
    ("Qanun", ()),
    ("Surat Edaran", ("SE",)),
)

_NUMBER = r"(?P<nomor>\d+[A-Za-z]?)"
_YEAR = r"(?P<tahun>(?:19|20)\d{2})"
# "Nomor 3 Tahun 2026", "No. 3/2026", "No 3 Th 2026", "13 2003", "3/2026".
_NUMBER_YEAR = re.compile(
    r"(?:\bnomor|\bno\.?)?\s*"
    + _NUMBER
    + r"\s*(?:/|\s+(?:tahun|thn\.?|th\.?)?\s*)"
    + _YEAR
    + r"\b",
    re.IGNORECASE,
)


@dataclass(frozen=True, slots=True)
class Citation:
    jenis: str | None
    nomor: str | None
    tahun: str | None


_FILE_EXTENSION = re.compile(r"\.[A-Za-z0-9]{2,5}$")


def _normalise(text: str) -> str:
    """Lower case, file-name separators as spaces: "perda-no-12-2026.pdf" reads as a title."""
    text = _FILE_EXTENSION.sub("", text.strip())
    text = re.sub(r"[-_]+", " ", text.lower()).replace("walikota", "wali kota")
    return " ".join(text.split())


def _canonical_jenis(text: str) -> tuple[str, tuple[str, ...]] | None:
    """The (long, shorts) entry whose long or short form starts ``text`` (longest wins)."""
    lowered = _normalise(text)
    best: tuple[str, tuple[str, ...]] | None = None
    best_len = 0
    for long, shorts in JENIS_FORMS:
        for form in (long, *shorts):
            f = _normalise(form)
            if (lowered == f or lowered.startswith(f + " ")) and len(f) > best_len:
                best, best_len = (long, shorts), len(f)
    return best


def _find_jenis(title: str) -> str | None:
    """The jenis named at the start of the title, or after a leading word like "Salinan"."""
    words = title.split()
    for skip in range(min(3, len(words))):
        entry = _canonical_jenis(" ".join(words[skip:]))
        if entry is not None:
            return entry[0]
    return None


def parse_citation(title: str) -> Citation:
    """Jenis, nomor and tahun from a title such as ``UU 13 2003`` or ``Qanun Aceh Nomor 3
    Tahun 2026``; parts that are not there are None."""
    match = _NUMBER_YEAR.search(_normalise(title))
    return Citation(
        jenis=_find_jenis(_normalise(title)),
        nomor=match.group("nomor") if match else None,
        tahun=match.group("tahun") if match else None,
    )


def _forms(jenis: str, wilayah: str | None) -> list[str]:
    entry = _canonical_jenis(jenis)
    names = [jenis.strip()]
    if entry is not None:
        names = [entry[0], *entry[1]]
    if wilayah:
        # "Peraturan Daerah Kabupaten Aceh Besar" is how a regional act is usually cited.
        names += [
            f"{name} {wilayah}" for name in list(names) if wilayah.lower() not in name.lower()
        ]
    return list(dict.fromkeys(n for n in names if n))


def _clean(value: object) -> str | None:
    if not isinstance(value, str):
        return None
    value = " ".join(value.split())
    return value if value and value != "-" else None


def build_title_labels(title: str, source_metadata: Mapping[str, object]) -> str:
    """Newline-separated search labels for a document title and its source metadata.

    Metadata wins over what is parsed from the title; ``bentuk_singkat`` (the partner's
    own short form, e.g. "Perda") is added as a name of the jenis.
    """
    parsed = parse_citation(title)
    jenis = _clean(source_metadata.get("jenis")) or parsed.jenis
    nomor = _clean(source_metadata.get("nomor")) or parsed.nomor
    tahun = _clean(source_metadata.get("tahun")) or _clean(source_metadata.get("year"))
    tahun = tahun or parsed.tahun
    wilayah = _clean(source_metadata.get("wilayah"))
    short = _clean(source_metadata.get("bentuk_singkat"))

    labels: list[str] = []
    names = _forms(jenis, wilayah) if jenis else []
    if short:
        names.append(short)
    for name in names:
        if nomor and tahun:
            labels += [
                f"{name} Nomor {nomor} Tahun {tahun}",
                f"{name} No. {nomor}/{tahun}",
                f"{name} {nomor}/{tahun}",
                f"{name} {nomor} {tahun}",
            ]
        elif nomor:
            labels += [f"{name} Nomor {nomor}", f"{name} No. {nomor}"]
        elif tahun:
            labels.append(f"{name} Tahun {tahun}")
        else:
            labels.append(name)
    if not names and nomor and tahun:
        labels += [f"Nomor {nomor} Tahun {tahun}", f"No. {nomor}/{tahun}"]
    if wilayah:
        labels.append(wilayah)
    title_key = " ".join(title.split()).lower()
    return "\n".join(dict.fromkeys(lab for lab in labels if lab.lower() != title_key))
