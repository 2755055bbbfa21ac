"""Fit the OCR line-confidence weights on the tuning split of a bench/ocr.py dump.

    .venv/bin/python bench/ocr.py --dump /tmp/ocr.jsonl
    .venv/bin/python bench/ocr_fit.py /tmp/ocr.jsonl

Prints ``CHARS_PER_ASPECT`` (median characters per unit of box aspect on clean lines) and
the logistic weights to paste into ``ingestion/pipeline/ocr/confidence.py``. Only the tuning
split is used, so the held-out figures bench/ocr.py prints stay honest.
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from ocr import load_dump
from ocr_metrics import auroc

from ingestion.pipeline.ocr import confidence as oc

FEATURES = ("bias", *oc.LineSignals.__slots__)


def fit_logistic(
    x: np.ndarray, y: np.ndarray, offset: np.ndarray | None = None, l2: float = 1.0
) -> np.ndarray:
    """Newton-Raphson (IRLS) with an L2 penalty on everything but the first column."""
    w = np.zeros(x.shape[1])
    base = np.zeros(len(y)) if offset is None else offset
    penalty = np.full(x.shape[1], l2)
    penalty[0] = 0.0 if offset is None else l2
    for _ in range(100):
        p = 1.0 / (1.0 + np.exp(-(base + x @ w)))
        grad = x.T @ (p - y) + penalty * w
        hessian = (x * (p * (1 - p))[:, None]).T @ x + np.diag(penalty + 1e-9)
        step = np.linalg.solve(hessian, grad)
        w -= step
        if np.abs(step).max() < 1e-8:
            break
    return w


def fit_two_stage(x: np.ndarray, y: np.ndarray, l2: float) -> np.ndarray:
    """Text evidence first, then the engine score as a penalty only.

    Our synthetic misreads all come with a lowered engine score, but in the field misreads
    also come back at 1.0. Fitted jointly, the score would lift lines whose text is not
    Indonesian; fitted second with the text model as a fixed offset and a weight kept
    non-positive, a saturated score leaves the text-only verdict untouched.
    """
    raw = FEATURES.index("raw_doubt")
    text_cols = [i for i in range(x.shape[1]) if i != raw]
    w = np.zeros(x.shape[1])
    w[text_cols] = fit_logistic(x[:, text_cols], y, l2=l2)
    w[raw] = min(fit_logistic(x[:, [raw]], y, offset=x[:, text_cols] @ w[text_cols])[0], 0.0)
    return w


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("dump", type=Path)
    parser.add_argument("--bad-cer", type=float, default=0.05)
    parser.add_argument("--l2", type=float, default=1.0)
    args = parser.parse_args()
    lines, _ = load_dump(args.dump)
    tune = [x for x in lines if x.split == "tune"]
    clean = [len(x.text) / x.aspect for x in tune if x.level == "clean" and x.aspect > 0]
    print(f"CHARS_PER_ASPECT = {float(np.median(clean)):.2f}  (from {len(clean)} clean lines)")
    x = np.array(
        [
            oc.line_signals(t.text, t.raw, box_aspect=t.aspect, missed_ink=t.missed).as_vector()
            for t in tune
        ]
    )
    good = np.array([t.cer <= args.bad_cer for t in tune], dtype=float)
    w = fit_two_stage(x, good, args.l2)
    print("WEIGHTS = (" + ", ".join(f"{v:.2f}" for v in w) + ")")
    for name, value in zip(FEATURES, w, strict=True):
        print(f"  {name:16} {value:7.2f}")
    print(f"tune AUROC with these weights: {auroc(x @ w, good.astype(bool)):.3f}")


if __name__ == "__main__":
    main()
