"""Fetch from a real S3 endpoint (moto_server via the test harness)."""

from __future__ import annotations

import hashlib
import io
from pathlib import Path
from typing import Any

import pytest

from ingestion.errors import PermanentError
from ingestion.pipeline.fetch import fetch
from ingestion.pipeline.retry import RetryPolicy
from ingestion.storage import ObjectMissing, S3Storage, storage_from_url

FAST = RetryPolicy(retries=2, backoff_s=0.01)


@pytest.fixture
def s3(s3_bucket: Any) -> S3Storage:
    store = storage_from_url(f"s3://{s3_bucket.name}/{s3_bucket.prefix}")
    assert isinstance(store, S3Storage)
    return store


def test_the_partner_storage_key_is_read_unmodified_under_the_configured_prefix(
    s3: S3Storage, s3_bucket: Any, tmp_path: Path
) -> None:
    key = "jdih/2026/qanun-aceh-001"
    body = b"%PDF-1.4 qanun" * 1000
    s3_bucket.client.put_object(Bucket=s3_bucket.name, Key=f"{s3_bucket.prefix}/{key}", Body=body)
    fetched = fetch(key, max_bytes=10**6, dest_dir=tmp_path, storage=s3, policy=FAST)
    assert fetched.path.read_bytes() == body
    assert fetched.sha256 == hashlib.sha256(body).hexdigest()
    assert fetched.size == len(body)


def test_an_object_over_the_size_cap_fails_at_once_without_retries(
    s3: S3Storage, tmp_path: Path
) -> None:
    s3.put("big.pdf", io.BytesIO(b"x" * 5000))
    sleeps: list[float] = []
    with pytest.raises(PermanentError, match="melebihi batas ukuran"):
        fetch(
            "big.pdf",
            max_bytes=4096,
            dest_dir=tmp_path,
            storage=s3,
            policy=FAST,
            sleep=sleeps.append,
        )
    assert sleeps == []
    assert list(tmp_path.iterdir()) == []


def test_a_missing_object_is_retried_with_backoff_then_fails(s3: S3Storage, tmp_path: Path) -> None:
    sleeps: list[float] = []
    with pytest.raises(ObjectMissing, match="tidak ditemukan"):
        fetch(
            "belum-ada.pdf",
            max_bytes=4096,
            dest_dir=tmp_path,
            storage=s3,
            policy=FAST,
            sleep=sleeps.append,
        )
    assert sleeps == [0.01, 0.02]


def test_an_object_that_appears_during_the_retries_is_fetched(
    s3: S3Storage, tmp_path: Path
) -> None:
    def upload_then_wait(delay: float) -> None:
        s3.put("terlambat.txt", io.BytesIO(b"akhirnya ada"))

    fetched = fetch(
        "terlambat.txt",
        max_bytes=4096,
        dest_dir=tmp_path,
        storage=s3,
        policy=FAST,
        sleep=upload_then_wait,
    )
    assert fetched.path.read_bytes() == b"akhirnya ada"
    assert s3.exists("terlambat.txt")
