"""Helpers for the Kafka worker tests: the real command as a subprocess, a real broker,
Postgres (the test database, shared across processes) and S3 (moto)."""

from __future__ import annotations

import json
import os
import re
import signal
import subprocess
import sys
import time
import uuid
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from confluent_kafka import Consumer, Producer, TopicPartition

from tests.harness.fixtures import KafkaTopics, S3Bucket
from tests.partner_ingest.helpers import SCAN_TEXT, scan_pdf

REPO = Path(__file__).resolve().parents[2]
BORN_DIGITAL = [
    ("extracting", "done", 10),
    ("extracting", "done", 25),
    ("chunking", "done", 65),
    ("embedding", "done", 85),
    ("indexed", "done", 100),
]
SCANNED = [
    ("extracting", "done", 10),
    ("ocr_pending", "started", 25),
    ("extracting", "done", 25),
    ("ocr_done", "done", 45),
    ("chunking", "done", 65),
    ("embedding", "done", 85),
    ("indexed", "done", 100),
]
TERMINAL = {("indexed", "done"), ("indexed", "needs_review"), ("indexed", "skipped")}
TERMINAL |= {("failed", "failed")}


def database_url_for_workers() -> str:
    """The pytest-django test database, so the worker's rows are visible to the test."""
    from django.db import connection
    from psycopg.conninfo import make_conninfo

    db = connection.settings_dict
    return make_conninfo(
        "",
        dbname=db["NAME"],
        user=db["USER"] or None,
        password=db["PASSWORD"] or None,
        host=db["HOST"] or None,
        port=str(db["PORT"]) if db["PORT"] else None,
    )


def worker_env(topics: KafkaTopics, bucket: S3Bucket, **extra: str) -> dict[str, str]:
    env = {
        k: v
        for k, v in os.environ.items()
        if k not in {"MODEL_GATEWAY_URL", "MANAGER_URL", "AUDIT_REDIS_URL"}
    }
    env.update(
        DATABASE_URL=database_url_for_workers(),
        OBJECT_STORAGE_URL=f"s3://{bucket.name}/{bucket.prefix}",
        KAFKA_ENABLED="true",
        KAFKA_BOOTSTRAP_SERVERS=topics.bootstrap,
        KAFKA_STAGE_TOPICS=json.dumps(topics.stage_topics),
        KAFKA_DOC_UPLOADED_TOPIC=topics.input_topic,
        KAFKA_CONSUMER_GROUP=topics.group_id,
        KAFKA_MAX_RETRIES="1",
        KAFKA_RETRY_BACKOFF_SECONDS="0.1",
        KAFKA_METRICS_PORT="0",
        KAFKA_DRAIN_SECONDS="60",
        OCR_REVIEW_THRESHOLD="0.0",
        LOG_LEVEL="INFO",
        PYTHONUNBUFFERED="1",
    )
    env.update(extra)
    return env


class WorkerProcess:
    """``manage.py kafka_worker`` in its own process, its log in a file."""

    def __init__(self, env: dict[str, str], log_path: Path, args: tuple[str, ...] = ()) -> None:
        self.log_path = log_path
        self._log = log_path.open("wb")
        self.proc = subprocess.Popen(
            [sys.executable, "manage.py", "kafka_worker", "--session-timeout-ms", "6000", *args],
            cwd=REPO,
            env=env,
            stdout=self._log,
            stderr=subprocess.STDOUT,
        )

    @property
    def log(self) -> str:
        return self.log_path.read_text(errors="replace")

    def wait_for(self, pattern: str, timeout: float = 60.0, count: int = 1) -> re.Match[str]:
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            matches = list(re.finditer(pattern, self.log))
            if len(matches) >= count:
                return matches[count - 1]
            if self.proc.poll() is not None:
                break
            time.sleep(0.1)
        raise AssertionError(f"{pattern!r} not in the worker log:\n{self.log[-4000:]}")

    def wait_ready(self, timeout: float = 60.0) -> None:
        self.wait_for(r"kafka worker: assigned \[\(", timeout)

    def signal(self, signum: int) -> None:
        self.proc.send_signal(signum)

    def wait(self, timeout: float = 90.0) -> int:
        return self.proc.wait(timeout)

    def stop(self) -> None:
        if self.proc.poll() is None:
            self.proc.send_signal(signal.SIGTERM)
            try:
                self.proc.wait(60)
            except subprocess.TimeoutExpired:
                self.proc.kill()
                self.proc.wait()
        self._log.close()


def put_object(bucket: S3Bucket, key: str, data: bytes) -> str:
    bucket.client.put_object(Bucket=bucket.name, Key=f"{bucket.prefix}/{key}", Body=data)
    return key


def produce(
    bootstrap: str, topic: str, values: list[bytes], *, partition: int | None = None
) -> None:
    producer = Producer({"bootstrap.servers": bootstrap, "enable.idempotence": True})
    for value in values:
        if partition is None:
            producer.produce(topic, value=value)
        else:
            producer.produce(topic, value=value, partition=partition)
    assert producer.flush(30) == 0, "records not delivered to the input topic"


