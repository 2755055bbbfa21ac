"""Templates keep code and styles in static files, which is what lets the CSP be strict.

A browser test catches violations on the pages it visits; this scan catches the template
nobody visited (a partial, an error page) before it ships.
"""

from __future__ import annotations

import re
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
TEMPLATES = sorted((ROOT / "templates").rglob("*.html"))
SCRIPTS = sorted((ROOT / "static" / "js").rglob("*.js"))

INLINE_SCRIPT = re.compile(r"<script(?![^>]*\bsrc=)(?![^>]*type=\"application/json\")[^>]*>", re.I)
EVENT_HANDLER = re.compile(r"\son[a-z]+\s*=", re.I)
STYLE = re.compile(r"<style\b|\sstyle\s*=", re.I)
JS_URL = re.compile(r"""(href|src|action)\s*=\s*["']\s*javascript:""", re.I)
HTMX_EVAL = re.compile(r"""\bhx-on|\bhx-vals\s*=\s*["']\s*js:|\bhx-vars\b""", re.I)
EVAL = re.compile(r"\beval\s*\(|new\s+Function\s*\(|set(Timeout|Interval)\(\s*[\"'`]")


def test_there_are_templates_to_check() -> None:
    assert len(TEMPLATES) > 10 and SCRIPTS


@pytest.mark.parametrize("path", TEMPLATES, ids=lambda p: str(p.relative_to(ROOT)))
def test_a_template_has_no_inline_code_or_style(path: Path) -> None:
    text = path.read_text()
    for name, pattern in [
        ("inline <script>", INLINE_SCRIPT),
        ("on*= handler", EVENT_HANDLER),
        ("inline style", STYLE),
        ("javascript: URL", JS_URL),
        ("htmx code attribute (needs eval)", HTMX_EVAL),
    ]:
        found = pattern.search(text)
        assert found is None, f"{name} in {path.name}: {found and found.group(0)}"


@pytest.mark.parametrize("path", SCRIPTS, ids=lambda p: p.name)
def test_our_scripts_never_evaluate_strings(path: Path) -> None:
    assert EVAL.search(path.read_text()) is None


def test_htmx_is_configured_to_inject_no_styles_and_run_no_eval() -> None:
    base = (ROOT / "templates" / "base.html").read_text()
    meta = re.search(r"<meta name=\"htmx-config\" content='([^']*)'>", base)
    assert meta, "base.html must configure htmx"
    assert '"includeIndicatorStyles": false' in meta[1]
    assert '"allowEval": false' in meta[1]
    assert base.index('name="htmx-config"') < base.index("htmx.min.js")
