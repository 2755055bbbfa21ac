"""An object put through boto3 on the S3 test server reads back byte for byte."""

from __future__ import annotations

import os

from tests.harness.fixtures import S3Bucket


def test_an_object_put_into_the_bucket_reads_back_unchanged(s3_bucket: S3Bucket) -> None:
    body = os.urandom(4096)
    key = f"{s3_bucket.prefix}/peraturan.pdf"

    s3_bucket.client.put_object(Bucket=s3_bucket.name, Key=key, Body=body)
    fetched = s3_bucket.client.get_object(Bucket=s3_bucket.name, Key=key)["Body"].read()

    assert fetched == body


def test_boto3_finds_the_test_server_from_the_environment_alone(s3_bucket: S3Bucket) -> None:
    import boto3

    # Application code builds clients without an endpoint; AWS_ENDPOINT_URL_S3 must route it.
    client = boto3.client("s3")
    names = [b["Name"] for b in client.list_buckets()["Buckets"]]

    assert s3_bucket.name in names