def record_bytes(record: dict[str, Any]) -> bytes:
    return json.dumps(record).encode("utf-8")


@dataclass(frozen=True)
class StageMessage:
    topic: str
    key: str
    value: dict[str, Any]

    @property
    def wire(self) -> tuple[str, str, int]:
        return (self.value["stage"], self.value["status"], self.value["progress"])


class StageReader:
    """Reads every stage topic of the test from the beginning, in a group of its own."""

    def __init__(self, topics: KafkaTopics, bootstrap: str | None = None) -> None:
        self.consumer = Consumer(
            {
                "bootstrap.servers": bootstrap or topics.bootstrap,
                "group.id": f"stage-reader-{uuid.uuid4().hex[:8]}",
                "auto.offset.reset": "earliest",
                "enable.auto.commit": False,
            }
        )
        self.consumer.subscribe(sorted(set(topics.stage_topics.values())))
        self.messages: list[StageMessage] = []
        # The reader commits nothing, so after a broker restart its rejoin starts again
        # from the earliest offset: a message it re-reads is not a duplicate on the wire.
        self.seen: set[tuple[str, int, int]] = set()

    def read(
        self, until: Callable[[list[StageMessage]], bool], timeout: float = 60.0
    ) -> list[StageMessage]:
        deadline = time.monotonic() + timeout
        while not until(self.messages) and time.monotonic() < deadline:
            message = self.consumer.poll(0.2)
            if message is None or message.error() is not None:
                continue
            where = (
                str(message.topic()),
                int(message.partition() or 0),
                int(message.offset() or 0),
            )
            if where in self.seen:
                continue
            self.seen.add(where)
            self.messages.append(
                StageMessage(
                    str(message.topic()),
                    (message.key() or b"").decode(),
                    json.loads(message.value() or b"null"),
                )
            )
        return self.messages

    def settle(self, seconds: float) -> list[StageMessage]:
        """Whatever else arrives within ``seconds`` (to prove nothing more does)."""
        return self.read(lambda _messages: False, timeout=seconds)

    def of(self, job_id: str) -> list[StageMessage]:
        return [m for m in self.messages if m.key == job_id]

    def close(self) -> None:
        self.consumer.close()


def terminals(messages: list[StageMessage]) -> list[StageMessage]:
    return [m for m in messages if (m.value["stage"], m.value["status"]) in TERMINAL]


def has_terminal(job_id: str) -> Callable[[list[StageMessage]], bool]:
    return lambda messages: any(m.key == job_id for m in terminals(messages))


def has_events(job_id: str, count: int) -> Callable[[list[StageMessage]], bool]:
    """At least ``count`` events of the job. Wait for these, not for the terminal event:
    each stage has its own topic, so the terminal may arrive before an earlier stage's."""
    return lambda messages: sum(m.key == job_id for m in messages) >= count


def committed_offset(topics: KafkaTopics, partition: int = 0) -> int:
    """The worker group's committed offset on the input topic (-1001 when none)."""
    consumer = Consumer({"bootstrap.servers": topics.bootstrap, "group.id": topics.group_id})
    try:
        (tp,) = consumer.committed([TopicPartition(topics.input_topic, partition)], timeout=10)
        return int(tp.offset)
    finally:
        consumer.close()


def follows_contract_order(
    messages: list[StageMessage], expected: list[tuple[str, str, int]]
) -> bool:
    """Same events as ``expected``, and in its order within every topic (no total order
    across topics is promised)."""
    if sorted(m.wire for m in messages) != sorted(expected):
        return False
    for topic in {m.topic for m in messages}:
        seen = [m.wire for m in messages if m.topic == topic]
        wanted = [w for w in expected if w in seen]
        if seen != wanted:
            return False
    return True


def wait_committed(
    topics: KafkaTopics, offset: int, partition: int = 0, timeout: float = 30.0
) -> int:
    """The group's committed offset once it reaches ``offset`` (or the last seen)."""
    deadline = time.monotonic() + timeout
    seen = committed_offset(topics, partition)
    while seen != offset and time.monotonic() < deadline:
        time.sleep(0.2)
        seen = committed_offset(topics, partition)
    return seen


def scanned_pages(pages: int, text: str = SCAN_TEXT) -> bytes:
    """An image-only PDF of ``pages`` pages (slow enough to interrupt mid-OCR)."""
    import pymupdf

    scan = pymupdf.open()
    single = pymupdf.open(stream=scan_pdf(text), filetype="pdf")
    for _ in range(pages):
        scan.insert_pdf(single)
    data: bytes = scan.tobytes()
    return data


def started_ocr(job_id: str) -> Callable[[list[StageMessage]], bool]:
    return lambda messages: any(
        m.key == job_id and m.value["stage"] == "ocr_pending" for m in messages
    )
