"""The learned fusion: one linear model scores every candidate from its signals.

Each candidate chunk of a query has a row of signals (:mod:`ingestion.search.features`):
its dense and lexical ranks, its cosine and its best unit's, the title list, the query's
term coverage, the definition it holds, whether it is an opening, and how far its section
titles hold the question's words. Their weights are not set by hand: ``bench/retrieval.py
--train-fusion`` fits them on the GALQA dev questions (folds by regulation,
docs/decisions.md) and writes ``fusion_model.json`` beside this module. The
score is ``Σ weight × (signal − mean) / scale``; only the order within one query matters.

A model file names its signals; a signal it does not name weighs nothing, and one it
names that the code no longer computes is an error at load time (a stale model must not
rank silently with a missing column).
"""

from __future__ import annotations

import json
import threading
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path

from django.conf import settings

DEFAULT_MODEL = Path(__file__).with_name("fusion_model.json")


class FusionModelError(ValueError):
    """The model file cannot be used with this code."""


@dataclass(frozen=True, slots=True)
class FusionModel:
    features: tuple[str, ...]
    weights: tuple[float, ...]
    means: tuple[float, ...]
    scales: tuple[float, ...]
    trained_on: str = ""

    def score(self, row: Mapping[str, float]) -> float:
        total = 0.0
        for name, weight, mean, scale in zip(
            self.features, self.weights, self.means, self.scales, strict=True
        ):
            total += weight * (row.get(name, 0.0) - mean) / scale
        return total

    def to_json(self) -> dict[str, object]:
        return {
            "features": list(self.features),
            "weights": [round(w, 6) for w in self.weights],
            "means": [round(m, 6) for m in self.means],
            "scales": [round(s, 6) for s in self.scales],
            "trained_on": self.trained_on,
        }

    @classmethod
    def from_json(cls, data: Mapping[str, object], known: Sequence[str]) -> FusionModel:
        try:
            features = tuple(str(f) for f in data["features"])  # type: ignore[attr-defined]
            columns = [
                tuple(float(v) for v in data[key])  # type: ignore[attr-defined]
                for key in ("weights", "means", "scales")
            ]
        except (KeyError, TypeError, ValueError) as exc:
            raise FusionModelError(f"fusion model is malformed: {exc}") from exc
        unknown = [f for f in features if f not in known]
        if unknown:
            raise FusionModelError(f"fusion model names unknown signals: {unknown}")
        if any(len(column) != len(features) for column in columns):
            raise FusionModelError("fusion model columns differ in length")
        if any(scale <= 0 for scale in columns[2]):
            raise FusionModelError("fusion model has a scale that is not positive")
        weights, means, scales = columns
        return cls(features, weights, means, scales, str(data.get("trained_on", "")))


_cache: dict[Path, tuple[float, FusionModel]] = {}
_lock = threading.Lock()


def load_model(path: Path | None = None) -> FusionModel:
    """The model in ``path`` (default: ``SEARCH_FUSION_MODEL``, else the bundled file),
    read again when the file changes."""
    from ingestion.search.features import FEATURES

    target = Path(path or settings.SEARCH_FUSION_MODEL or DEFAULT_MODEL)
    stamp = target.stat().st_mtime
    with _lock:
        cached = _cache.get(target)
        if cached is not None and cached[0] == stamp:
            return cached[1]
    model = FusionModel.from_json(json.loads(target.read_text(encoding="utf-8")), FEATURES)
    with _lock:
        _cache[target] = (stamp, model)
    return model
