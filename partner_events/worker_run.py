"""Start the Kafka worker: refuse or log the effective config, metrics, heartbeat, loop."""

from __future__ import annotations

import logging
import time

from ingestion.pipeline.engines import loaded_models
from partner_events.publisher import KafkaPublisher, Publisher
from partner_events.worker import KafkaWorker, StopFlag
from partner_events.worker_config import WorkerConfig, check_startup
from partner_events.worker_metrics import serve

log = logging.getLogger("partner_events.worker")


def start(config: WorkerConfig, stop: StopFlag, publisher: Publisher | None = None) -> int:
    """Run until stopped; raises :class:`~partner_events.worker_config.StartupRefused`."""
    from aceh_rag.platform.heartbeat import start_heartbeat

    started = time.monotonic()
    topics = check_startup(config)
    log.info("kafka worker: effective config %s", config.summary())
    log.info("kafka worker: stage topics %s", topics)
    serve(config.metrics_port)
    start_heartbeat(loaded_models)
    publisher = publisher or KafkaPublisher.from_settings()
    worker = KafkaWorker(config, publisher, stop)
    log.info("kafka worker: ready in %.2fs", time.monotonic() - started)
    return worker.run()
