from __future__ import annotations

from aceh_rag.platform.gateway.jobs import ocr_idempotency_key
from aceh_rag.platform.gateway.wire import idempotency_key


def test_the_same_input_always_yields_the_same_key() -> None:
    first = idempotency_key("embed", "tei-embeddings", "1", {"input": ["a", "b"]})
    second = idempotency_key("embed", "tei-embeddings", "1", {"input": ["a", "b"]})

    assert first == second
    assert first.startswith("aceh-rag-embed-")


def test_dict_key_order_does_not_change_the_key() -> None:
    a = idempotency_key("ocr", "paddleocr", "1", {"x": 1, "y": [1, 2]})
    b = idempotency_key("ocr", "paddleocr", "1", {"y": [1, 2], "x": 1})

    assert a == b


def test_operation_model_config_version_and_input_each_change_the_key() -> None:
    base = ("embed", "tei-embeddings", "1", {"input": ["a"]})
    variants = [
        ("ocr", "tei-embeddings", "1", {"input": ["a"]}),
        ("embed", "other-model", "1", {"input": ["a"]}),
        ("embed", "tei-embeddings", "2", {"input": ["a"]}),
        ("embed", "tei-embeddings", "1", {"input": ["b"]}),
    ]

    keys = {idempotency_key(*v) for v in variants}

    assert idempotency_key(*base) not in keys
    assert len(keys) == len(variants)


def test_ocr_keys_follow_the_page_bytes_and_numbers() -> None:
    pages = [(1, b"png-1"), (2, b"png-2")]

    assert ocr_idempotency_key("paddleocr", "1", pages) == ocr_idempotency_key(
        "paddleocr", "1", list(pages)
    )
    assert ocr_idempotency_key("paddleocr", "1", pages) != ocr_idempotency_key(
        "paddleocr", "1", [(1, b"png-1"), (3, b"png-2")]
    )
    assert ocr_idempotency_key("paddleocr", "1", pages) != ocr_idempotency_key(
        "paddleocr", "1", [(1, b"png-1"), (2, b"png-X")]
    )
