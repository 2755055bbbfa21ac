"""A test run leaving the shared broker stops it only when no other run still uses it."""

from __future__ import annotations

import subprocess
import sys

import pytest

from scripts.kafka import acquire_broker, pin_broker, release_broker
from tests.harness.fixtures import KafkaBroker

pytestmark = pytest.mark.kafka


def test_the_broker_outlives_a_run_while_another_run_holds_a_lease(
    kafka_broker: KafkaBroker,
) -> None:
    other_run = subprocess.Popen([sys.executable, "-c", "import time; time.sleep(120)"])
    leases = kafka_broker.config.node_dir / "leases"
    leases.mkdir(exist_ok=True)
    (leases / str(other_run.pid)).touch()
    try:
        acquire_broker(kafka_broker.config)
        assert release_broker(kafka_broker.config) is False
        assert kafka_broker.running
    finally:
        other_run.kill()
        other_run.wait()

    acquire_broker(kafka_broker.config)
    assert release_broker(kafka_broker.config) is True
    assert not kafka_broker.running


def test_a_broker_pinned_by_make_kafka_survives_the_last_run(kafka_broker: KafkaBroker) -> None:
    pin_broker(kafka_broker.config, pinned=True)
    try:
        acquire_broker(kafka_broker.config)
        stopped = release_broker(kafka_broker.config)
    finally:
        pin_broker(kafka_broker.config, pinned=False)

    assert stopped is False
    assert kafka_broker.running
