"""CSV: sniffed dialect and encoding, one TABLE block whose first row is the header."""

from __future__ import annotations

import csv
import io
from pathlib import Path

from charset_normalizer import from_bytes

from ingestion.errors import PermanentError
from ingestion.pipeline.base import Block, BlockKind, ParsedDocument

SNIFF_BYTES = 64 * 1024
# Government spreadsheets are exported as UTF-8, UTF-16 (Excel "Unicode text") or
# Windows-1252; letting the detector choose among every code page misreads short files.
CANDIDATE_ENCODINGS = ["utf_16", "utf_32", "cp1252", "latin_1"]
DELIMITERS = ",;\t|"


def decode_csv(data: bytes) -> str:
    if data.startswith(b"\xef\xbb\xbf"):
        return data[3:].decode("utf-8", errors="replace")
    try:
        return data.decode("utf-8")
    except UnicodeDecodeError:
        pass
    best = from_bytes(data[:SNIFF_BYTES], cp_isolation=CANDIDATE_ENCODINGS).best()
    return data.decode(best.encoding if best else "cp1252", errors="replace")


def _dialect(sample: str) -> type[csv.Dialect] | csv.Dialect:
    try:
        return csv.Sniffer().sniff(sample, delimiters=DELIMITERS)
    except csv.Error:
        # The sniffer gives up on one-column files and on quoted multi-line cells.
        counts = {d: sample.count(d) for d in DELIMITERS}
        best = max(counts, key=lambda d: counts[d])

        class Fallback(csv.excel):
            delimiter = best if counts[best] else ","

        return Fallback


def parse_csv(path: Path) -> ParsedDocument:
    text = decode_csv(path.read_bytes())
    if "\x00" in text:
        raise PermanentError("Berkas CSV rusak (berisi data biner)", code="corrupt")
    sample = text[:SNIFF_BYTES]
    csv.field_size_limit(16 * 1024 * 1024)
    try:
        reader = csv.reader(io.StringIO(text, newline=""), _dialect(sample))
        rows = [[cell.strip() for cell in row] for row in reader]
    except csv.Error as exc:
        raise PermanentError("Berkas CSV rusak", code="corrupt", detail=str(exc)) from exc
    rows = [row for row in rows if any(row)]
    doc = ParsedDocument(format="csv", page_count=1)
    if rows:
        rendered = "\n".join(" | ".join(row) for row in rows)
        doc.blocks.append(Block(rendered, kind=BlockKind.TABLE, rows=rows))
    return doc
