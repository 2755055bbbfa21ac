"""What every gateway call carries: a deterministic idempotency key and a shared wait budget."""

from __future__ import annotations

import hashlib
import json
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any


def canonical_json(value: Any) -> bytes:
    return json.dumps(value, sort_keys=True, separators=(",", ":"), ensure_ascii=False).encode()


def idempotency_key(operation: str, model: str, config_version: str, payload: Any) -> str:
    """Same operation, model, config version and input → same key, in any process."""
    envelope = {"operation": operation, "model": model, "config_version": config_version}
    digest = hashlib.sha256(canonical_json({**envelope, "payload": payload}))
    return f"aceh-rag-{operation}-{digest.hexdigest()}"


@dataclass(slots=True)
class WaitBudget:
    """Total time one logical call may spend waiting on GPU capacity (queue + backpressure)."""

    limit_ms: int
    spent_ms: float = 0.0

    @property
    def remaining_ms(self) -> float:
        return max(self.limit_ms - self.spent_ms, 0.0)

    def spend(self, ms: float) -> None:
        self.spent_ms += ms


QueueCallback = Callable[[Any], None]
