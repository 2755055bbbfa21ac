"""Fixtures of the export tests: a populated instance, and fresh instances to import into.

A fresh instance is honest and isolated: its own database, created on the harness's server
and migrated by ``manage.py migrate``, and its own file:// store; every command runs in a
subprocess of its own, as an operator would run it.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
import uuid
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest
from django.db import connection
from psycopg.conninfo import make_conninfo

from tests.export.populate import Populated, populate
from tests.object_store import file_object_store

ROOT = Path(__file__).resolve().parents[2]


@pytest.fixture
def store_dir(tmp_path: Path, settings: Any) -> Iterator[Path]:
    with file_object_store(tmp_path, settings, max_retries=2) as root:
        yield root


@pytest.fixture
def populated(transactional_db: None, store_dir: Path) -> Populated:
    return populate(store_dir)


@dataclass
class Instance:
    """Another instance of the application: a database and a store of its own."""

    env: dict[str, str]
    store: Path

    def manage(self, *args: str, check: bool = True) -> subprocess.CompletedProcess[str]:
        done = subprocess.run(
            [sys.executable, "manage.py", *args],
            cwd=ROOT,
            env=self.env,
            capture_output=True,
            text=True,
            timeout=600,
        )
        if check:
            assert done.returncode == 0, done.stdout + done.stderr
        return done

    def snapshot(self, token: str) -> dict[str, Any]:
        done = subprocess.run(
            [sys.executable, "-m", "tests.export.snapshot", token],
            cwd=ROOT,
            env=self.env,
            capture_output=True,
            text=True,
            timeout=600,
        )
        assert done.returncode == 0, done.stderr
        result: dict[str, Any] = json.loads(done.stdout)
        return result


def _server_url(name: str) -> str:
    return make_conninfo(os.environ["DATABASE_URL"], dbname=name)


@pytest.fixture
def fresh_instance(
    transactional_db: None, tmp_path_factory: pytest.TempPathFactory
) -> Iterator[Callable[[], Instance]]:
    """Factory of migrated, empty instances; their databases are dropped afterwards."""
    if "DATABASE_URL" not in os.environ:
        pytest.skip("DATABASE_URL tidak di-set: jalankan lewat scripts/test_runner.py")
    created: list[str] = []

    def make() -> Instance:
        name = f"export_target_{uuid.uuid4().hex[:10]}"
        with connection.cursor() as cursor:
            cursor.execute(f'CREATE DATABASE "{name}"')
        created.append(name)
        store = tmp_path_factory.mktemp("fresh-store")
        env = {key: value for key, value in os.environ.items() if key != "MODEL_GATEWAY_URL"}
        env.update(DATABASE_URL=_server_url(name), OBJECT_STORAGE_URL=store.as_uri())
        instance = Instance(env=env, store=store)
        instance.manage("migrate", "--no-input")
        return instance

    yield make
    for name in created:
        with connection.cursor() as cursor:
            cursor.execute(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')


@pytest.fixture
def small(db: None, store_dir: Path) -> list[uuid.UUID]:
    """Three documents with originals, chunks, a job and a token (built without the pipeline)."""
    from tests.export.small import small_instance

    return small_instance(store_dir)


@pytest.fixture
def small_export(small: list[uuid.UUID], tmp_path: Path) -> Path:
    """A finished export of the small instance, with derived data."""
    from tests.export.small import export

    target = tmp_path / "ekspor"
    export(target, "--with-derived")
    return target
