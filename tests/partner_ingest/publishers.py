"""A publisher that refuses chosen deliveries, to play a broker outage (not a Kafka mock:
it implements the Publisher protocol the way a real broker-less destination would)."""

from __future__ import annotations

import io
import json
from collections.abc import Callable, Sequence
from typing import Any

from partner_events.publisher import Delivery, DeliveryResult, OutgoingEvent, StdoutPublisher


class RefusingPublisher(StdoutPublisher):
    """Prints what it accepts; refuses events for which ``refuse(event)`` is true."""

    name = "refusing"
    delivers_to_partner = True

    def __init__(self, refuse: Callable[[OutgoingEvent], bool]) -> None:
        self.buffer = io.StringIO()
        super().__init__(self.buffer)
        self.refuse = refuse
        self.attempted: list[tuple[str, int]] = []

    def deliver(self, events: Sequence[OutgoingEvent]) -> list[DeliveryResult]:
        results = []
        for event in events:
            self.attempted.append((event.key, event.value["progress"]))
            if self.refuse(event):
                results.append(DeliveryResult(Delivery.FAILED, "broker tidak tersedia"))
            else:
                results.extend(super().deliver([event]))
        return results

    @property
    def lines(self) -> list[dict[str, Any]]:
        return [json.loads(line) for line in self.buffer.getvalue().splitlines()]
