"""Object storage: the partner's bucket (S3 / Huawei OBS / MinIO) or a local directory.

``OBJECT_STORAGE_URL`` picks the backend: ``s3://bucket[/prefix]`` (boto3 reads the endpoint
and credentials from the standard ``AWS_*`` variables itself) or ``file:///dir``. The
partner's storageKey is used unmodified; a configured prefix is only prepended.

Error policy (what the runner retries):

- a missing object is a :class:`ObjectMissing`, *transient but bounded*: the contract lets
  a partner fix availability and re-publish, and an object written just after its event
  (eventual listing, a slow replication) appears on a retry. After the retry budget the job
  fails with the Indonesian reason.
- timeouts, connection errors and 5xx are :class:`TransientError`.
- a key escaping the local directory, refused access or an oversize object are
  :class:`PermanentError`: retrying cannot help.
"""

from __future__ import annotations

import hashlib
import logging
import os
import shutil
import tempfile
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path
from typing import IO, Any, BinaryIO, Protocol
from urllib.parse import unquote, urlparse

from django.conf import settings

from ingestion.errors import PermanentError, TransientError

log = logging.getLogger(__name__)

_COPY_CHUNK = 1024 * 1024


class ObjectMissing(TransientError):
    """The key names no object (yet). Retried with a bound, then the job fails."""


@dataclass(frozen=True, slots=True)
class FetchedFile:
    path: Path
    size: int
    sha256: str


def too_large(max_bytes: int) -> PermanentError:
    mb = max_bytes / (1024 * 1024)
    return PermanentError(f"Berkas melebihi batas ukuran ({mb:g} MB)", code="too_large")


def missing(key: str) -> ObjectMissing:
    return ObjectMissing(
        f"Objek tidak ditemukan di penyimpanan: {key}", code="object_missing", detail=key
    )


def stream_to_file(source: IO[bytes], dest: Path, max_bytes: int) -> FetchedFile:
    """Copy ``source`` to ``dest`` chunk by chunk, hashing as it goes and stopping at the cap."""
    digest = hashlib.sha256()
    size = 0
    try:
        with dest.open("wb") as out:
            while chunk := source.read(_COPY_CHUNK):
                size += len(chunk)
                if size > max_bytes:
                    raise too_large(max_bytes)
                digest.update(chunk)
                out.write(chunk)
    except BaseException:
        dest.unlink(missing_ok=True)
        raise
    return FetchedFile(path=dest, size=size, sha256=digest.hexdigest())


class ObjectStorage(Protocol):
    def put(self, key: str, fileobj: IO[bytes]) -> None: ...

    def open(self, key: str) -> BinaryIO: ...

    def exists(self, key: str) -> bool: ...

    def delete(self, key: str) -> None: ...

    def download_to(self, key: str, dest: Path, max_bytes: int) -> FetchedFile: ...


class FileStorage:
    """Keys are paths inside ``root``; anything resolving outside it is refused."""

    def __init__(self, root: Path) -> None:
        self.root = root.resolve()

    def resolve(self, key: str) -> Path:
        if not key or key.startswith(("/", "\\")) or "\x00" in key:
            raise _outside(key)
        parts = Path(key).parts
        if ".." in parts:
            raise _outside(key)
        # resolve() follows symlinks, so a link pointing out of the root is caught here too.
        path = (self.root / key).resolve()
        if path != self.root and self.root not in path.parents:
            raise _outside(key)
        return path

    def put(self, key: str, fileobj: IO[bytes]) -> None:
        path = self.resolve(key)
        path.parent.mkdir(parents=True, exist_ok=True)
        fd, tmp = tempfile.mkstemp(dir=path.parent, prefix=".upload-")
        try:
            with os.fdopen(fd, "wb") as out:
                shutil.copyfileobj(fileobj, out, _COPY_CHUNK)
            os.replace(tmp, path)  # readers never see a half-written object
        except BaseException:
            Path(tmp).unlink(missing_ok=True)  # a failed upload leaves no partial file
            raise

    def open(self, key: str) -> BinaryIO:
        path = self.resolve(key)
        try:
            return path.open("rb")
        except FileNotFoundError as exc:
            raise missing(key) from exc
        except IsADirectoryError as exc:
            raise missing(key) from exc

    def exists(self, key: str) -> bool:
        return self.resolve(key).is_file()

    def delete(self, key: str) -> None:
        self.resolve(key).unlink(missing_ok=True)

    def download_to(self, key: str, dest: Path, max_bytes: int) -> FetchedFile:
        path = self.resolve(key)
        if path.is_file() and path.stat().st_size > max_bytes:
            raise too_large(max_bytes)
        with self.open(key) as source:
            return stream_to_file(source, dest, max_bytes)


