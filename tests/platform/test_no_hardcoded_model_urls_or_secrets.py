"""Conventions §4.2/§4.3: model-server URLs live only in env, secrets never in the repo."""

from __future__ import annotations

import re
import subprocess
from pathlib import Path
from urllib.parse import urlsplit

import pytest

ROOT = Path(__file__).resolve().parents[2]
LOCAL_HOSTS = {"localhost", "127.0.0.1", "::1", "0.0.0.0"}
URL = re.compile(r"https?://[^\s\"'<>()\\`]+")
# Paths that only a model/OCR server (or a hosted LLM API) answers.
MODEL_PATH = re.compile(r"/(v1|embeddings?|completions|chat|generate|predict|infer|ocr)\b")
CLOUD_HOST = re.compile(r"openai|dashscope|aliyuncs|anthropic|azure|huggingface\.co/api")
SECRETS = [
    re.compile(r"AKIA[0-9A-Z]{16}"),
    re.compile(r"\bsk-[A-Za-z0-9_\-]{20,}"),
    re.compile(
        r"(?i)\b(api[_-]?key|access[_-]?key|secret[_-]?key|auth[_-]?token)\b\s*[:=]\s*"
        r"['\"][A-Za-z0-9/+_\-]{12,}['\"]"
    ),
]
TEXT_SUFFIXES = {
    ".py", ".toml", ".cfg", ".ini", ".yaml", ".yml", ".json", ".js", ".ts", ".html",
    ".txt", ".md", ".sh", ".env", ".conf", ".sql",
}  # fmt: skip
TEXT_NAMES = {"Makefile", "Dockerfile", "run", ".env.example"}


def repo_files() -> list[Path]:
    try:
        out = subprocess.run(
            ["git", "ls-files", "--cached", "--others", "--exclude-standard"],
            cwd=ROOT, capture_output=True, text=True, check=True,
        ).stdout  # fmt: skip
    except (OSError, subprocess.CalledProcessError):
        pytest.skip("not a git checkout")
    paths = [ROOT / line for line in out.splitlines() if line]
    return [
        p
        for p in paths
        if p.is_file()
        and (p.suffix in TEXT_SUFFIXES or p.name in TEXT_NAMES)
        and p.stat().st_size < 2_000_000
    ]


def is_code(path: Path) -> bool:
    """Where a URL would be hard-coded. Compose files and env examples are excluded: they
    are the environment, which is exactly where §4.2 wants model-server URLs."""
    top = path.relative_to(ROOT).parts[0]
    is_env = path.name.startswith(("compose", "docker-compose", ".env")) or path.suffix == ".env"
    return top not in {"tests", "docs", "bench"} and path.suffix != ".md" and not is_env


def model_server_urls(text: str) -> list[str]:
    found = []
    for match in URL.finditer(text):
        url = match.group(0).rstrip(".,;:")
        try:
            parts = urlsplit(url)
            port = parts.port
        except ValueError:
            continue
        host = (parts.hostname or "").lower()
        if not host or host in LOCAL_HOSTS or "{" in host:
            continue
        if port is not None or MODEL_PATH.search(parts.path) or CLOUD_HOST.search(host):
            found.append(url)
    return found


def secrets_in(text: str) -> list[str]:
    return [m.group(0) for pattern in SECRETS for m in pattern.finditer(text)]


def test_the_detectors_catch_planted_examples() -> None:
    # Built at runtime so this file itself stays clean for the repository scan.
    key = "AKIA" + "ABCDEFGHIJKLMNOP"
    token = "sk-" + "a1b2c3d4e5f6g7h8i9j0k1l2"
    assignment = "api_key = '" + "0123456789abcdefXYZ" + "'"
    assert secrets_in(f"x = '{key}'") == [key]
    assert secrets_in(f'OPENAI = "{token}"') == [token]
    assert secrets_in(assignment)
    assert secrets_in("api_key = settings.GATEWAY_KEY") == []
    assert model_server_urls("url = 'http://" + "10.1.2.3:8000/v1'")
    assert model_server_urls("u = 'https://" + "dashscope.example.com/api'")
    assert model_server_urls("u = 'http://" + "gpu-box.internal/embeddings'")
    assert model_server_urls("u = 'http://127.0.0.1:8000/v1'") == []
    assert model_server_urls("ns = 'http://schemas.openxmlformats.org/wordml/2006/main'") == []
    assert model_server_urls("see https://docs.djangoproject.com/en/5.2/ref/settings/") == []


def test_code_has_no_hardcoded_model_server_urls() -> None:
    offenders = {
        str(p.relative_to(ROOT)): urls
        for p in repo_files()
        if is_code(p) and (urls := model_server_urls(p.read_text(errors="replace")))
    }

    assert offenders == {}


def test_the_repository_holds_no_upstream_secrets() -> None:
    offenders = {
        str(p.relative_to(ROOT)): found
        for p in repo_files()
        if (found := secrets_in(p.read_text(errors="replace")))
    }

    assert offenders == {}
