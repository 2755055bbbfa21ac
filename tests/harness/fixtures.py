"""Fixtures for the real services that ``scripts/test_runner.py`` starts.

The runner exports TEST_* variables; these fixtures read them (settings.py never does).
A missing variable skips the test on a developer's machine but fails it when ``CI`` or
``ACEH_RAG_REQUIRE_SERVICES`` is set, so CI can never pass by skipping.
"""

from __future__ import annotations

import os
import re
import tempfile
import uuid
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import pytest

from scripts.kafka import BrokerConfig, broker_pid, private_config, start_broker, stop_broker
from scripts.services import RedisServer, create_topics, delete_topics

_FALSY = {"", "0", "false", "no"}
DEFAULT_TEST_PARTITIONS = 2


def services_required() -> bool:
    return any(
        os.environ.get(name, "").strip().lower() not in _FALSY
        for name in ("CI", "ACEH_RAG_REQUIRE_SERVICES")
    )


def require_env(name: str) -> str:
    """The variable's value, or skip (locally) / fail (CI) with a message saying why."""
    value = os.environ.get(name, "").strip()
    if value:
        return value
    message = (
        f"{name} tidak di-set: jalankan tes lewat `make test` "
        "(scripts/test_runner.py; tes Kafka tanpa --no-kafka)"
    )
    if services_required():
        pytest.fail(message)
    pytest.skip(message)


def unique_suffix(request: pytest.FixtureRequest) -> str:
    """A topic-safe suffix naming the test (for reading broker state) plus random bits."""
    name = re.sub(r"[^a-zA-Z0-9]+", "-", request.node.name).strip("-")[:40]
    return f"{name}-{uuid.uuid4().hex[:8]}"


def private_dir(tmp_path_factory: pytest.TempPathFactory, name: str) -> Path:
    """A dir for a test's own server: under the runner's TEST_RUN_DIR when there is one,
    so the runner can stop the server even if pytest dies before its teardown."""
    run_dir = os.environ.get("TEST_RUN_DIR", "").strip()
    if not run_dir:
        return tmp_path_factory.mktemp(name)
    return Path(tempfile.mkdtemp(prefix=f"{name}-", dir=run_dir))


# --- S3 ------------------------------------------------------------------------------------


@dataclass(frozen=True)
class S3Bucket:
    client: Any
    name: str
    endpoint: str
    prefix: str  # unique per test: keep each test's keys apart in the shared bucket


@pytest.fixture
def s3_bucket(request: pytest.FixtureRequest) -> S3Bucket:
    import boto3

    endpoint = require_env("TEST_S3_ENDPOINT")
    bucket = require_env("TEST_S3_BUCKET")
    client = boto3.client(
        "s3",
        endpoint_url=endpoint,
        aws_access_key_id=require_env("AWS_ACCESS_KEY_ID"),
        aws_secret_access_key=require_env("AWS_SECRET_ACCESS_KEY"),
        region_name=os.environ.get("AWS_DEFAULT_REGION", "us-east-1"),
    )
    return S3Bucket(client=client, name=bucket, endpoint=endpoint, prefix=unique_suffix(request))


# --- Redis ---------------------------------------------------------------------------------


@pytest.fixture
def redis_url() -> str:
    """The run's shared Redis; use unique key/stream names per test."""
    return require_env("TEST_REDIS_URL")


@pytest.fixture
def redis_server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[RedisServer]:
    """A Redis of this test's own, already started: ``.url``, ``.stop()``, ``.start()``.

    Restarts keep the port (so the URL stays valid) and the data (append-only file).
    """
    require_env("TEST_REDIS_URL")
    server = RedisServer(work_dir=private_dir(tmp_path_factory, "redis"))
    server.start()
    yield server
    server.stop()


# --- Kafka ---------------------------------------------------------------------------------


@pytest.fixture
def kafka_bootstrap() -> str:
    """The shared broker's address; only ever touch topics from ``unique_topics``."""
    require_env("TEST_KAFKA_AVAILABLE")
    return require_env("TEST_KAFKA_BOOTSTRAP")


