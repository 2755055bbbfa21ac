"""A local single-node Apache Kafka (KRaft) for development and tests.

``python scripts/kafka.py start|stop|status`` manages the shared broker on 127.0.0.1:9092.
Jars come from Maven Central through ``mvn dependency:copy-dependencies`` into a cache dir
(``$KAFKA_HOME_DIR`` or ``.kafka/`` in the repo), so the only tools needed are Java 17 and
Maven. The broker's state (pid, log, data, leases) lives in ``/tmp/aceh-rag-kafka-9092``.
Test runs share it through :func:`acquire_broker` / :func:`release_broker`; tests that take
a broker down get one of their own from :func:`private_config` + :func:`start_broker`.

Only the standard library and ``confluent_kafka`` are imported, so this file runs both as a
script and as ``scripts.kafka``.
"""

from __future__ import annotations

import argparse
import base64
import contextlib
import fcntl
import logging
import os
import shutil
import signal
import socket
import subprocess
import sys
import tempfile
import time
import uuid
from collections.abc import Iterator
from dataclasses import dataclass
from enum import StrEnum
from pathlib import Path

log = logging.getLogger("scripts.kafka")

KAFKA_VERSION = "4.4.0"
# Kafka logs through slf4j 1.x; this binding routes it to the log4j-core Kafka depends on.
LOG4J_VERSION = "2.25.5"
REPO_DIR = Path(__file__).resolve().parent.parent
SHARED_PORT = 9092
SHARED_CONTROLLER_PORT = 9093
LOG_ROTATE_BYTES = 20 * 1024 * 1024

_POM = """<project xmlns="http://maven.apache.org/POM/4.0.0">
  <modelVersion>4.0.0</modelVersion>
  <groupId>local.aceh-rag</groupId>
  <artifactId>kafka-runtime</artifactId>
  <version>1</version>
  <packaging>pom</packaging>
  <dependencies>
    <dependency>
      <groupId>org.apache.kafka</groupId>
      <artifactId>kafka_2.13</artifactId>
      <version>{kafka}</version>
    </dependency>
    <dependency>
      <groupId>org.apache.logging.log4j</groupId>
      <artifactId>log4j-slf4j-impl</artifactId>
      <version>{log4j}</version>
    </dependency>
  </dependencies>
</project>
"""

_LOG4J2 = """status = warn
appender.out.type = Console
appender.out.name = OUT
appender.out.layout.type = PatternLayout
appender.out.layout.pattern = [%d] %p %m (%c)%n
rootLogger.level = INFO
rootLogger.appenderRef.out.ref = OUT
logger.change.name = state.change.logger
logger.change.level = WARN
logger.cleaner.name = kafka.log.LogCleaner
logger.cleaner.level = WARN
"""


class BrokerState(StrEnum):
    RUNNING = "running"
    STARTING = "starting"
    STOPPED = "stopped"
    FOREIGN = "foreign"  # something answers on the port, but not a broker we started


class KafkaError(RuntimeError):
    """A broker could not be provisioned, started or stopped."""


@dataclass(frozen=True)
class BrokerConfig:
    """Where one broker keeps its jars (``home``) and its state (``node_dir``)."""

    home: Path
    node_dir: Path
    port: int = SHARED_PORT
    controller_port: int = SHARED_CONTROLLER_PORT
    host: str = "127.0.0.1"
    heap: str = "512m"

    @property
    def bootstrap(self) -> str:
        return f"{self.host}:{self.port}"

    @property
    def libs_dir(self) -> Path:
        return self.home / f"kafka-{KAFKA_VERSION}" / "libs"

    @property
    def pid_file(self) -> Path:
        return self.node_dir / "broker.pid"

    @property
    def log_file(self) -> Path:
        return self.node_dir / "broker.log"

    @property
    def properties_file(self) -> Path:
        return self.node_dir / "server.properties"

    @property
    def data_dir(self) -> Path:
        return self.node_dir / "data"


def kafka_home() -> Path:
    return Path(os.environ.get("KAFKA_HOME_DIR") or REPO_DIR / ".kafka").resolve()


