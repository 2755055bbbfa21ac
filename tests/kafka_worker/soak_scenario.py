"""The chaos soak (issue 11 §2): one scenario for the suite (about 150 records) and for
``bench/soak.py`` (5000 by default).

Two real ``kafka_worker`` processes in one group read a seeded mix of records from a broker
private to the run (it is stopped and started); ``kill -9`` of a worker (restarted), a
broker stop/start and a SIGTERM (restarted) happen at points drawn from the same seed,
each when that share of the jobs has reached a final state. Then the run waits until it is
quiet (every job final, the outbox published, every input offset committed) and checks the
exact accounting of :func:`account`.

Documents are small texts whose bodies come from a few passages, each made unique by
trailing whitespace the parser drops: every document is new bytes, yet the vectors the earlier
documents' rows hold serve all but the first few passages, which keeps the run short.
"""

from __future__ import annotations

import hashlib
import json
import random
import signal
import time
import uuid
from collections import Counter
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from enum import StrEnum
from pathlib import Path
from typing import Any

from confluent_kafka import OFFSET_BEGINNING, Consumer, Producer, TopicPartition

from tests.kafka_worker.helpers import WorkerProcess
from tests.partner_ingest.helpers import doc_uploaded, schema_errors

PARTITIONS = 4
WORKER_ARGS = ("--orphan-grace-seconds", "2", "--deferred-retry-seconds", "0.5")
DONE = ("indexed", "done")
SKIPPED = ("indexed", "skipped")
FAILED = ("failed", "failed")
TERMINALS = {DONE, SKIPPED, FAILED, ("indexed", "needs_review")}
FINAL_STATES = ("done", "skipped", "needs_review", "failed")
PASSAGES = [
    "Pasal 1\n\nPemerintah Aceh menyelenggarakan pelayanan informasi publik daerah.\n",
    "Pasal 2\n\nRetribusi pelayanan kesehatan dipungut di pusat kesehatan masyarakat.\n",
    "Pasal 3\n\nSetiap badan publik wajib menyediakan informasi secara berkala.\n",
    "Pasal 4\n\nQanun ini mulai berlaku pada tanggal diundangkan.\n",
]


class Kind(StrEnum):
    VALID = "valid"
    REDELIVERY = "redelivery"  # the exact bytes of an earlier record
    MALFORMED = "malformed"  # breaks the contract; jobId and registryId recoverable
    GARBAGE = "garbage"  # malformed beyond recovery: no usable jobId
    MISSING_OBJECT = "missing_object"
    NEW_EDITION = "new_edition"  # an earlier record's sourceKey, new bytes
    DUPLICATE_BYTES = "duplicate_bytes"  # an earlier record's bytes under another sourceKey


WEIGHTS = {
    Kind.VALID: 45,
    Kind.REDELIVERY: 12,
    Kind.MALFORMED: 8,
    Kind.GARBAGE: 7,
    Kind.MISSING_OBJECT: 8,
    Kind.NEW_EDITION: 10,
    Kind.DUPLICATE_BYTES: 10,
}
EXPECTED: dict[Kind, set[tuple[str, str]]] = {
    Kind.VALID: {DONE},
    Kind.MALFORMED: {FAILED},
    Kind.MISSING_OBJECT: {FAILED},
    Kind.NEW_EDITION: {DONE},
    Kind.DUPLICATE_BYTES: {SKIPPED, DONE},  # one of its bytes group is done, see account()
}
GARBAGE = [b"{bukan json", b"[]", b"null", json.dumps({"jobId": "job-1"}).encode()]


@dataclass(frozen=True)
class Record:
    kind: Kind
    partition: int
    value: bytes
    job_id: str | None  # None: uncorrelatable; a redelivery carries its original's


@dataclass
class Plan:
    seed: int
    records: list[Record] = field(default_factory=list)
    objects: dict[str, bytes] = field(default_factory=dict)  # storageKey → bytes
    kinds: dict[str, Kind] = field(default_factory=dict)  # jobId → kind (not redeliveries)
    groups: dict[str, list[str]] = field(default_factory=dict)  # bytes digest → jobIds

    @property
    def job_ids(self) -> list[str]:
        return list(self.kinds)

    def counts(self) -> Counter[str]:
        return Counter(r.kind.value for r in self.records)


