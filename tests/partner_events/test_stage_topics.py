"""The stage-topic map must be complete, non-empty and use only supported routing keys."""

from __future__ import annotations

from typing import Any

import pytest
from django.core.exceptions import ImproperlyConfigured

from partner_events.contract.validate import ContractConfig
from partner_events.status import ROUTES, topic_for, validate_stage_topics

DEFAULT = {
    "fetched": "doc.extracted",
    "parsed": "doc.extracted",
    "ocr_pending": "doc.ocr.pending",
    "ocr": "doc.ocr.done",
    "chunked": "doc.chunked",
    "embedded": "doc.embedded",
    "indexed": "doc.indexed",
    "failed": "doc.indexed",
    "skipped": "doc.indexed",
}


def test_the_default_map_is_valid_and_routes_to_six_destinations() -> None:
    topics = validate_stage_topics(DEFAULT)
    assert topics == DEFAULT
    assert len(set(topics.values())) == 6


def test_a_partner_override_is_kept() -> None:
    topics = validate_stage_topics({**DEFAULT, "failed": "dms.job.failed"})
    assert topic_for("failed", topics) == "dms.job.failed"
    assert topic_for("indexed", topics) == "doc.indexed"


@pytest.mark.parametrize("key", [key.value for key in ROUTES])
def test_a_missing_route_is_named(key: str) -> None:
    incomplete = {k: v for k, v in DEFAULT.items() if k != key}
    with pytest.raises(ImproperlyConfigured, match=f"'{key}'"):
        validate_stage_topics(incomplete)


@pytest.mark.parametrize("value", ["", "   ", None, 5])
def test_an_empty_route_is_named(value: Any) -> None:
    with pytest.raises(ImproperlyConfigured, match=r"'ocr'.*kosong"):
        validate_stage_topics({**DEFAULT, "ocr": value})


def test_an_unsupported_key_is_named() -> None:
    with pytest.raises(ImproperlyConfigured, match="ocr_done"):
        validate_stage_topics({**DEFAULT, "ocr_done": "doc.ocr.done"})


def test_an_illegal_topic_name_is_refused() -> None:
    with pytest.raises(ImproperlyConfigured, match="chunked"):
        validate_stage_topics({**DEFAULT, "chunked": "doc chunked"})


@pytest.mark.parametrize("value", [None, ["fetched"], "doc.indexed"])
def test_a_map_that_is_not_an_object_is_refused(value: Any) -> None:
    with pytest.raises(ImproperlyConfigured, match="KAFKA_STAGE_TOPICS"):
        validate_stage_topics(value)


def test_the_contract_config_refuses_an_incomplete_map() -> None:
    with pytest.raises(ImproperlyConfigured, match="'skipped'"):
        ContractConfig(stage_topics={k: v for k, v in DEFAULT.items() if k != "skipped"})