def shared_config() -> BrokerConfig:
    """The developer broker on 127.0.0.1:9092 that ``make kafka`` runs.

    Port 9092 belongs to the machine, not to a checkout, so the broker's pid file, lock,
    leases and data live in one machine-wide dir that every clone (and CI's) agrees on.
    """
    node_dir = Path(tempfile.gettempdir()) / f"aceh-rag-kafka-{SHARED_PORT}"
    return BrokerConfig(home=kafka_home(), node_dir=node_dir)


def private_config(node_dir: Path) -> BrokerConfig:
    """A broker on free ports whose state lives in ``node_dir`` (tests that stop brokers)."""
    return BrokerConfig(
        home=kafka_home(), node_dir=node_dir, port=free_port(), controller_port=free_port()
    )


def free_port() -> int:
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


# --- jars ----------------------------------------------------------------------------------


def ensure_jars(config: BrokerConfig) -> Path:
    """Resolve Kafka and its runtime dependencies from Maven Central, once per version."""
    libs = config.libs_dir
    if (libs / f"kafka_2.13-{KAFKA_VERSION}.jar").exists():
        return libs
    mvn = shutil.which("mvn")
    if mvn is None:
        raise KafkaError("Maven (mvn) tidak ditemukan; pasang Maven 3.8+ untuk mengunduh Kafka")
    work = libs.parent
    work.mkdir(parents=True, exist_ok=True)
    pom = work / "pom.xml"
    pom.write_text(_POM.format(kafka=KAFKA_VERSION, log4j=LOG4J_VERSION), encoding="utf-8")
    staging = work / "libs.partial"
    shutil.rmtree(staging, ignore_errors=True)
    started = time.monotonic()
    cmd = [
        mvn,
        "-B",
        "-q",
        "-f",
        str(pom),
        "dependency:copy-dependencies",
        "-DincludeScope=runtime",
        f"-DoutputDirectory={staging}",
    ]
    result = subprocess.run(cmd, capture_output=True, text=True, check=False)
    if result.returncode != 0:
        tail = (result.stdout + result.stderr)[-2000:]
        raise KafkaError(f"Maven gagal mengunduh Kafka {KAFKA_VERSION}:\n{tail}")
    # Rename last so an interrupted download never looks complete.
    shutil.rmtree(libs, ignore_errors=True)
    staging.rename(libs)
    log.info("kafka %s jars resolved in %.1fs", KAFKA_VERSION, time.monotonic() - started)
    return libs


# --- process bookkeeping -------------------------------------------------------------------

_children: dict[int, subprocess.Popen[bytes]] = {}


def pid_alive(pid: int) -> bool:
    child = _children.get(pid)
    if child is not None:
        return child.poll() is None
    try:
        stat = Path(f"/proc/{pid}/stat").read_text(encoding="ascii")
    except OSError:
        return False
    return stat.rsplit(")", 1)[1].split()[0] != "Z"


def _is_broker_process(pid: int) -> bool:
    try:
        cmdline = Path(f"/proc/{pid}/cmdline").read_bytes().split(b"\0")
    except OSError:
        return False
    return b"kafka.Kafka" in cmdline


def broker_pid(config: BrokerConfig) -> int | None:
    """The pid of this config's broker, if it is alive (guards against pid reuse)."""
    try:
        pid = int(config.pid_file.read_text(encoding="ascii").strip())
    except (OSError, ValueError):
        return None
    if pid_alive(pid) and _is_broker_process(pid):
        return pid
    return None


@contextlib.contextmanager
def _node_lock(config: BrokerConfig) -> Iterator[None]:
    """Serialise start/stop between concurrent runs that share one broker."""
    config.node_dir.mkdir(parents=True, exist_ok=True)
    with open(config.node_dir / ".lock", "w", encoding="ascii") as handle:
        fcntl.flock(handle, fcntl.LOCK_EX)
        try:
            yield
        finally:
            fcntl.flock(handle, fcntl.LOCK_UN)


# --- health --------------------------------------------------------------------------------


