"""Small regulation texts written to a temp folder, and the import command run on them."""

from __future__ import annotations

import csv
import io
from dataclasses import dataclass
from pathlib import Path

from django.core.management import call_command

from tests.relations.helpers import Regulation


def regulation_text(nomor: int, tahun: int, tentang: str, pasal: str) -> str:
    return Regulation(
        heading=f"PERATURAN DAERAH KABUPATEN BANJARNEGARA\nNOMOR {nomor} TAHUN {tahun}",
        tentang=tentang.upper(),
        menetapkan=f"PERATURAN DAERAH TENTANG {tentang.upper()}.",
        pasals=[f"Dalam Peraturan Daerah ini yang dimaksud dengan {tentang} adalah {pasal}."],
    ).text()


def write(folder: Path, name: str, text: str | bytes) -> Path:
    path = folder / name
    path.parent.mkdir(parents=True, exist_ok=True)
    if isinstance(text, bytes):
        path.write_bytes(text)
    else:
        path.write_text(text, encoding="utf-8")
    return path


@dataclass
class ImportRun:
    stdout: str
    rows: list[dict[str, str]]

    def row(self, relpath: str) -> dict[str, str]:
        return next(r for r in self.rows if r["file"] == relpath)

    def statuses(self) -> dict[str, str]:
        return {r["file"]: r["status"] for r in self.rows}


def run_import(*args: str, summary: Path) -> ImportRun:
    out = io.StringIO()
    call_command("import_corpus", *args, "--summary", str(summary), "--no-progress", stdout=out)
    with summary.open(encoding="utf-8") as handle:
        rows = list(csv.DictReader(handle))
    return ImportRun(out.getvalue(), rows)
