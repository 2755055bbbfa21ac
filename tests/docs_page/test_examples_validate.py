"""The page's examples are what the validator and the schema accept."""

from __future__ import annotations

import json

import jsonschema

from partner_events.contract.validate import ContractConfig, validate_doc_uploaded
from partner_events.docs import EXAMPLES, success_event_example
from partner_events.schemas import STAGE_STATUS_SCHEMA, doc_uploaded_schema


def test_both_contract_examples_are_accepted_by_the_validator() -> None:
    config = ContractConfig()
    for name, event in EXAMPLES.items():
        verdict = validate_doc_uploaded(json.dumps(event).encode(), config)
        assert verdict.to_json(config)["outcome"] == "accept", name


def test_both_contract_examples_match_the_published_input_schema() -> None:
    schema = doc_uploaded_schema()
    for event in EXAMPLES.values():
        jsonschema.validate(event, schema)


def test_the_success_example_is_a_valid_stage_status_event() -> None:
    event = success_event_example()
    jsonschema.Draft202012Validator(STAGE_STATUS_SCHEMA).validate(event)
    assert (event["stage"], event["status"], event["progress"]) == ("indexed", "done", 100)