def _port_open(host: str, port: int) -> bool:
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as sock:
        sock.settimeout(0.5)
        return sock.connect_ex((host, port)) == 0


def admin_client(bootstrap: str) -> object:
    from confluent_kafka.admin import AdminClient

    # log_level 3 keeps librdkafka's connection-refused chatter out of test output.
    return AdminClient({"bootstrap.servers": bootstrap, "log_level": 3})


def is_ready(bootstrap: str, timeout: float = 5.0) -> bool:
    """True when a broker at ``bootstrap`` answers a metadata request."""
    host, _, port = bootstrap.rpartition(":")
    if not _port_open(host or "127.0.0.1", int(port)):
        return False
    from confluent_kafka import KafkaException

    try:
        metadata = admin_client(bootstrap).list_topics(timeout=timeout)  # type: ignore[attr-defined]
    except KafkaException:
        return False
    return bool(metadata.brokers)


def broker_status(config: BrokerConfig | None = None) -> BrokerState:
    config = config or shared_config()
    pid = broker_pid(config)
    if pid is None:
        return BrokerState.FOREIGN if _port_open(config.host, config.port) else BrokerState.STOPPED
    return BrokerState.RUNNING if is_ready(config.bootstrap) else BrokerState.STARTING


# --- start / stop --------------------------------------------------------------------------


def _write_properties(config: BrokerConfig) -> None:
    props = {
        "process.roles": "broker,controller",
        "node.id": "1",
        "controller.quorum.voters": f"1@{config.host}:{config.controller_port}",
        "listeners": (
            f"PLAINTEXT://{config.host}:{config.port},CONTROLLER://{config.host}:"
            f"{config.controller_port}"
        ),
        "advertised.listeners": f"PLAINTEXT://{config.host}:{config.port}",
        "controller.listener.names": "CONTROLLER",
        "inter.broker.listener.name": "PLAINTEXT",
        "listener.security.protocol.map": "CONTROLLER:PLAINTEXT,PLAINTEXT:PLAINTEXT",
        "log.dirs": str(config.data_dir),
        # Topics are created explicitly, as in production; a typo must not invent one.
        "auto.create.topics.enable": "false",
        "num.partitions": "1",
        "offsets.topic.replication.factor": "1",
        # Fewer offsets partitions make the first consumer group on a fresh broker quick.
        "offsets.topic.num.partitions": "5",
        "transaction.state.log.replication.factor": "1",
        "transaction.state.log.min.isr": "1",
        "share.coordinator.state.topic.replication.factor": "1",
        "share.coordinator.state.topic.min.isr": "1",
        "group.initial.rebalance.delay.ms": "0",
        # Lets crash tests use short session timeouts so a killed worker is noticed fast.
        "group.min.session.timeout.ms": "1000",
        # Two cores: the default thread pools only add context switches.
        "num.network.threads": "2",
        "num.io.threads": "2",
        "background.threads": "2",
        "num.recovery.threads.per.data.dir": "1",
    }
    text = "".join(f"{key}={value}\n" for key, value in props.items())
    config.properties_file.write_text(text, encoding="utf-8")
    (config.node_dir / "log4j2.properties").write_text(_LOG4J2, encoding="utf-8")


def _java() -> str:
    java = shutil.which("java")
    if java is None:
        raise KafkaError("Java 17 (java) tidak ditemukan; broker Kafka membutuhkannya")
    return java


def _cluster_id() -> str:
    # As Kafka's own Uuid.randomUuid: an id starting with "-" would parse as an option.
    while True:
        cluster_id = base64.urlsafe_b64encode(uuid.uuid4().bytes).rstrip(b"=").decode("ascii")
        if not cluster_id.startswith("-"):
            return cluster_id


