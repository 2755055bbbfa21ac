"""manage.py check_doc_uploaded prints one verdict per record and exits 0/1/2."""

from __future__ import annotations

import io
import json
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest
from django.core.management import CommandError, call_command

from tests.partner_events.helpers import FULL_EXAMPLE, JOB_ID, REQUIRED_EXAMPLE, event

REPO = Path(__file__).resolve().parents[2]


def _run(*args: str, stdin: bytes | None = None) -> tuple[int, str]:
    out = io.StringIO()
    options: dict[str, Any] = {"stdout": out}
    if stdin is not None:
        options["stdin"] = io.BytesIO(stdin)
    try:
        call_command("check_doc_uploaded", *args, **options)
    except SystemExit as exc:
        return int(exc.code or 0), out.getvalue()
    return 0, out.getvalue()


def test_an_accepted_file_prints_the_normalized_record(tmp_path: Path) -> None:
    path = tmp_path / "event.json"
    path.write_text(json.dumps(FULL_EXAMPLE))
    code, out = _run(str(path))
    result = json.loads(out)
    assert code == 0
    assert list(result) == ["outcome", "error", "statusEvent", "topic", "normalized", "warnings"]
    assert result["outcome"] == "accept"
    assert (result["statusEvent"], result["topic"], result["error"]) == (None, None, None)
    assert result["normalized"]["parserFileName"] == "qanun-aceh-001.pdf"
    assert result["normalized"]["sourceMetadata"] == {}
    assert result["normalized"]["sourceKey"] == FULL_EXAMPLE["documentId"]


def test_a_rejected_record_on_stdin_exits_one_with_the_failed_event() -> None:
    code, out = _run("-", stdin=json.dumps(event(mimeType="application/zip")).encode())
    result = json.loads(out)
    assert code == 1
    assert result["outcome"] == "reject"
    assert "mimeType" in result["error"]
    assert result["statusEvent"]["status"] == "failed"
    assert result["statusEvent"]["jobId"] == JOB_ID
    assert result["topic"] == "doc.indexed"


def test_a_structured_skip_exits_zero_with_the_skipped_event() -> None:
    payload = event(collectionName="SatuData", storageKey="d/t.csv", mimeType="text/csv")
    code, out = _run(stdin=json.dumps(payload).encode())
    result = json.loads(out)
    assert code == 0
    assert result["outcome"] == "skip"
    assert result["statusEvent"]["meta"] == {"chunkCount": 0}


def test_jsonl_prints_one_verdict_per_line_and_exits_one_on_any_reject() -> None:
    lines = [json.dumps(REQUIRED_EXAMPLE), "", "not json", json.dumps(FULL_EXAMPLE)]
    code, out = _run("--jsonl", stdin=("\r\n".join(lines) + "\n").encode())
    outcomes = [json.loads(line)["outcome"] for line in out.splitlines()]
    assert outcomes == ["accept", "reject", "accept"]
    assert code == 1


def test_jsonl_with_only_valid_records_exits_zero() -> None:
    code, out = _run("--jsonl", stdin=(json.dumps(REQUIRED_EXAMPLE) + "\n").encode())
    assert code == 0
    assert len(out.splitlines()) == 1


def test_a_missing_file_is_a_usage_error(tmp_path: Path) -> None:
    with pytest.raises(CommandError) as raised:
        call_command("check_doc_uploaded", str(tmp_path / "missing.json"))
    assert raised.value.returncode == 2


@pytest.mark.skipif(not (REPO / "manage.py").exists(), reason="manage.py not present")
def test_the_command_runs_through_manage_py_with_exit_codes(tmp_path: Path) -> None:
    good = tmp_path / "good.json"
    good.write_text(json.dumps(REQUIRED_EXAMPLE))
    cmd = [sys.executable, str(REPO / "manage.py"), "check_doc_uploaded"]
    ok = subprocess.run([*cmd, str(good)], capture_output=True, cwd=REPO, timeout=120)
    assert ok.returncode == 0, ok.stderr.decode()
    assert json.loads(ok.stdout)["outcome"] == "accept"
    bad = subprocess.run([*cmd, "-"], input=b"[]", capture_output=True, cwd=REPO, timeout=120)
    assert bad.returncode == 1
    assert json.loads(bad.stdout)["statusEvent"] is None
    usage = subprocess.run(
        [*cmd, str(tmp_path / "nope")], capture_output=True, cwd=REPO, timeout=120
    )
    assert usage.returncode == 2
