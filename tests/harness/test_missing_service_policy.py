"""Without a service variable a test skips locally but fails in CI."""

from __future__ import annotations

import pytest

from tests.harness.fixtures import require_env


def test_a_missing_service_skips_on_a_developer_machine(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv("TEST_NOPE", raising=False)
    monkeypatch.delenv("CI", raising=False)
    monkeypatch.delenv("ACEH_RAG_REQUIRE_SERVICES", raising=False)

    with pytest.raises(pytest.skip.Exception, match="TEST_NOPE"):
        require_env("TEST_NOPE")


@pytest.mark.parametrize("flag", ["CI", "ACEH_RAG_REQUIRE_SERVICES"])
def test_a_missing_service_fails_when_services_are_required(
    monkeypatch: pytest.MonkeyPatch, flag: str
) -> None:
    monkeypatch.delenv("TEST_NOPE", raising=False)
    monkeypatch.delenv("CI", raising=False)
    monkeypatch.delenv("ACEH_RAG_REQUIRE_SERVICES", raising=False)
    monkeypatch.setenv(flag, "true")

    with pytest.raises(pytest.fail.Exception, match="TEST_NOPE"):
        require_env("TEST_NOPE")


def test_a_present_variable_is_returned(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("TEST_NOPE", "redis://127.0.0.1:1/0")

    assert require_env("TEST_NOPE") == "redis://127.0.0.1:1/0"