class Fault(StrEnum):
    KILL = "kill -9 + restart"
    BROKER = "broker stop/start"
    SIGTERM = "SIGTERM + restart"


@dataclass(frozen=True)
class Injection:
    fault: Fault
    at: float  # share of the jobs final when it happens
    hold_s: float  # broker: how long it stays down; workers: pause before the restart


def make_plan(seed: int, n: int, tag: str) -> tuple[Plan, list[Injection]]:
    """``n`` records and the three faults, all drawn from ``seed``."""
    rng = random.Random(seed)
    plan = Plan(seed)
    bases: list[tuple[int, dict[str, Any], bytes]] = []  # (partition, event, bytes)
    kinds, weights = list(WEIGHTS), list(WEIGHTS.values())
    for i in range(n):
        kind = Kind.VALID if len(bases) < 3 else rng.choices(kinds, weights)[0]
        _add(plan, rng, kind, i, tag, bases)
    faults = list(Fault)
    rng.shuffle(faults)
    points = sorted(rng.uniform(0.1, 0.75) for _ in faults)
    injections = [
        Injection(fault, at, round(rng.uniform(2.0, 8.0 if fault is Fault.BROKER else 2.0), 1))
        for fault, at in zip(faults, points, strict=True)
    ]
    return plan, injections


def text_variant(passage: str, n: int) -> bytes:
    """``passage`` made unique (n ≥ 0) by trailing whitespace only: the parser drops it, so
    the chunk (and its cached embedding) repeats while the bytes, the document, are new."""
    tail = format(n + 1, "b").replace("0", " ").replace("1", "\t")
    return f"{passage}\n{tail}\n".encode()


def _unique_text(rng: random.Random, i: int, tag: str) -> bytes:
    # The run's tag is in the number too: runs sharing a database (the bench's baseline and
    # its soak, same seed) must not send each other's bytes.
    return text_variant(rng.choice(PASSAGES), (int(tag, 16) << 20) + i)


def _add(
    plan: Plan,
    rng: random.Random,
    kind: Kind,
    i: int,
    tag: str,
    bases: list[tuple[int, dict[str, Any], bytes]],
) -> None:
    partition = rng.randrange(PARTITIONS)
    key = f"soak/{tag}/{i}.txt"
    if kind is Kind.REDELIVERY:
        partition, event, _data = rng.choice(bases)
        plan.records.append(Record(kind, partition, _bytes(event), event["jobId"]))
        return
    if kind is Kind.GARBAGE:
        plan.records.append(Record(kind, partition, rng.choice(GARBAGE), None))
        return
    event = doc_uploaded(key, sourceKey=f"soak-{tag}-{i}")
    data = _unique_text(rng, i, tag)
    if kind in (Kind.NEW_EDITION, Kind.DUPLICATE_BYTES):
        # After its base, on the same partition: the order the partner would send them in.
        partition, base, base_data = rng.choice(bases)
        if kind is Kind.NEW_EDITION:
            event["sourceKey"], event["sourceVersion"] = base["sourceKey"], f"edisi-{i}"
        else:  # same bytes at the same version: the same document
            data = base_data
            if "sourceVersion" in base:
                event["sourceVersion"] = base["sourceVersion"]
    if kind is Kind.MALFORMED:
        event.pop("storageKey") if rng.random() < 0.5 else event.update(mimeType="")
    elif kind is not Kind.MISSING_OBJECT:
        plan.objects[key] = data
    plan.kinds[event["jobId"]] = kind
    if kind in (Kind.VALID, Kind.NEW_EDITION, Kind.DUPLICATE_BYTES):
        plan.groups.setdefault(hashlib.sha256(data).hexdigest(), []).append(event["jobId"])
        if kind is not Kind.DUPLICATE_BYTES:
            bases.append((partition, event, data))
    plan.records.append(Record(kind, partition, _bytes(event), event["jobId"]))


