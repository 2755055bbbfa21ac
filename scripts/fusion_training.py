"""Fitting the search fusion (``ingestion/search/fusion.py``) on questions with gold answers.

Each question is one example: the signal rows of its candidates (``service.prepare``) and
which candidates are right. Two linear models, both with an L2 penalty and fitted by
Newton's method (15 columns: a few iterations, no dependency beyond numpy):

- ``pairwise``: logistic loss on every (right, wrong) pair of one question, each question
  weighing the same (RankNet with a linear scorer): it learns an order, which is what
  search needs. With ``top`` (the shipped kind), it is fitted again twice on the pairs
  whose wrong candidate the previous fit put in its first ``top``: the order that matters
  is that of the first page, not how far down the hundredth candidate falls (the idea of
  LambdaRank's weighting, kept linear);
- ``pointwise``: logistic regression of right/wrong, the rows of each question weighed so
  that its right and its wrong candidates count the same.

Columns are standardised on the training questions; the model keeps their means and scales.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np

from ingestion.search.fusion import FusionModel

NEWTON_STEPS = 30


@dataclass(frozen=True, slots=True)
class Example:
    """One question's candidates: ``x`` (candidates × columns) and ``right`` (bool)."""

    text: str
    group: str  # the fold key (the gold regulation)
    chunk_ids: tuple[int, ...]
    x: np.ndarray
    right: np.ndarray


def _standardise(examples: Sequence[Example]) -> tuple[np.ndarray, np.ndarray]:
    stacked = np.vstack([e.x for e in examples if len(e.x)])
    means = stacked.mean(axis=0)
    scales = stacked.std(axis=0)
    scales[scales < 1e-9] = 1.0
    return means, scales


def _newton(d: np.ndarray, y: np.ndarray, w: np.ndarray, l2: float) -> np.ndarray:
    """Weighted L2 logistic regression without intercept: β for P(y | d) = σ(β·d)."""
    beta = np.zeros(d.shape[1])
    sign = np.where(y, 1.0, -1.0)
    for _ in range(NEWTON_STEPS):
        z = sign * (d @ beta)
        p = 1.0 / (1.0 + np.exp(z))  # σ(-z)
        grad = -(d * (w * sign * p)[:, None]).sum(axis=0) + l2 * beta
        curvature = w * p * (1.0 - p)
        hessian = (d * curvature[:, None]).T @ d + l2 * np.eye(d.shape[1])
        step = np.linalg.solve(hessian, grad)
        beta -= step
        if np.abs(step).max() < 1e-7:
            break
    return beta


def fit(
    examples: Sequence[Example],
    features: Sequence[str],
    *,
    kind: str = "pairwise",
    l2: float = 1.0,
    top: int = 0,
    note: str = "",
) -> FusionModel:
    model = _fit(examples, features, kind, l2, note)
    for _ in range(TOP_ROUNDS if top else 0):
        model = _fit([_head(model, e, top) for e in examples], features, kind, l2, note)
    return model


TOP_ROUNDS = 2


def _head(model: FusionModel, example: Example, top: int) -> Example:
    """The example's right candidates and the wrong ones among the model's first ``top``."""
    if not len(example.x):
        return example
    order = np.argsort(-_scores(model, example), kind="stable")
    keep = example.right.copy()
    keep[order[:top]] = True
    ids = tuple(np.array(example.chunk_ids)[keep].tolist())
    return Example(example.text, example.group, ids, example.x[keep], example.right[keep])


def _scores(model: FusionModel, example: Example) -> np.ndarray:
    means, scales = np.array(model.means), np.array(model.scales)
    return ((example.x - means) / scales) @ np.array(model.weights)


def _fit(
    examples: Sequence[Example], features: Sequence[str], kind: str, l2: float, note: str
) -> FusionModel:
    usable = [e for e in examples if e.right.any() and not e.right.all()]
    means, scales = _standardise(usable)
    if kind == "pairwise":
        d, y, w = _pairs(usable, means, scales)
    else:
        d, y, w = _points(usable, means, scales)
    beta = _newton(d, y, w, l2)
    if kind != "pairwise":
        beta = beta[:-1]  # the intercept does not change the order
    return FusionModel(
        tuple(features), tuple(beta.tolist()), tuple(means.tolist()), tuple(scales.tolist()), note
    )


def _pairs(
    examples: Sequence[Example], means: np.ndarray, scales: np.ndarray
) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    diffs, weights = [], []
    for e in examples:
        x = (e.x - means) / scales
        pos, neg = x[e.right], x[~e.right]
        pairs = (pos[:, None, :] - neg[None, :, :]).reshape(-1, x.shape[1])
        diffs.append(pairs)
        weights.append(np.full(len(pairs), 1.0 / len(pairs)))
    d = np.vstack(diffs)
    return d, np.ones(len(d), dtype=bool), np.concatenate(weights)


def _points(
    examples: Sequence[Example], means: np.ndarray, scales: np.ndarray
) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    xs, ys, ws = [], [], []
    for e in examples:
        x = (e.x - means) / scales
        xs.append(np.hstack([x, np.ones((len(x), 1))]))
        ys.append(e.right)
        n_pos, n_neg = e.right.sum(), (~e.right).sum()
        ws.append(np.where(e.right, 0.5 / n_pos, 0.5 / n_neg))
    return np.vstack(xs), np.concatenate(ys), np.concatenate(ws)


def first_right(model: FusionModel, example: Example) -> int | None:
    """The rank (1-based) of the first right candidate under the model, None if none."""
    if not example.right.any():
        return None
    order = np.lexsort((np.array(example.chunk_ids), -_scores(model, example)))
    ranks = np.nonzero(example.right[order])[0]
    return int(ranks[0]) + 1
