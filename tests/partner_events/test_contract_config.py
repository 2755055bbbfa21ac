"""ContractConfig reads settings and refuses values the contract cannot use."""

from __future__ import annotations

import pytest
from django.core.exceptions import ImproperlyConfigured

from partner_events.contract.validate import ContractConfig


def test_the_default_config_matches_the_settings_defaults(settings: object) -> None:
    assert ContractConfig.from_settings() == ContractConfig()


def test_from_settings_reads_every_contract_setting(settings: object) -> None:
    settings.PARTNER_FILENAME_FIELD = "originalName"  # type: ignore[attr-defined]
    settings.COLLECTION_ALIASES = {"Portal Hukum": "JDIH"}  # type: ignore[attr-defined]
    settings.STRUCTURED_SOURCE_TYPES = ["PPID"]  # type: ignore[attr-defined]
    settings.STRUCTURED_FORMATS = ["csv"]  # type: ignore[attr-defined]
    topics = dict(settings.KAFKA_STAGE_TOPICS, failed="dms.failed")  # type: ignore[attr-defined]
    settings.KAFKA_STAGE_TOPICS = topics  # type: ignore[attr-defined]
    config = ContractConfig.from_settings()
    assert config.filename_field == "originalName"
    assert config.source_type_for_collection("portal hukum") == "JDIH"
    assert config.structured_source_types == frozenset({"PPID"})
    assert config.structured_formats == frozenset({"csv"})
    assert config.stage_topics["failed"] == "dms.failed"


@pytest.mark.parametrize(
    "kwargs",
    [
        {"collection_aliases": {"jdih": "Hukum"}},
        {"collection_aliases": ["jdih"]},
        {"structured_source_types": frozenset({"Satu Data"})},
        {"structured_formats": frozenset({"xls"})},
        {"filename_field": ""},
    ],
)
def test_invalid_contract_settings_are_refused(kwargs: dict) -> None:
    with pytest.raises(ImproperlyConfigured):
        ContractConfig(**kwargs)