def _bytes(event: dict[str, Any]) -> bytes:
    return json.dumps(event).encode("utf-8")


# --- the run -------------------------------------------------------------------------------


@dataclass
class Services:
    """What the scenario needs from its caller (the test's fixtures or the bench's setup)."""

    bootstrap: str  # the private broker
    input_topic: str
    stage_topics: list[str]
    group_id: str
    worker_env: dict[str, str]
    put_object: Callable[[str, bytes], object]
    stop_broker: Callable[[], object]
    start_broker: Callable[[], object]
    log_dir: Path
    say: Callable[[str], None] = print


@dataclass
class Report:
    seed: int
    records: int
    counts: Counter[str]
    elapsed_s: float = 0.0
    quiet: bool = False
    lost: list[str] = field(default_factory=list)  # a job with no terminal on the wire
    wrong: list[str] = field(default_factory=list)  # wrong or two different terminals
    duplicates: list[str] = field(default_factory=list)  # repeated events, chunks, docs
    stuck: list[str] = field(default_factory=list)  # a job not final in Postgres
    problems: list[str] = field(default_factory=list)  # every other broken rule
    notes: list[str] = field(default_factory=list)  # allowed, but worth a look
    # An outbox event sent again after a crash between its delivery and its bookkeeping:
    # at-least-once publishing, absorbed by the partner's idempotent updates (contract).
    resent: list[str] = field(default_factory=list)
    rss_kb: dict[str, tuple[int, int]] = field(default_factory=dict)  # worker: start, end
    faults: list[str] = field(default_factory=list)

    @property
    def ok(self) -> bool:
        return self.quiet and not (
            self.lost or self.wrong or self.duplicates or self.stuck or self.problems
        )

    def summary(self) -> str:
        lines = [
            f"seed {self.seed}: {self.records} records in {self.elapsed_s:.1f}s "
            f"({self.records / max(self.elapsed_s, 1e-9):.2f} records/s), quiet={self.quiet}",
            "records per class: "
            + ", ".join(f"{kind}={self.counts.get(kind.value, 0)}" for kind in Kind),
            f"lost={len(self.lost)} wrong_terminal={len(self.wrong)} "
            f"duplicates={len(self.duplicates)} stuck={len(self.stuck)} "
            f"other={len(self.problems)} (events re-sent after a crash: {len(self.resent)})",
            "faults: " + "; ".join(self.faults),
        ]
        for name, (start, end) in sorted(self.rss_kb.items()):
            if not start:  # restarted too late in the run to have warmed up
                lines.append(f"{name} RSS: start not sampled → {end / 1024:.0f} MB")
                continue
            growth = 100.0 * (end - start) / start
            lines.append(
                f"{name} RSS: {start / 1024:.0f} MB → {end / 1024:.0f} MB ({growth:+.1f}%)"
            )
        for label, items in (
            ("lost", self.lost),
            ("wrong", self.wrong),
            ("duplicates", self.duplicates),
            ("stuck", self.stuck),
            ("problems", self.problems),
            ("note", self.notes),
            ("re-sent", self.resent),
        ):
            lines.extend(f"  {label}: {item}" for item in items[:20])
        return "\n".join(lines)


class Workers:
    """Two worker slots; a slot's process can be killed or stopped and started again."""

    def __init__(self, services: Services) -> None:
        self.services = services
        self.procs: list[WorkerProcess] = []
        self.current: dict[int, WorkerProcess] = {}

    def start(self, slot: int) -> WorkerProcess:
        path = self.services.log_dir / f"soak-worker{slot}-{len(self.procs)}.log"
        proc = WorkerProcess(self.services.worker_env, path, WORKER_ARGS)
        self.procs.append(proc)
        self.current[slot] = proc
        return proc

    def stop_all(self) -> list[int]:
        codes = []
        for proc in self.current.values():
            proc.signal(signal.SIGTERM)
        for proc in self.current.values():
            codes.append(proc.wait(120))
        for proc in self.procs:
            proc.stop()
        return codes


