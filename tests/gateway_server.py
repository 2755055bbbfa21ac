"""A real HTTP server that plays the AHU model gateway (and the manager's heartbeat endpoint).

It listens on a free 127.0.0.1 port in a thread, records every request (method, path,
headers, body, arrival time) and answers either from a per-route script (FIFO of
:class:`Reply`) or with default behaviour: deterministic embeddings, and OCR jobs that walk
through ``job_plan`` one state per poll, deduplicated by Idempotency-Key.

Use the ``gateway_server`` fixture: register this module as a plugin, or import
``gateway_server_fixture`` into a test module (the fixture is registered by its name).
"""

from __future__ import annotations

import base64
import fnmatch
import hashlib
import itertools
import json
import threading
import time
from collections.abc import Iterator
from dataclasses import dataclass, field
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any

import pytest


@dataclass(slots=True)
class Reply:
    status: int = 200
    json: Any = None
    body: bytes | None = None
    headers: dict[str, str] = field(default_factory=dict)
    delay_s: float = 0.0  # answer this late (a slow or stuck upstream)

    def payload(self) -> bytes:
        if self.body is not None:
            return self.body
        return b"" if self.json is None else json.dumps(self.json).encode()


DEFAULT = object()  # in a script: answer this request with the default behaviour


@dataclass(slots=True)
class RecordedRequest:
    method: str
    path: str
    headers: dict[str, str]  # lower-cased names
    body: bytes
    at: float  # time.monotonic() on arrival

    def json(self) -> Any:
        return json.loads(self.body) if self.body else None

    def header(self, name: str) -> str | None:
        return self.headers.get(name.lower())


@dataclass(slots=True)
class _Job:
    job_id: str
    key: str | None
    pages: list[int]
    plan: list[dict[str, Any]]
    polls: int = 0

    def state(self) -> dict[str, Any]:
        step = dict(self.plan[min(self.polls, len(self.plan) - 1)])
        step["job_id"] = self.job_id
        if step["status"] == "completed" and "result" not in step:
            step["result"] = {
                "pages": [
                    {"page": p, "lines": [{"text": f"teks halaman {p}", "confidence": 0.97}]}
                    for p in self.pages
                ]
            }
        return step


DEFAULT_PLAN: list[dict[str, Any]] = [
    {"status": "queued", "queue_position": 3, "eta_ms": 90_000},
    {"status": "queued", "queue_position": 1, "eta_ms": 20_000},
    {"status": "processing", "stage": "recognize", "progress": 0.5},
    {"status": "completed"},
]


