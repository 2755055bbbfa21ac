"""Small real files for UI tests: a text PDF and a rendered page."""

from __future__ import annotations

import pymupdf


def text_pdf(text: str, *, pages: int = 1) -> bytes:
    document = pymupdf.open()
    for number in range(pages):
        page = document.new_page()
        page.insert_text((72, 90), f"{text} — halaman {number + 1}", fontsize=12)
    data = document.tobytes()
    document.close()
    return bytes(data)
