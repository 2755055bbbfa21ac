"""Shared test configuration: service fixtures from the harness and common helpers."""

pytest_plugins = [
    "tests.harness.fixtures",
    "tests.gateway_server",
]