@dataclass
class KafkaBroker:
    """A broker private to this test session, for tests that take Kafka down."""

    config: BrokerConfig

    @property
    def bootstrap(self) -> str:
        return self.config.bootstrap

    @property
    def running(self) -> bool:
        return broker_pid(self.config) is not None

    def start(self, timeout: float = 120.0) -> None:
        start_broker(self.config, timeout=timeout)

    def stop(self, timeout: float = 30.0) -> None:
        stop_broker(self.config, timeout=timeout)


@pytest.fixture(scope="session")
def _private_kafka_broker(tmp_path_factory: pytest.TempPathFactory) -> Iterator[KafkaBroker]:
    require_env("TEST_KAFKA_AVAILABLE")
    broker = KafkaBroker(private_config(private_dir(tmp_path_factory, "kafka-node")))
    yield broker
    broker.stop()


@pytest.fixture
def kafka_broker(_private_kafka_broker: KafkaBroker) -> KafkaBroker:
    """A running private broker (restarted if an earlier test left it down).

    Its topics, offsets and data survive ``stop()``/``start()``; the port stays the same.
    """
    _private_kafka_broker.start()
    return _private_kafka_broker


@dataclass(frozen=True)
class KafkaTopics:
    bootstrap: str
    stage_topics: dict[str, str]  # KAFKA_STAGE_TOPICS-shaped: routing key -> topic
    input_topic: str  # plays KAFKA_DOC_UPLOADED_TOPIC
    group_id: str  # a consumer group no other test uses
    partitions: int
    names: list[str] = field(default_factory=list)  # every topic created


def _configured_topics() -> tuple[dict[str, str], str]:
    from django.conf import settings

    stage = dict(getattr(settings, "KAFKA_STAGE_TOPICS", None) or settings.DEFAULT_STAGE_TOPICS)
    return stage, str(getattr(settings, "KAFKA_DOC_UPLOADED_TOPIC", "doc.uploaded"))


def make_topics(bootstrap: str, suffix: str, partitions: int) -> KafkaTopics:
    """Suffixed copies of the configured stage and input topics, created on ``bootstrap``."""
    stage, uploaded = _configured_topics()
    stage_topics = {key: f"{topic}.{suffix}" for key, topic in stage.items()}
    input_topic = f"{uploaded}.{suffix}"
    names = sorted({input_topic, *stage_topics.values()})
    create_topics(bootstrap, names, partitions=partitions)
    return KafkaTopics(
        bootstrap=bootstrap,
        stage_topics=stage_topics,
        input_topic=input_topic,
        group_id=f"aceh-rag-test-{suffix}",
        partitions=partitions,
        names=names,
    )


@pytest.fixture
def make_unique_topics(
    request: pytest.FixtureRequest, kafka_bootstrap: str
) -> Iterator[Callable[..., KafkaTopics]]:
    """Factory: ``make_unique_topics(partitions=3, bootstrap=None)``; deleted after the test."""
    created: list[KafkaTopics] = []

    def make(
        partitions: int = DEFAULT_TEST_PARTITIONS, bootstrap: str | None = None
    ) -> KafkaTopics:
        topics = make_topics(bootstrap or kafka_bootstrap, unique_suffix(request), partitions)
        created.append(topics)
        return topics

    yield make
    for topics in created:
        delete_topics(topics.bootstrap, topics.names)


@pytest.fixture
def unique_topics(
    request: pytest.FixtureRequest, make_unique_topics: Callable[..., KafkaTopics]
) -> KafkaTopics:
    """Fresh stage + input topics on the shared broker, unique to this test.

    Partitions default to 2; choose another count with
    ``@pytest.mark.parametrize("unique_topics", [4], indirect=True)``.
    """
    partitions = int(getattr(request, "param", DEFAULT_TEST_PARTITIONS))
    return make_unique_topics(partitions=partitions)
