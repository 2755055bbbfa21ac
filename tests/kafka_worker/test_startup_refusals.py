"""The worker refuses to start, saying why, when Kafka is off or the topics are not there."""

from __future__ import annotations

import json
from collections.abc import Callable

import pytest

from tests.harness.fixtures import KafkaTopics, S3Bucket
from tests.kafka_worker.helpers import WorkerProcess, worker_env

pytestmark = pytest.mark.kafka


def _refused(worker: WorkerProcess) -> tuple[int, str]:
    code = worker.wait(120)
    return code, worker.log


def test_a_disabled_kafka_refuses_to_start(
    start_worker: Callable[..., WorkerProcess], unique_topics: KafkaTopics, s3_bucket: S3Bucket
) -> None:
    env = worker_env(unique_topics, s3_bucket, KAFKA_ENABLED="false")

    code, log = _refused(start_worker(env))

    assert code == 2
    assert "KAFKA_ENABLED bernilai false" in log


def test_a_missing_destination_topic_refuses_to_start(
    start_worker: Callable[..., WorkerProcess], unique_topics: KafkaTopics, s3_bucket: S3Bucket
) -> None:
    stage = dict(unique_topics.stage_topics, ocr="doc.ocr.done.never-created")
    env = worker_env(unique_topics, s3_bucket, KAFKA_STAGE_TOPICS=json.dumps(stage))

    code, log = _refused(start_worker(env))

    assert code == 2
    assert "topic belum ada di broker" in log
    assert "doc.ocr.done.never-created" in log


def test_a_missing_input_topic_refuses_to_start(
    start_worker: Callable[..., WorkerProcess], unique_topics: KafkaTopics, s3_bucket: S3Bucket
) -> None:
    env = worker_env(unique_topics, s3_bucket, KAFKA_DOC_UPLOADED_TOPIC="doc.uploaded.absent")

    code, log = _refused(start_worker(env))

    assert code == 2
    assert "doc.uploaded.absent" in log


def test_an_incomplete_stage_topic_map_refuses_to_start(
    start_worker: Callable[..., WorkerProcess], unique_topics: KafkaTopics, s3_bucket: S3Bucket
) -> None:
    stage = {k: v for k, v in unique_topics.stage_topics.items() if k != "skipped"}
    env = worker_env(unique_topics, s3_bucket, KAFKA_STAGE_TOPICS=json.dumps(stage))

    code, log = _refused(start_worker(env))

    assert code == 2
    assert "peta stage-topic tidak lengkap" in log
    assert "'skipped'" in log
