"""The Docker stack and a production-like environment agree with settings.py."""

from __future__ import annotations

import os
import re
import subprocess
import sys
from pathlib import Path

import yaml

ROOT = Path(__file__).resolve().parent.parent
SETTINGS_SOURCE = (ROOT / "aceh_rag" / "settings.py").read_text()
# boto3 reads these itself (endpoint and credentials for S3/OBS/MinIO).
BOTO_VARIABLES = {
    "AWS_ENDPOINT_URL_S3",
    "AWS_ACCESS_KEY_ID",
    "AWS_SECRET_ACCESS_KEY",
    "AWS_DEFAULT_REGION",
}


def settings_variables() -> set[str]:
    return set(re.findall(r'env_[a-z_]+\(\s*"([A-Z0-9_]+)"', SETTINGS_SOURCE))


def compose() -> dict:
    return yaml.safe_load((ROOT / "docker" / "compose.yaml").read_text())


def test_compose_runs_the_whole_production_like_stack() -> None:
    services = compose()["services"]
    for name in ("postgres", "redis", "kafka", "minio", "migrate", "web", "worker"):
        assert name in services, name
    assert "pgvector" in services["postgres"]["image"]
    assert (
        "KRaft" in (ROOT / "docker" / "compose.yaml").read_text()
        or services["kafka"]["environment"]["KAFKA_PROCESS_ROLES"] == "broker,controller"
    )
    assert services["worker"]["command"][-1] == "kafka_worker"


def test_every_long_running_compose_service_has_a_health_check() -> None:
    services = compose()["services"]
    for name in ("postgres", "redis", "kafka", "minio", "web", "worker"):
        assert "healthcheck" in services[name], name


def test_every_app_variable_in_compose_is_one_settings_reads() -> None:
    known = settings_variables() | BOTO_VARIABLES
    env = compose()["x-app-env"]
    unknown = sorted(set(env) - known)
    assert unknown == []


def test_compose_sets_the_design_cards_kafka_and_storage_variables() -> None:
    env = compose()["x-app-env"]
    for name in (
        "DATABASE_URL",
        "OBJECT_STORAGE_URL",
        "KAFKA_ENABLED",
        "KAFKA_BOOTSTRAP_SERVERS",
        "KAFKA_DOC_UPLOADED_TOPIC",
        "KAFKA_CONSUMER_GROUP",
        "KAFKA_MAX_RETRIES",
        "KAFKA_RETRY_BACKOFF_SECONDS",
        "AUDIT_REDIS_URL",
    ):
        assert name in env, name
        assert name in settings_variables() | BOTO_VARIABLES


def test_check_deploy_reports_no_problems_in_a_production_like_environment() -> None:
    env = {
        key: value
        for key, value in os.environ.items()
        if key not in {"DEBUG", "SECURE_HTTPS", "SECRET_KEY"}
    }
    env.update(
        {
            "SECRET_KEY": "k7#Qv2!pL9@xR4$mT8^wZ1&bN6*cF3(hJ5)dS0_gY-eU+aI=oP" * 2,
            "DEBUG": "false",
            "ALLOWED_HOSTS": "rag.acehprov.go.id",
            "DATABASE_URL": os.environ.get("DATABASE_URL", "postgresql://check@localhost/check"),
        }
    )
    result = subprocess.run(
        [sys.executable, "manage.py", "check", "--deploy", "--fail-level", "WARNING"],
        cwd=ROOT,
        env=env,
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert result.returncode == 0, result.stdout + result.stderr


def test_a_bad_boolean_in_the_environment_fails_loudly() -> None:
    env = {**os.environ, "KAFKA_ENABLED": "perhaps", "DJANGO_SETTINGS_MODULE": "aceh_rag.settings"}
    result = subprocess.run(
        [sys.executable, "-c", "import django; django.setup()"],
        cwd=ROOT,
        env=env,
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert result.returncode != 0
    assert "KAFKA_ENABLED must be a boolean" in result.stderr