def _format_storage(config: BrokerConfig, classpath: str) -> None:
    if (config.data_dir / "meta.properties").exists():
        return
    cluster_id = _cluster_id()
    cmd = [_java(), "-Xmx256m", "-cp", classpath, *_log_flags(config)]
    cmd += ["kafka.tools.StorageTool", "format", "-t", cluster_id]
    cmd += ["-c", str(config.properties_file), "--ignore-formatted"]
    result = subprocess.run(cmd, capture_output=True, text=True, check=False)
    if result.returncode != 0:
        raise KafkaError(f"Format penyimpanan Kafka gagal:\n{result.stdout}{result.stderr}")


def _log_flags(config: BrokerConfig) -> list[str]:
    return [f"-Dlog4j2.configurationFile={config.node_dir / 'log4j2.properties'}"]


def _open_log(config: BrokerConfig) -> int:
    if config.log_file.exists() and config.log_file.stat().st_size > LOG_ROTATE_BYTES:
        config.log_file.replace(config.log_file.with_suffix(".log.1"))
    return os.open(config.log_file, os.O_WRONLY | os.O_CREAT | os.O_APPEND, 0o644)


def _spawn(config: BrokerConfig, classpath: str) -> int:
    cmd = [_java(), f"-Xmx{config.heap}", "-Xms128m", "-XX:+UseG1GC"]
    cmd += ["-XX:MaxGCPauseMillis=20", "-XX:+ExitOnOutOfMemoryError", "-Djava.awt.headless=true"]
    cmd += ["-cp", classpath, *_log_flags(config), "kafka.Kafka", str(config.properties_file)]
    log_fd = _open_log(config)
    try:
        # A new session keeps the broker alive after this process exits and out of the way
        # of a Ctrl-C sent to the terminal's process group; stop_broker ends it explicitly.
        child = subprocess.Popen(
            cmd,
            stdin=subprocess.DEVNULL,
            stdout=log_fd,
            stderr=subprocess.STDOUT,
            cwd=config.node_dir,
            start_new_session=True,
        )
    finally:
        os.close(log_fd)
    _children[child.pid] = child
    config.pid_file.write_text(f"{child.pid}\n", encoding="ascii")
    return child.pid


def _log_tail(config: BrokerConfig, lines: int = 30) -> str:
    try:
        return "\n".join(config.log_file.read_text(errors="replace").splitlines()[-lines:])
    except OSError:
        return "(log tidak ada)"


def _wait_ready(config: BrokerConfig, pid: int, timeout: float) -> None:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if not pid_alive(pid):
            raise KafkaError(f"Broker Kafka berhenti saat mulai:\n{_log_tail(config)}")
        if is_ready(config.bootstrap, timeout=2.0):
            return
        time.sleep(0.25)
    raise KafkaError(
        f"Broker Kafka tidak siap dalam {timeout:.0f} detik ({config.log_file}):\n"
        f"{_log_tail(config)}"
    )


def start_broker(config: BrokerConfig | None = None, timeout: float = 120.0) -> str:
    """Start the broker (or find it running) and wait until it serves metadata.

    Returns the bootstrap address. Idempotent: a healthy running broker returns at once.
    """
    config = config or shared_config()
    with _node_lock(config):
        return _start_locked(config, timeout)


def _start_locked(config: BrokerConfig, timeout: float) -> str:
    started = time.monotonic()
    pid = broker_pid(config)
    if pid is None and is_ready(config.bootstrap):
        # A broker someone else runs (another checkout, docker): use it, never own it.
        log.info("kafka already served at %s by another process", config.bootstrap)
        return config.bootstrap
    if pid is None:
        classpath = str(ensure_jars(config) / "*")
        config.data_dir.mkdir(parents=True, exist_ok=True)
        _write_properties(config)
        _format_storage(config, classpath)
        pid = _spawn(config, classpath)
    _wait_ready(config, pid, timeout)
    log.info(
        "kafka %s ready at %s (pid %s) in %.1fs",
        KAFKA_VERSION,
        config.bootstrap,
        pid,
        time.monotonic() - started,
    )
    return config.bootstrap


def _wait_gone(pid: int, timeout: float) -> bool:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if not pid_alive(pid):
            return True
        time.sleep(0.1)
    return not pid_alive(pid)


