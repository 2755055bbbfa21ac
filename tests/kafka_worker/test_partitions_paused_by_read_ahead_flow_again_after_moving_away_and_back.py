"""Regression (issue 11 §1): a partition paused by the read-ahead limit, taken away by a
rebalance while paused and later given back, is read again instead of stalling for good.

librdkafka keeps a partition's pause across a revoke and a re-assignment. The worker paused
its four partitions (read-ahead past WAITING_LIMIT); a second member joined the group
(cooperative-sticky moved two partitions to it); the worker worked its read-ahead down and
resumed what it still had; the member left and the two partitions came back to the worker
still paused inside librdkafka, so their remaining records were never read.

The stall detector (KAFKA_PARTITION_STALL_SECONDS) would eventually rescue such a
partition; it is switched off here so only the root fix can make this pass.
"""

from __future__ import annotations

import time
import uuid
from collections.abc import Callable

import pytest
from confluent_kafka import Consumer

from ingestion.models import IngestionJob, JobState
from partner_events.worker.loop import WAITING_LIMIT
from tests.harness.fixtures import KafkaTopics, S3Bucket
from tests.kafka_worker.helpers import (
    WorkerProcess,
    committed_offset,
    produce,
    put_object,
    record_bytes,
    scanned_pages,
    worker_env,
)
from tests.partner_ingest.helpers import doc_uploaded

pytestmark = pytest.mark.kafka
PARTITIONS = 4
PER_PARTITION = 16  # 64 records: the worker reads ahead past the limit at once


def _text_record(bucket: S3Bucket, name: str) -> dict[str, str]:
    body = f"Pasal 1\n\nKetentuan {name} berlaku sejak diundangkan.\n".encode()
    return doc_uploaded(put_object(bucket, f"opendata/{name}.txt", body))


def _jobs_done(job_ids: list[str]) -> int:
    return IngestionJob.objects.filter(partner_job_id__in=job_ids, state=JobState.DONE).count()


def _poll_until(guest: Consumer, done: Callable[[], bool], timeout: float) -> bool:
    """Keep the guest member alive (its rebalance callbacks run in poll) until ``done``."""
    deadline = time.monotonic() + timeout
    while not done():
        if time.monotonic() > deadline:
            return False
        guest.poll(0.2)
    return True


@pytest.mark.parametrize("unique_topics", [PARTITIONS], indirect=True)
def test_partitions_paused_by_read_ahead_flow_again_after_moving_away_and_back(
    start_worker: Callable[..., WorkerProcess], unique_topics: KafkaTopics, s3_bucket: S3Bucket
) -> None:
    assert PARTITIONS * PER_PARTITION > WAITING_LIMIT + 1
    records: dict[int, list[dict[str, str]]] = {}
    for partition in range(PARTITIONS):
        # A scan heads every partition: the first record keeps the worker busy (and its
        # read-ahead full, so its partitions paused) while the guest joins.
        scan = scanned_pages(1, f"QANUN ACEH NOMOR {partition + 1}\n\nPasal 1\n\nRetribusi daerah.")
        head = doc_uploaded(put_object(s3_bucket, f"jdih/{partition}.pdf", scan), "application/pdf")
        texts = [_text_record(s3_bucket, f"p{partition}-{n}") for n in range(PER_PARTITION - 1)]
        records[partition] = [head, *texts]
        batch = [record_bytes(r) for r in records[partition]]
        produce(unique_topics.bootstrap, unique_topics.input_topic, batch, partition=partition)
    worker = start_worker(
        worker_env(unique_topics, s3_bucket, KAFKA_PARTITION_STALL_SECONDS="3600")
    )
    worker.wait_ready()

    guest = Consumer(
        {
            "bootstrap.servers": unique_topics.bootstrap,
            "group.id": unique_topics.group_id,
            "client.id": f"guest-{uuid.uuid4().hex[:6]}",
            "partition.assignment.strategy": "cooperative-sticky",
            "enable.auto.commit": False,
            "auto.offset.reset": "earliest",
            "session.timeout.ms": 6000,
        }
    )
    guest.subscribe([unique_topics.input_topic])
    assert _poll_until(guest, lambda: bool(guest.assignment()), 60), "guest got no partition"
    worker.wait_for(r"kafka worker: revoked \[\(")
    taken = {tp.partition for tp in guest.assignment()}
    kept = sorted(set(range(PARTITIONS)) - taken)
    assert taken and kept, (taken, kept)

    # A probe at the end of each partition the worker kept: once it is done, the worker
    # has emptied its read-ahead and resumed (what it still owned).
    probes = [_text_record(s3_bucket, f"probe-{p}") for p in kept]
    for partition, probe in zip(kept, probes, strict=True):
        produce(
            unique_topics.bootstrap,
            unique_topics.input_topic,
            [record_bytes(probe)],
            partition=partition,
        )
    probe_ids = [p["jobId"] for p in probes]
    assert _poll_until(guest, lambda: _jobs_done(probe_ids) == len(probe_ids), 180)
    guest.close()  # leaves the group: the taken partitions go back to the worker
    worker.wait_for(r"kafka worker: assigned \[\(", count=2)

    all_ids = [r["jobId"] for rs in records.values() for r in rs] + probe_ids
    deadline = time.monotonic() + 120
    while _jobs_done(all_ids) < len(all_ids) and time.monotonic() < deadline:
        time.sleep(0.5)
    missing = {
        p: [
            r["jobId"]
            for r in rs
            if not IngestionJob.objects.filter(
                partner_job_id=r["jobId"], state=JobState.DONE
            ).exists()
        ]
        for p, rs in records.items()
    }
    assert _jobs_done(all_ids) == len(all_ids), {p: len(m) for p, m in missing.items() if m}
    ends = {p: PER_PARTITION + (1 if p in kept else 0) for p in range(PARTITIONS)}
    deadline = time.monotonic() + 30
    while time.monotonic() < deadline and any(
        committed_offset(unique_topics, p) != end for p, end in ends.items()
    ):
        time.sleep(0.5)
    assert {p: committed_offset(unique_topics, p) for p in ends} == ends
