"""Where the tests find the real documents: ``shared/corpus`` beside the repository (a CI
checkout has ``shared/`` next to its fresh clone), else this machine's ``/work/shared``.

The corpus is never copied into the repository; tests that need it skip when it is absent.
"""

from __future__ import annotations

from pathlib import Path

REPO = Path(__file__).resolve().parents[1]


def _corpus() -> Path:
    beside = REPO.parent / "shared" / "corpus"
    return beside if beside.is_dir() else Path("/work/shared/corpus")


CORPUS = _corpus()