def rss_kb(pid: int) -> int:
    try:
        for line in Path(f"/proc/{pid}/status").read_text().splitlines():
            if line.startswith("VmRSS:"):
                return int(line.split()[1])
    except OSError:
        pass
    return 0


def final_count(job_ids: list[str]) -> int:
    from ingestion.models import IngestionJob

    return IngestionJob.objects.filter(partner_job_id__in=job_ids, state__in=FINAL_STATES).count()


def produce_all(bootstrap: str, topic: str, records: Iterable[Record]) -> None:
    producer = Producer({"bootstrap.servers": bootstrap, "enable.idempotence": True})
    for record in records:
        producer.produce(topic, value=record.value, partition=record.partition)
        producer.poll(0)
    assert producer.flush(60) == 0, "records not delivered to the input topic"


def run(plan: Plan, injections: list[Injection], services: Services, timeout: float) -> Report:
    report = Report(plan.seed, len(plan.records), plan.counts())
    services.say(f"soak: seed {plan.seed}, {len(plan.records)} records, faults {injections}")
    for key, data in plan.objects.items():
        services.put_object(key, data)
    workers = Workers(services)
    try:
        _drive(plan, injections, services, timeout, workers, report)
        codes = workers.stop_all()
    finally:
        for proc in workers.procs:
            proc.stop()  # after a failure: nothing is left running
    if any(code != 0 for code in codes):
        report.problems.append(f"workers exited with {codes} after SIGTERM")
    account(plan, services, report)
    return report