def stop_broker(config: BrokerConfig | None = None, timeout: float = 30.0) -> bool:
    """SIGTERM the broker, SIGKILL it after ``timeout``. False if it was not running."""
    config = config or shared_config()
    with _node_lock(config):
        return _stop_locked(config, timeout)


def _stop_locked(config: BrokerConfig, timeout: float) -> bool:
    pid = broker_pid(config)
    if pid is None:
        return False
    started = time.monotonic()
    os.kill(pid, signal.SIGTERM)
    if not _wait_gone(pid, timeout):
        log.warning("kafka pid %s ignored SIGTERM for %.0fs; killing", pid, timeout)
        os.kill(pid, signal.SIGKILL)
        _wait_gone(pid, 10.0)
    _children.pop(pid, None)
    config.pid_file.unlink(missing_ok=True)
    log.info("kafka at %s stopped in %.1fs", config.bootstrap, time.monotonic() - started)
    return True


# --- sharing between concurrent test runs --------------------------------------------------
# Several developers' test runs share the broker on 9092. Each run holds a lease (a file
# named after its pid); the last run to leave stops the broker, unless a developer pinned
# it with ``make kafka``, in which case only ``make kafka-stop`` stops it.


def _leases_dir(config: BrokerConfig) -> Path:
    return config.node_dir / "leases"


def _live_leases(config: BrokerConfig) -> list[int]:
    live = []
    for lease in _leases_dir(config).glob("*"):
        pid = int(lease.name) if lease.name.isdigit() else -1
        if pid > 0 and pid_alive(pid):
            live.append(pid)
        else:
            lease.unlink(missing_ok=True)
    return live


def acquire_broker(config: BrokerConfig | None = None, timeout: float = 120.0) -> str:
    """Start or join the shared broker for the lifetime of this process."""
    config = config or shared_config()
    with _node_lock(config):
        bootstrap = _start_locked(config, timeout)
        _leases_dir(config).mkdir(exist_ok=True)
        (_leases_dir(config) / str(os.getpid())).touch()
        return bootstrap


def release_broker(config: BrokerConfig | None = None) -> bool:
    """Drop this process's lease; stop the broker if nobody else uses it. True if stopped."""
    config = config or shared_config()
    with _node_lock(config):
        (_leases_dir(config) / str(os.getpid())).unlink(missing_ok=True)
        others = _live_leases(config)
        if others or (config.node_dir / "pinned").exists():
            log.info("kafka left running for %s other run(s) or a pin", len(others))
            return False
        return _stop_locked(config, 30.0)


def pin_broker(config: BrokerConfig, pinned: bool) -> None:
    marker = config.node_dir / "pinned"
    if pinned:
        marker.touch()
    else:
        marker.unlink(missing_ok=True)


# --- CLI -----------------------------------------------------------------------------------


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description="Broker Kafka lokal (KRaft) di 127.0.0.1:9092")
    parser.add_argument("action", choices=["start", "stop", "status", "fetch"])
    args = parser.parse_args(argv)
    logging.basicConfig(level=logging.INFO, format="%(asctime)s %(levelname)s %(message)s")
    config = shared_config()
    try:
        if args.action == "start":
            print(start_broker(config))
            pin_broker(config, pinned=True)
        elif args.action == "stop":
            pin_broker(config, pinned=False)
            if users := _live_leases(config):
                log.warning("stopping kafka while test runs %s still use it", users)
            print("stopped" if stop_broker(config) else "not running")
        elif args.action == "fetch":
            print(ensure_jars(config))
        else:
            state = broker_status(config)
            print(f"{state} {config.bootstrap}")
            return 0 if state == BrokerState.RUNNING else 3
    except KafkaError as exc:
        print(f"kafka: {exc}", file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())


__all__ = [
    "KAFKA_VERSION",
    "BrokerConfig",
    "BrokerState",
    "KafkaError",
    "acquire_broker",
    "admin_client",
    "broker_status",
    "ensure_jars",
    "is_ready",
    "pid_alive",
    "pin_broker",
    "private_config",
    "release_broker",
    "shared_config",
    "start_broker",
    "stop_broker",
]
