"""Bounded exponential backoff for transient stage errors (contract: kafka.max_retries)."""

from __future__ import annotations

import logging
import time
from collections.abc import Callable
from dataclasses import dataclass
from typing import TypeVar

from django.conf import settings

from ingestion.errors import TransientError

log = logging.getLogger(__name__)

T = TypeVar("T")


@dataclass(frozen=True, slots=True)
class RetryPolicy:
    """``retries`` extra attempts after the first; delay ``backoff × 2^(n-1)`` before the n-th."""

    retries: int = 3
    backoff_s: float = 2.0
    max_delay_s: float = 300.0

    @classmethod
    def from_settings(cls) -> RetryPolicy:
        return cls(
            retries=int(settings.KAFKA_MAX_RETRIES),
            backoff_s=float(settings.KAFKA_RETRY_BACKOFF_SECONDS),
        )

    def delay(self, retry_number: int) -> float:
        return float(min(self.backoff_s * (2 ** (retry_number - 1)), self.max_delay_s))


def with_retries(
    action: Callable[[], T],
    policy: RetryPolicy,
    *,
    what: str,
    sleep: Callable[[float], None] = time.sleep,
) -> T:
    """Run ``action``; retry a :class:`TransientError` within the policy, re-raise the last.

    Permanent errors and anything that is not a stage error pass straight through. A
    gateway that said how long to back off (Retry-After) is never asked again sooner.
    """
    attempt = 0
    while True:
        try:
            return action()
        except TransientError as exc:
            attempt += 1
            if attempt > policy.retries:
                log.warning("%s: giving up after %s attempts: %s", what, attempt, exc.reason)
                raise
            delay = max(policy.delay(attempt), _told_to_wait(exc))
            log.info(
                "%s: transient failure (%s), retry %s/%s in %.2fs",
                what,
                exc.reason,
                attempt,
                policy.retries,
                delay,
            )
            sleep(delay)


def _told_to_wait(exc: TransientError) -> float:
    """Seconds the upstream asked us to wait (``retry_after_s`` of backpressure), else 0."""
    told = getattr(exc, "retry_after_s", None)
    return float(told) if isinstance(told, int | float) and told > 0 else 0.0
