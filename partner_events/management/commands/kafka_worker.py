"""``manage.py kafka_worker``: the production doc.uploaded consumer (see partner_events.worker).

Exit status: 0 after a clean stop, 1 when the drain time ran out, 2 when startup is
refused (Kafka disabled, incomplete stage-topic map, missing topic, broker unreachable),
130 after a second SIGTERM/SIGINT.
"""

from __future__ import annotations

import logging
import signal
import time
from dataclasses import replace
from types import FrameType
from typing import Any

from django.core.management.base import BaseCommand, CommandError, CommandParser

from aceh_rag.platform.heartbeat import start_heartbeat
from ingestion.pipeline.engines import loaded_models
from partner_events.publisher import KafkaPublisher, Publisher
from partner_events.worker.config import StartupRefused, WorkerConfig, check_startup
from partner_events.worker.loop import KafkaWorker, StopFlag
from partner_events.worker.metrics import serve

log = logging.getLogger("partner_events.worker")

STARTUP_REFUSED = 2


def start(config: WorkerConfig, stop: StopFlag, publisher: Publisher | None = None) -> int:
    """Refuse or log the effective config, serve metrics, heartbeat, then run the loop until
    stopped; raises :class:`~partner_events.worker.config.StartupRefused`."""
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


class Command(BaseCommand):
    help = (
        "Worker Kafka produksi: mengonsumsi doc.uploaded, menjalankan pipeline, dan "
        "menerbitkan stage event. SIGTERM/SIGINT pertama: selesaikan dokumen yang sedang "
        "diproses lalu berhenti; sinyal kedua: berhenti segera."
    )

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument(
            "--orphan-grace-seconds",
            type=float,
            default=None,
            help="detik tanpa heartbeat sebelum job 'processing' tanpa lock dijalankan ulang",
        )
        parser.add_argument(
            "--deferred-retry-seconds",
            type=float,
            default=None,
            help="jeda sebelum job deferred dijalankan ulang dari database",
        )
        parser.add_argument(
            "--session-timeout-ms", type=int, default=None, help="session.timeout.ms consumer"
        )
        parser.add_argument(
            "--no-metrics", action="store_true", help="jangan buka endpoint /metrics"
        )

    def handle(self, *args: Any, **options: Any) -> None:
        overrides: dict[str, Any] = {
            "orphan_grace_s": options["orphan_grace_seconds"],
            "deferred_retry_s": options["deferred_retry_seconds"],
            "session_timeout_ms": options["session_timeout_ms"],
        }
        config = WorkerConfig.from_settings(**overrides)
        if options["no_metrics"]:
            config = replace(config, metrics_port=None)
        stop = StopFlag()

        def on_signal(signum: int, frame: FrameType | None) -> None:
            log.info("kafka worker: signal %s received", signum)
            stop.signal()

        for sig in (signal.SIGTERM, signal.SIGINT):
            signal.signal(sig, on_signal)
        try:
            code = start(config, stop)
        except StartupRefused as exc:
            raise CommandError(
                f"kafka_worker tidak dijalankan: {exc}", returncode=STARTUP_REFUSED
            ) from exc
        if code:
            raise SystemExit(code)