def _outside(key: str) -> PermanentError:
    return PermanentError(
        "Kunci objek tidak sah (di luar direktori penyimpanan)", code="bad_key", detail=key
    )


class S3Storage:
    """S3-compatible storage with path-style addressing (Huawei OBS and MinIO need it)."""

    def __init__(self, bucket: str, prefix: str = "", client: Any = None) -> None:
        self.bucket = bucket
        self.prefix = prefix.strip("/")
        self._client = client

    @property
    def client(self) -> Any:
        if self._client is None:
            # Imported here: boto3 is slow to import and only an s3:// store needs it.
            import boto3
            from botocore.config import Config

            config = Config(
                s3={"addressing_style": "path"},
                retries={"max_attempts": 2, "mode": "standard"},
                connect_timeout=10,
                read_timeout=60,
            )
            self._client = boto3.client("s3", config=config)
        return self._client

    def object_key(self, key: str) -> str:
        if not key:
            raise PermanentError("Kunci objek kosong", code="bad_key")
        return f"{self.prefix}/{key}" if self.prefix else key

    def put(self, key: str, fileobj: IO[bytes]) -> None:
        with _s3_errors(key):
            self.client.upload_fileobj(fileobj, self.bucket, self.object_key(key))

    def open(self, key: str) -> BinaryIO:
        with _s3_errors(key):
            response = self.client.get_object(Bucket=self.bucket, Key=self.object_key(key))
        body: BinaryIO = response["Body"]
        return body

    def exists(self, key: str) -> bool:
        try:
            with _s3_errors(key):
                self.client.head_object(Bucket=self.bucket, Key=self.object_key(key))
        except ObjectMissing:
            return False
        return True

    def delete(self, key: str) -> None:
        with _s3_errors(key):
            self.client.delete_object(Bucket=self.bucket, Key=self.object_key(key))

    def download_to(self, key: str, dest: Path, max_bytes: int) -> FetchedFile:
        with _s3_errors(key):
            response = self.client.get_object(Bucket=self.bucket, Key=self.object_key(key))
            body = response["Body"]
            try:
                # Refuse early from the declared length; the streaming cap still guards a liar.
                if int(response.get("ContentLength") or 0) > max_bytes:
                    raise too_large(max_bytes)
                return stream_to_file(body, dest, max_bytes)
            finally:
                body.close()


@contextmanager
def _s3_errors(key: str) -> Iterator[None]:
    """Translate botocore failures into the pipeline's permanent/transient errors."""
    try:
        yield
    except (PermanentError, TransientError):
        raise
    except Exception as exc:
        raise classify_s3_error(exc, key) from exc


def classify_s3_error(exc: BaseException, key: str) -> Exception:
    # Imported here: botocore comes with boto3, which only an s3:// store loads.
    from botocore.exceptions import BotoCoreError, ClientError

    if isinstance(exc, ClientError):
        error = exc.response.get("Error", {})
        code = str(error.get("Code", ""))
        status = int(exc.response.get("ResponseMetadata", {}).get("HTTPStatusCode") or 0)
        if code in {"NoSuchKey", "NotFound", "404"} or status == 404:
            return missing(key)
        if status >= 500 or status in (408, 429) or code in {"SlowDown", "RequestTimeout"}:
            return TransientError(
                f"Penyimpanan objek sedang bermasalah (HTTP {status})",
                code="storage_unavailable",
                detail=f"{code}: {error.get('Message', '')}",
            )
        return PermanentError(
            f"Penyimpanan objek menolak permintaan ({code or status})",
            code="storage_refused",
            detail=str(error.get("Message", "")),
        )
    if isinstance(exc, BotoCoreError | OSError):
        return TransientError(
            "Penyimpanan objek tidak dapat dihubungi", code="storage_unreachable", detail=str(exc)
        )
    return exc if isinstance(exc, Exception) else RuntimeError(str(exc))


def storage_from_url(url: str) -> ObjectStorage:
    parsed = urlparse(url)
    if parsed.scheme == "file":
        return FileStorage(Path(unquote(parsed.path)))
    if parsed.scheme == "s3" and parsed.netloc:
        return S3Storage(parsed.netloc, unquote(parsed.path))
    raise ValueError(f"OBJECT_STORAGE_URL tidak didukung: {url!r}")


@lru_cache(maxsize=4)
def _cached(url: str) -> ObjectStorage:
    return storage_from_url(url)


def get_storage() -> ObjectStorage:
    """The configured store, one per URL per process (boto3 clients are reusable)."""
    return _cached(str(settings.OBJECT_STORAGE_URL))