def _drive(
    plan: Plan,
    injections: list[Injection],
    services: Services,
    timeout: float,
    workers: Workers,
    report: Report,
) -> None:
    for slot in (0, 1):
        workers.start(slot).wait_ready(180)
    jobs = plan.job_ids
    started = time.monotonic()
    deadline = started + timeout
    produce_all(services.bootstrap, services.input_topic, plan.records)
    rss = Rss(warm=max(4, len(jobs) // 10))
    for injection in injections:
        _wait_for_share(jobs, injection.at, deadline, workers, rss)
        report.faults.append(_inject(injection, workers, services))
        if injection.fault is not Fault.BROKER:
            rss.restarted(1, final_count(jobs))
    report.quiet = _wait_quiet(plan, services, deadline, workers, rss)
    report.elapsed_s = time.monotonic() - started
    for slot, proc in sorted(workers.current.items()):
        name = f"worker{slot}" + (" (restarted)" if slot in rss.restarts else "")
        report.rss_kb[name] = (rss.start.get(slot, 0), rss_kb(proc.proc.pid))
    state = "quiet" if report.quiet else "NOT quiet"
    services.say(f"soak: {state} after {report.elapsed_s:.1f}s")


@dataclass
class Rss:
    """A process's "start" RSS is taken once the group finished ``warm`` more jobs after
    it started: by then it has handled records and loaded its models."""

    warm: int
    start: dict[int, int] = field(default_factory=dict)
    due: dict[int, int] = field(default_factory=dict)  # slot → final count to sample at
    restarts: set[int] = field(default_factory=set)

    def restarted(self, slot: int, final: int) -> None:
        if slot in self.start or slot in self.due:
            self.restarts.add(slot)
        self.start.pop(slot, None)
        self.due[slot] = final + self.warm

    def sample(self, workers: Workers, final: int) -> None:
        for slot, proc in workers.current.items():
            if slot not in self.start and final >= self.due.get(slot, self.warm):
                self.start[slot] = rss_kb(proc.proc.pid)


def _wait_for_share(
    jobs: list[str], share: float, deadline: float, workers: Workers, rss: Rss
) -> None:
    while time.monotonic() < deadline:
        final = final_count(jobs)
        rss.sample(workers, final)
        if final >= share * len(jobs):
            return
        time.sleep(0.3)


def _inject(injection: Injection, workers: Workers, services: Services) -> str:
    started = time.monotonic()
    if injection.fault is Fault.BROKER:
        services.stop_broker()
        time.sleep(injection.hold_s)  # the outage itself, not a wait for something
        services.start_broker()
    else:
        proc = workers.current[1]
        proc.signal(signal.SIGKILL if injection.fault is Fault.KILL else signal.SIGTERM)
        code = proc.wait(120)
        expected = -signal.SIGKILL if injection.fault is Fault.KILL else 0
        if code != expected:
            raise AssertionError(f"{injection.fault}: worker exited {code}, wanted {expected}")
        time.sleep(injection.hold_s)  # the worker stays away for a while, as in production
        workers.start(1).wait_ready(180)
    text = f"{injection.fault} at {injection.at:.0%} ({time.monotonic() - started:.1f}s)"
    services.say(f"soak: {text}")
    return text


def _wait_quiet(
    plan: Plan, services: Services, deadline: float, workers: Workers, rss: Rss
) -> bool:
    jobs = plan.job_ids
    ends = _input_ends(services)
    while time.monotonic() < deadline:
        final = final_count(jobs)
        rss.sample(workers, final)
        if final == len(jobs) and _outbox_pending(jobs) == 0 and _committed(services) == ends:
            return True
        time.sleep(0.5)
    return False


def _outbox_pending(job_ids: list[str]) -> int:
    from partner_events.models import PublishStatus, StageEvent

    return (
        StageEvent.objects.filter(job__partner_job_id__in=job_ids)
        .exclude(publish_status=PublishStatus.PUBLISHED)
        .count()
    )


def _input_ends(services: Services) -> dict[int, int]:
    consumer = Consumer({"bootstrap.servers": services.bootstrap, "group.id": "soak-ends"})
    try:
        return {
            p: consumer.get_watermark_offsets(TopicPartition(services.input_topic, p), 10)[1]
            for p in range(PARTITIONS)
        }
    finally:
        consumer.close()


def _committed(services: Services) -> dict[int, int]:
    consumer = Consumer({"bootstrap.servers": services.bootstrap, "group.id": services.group_id})
    try:
        tps = [TopicPartition(services.input_topic, p) for p in range(PARTITIONS)]
        return {tp.partition: tp.offset for tp in consumer.committed(tps, timeout=10)}
    except Exception:  # the broker may be coming back; asked again shortly
        return {}
    finally:
        consumer.close()


def read_wire(bootstrap: str, topics: list[str]) -> list[dict[str, Any]]:
    """Every message on ``topics``, read from the start up to the high watermarks."""
    consumer = Consumer(
        {
            "bootstrap.servers": bootstrap,
            "group.id": f"soak-reader-{uuid.uuid4().hex[:8]}",
            "enable.auto.commit": False,
        }
    )
    metadata = consumer.list_topics(timeout=10)
    ends: dict[tuple[str, int], int] = {}
    for topic in topics:
        for partition in metadata.topics[topic].partitions:
            low, high = consumer.get_watermark_offsets(TopicPartition(topic, partition), 10)
            if high > low:
                ends[(topic, partition)] = high
    consumer.assign([TopicPartition(t, p, OFFSET_BEGINNING) for t, p in ends])
    values: list[dict[str, Any]] = []
    seen: dict[tuple[str, int], int] = {}
    deadline = time.monotonic() + 120
    while any(seen.get(tp, 0) < end for tp, end in ends.items()):
        assert time.monotonic() < deadline, "stage topics not read to their end in 120s"
        message = consumer.poll(0.5)
        if message is None or message.error() is not None:
            continue
        seen[(str(message.topic()), int(message.partition() or 0))] = int(message.offset() or 0) + 1
        values.append(json.loads(message.value() or b"null"))
    consumer.close()
    return values


# --- the accounting ------------------------------------------------------------------------


def account(plan: Plan, services: Services, report: Report) -> None:
    """The exact accounting of issue 11 §2, into ``report``."""
    wire = read_wire(services.bootstrap, services.stage_topics)
    _check_terminals(plan, wire, report)
    _check_outbox(plan, wire, report)
    _check_jobs_and_chunks(plan, report)
    committed, ends = _committed(services), _input_ends(services)
    if committed != ends:
        report.problems.append(f"input offsets committed {committed}, ends {ends}")
    invalid = [v for v in wire if schema_errors(v)]
    report.problems.extend(f"schema-invalid event {v}: {schema_errors(v)}" for v in invalid[:5])


def _check_terminals(plan: Plan, wire: list[dict[str, Any]], report: Report) -> None:
    # An exact copy of an envelope is one event sent twice (see _check_outbox), not a
    # second terminal: the contract has partners apply envelopes idempotently.
    envelopes: dict[str, dict[str, tuple[str, str]]] = {}
    for value in wire:
        pair = (value["stage"], value["status"])
        if pair in TERMINALS:
            envelopes.setdefault(value["jobId"], {})[_canonical(value)] = pair
    terminals = {job: list(found.values()) for job, found in envelopes.items()}
    unknown = {v["jobId"] for v in wire} - set(plan.kinds)
    report.problems.extend(f"event for a job not planned (uncorrelatable?): {j}" for j in unknown)
    # After a crash the duplicate of a valid record's bytes may run first (the note below):
    # the valid record is then the skipped one, and the group check counts one done.
    shared = {j for group in plan.groups.values() if len(group) > 1 for j in group}
    for job_id, kind in plan.kinds.items():
        seen = terminals.get(job_id, [])
        allowed = EXPECTED[kind] | ({SKIPPED} if job_id in shared else set())
        if not seen:
            report.lost.append(f"{kind} {job_id}: no terminal")
        elif len(set(seen)) > 1 or seen[0] not in allowed:
            report.wrong.append(f"{kind} {job_id}: {seen}")
        elif len(seen) > 1:
            report.duplicates.append(f"{kind} {job_id}: {len(seen)} × {seen[0]}")
    for group in plan.groups.values():
        done = [j for j in group if terminals.get(j, [None])[0] == DONE]
        if len(group) > 1 and len(done) != 1:
            report.wrong.append(f"same bytes, {len(done)} indexed/done among {group}")
        elif len(group) > 1 and plan.kinds[group[0]] is Kind.VALID and done != group[:1]:
            # Allowed (the duplicate ran first after a deferral), but worth seeing.
            report.notes.append(f"note: the duplicate, not the first, was indexed: {group}")


def _canonical(value: Any) -> str:
    return json.dumps(value, sort_keys=True, ensure_ascii=False)


def _check_outbox(plan: Plan, wire: list[dict[str, Any]], report: Report) -> None:
    from partner_events.models import StageEvent

    saved = Counter(
        _canonical(payload)
        for payload in StageEvent.objects.filter(job__partner_job_id__in=plan.job_ids).values_list(
            "payload", flat=True
        )
    )
    sent = Counter(_canonical(v) for v in wire)
    for text in saved - sent:
        report.problems.append(f"in the outbox, not on the wire: {text}")
    for text, count in (sent - saved).items():
        if text in saved:
            report.resent.append(f"on the wire {count} more time(s): {text}")
        else:
            report.problems.append(f"on the wire, not in the outbox: {text}")


def _check_jobs_and_chunks(plan: Plan, report: Report) -> None:
    from django.db.models import Count

    from ingestion.models import Chunk, IngestionJob

    jobs = IngestionJob.objects.filter(partner_job_id__in=plan.job_ids)
    rows = {str(j.partner_job_id): j for j in jobs}
    for job_id, kind in plan.kinds.items():
        job = rows.get(job_id)
        if job is None or job.state not in FINAL_STATES:
            report.stuck.append(f"{kind} {job_id}: {job.state if job else 'no row'}")
    done_docs = [j.document_id for j in rows.values() if j.state == "done" and j.document_id]
    if len(set(done_docs)) != len(done_docs):
        report.duplicates.append(f"{len(done_docs) - len(set(done_docs))} documents shared")
    twice = (
        Chunk.objects.filter(document_id__in=done_docs)
        .values("document_id", "text")
        .annotate(n=Count("id"))
        .filter(n__gt=1)
    )
    report.duplicates.extend(f"chunk stored twice: {row}" for row in twice[:10])
    empty = set(done_docs) - set(
        Chunk.objects.filter(document_id__in=done_docs).values_list("document_id", flat=True)
    )
    report.problems.extend(f"document {doc} indexed without chunks" for doc in empty)