class FakeGateway:
    def __init__(self, embed_dim: int = 8) -> None:
        self.embed_dim = embed_dim
        self.requests: list[RecordedRequest] = []
        self.job_plan: list[dict[str, Any]] = list(DEFAULT_PLAN)
        # Forget every job at this poll number (1-based), once: a gateway restart.
        self.lose_jobs_at_poll: int | None = None
        self._scripts: list[tuple[str, str, list[Any]]] = []
        self._jobs: dict[str, _Job] = {}
        self._keys: dict[str, str] = {}
        self._ids = itertools.count(1)
        self._lock = threading.Lock()
        self._server = ThreadingHTTPServer(("127.0.0.1", 0), _handler_for(self))
        self._server.daemon_threads = True
        # A short poll interval keeps shutdown (and so each test's teardown) quick.
        self._thread = threading.Thread(
            target=self._server.serve_forever, kwargs={"poll_interval": 0.05}, daemon=True
        )

    @property
    def url(self) -> str:
        return f"http://127.0.0.1:{self._server.server_address[1]}"

    def start(self) -> FakeGateway:
        self._thread.start()
        return self

    def stop(self) -> None:
        self._server.shutdown()
        self._server.server_close()

    def script(self, method: str, path_glob: str, *replies: Any) -> None:
        """Answer the next requests matching (method, glob) with ``replies`` in order."""
        with self._lock:
            self._scripts.append((method.upper(), path_glob, list(replies)))

    def requests_to(self, method: str, path_glob: str) -> list[RecordedRequest]:
        with self._lock:
            return [
                r
                for r in self.requests
                if r.method == method.upper() and fnmatch.fnmatch(r.path, path_glob)
            ]

    # --- request handling (server threads) ----------------------------------------------

    def handle(self, request: RecordedRequest) -> Reply:
        with self._lock:
            self.requests.append(request)
            scripted = self._next_scripted(request)
            if scripted is not None and scripted is not DEFAULT:
                return scripted
            return self._default(request)

    def _next_scripted(self, request: RecordedRequest) -> Any:
        for method, glob, replies in self._scripts:
            if method == request.method and fnmatch.fnmatch(request.path, glob) and replies:
                return replies.pop(0)
        return None

    def _default(self, request: RecordedRequest) -> Reply:
        if request.method == "POST" and request.path == "/v1/embeddings":
            return self._embeddings(request)
        if request.method == "POST" and request.path == "/v1/jobs":
            return self._submit(request)
        if request.method == "GET" and request.path.startswith("/v1/jobs/"):
            return self._poll(request.path.removeprefix("/v1/jobs/"))
        if request.method == "POST" and request.path == "/v1/heartbeat":
            return Reply(202, json={"ok": True})
        return Reply(404, json={"error": {"message": f"no route {request.path}"}})

    def _embeddings(self, request: RecordedRequest) -> Reply:
        texts = request.json()["input"]
        data = [
            {"index": i, "embedding": embedding_for(text, self.embed_dim)}
            for i, text in enumerate(texts)
        ]
        data.reverse()  # clients must order by index, not by position
        usage = {"prompt_tokens": sum(len(t.split()) for t in texts)}
        return Reply(200, json={"object": "list", "data": data, "usage": usage})

    def _submit(self, request: RecordedRequest) -> Reply:
        key = request.header("Idempotency-Key")
        known = self._keys.get(key or "")
        if known in self._jobs:
            return Reply(200, json=self._jobs[known].state())
        pages = [p["page"] for p in request.json()["input"]["pages"]]
        job = _Job(f"job-{next(self._ids)}", key, pages, list(self.job_plan))
        self._jobs[job.job_id] = job
        if key:
            self._keys[key] = job.job_id
        return Reply(202, json=job.state())

    def _poll(self, job_id: str) -> Reply:
        job = self._jobs.get(job_id)
        if job is not None:
            job.polls += 1
            if self.lose_jobs_at_poll is not None and job.polls >= self.lose_jobs_at_poll:
                self.lose_jobs_at_poll = None
                self._jobs.clear()
                job = None
        if job is None:
            return Reply(404, json={"code": "JOB_UNKNOWN", "message": "unknown job"})
        return Reply(200, json=job.state())


def embedding_for(text: str, dim: int) -> list[float]:
    digest = hashlib.sha256(text.encode()).digest()
    return [round(b / 255, 6) for b in digest[:dim]]


def decode_pages(request: RecordedRequest) -> list[bytes]:
    return [base64.b64decode(p["data_b64"]) for p in request.json()["input"]["pages"]]


def _handler_for(gateway: FakeGateway) -> type[BaseHTTPRequestHandler]:
    class Handler(BaseHTTPRequestHandler):
        protocol_version = "HTTP/1.1"

        def _serve(self) -> None:
            length = int(self.headers.get("Content-Length") or 0)
            body = self.rfile.read(length) if length else b""
            headers = {k.lower(): v for k, v in self.headers.items()}
            recorded = RecordedRequest(self.command, self.path, headers, body, time.monotonic())
            reply = gateway.handle(recorded)
            if reply.delay_s:
                time.sleep(reply.delay_s)
            payload = reply.payload()
            self.send_response(reply.status)
            self.send_header("Content-Type", "application/json")
            self.send_header("Content-Length", str(len(payload)))
            for name, value in reply.headers.items():
                self.send_header(name, value)
            self.end_headers()
            self.wfile.write(payload)

        do_GET = _serve
        do_POST = _serve

        def log_message(self, format: str, *args: Any) -> None:
            pass

    return Handler


@pytest.fixture(name="gateway_server")
def gateway_server_fixture() -> Iterator[FakeGateway]:
    server = FakeGateway().start()
    try:
        yield server
    finally:
        server.stop()
