"""A page the OCR models cannot allocate memory for fails alone, and goes to review.

ONNX Runtime's CPU arena is shared by the whole process and can be capped only once, so the
engine with a tiny cap (``OCR_MEMORY_LIMIT_MB``) runs in a child process: the allocation
failure is ONNX Runtime's own, not a stand-in.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

from django.conf import settings

from ingestion.pipeline.base import OcrLine, OcrPage
from ingestion.pipeline.ocr.layout import ocr_page_to_blocks
from tests.pipeline_ocr.helpers import LEGAL_LINES, as_page, render_lines

CHILD = """
import json, sys
from pathlib import Path
from ingestion.pipeline.ocr.images import PageImage
from ingestion.pipeline.ocr.local import LocalOcrEngine, SessionChoice
engine = LocalOcrEngine(options=SessionChoice(memory_limit_mb=int(sys.argv[2])))
page = engine.recognize(PageImage(page=4, image=Path(sys.argv[1]).read_bytes()))
print(json.dumps([[line.text, line.confidence] for line in page.lines]))
"""


def full_page() -> bytes:
    """A page of 40 lines at 200 dpi: its detector tensors need more than 32 MB."""
    image = as_page(render_lines(LEGAL_LINES * 8, dpi=200)).image
    assert isinstance(image, bytes)
    return image


def read_in_child(png: Path, limit_mb: int) -> tuple[list[OcrLine], str]:
    env = {**os.environ, "DJANGO_SETTINGS_MODULE": "aceh_rag.settings"}
    env.setdefault("DATABASE_URL", "postgresql://unused@127.0.0.1:1/unused")  # never used
    done = subprocess.run(
        [sys.executable, "-c", CHILD, str(png), str(limit_mb)],
        capture_output=True,
        text=True,
        env=env,
        cwd=Path(settings.BASE_DIR),
        timeout=300,
        check=True,
    )
    lines = json.loads(done.stdout.strip().splitlines()[-1])
    return [OcrLine(text=t, confidence=c) for t, c in lines], done.stderr


def test_a_page_over_the_memory_cap_is_a_zero_confidence_marker_sent_to_review(
    tmp_path: Path,
) -> None:
    png = tmp_path / "page.png"
    png.write_bytes(full_page())
    lines, log = read_in_child(png, limit_mb=32)
    assert len(lines) == 1
    assert lines[0].confidence == 0.0
    assert "Halaman 4" in lines[0].text and "memori tidak cukup" in lines[0].text
    assert "out of memory" in log
    blocks = ocr_page_to_blocks(OcrPage(page=4, lines=lines))
    assert blocks and all((b.ocr_confidence or 0.0) < settings.OCR_REVIEW_THRESHOLD for b in blocks)


def test_the_same_page_under_a_sufficient_cap_is_read(tmp_path: Path) -> None:
    png = tmp_path / "page.png"
    png.write_bytes(full_page())
    # The int8 detector's arena needs 640-768 MB for this page (the float one under 512),
    # though the process peaks lower uncapped (docs/decisions.md, int8 detector).
    lines, _log = read_in_child(png, limit_mb=1024)
    assert "Pemerintah Aceh" in "\n".join(line.text for line in lines)
