"""The development chains (``shared/corpus/amendments``) through the real pipeline."""

from __future__ import annotations

from pathlib import Path
from uuid import UUID

import pytest

from ingestion.models import PasalVersion
from tests.corpus import CORPUS
from tests.relations.helpers import ingest_file

CHAINS = CORPUS / "amendments"
TIPIKOR = ("uu_31_1999_tipikor.md", "uu_20_2001_perubahan_tipikor.md")
JALAN = ("uu_38_2004_jalan.md", "uu_2_2022_perubahan_kedua_jalan.md")
KUP = (
    "uu_6_1983_kup.md",
    "uu_9_1994_perubahan_kup.md",
    "uu_16_2000_perubahan_kedua_kup.md",
    "uu_28_2007_perubahan_ketiga_kup.md",
)


def corpus_text(name: str) -> str:
    path = CHAINS / name
    if not path.exists():
        pytest.skip("corpus absent")
    return path.read_text(encoding="utf-8")


def ingest(root: Path, name: str, text: str | None = None, *, version: str = "1") -> UUID:
    """One chain member (or a text standing in for it) through the whole pipeline."""
    data = (text if text is not None else corpus_text(name)).encode()
    stem = name.removesuffix(".md")
    return ingest_file(root, f"{stem}.md", data, title=stem.replace("_", " "), fmt="md")


def versions() -> set[tuple[str, int, str, str, str | None, str | None]]:
    """Every stored Pasal version, comparable across runs (no ids)."""
    return {
        (
            v.number,
            v.seq,
            v.state,
            " ".join(v.text.split()),
            str(v.valid_from) if v.valid_from else None,
            v.amending_document.citation if v.amending_document else None,
        )
        for v in PasalVersion.objects.select_related("amending_document")
    }
