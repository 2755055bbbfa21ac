"""uploadedAt is an ISO-8601 timestamp with a timezone; it is kept exactly as sent."""

from __future__ import annotations

from datetime import UTC, datetime

import pytest

from tests.partner_events.helpers import accepted, event, rejected


@pytest.mark.parametrize(
    ("value", "expected_utc"),
    [
        ("2026-08-05T09:12:03Z", datetime(2026, 8, 5, 9, 12, 3, tzinfo=UTC)),
        ("2026-08-05T09:12:03.412Z", datetime(2026, 8, 5, 9, 12, 3, 412000, tzinfo=UTC)),
        ("2026-08-05T16:12:03+07:00", datetime(2026, 8, 5, 9, 12, 3, tzinfo=UTC)),
        ("2026-08-05T16:12:03+0700", datetime(2026, 8, 5, 9, 12, 3, tzinfo=UTC)),
        ("2026-08-05T16:12+07:00", datetime(2026, 8, 5, 9, 12, tzinfo=UTC)),
        ("2026-08-05T16:12:03+07", datetime(2026, 8, 5, 9, 12, 3, tzinfo=UTC)),
        ("2026-08-05T02:12:03-07:00", datetime(2026, 8, 5, 9, 12, 3, tzinfo=UTC)),
        ("2026-08-05T09:12:03.123456789Z", datetime(2026, 8, 5, 9, 12, 3, 123456, tzinfo=UTC)),
    ],
)
def test_timestamps_with_a_zone_are_accepted(value: str, expected_utc: datetime) -> None:
    record = accepted(event(uploadedAt=value)).normalized
    assert record is not None
    assert record.uploaded_at == value
    assert record.source_version == value
    assert record.uploaded_at_dt == expected_utc


@pytest.mark.parametrize(
    "value",
    [
        "2026-08-05",
        "2026-08-05T09:12:03",
        "2026-08-05 09:12:03Z",
        "2026-13-05T09:12:03Z",
        "2026-02-30T09:12:03Z",
        "2026-08-05T25:12:03Z",
        "05/08/2026 09:12",
        "yesterday",
        " 2026-08-05T09:12:03Z",
        1786000000,
    ],
)
def test_date_only_zone_less_or_malformed_timestamps_are_rejected(value: object) -> None:
    assert "uploadedAt" in (rejected(event(uploadedAt=value)).error or "")
