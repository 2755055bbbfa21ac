"""``import_corpus --via-kafka``: the files go to object storage and become doc.uploaded
records, so a consumer group of ``kafka_worker`` processes (on as many machines as there
are partitions) shares the import.

Each record is exactly the contract's (checked with :func:`validate_doc_uploaded` before
it is sent): ``sourceKey`` is the core import's ``import:<collection>:<relpath>``,
``sourceVersion`` ``"1"`` and ``documentId`` a UUID derived from the source key, so an
import sent by Kafka and one run in-process store the same identity and skip each other's
documents. ``jobId`` is fresh per send (a re-send after a failure is a new partner job).
Records are keyed by source key: one document's records stay on one partition, in order.
A file already indexed under its key with the same bytes is not sent again.
"""

from __future__ import annotations

import json
import logging
import threading
import uuid
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from datetime import UTC, datetime
from typing import Any

from confluent_kafka import Producer
from django.conf import settings

from ingestion.bulk.items import ImportItem
from ingestion.bulk.one import (
    SOURCE_SYSTEM,
    ImportSettings,
    ItemResult,
    ItemStatus,
    plan_item,
    source_key,
)
from ingestion.formats import MIME_TYPES_BY_EXTENSION, key_basename, split_extension
from ingestion.jobs import safe_file_name
from ingestion.storage import get_storage
from partner_events.contract.config import ContractConfig
from partner_events.contract.record import Outcome
from partner_events.contract.validate import validate_doc_uploaded
from partner_events.publisher import producer_config

log = logging.getLogger(__name__)

# Fixed namespace: the same source key always yields the same documentId and registryId.
IDENTITY_NAMESPACE = uuid.UUID("5d0f3a56-2b1e-4c55-9a57-0c3f4a1b7e21")
SEND_FAILED = "Gagal mengirim ke Kafka"
OnResult = Callable[[ItemResult], None]


@dataclass(frozen=True, slots=True)
class KafkaTarget:
    topic: str
    config: dict[str, Any]

    @classmethod
    def from_settings(cls) -> KafkaTarget:
        timeout = float(settings.KAFKA_PUBLISH_TIMEOUT_SECONDS)
        config = producer_config(
            str(settings.KAFKA_BOOTSTRAP_SERVERS), dict(settings.KAFKA_SECURITY or {}), timeout
        )
        config["client.id"] = "aceh-rag-import-corpus"
        return cls(str(settings.KAFKA_DOC_UPLOADED_TOPIC), config)


def _identity(name: str) -> str:
    return str(uuid.uuid5(IDENTITY_NAMESPACE, name))


def storage_key(item: ImportItem, options: ImportSettings) -> str:
    return f"import/{safe_file_name(options.collection)}/{item.relpath}"


def doc_uploaded(item: ImportItem, options: ImportSettings, key: str) -> dict[str, Any]:
    """The contract record of one imported file (camelCase, as the partner sends it)."""
    _stem, extension = split_extension(key_basename(key))
    skey = source_key(item, options)
    record: dict[str, Any] = {
        "jobId": str(uuid.uuid4()),
        "documentId": _identity(skey),
        "storageKey": key,
        "mimeType": MIME_TYPES_BY_EXTENSION[extension.lower()][0],
        "collectionId": _identity(f"collection:{options.collection}"),
        "collectionName": options.source_type,
        "uploadedBy": _identity(SOURCE_SYSTEM),
        "uploadedAt": datetime.now(UTC).isoformat().replace("+00:00", "Z"),
        "sourceType": options.source_type,
        "sourceSystem": SOURCE_SYSTEM,
        "sourceKey": skey,
        "sourceVersion": "1",
    }
    if item.title:
        record[str(settings.PARTNER_FILENAME_FIELD)] = item.title
    if item.metadata:
        record["sourceMetadata"] = dict(item.metadata)
    return record


def publish_items(
    items: Sequence[ImportItem],
    options: ImportSettings,
    target: KafkaTarget,
    *,
    stop: threading.Event | None = None,
    on_result: OnResult | None = None,
) -> list[ItemResult]:
    """Store and send every item not yet indexed; results once the broker acknowledged."""
    stop = stop or threading.Event()
    producer = Producer(target.config)
    contract = ContractConfig.from_settings()
    results: list[ItemResult] = []
    sent: dict[str, tuple[ImportItem, list[str]]] = {}
    for item in items:
        if stop.is_set():
            break
        planned = plan_item(item, options)
        if planned.status is not ItemStatus.PLANNED:
            results.append(planned)
            (on_result or _ignore)(planned)
            continue
        failed = _send(item, options, target, producer, contract, sent)
        if failed is not None:
            results.append(failed)
            (on_result or _ignore)(failed)
        producer.poll(0)
    producer.flush(float(settings.KAFKA_PUBLISH_TIMEOUT_SECONDS) + 5)
    for item, errors in sent.values():
        status = ItemStatus.FAILED if errors else ItemStatus.PUBLISHED
        result = ItemResult(item, status, f"{SEND_FAILED}: {errors[0]}" if errors else "")
        results.append(result)
        (on_result or _ignore)(result)
    return results


def _ignore(_result: ItemResult) -> None:
    return None


def _send(
    item: ImportItem,
    options: ImportSettings,
    target: KafkaTarget,
    producer: Any,
    contract: ContractConfig,
    sent: dict[str, tuple[ImportItem, list[str]]],
) -> ItemResult | None:
    key = storage_key(item, options)
    with item.path.open("rb") as handle:
        get_storage().put(key, handle)
    record = doc_uploaded(item, options, key)
    value = json.dumps(record, ensure_ascii=False).encode("utf-8")
    verdict = validate_doc_uploaded(value, contract)
    if verdict.outcome is not Outcome.ACCEPT:
        return ItemResult(item, ItemStatus.FAILED, verdict.error or "Ditolak kontrak doc.uploaded")
    errors: list[str] = []
    sent[record["jobId"]] = (item, errors)

    def delivered(err: Any, _msg: Any) -> None:
        if err is not None:
            errors.append(str(err))

    producer.produce(target.topic, value=value, key=record["sourceKey"], on_delivery=delivered)
    log.info("import %s → %s jobId=%s", item.where, target.topic, record["jobId"])
    return None
