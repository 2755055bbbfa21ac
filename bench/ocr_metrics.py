"""Scoring for the OCR benchmark: line matching, CER, AUROC, review-threshold figures."""

from __future__ import annotations

import re
from dataclasses import dataclass

import numpy as np
from ocr_synth import SynthPage


@dataclass(slots=True)
class ScoredLine:
    """One OCR line against its ground truth (``truth`` empty: nothing was printed there)."""

    split: str
    level: str
    text: str
    truth: str
    raw: float
    aspect: float
    cer: float
    page_id: str = ""
    missed: float = 0.0


def norm(text: str) -> str:
    return re.sub(r"\s+", " ", text).strip()


def edit_distance(a: str, b: str) -> int:
    if len(a) < len(b):
        a, b = b, a
    previous = list(range(len(b) + 1))
    for i, ca in enumerate(a, start=1):
        current = [i]
        for j, cb in enumerate(b, start=1):
            current.append(min(previous[j] + 1, current[j - 1] + 1, previous[j - 1] + (ca != cb)))
        previous = current
    return previous[-1]


def cer(text: str, truth: str) -> float:
    text, truth = norm(text), norm(truth)
    if not truth:
        return 1.0 if text else 0.0
    return edit_distance(text, truth) / len(truth)


def match_lines(
    page: SynthPage,
    ocr: list[tuple[str, float, float, float, tuple[float, float, float, float]]],
    rotation: int,
    size: tuple[int, int],
) -> tuple[list[tuple[str, str, float, float, float]], int, int]:
    """Pair OCR rows with truth lines through the page geometry.

    ``ocr`` holds (text, raw, aspect, missed ink, box) in the frame the engine read (the
    degraded page turned by ``rotation``). Each box centre is mapped back to the upright
    render and given to the truth line whose band contains it. Returns (text, truth, raw,
    aspect, missed) per row (rows on one truth line are joined left to right), the summed
    edit distance over the page, and the number of truth characters.
    """
    w, h = size
    full = np.vstack([page.matrix, [0.0, 0.0, 1.0]])
    if rotation == 180:
        # The engine read the degraded image turned 180°: undo that first.
        flip = np.array([[-1.0, 0.0, w], [0.0, -1.0, h], [0.0, 0.0, 1.0]])
        full = flip @ full
    inverse = np.linalg.inv(full)
    assigned: dict[int, list[tuple[float, str, float, float, float]]] = {}
    orphans: list[tuple[str, str, float, float, float]] = []
    for text, raw, aspect, missed, box in ocr:
        cx, cy = (box[0] + box[2]) / 2, (box[1] + box[3]) / 2
        ux, uy, _ = inverse @ np.array([cx, cy, 1.0])
        index = _truth_at(page, ux, uy) if rotation in (0, 180) else None
        if index is None:
            orphans.append((text, "", raw, aspect, missed))
        else:
            assigned.setdefault(index, []).append((ux, text, raw, aspect, missed))
    pairs = list(orphans)
    errors = sum(len(norm(t)) for t, *_ in orphans)
    for i, truth in enumerate(page.truth):
        parts = sorted(assigned.get(i, []))
        text = " ".join(p[1] for p in parts)
        errors += edit_distance(norm(text), norm(truth.text))
        if parts:
            chars = sum(max(len(p[1]), 1) for p in parts)
            raw = sum(p[2] * max(len(p[1]), 1) for p in parts) / chars
            missed = min(p[4] for p in parts)
            pairs.append((text, truth.text, raw, sum(p[3] for p in parts), missed))
    return pairs, errors, sum(len(norm(t.text)) for t in page.truth)


def _truth_at(page: SynthPage, x: float, y: float) -> int | None:
    best, best_d = None, float("inf")
    for i, t in enumerate(page.truth):
        x0, y0, x1, y1 = t.box
        pitch = y1 - y0
        if x0 - pitch <= x <= x1 + pitch:
            d = abs(y - (y0 + y1) / 2)
            if d < best_d and d < 0.75 * pitch:
                best, best_d = i, d
    return best


def auroc(scores: np.ndarray, positive: np.ndarray) -> float:
    """Probability that a random good line scores above a random bad one (ties count half)."""
    pos, neg = scores[positive], scores[~positive]
    if not len(pos) or not len(neg):
        return float("nan")
    order = np.argsort(np.concatenate([pos, neg]), kind="mergesort")
    ranks = np.empty(len(order))
    values = np.concatenate([pos, neg])[order]
    ranks[order] = _average_ranks(values)
    return float((ranks[: len(pos)].sum() - len(pos) * (len(pos) + 1) / 2) / (len(pos) * len(neg)))


def _average_ranks(sorted_values: np.ndarray) -> np.ndarray:
    ranks = np.arange(1, len(sorted_values) + 1, dtype=float)
    start = 0
    for end in range(1, len(sorted_values) + 1):
        if end == len(sorted_values) or sorted_values[end] != sorted_values[start]:
            ranks[start:end] = (start + 1 + end) / 2
            start = end
    return ranks


def flag_stats(conf: np.ndarray, bad: np.ndarray, threshold: float) -> tuple[float, float, float]:
    """Precision, recall and flagged share of "confidence < threshold" as a bad-line alarm."""
    flagged = conf < threshold
    tp = float(np.sum(flagged & bad))
    precision = tp / flagged.sum() if flagged.any() else float("nan")
    recall = tp / bad.sum() if bad.any() else float("nan")
    return precision, recall, float(flagged.mean())


def best_threshold(conf: np.ndarray, bad: np.ndarray) -> float:
    """The threshold with the best F1 for catching bad lines (chosen on the tuning split)."""
    best, best_f1 = 0.5, -1.0
    for threshold in np.round(np.arange(0.05, 0.96, 0.01), 2):
        precision, recall, _ = flag_stats(conf, bad, float(threshold))
        if np.isnan(precision) or np.isnan(recall) or precision + recall == 0:
            continue
        f1 = 2 * precision * recall / (precision + recall)
        if f1 > best_f1:
            best, best_f1 = float(threshold), f1
    return best
