"""DOC_UPLOADED_SCHEMA is generated from FIELDS and agrees with the contract examples."""

from __future__ import annotations

from jsonschema import Draft202012Validator

from partner_events.contract.validate import FIELDS
from partner_events.schemas import DOC_UPLOADED_SCHEMA, STAGE_STATUS_SCHEMA, doc_uploaded_schema
from tests.partner_events.helpers import FULL_EXAMPLE, REQUIRED_EXAMPLE, event


def _validator(schema: dict) -> Draft202012Validator:
    return Draft202012Validator(schema, format_checker=Draft202012Validator.FORMAT_CHECKER)


def test_both_schemas_are_valid_draft_2020_12_schemas() -> None:
    Draft202012Validator.check_schema(DOC_UPLOADED_SCHEMA)
    Draft202012Validator.check_schema(STAGE_STATUS_SCHEMA)


def test_the_schema_requires_exactly_the_required_fields() -> None:
    assert DOC_UPLOADED_SCHEMA["required"] == [spec.name for spec in FIELDS if spec.required]
    assert set(DOC_UPLOADED_SCHEMA["properties"]) == {spec.name for spec in FIELDS}
    assert len(FIELDS) == 19


def test_the_contract_examples_satisfy_the_schema() -> None:
    validator = _validator(DOC_UPLOADED_SCHEMA)
    assert list(validator.iter_errors(REQUIRED_EXAMPLE)) == []
    assert list(validator.iter_errors(FULL_EXAMPLE)) == []


def test_the_schema_catches_field_level_mistakes() -> None:
    validator = _validator(DOC_UPLOADED_SCHEMA)
    assert list(validator.iter_errors(event(jobId="job-1")))
    assert list(validator.iter_errors(event(uploadedAt="2026-08-05")))
    assert list(validator.iter_errors(event(sourceType="Legal")))
    assert list(validator.iter_errors(event(storageKey="")))


def test_every_field_has_an_indonesian_rule_for_the_docs_page() -> None:
    for spec in FIELDS:
        assert spec.rule.strip()
        assert DOC_UPLOADED_SCHEMA["properties"][spec.name]["description"] == spec.rule


def test_the_schema_follows_the_configured_file_name_field() -> None:
    schema = doc_uploaded_schema("originalName")
    assert "originalName" in schema["properties"]
    assert "fileName" not in schema["properties"]
