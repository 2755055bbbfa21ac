"""MCP tool latency beside the REST call it wraps, and per-token fairness under load.

Run from the repository root: ``.venv/bin/python bench/mcp_tools.py [--calls 30] [--seconds 8]``.
It starts its own embedded Postgres (or uses ``--database-url``: an EMPTY scratch
database), indexes the Tipikor chain of the corpus (UU 31/1999, UU 20/2001) with the
pipeline's chunker and embedder, and serves the real ASGI app (Django + ``/mcp``) in a uvicorn
process of its own on a loopback port, as ``make run`` does with one worker.

1. Latency, side by side (p50/p95 over ``--calls`` calls each, warm, one keep-alive
   client). The MCP client is the
   SDK's ``ClientSession`` in one session; every tool call is one HTTP POST. Pairs: MCP
   ``search`` vs ``GET /api/search``, ``get_unit`` vs ``GET /api/units``, ``law_status``
   vs ``GET /api/documents/{id}`` + ``/consolidated`` (what it reads). Goal: MCP within
   10 % of REST.
2. Fairness (bounded loop, loopback only): token A sends 50 searches/s, token B 2/s, for
   ``--seconds``; B's p95 is compared with its p95 alone. Goals: B within 20 %; A gets 429
   with Retry-After, nobody gets a 5xx. ``--rounds N`` alternates the two phases N times and
   pools each side's samples; ``API_FAIR_SHARE=false`` in the environment turns fair
   shares off for a comparison.
3. ``--throughput N`` instead: N tokens each search in a closed loop for ``--seconds``
   (no rate limit), to see what the process serves when several clients are busy at once.

Not named ``mcp.py``: a script's folder leads ``sys.path`` and would shadow the SDK.
"""

from __future__ import annotations

import argparse
import asyncio
import os
import socket
import statistics
import subprocess
import sys
import time
from collections import Counter
from collections.abc import Awaitable, Callable
from pathlib import Path
from typing import Any

import httpx

REPO = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(REPO))

CORPUS = REPO.parent / "shared" / "corpus"
if not CORPUS.is_dir():
    CORPUS = Path("/work/shared/corpus")
CHAIN = (
    ("uu_31_1999_tipikor.md", "31", "1999", "Pemberantasan Tindak Pidana Korupsi"),
    (
        "uu_20_2001_perubahan_tipikor.md",
        "20",
        "2001",
        "Perubahan atas Undang-Undang Nomor 31 Tahun 1999 tentang Pemberantasan Tindak Pidana "
        "Korupsi",
    ),
)
UNITS = ("2", "5", "12", "26A")
QUERIES = ("pidana penjara pegawai negeri suap", "gratifikasi", "alat bukti petunjuk", "korupsi")


def setup_django(database_url: str | None) -> None:
    if database_url is None:
        import atexit

        from scripts.services import start_postgres

        postgres = start_postgres()
        atexit.register(postgres.stop)
        database_url = postgres.url
    os.environ["DATABASE_URL"] = database_url
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "aceh_rag.settings")
    import django

    django.setup()
    from django.core.management import call_command

    call_command("migrate", verbosity=0)


def load_chain() -> str:
    """Index the chain; returns UU 31/1999's document id."""
    import hashlib

    from ingestion.legal.identity import document_citation
    from ingestion.models import Document, DocumentStatus, SourceType
    from ingestion.pipeline.base import Block
    from ingestion.pipeline.chunk import chunk_document
    from ingestion.pipeline.embed import get_embedder, passage_text
    from ingestion.pipeline.index import write_document
    from ingestion.relations.graph import refresh_document

    embedder = get_embedder()
    first = ""
    for name, nomor, tahun, tentang in CHAIN:
        text = (CORPUS / "amendments" / name).read_text(encoding="utf-8")
        title = f"Undang-Undang Nomor {nomor} Tahun {tahun} tentang {tentang}"
        source = {"jenis": "UU", "nomor": nomor, "tahun": tahun}
        key = hashlib.sha256(name.encode()).hexdigest()[:16]
        indexed = Document.objects.filter(checksum=key, status=DocumentStatus.INDEXED).first()
        if indexed is not None:  # a --database-url this bench filled before: reused
            first = first or str(indexed.pk)
            continue
        document = Document.objects.create(
            source_type=SourceType.JDIH,
            title=title,
            citation=document_citation(title, source),
            file_name=name,
            mime_type="text/markdown",
            format="md",
            storage_key=f"bench/{name}",
            checksum=key,
            status=DocumentStatus.PROCESSING,
            metadata={"source_key": key, "source_version": "1", "source": source},
        )
        drafts = chunk_document([Block(text)], budget_tokens=350, overlap_tokens=40)
        vectors = embedder.embed_passages(
            [passage_text(d.heading_path_text, d.text) for d in drafts]
        )
        write_document(
            document, drafts, vectors, model_id=embedder.model_id, threshold=0.0, page_count=1
        )
        refresh_document(document)
        first = first or str(document.pk)
    return first


def serve(
    rate: str, workers: int = 1, redis_url: str | None = None
) -> tuple[str, subprocess.Popen[bytes]]:
    """The ASGI app in its own process (one uvicorn worker, as gunicorn runs it), so the
    load generator never shares its interpreter. With ``workers`` > 1 it is gunicorn with
    the deployed configuration (``docker/gunicorn.conf.py``) and the budgets and slots in
    the shared Redis at ``redis_url``, as the compose stack runs it."""
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        port = sock.getsockname()[1]
    env = {**os.environ, "API_RATE_LIMIT": rate}
    command = [sys.executable, "-m", "uvicorn", "aceh_rag.asgi:application", "--port", str(port)]
    if workers > 1:
        env |= {"WEB_CONCURRENCY": str(workers), "BIND": f"127.0.0.1:{port}"}
        env |= {"REDIS_URL": redis_url} if redis_url else {}
        conf = ["-c", "docker/gunicorn.conf.py", "--access-logfile", "/dev/null"]
        command = [sys.executable, "-m", "gunicorn", "aceh_rag.asgi:application", *conf]
    log = open(Path(os.environ.get("TMPDIR", "/tmp")) / f"bench-mcp-server-{port}.log", "wb")
    process = subprocess.Popen(
        [*command, "--log-level", "error"], cwd=REPO, env=env, stdout=log, stderr=log
    )
    deadline = time.monotonic() + 120
    while time.monotonic() < deadline:
        try:
            with socket.create_connection(("127.0.0.1", port), timeout=1):
                break
        except OSError:
            time.sleep(0.2)
    else:
        process.kill()
        raise SystemExit("the server did not start")
    url = f"http://127.0.0.1:{port}"
    _warm(url, workers)
    return url, process


def _warm(url: str, workers: int) -> None:
    """Every worker has loaded the app (a queued first call would count as 'alone')."""
    deadline = time.monotonic() + 120
    fast = 0
    while fast < 5 * workers and time.monotonic() < deadline:
        started = time.perf_counter()
        try:
            ok = httpx.get(f"{url}/healthz", timeout=60).status_code == 200
        except httpx.TransportError:
            ok = False
        fast = fast + 1 if ok and time.perf_counter() - started < 0.2 else 0
        time.sleep(0.05)


def stop(process: subprocess.Popen[bytes]) -> None:
    process.terminate()
    try:
        process.wait(timeout=30)
    except subprocess.TimeoutExpired:
        process.kill()
        process.wait()


def issue(name: str) -> str:
    from io import StringIO

    from django.core.management import call_command

    from ingestion.models import ApiToken

    ApiToken.objects.filter(name=name).delete()  # a reused database's token of an earlier run
    out = StringIO()
    call_command("create_api_token", name, stdout=out, stderr=StringIO())
    return out.getvalue().strip().splitlines()[-1]


def pct(samples: list[float], q: float) -> float:
    ordered = sorted(samples)
    return ordered[min(len(ordered) - 1, round(q * (len(ordered) - 1)))]


async def timed(calls: int, call: Callable[[int], Awaitable[Any]]) -> list[float]:
    for i in range(3):  # warm-up
        await call(i)
    samples = []
    for i in range(calls):
        started = time.perf_counter()
        await call(i)
        samples.append((time.perf_counter() - started) * 1000)
    return samples


async def latency(url: str, token: str, document_id: str, calls: int) -> None:
    import httpx
    import httpx2
    from mcp.client.session import ClientSession
    from mcp.client.streamable_http import streamable_http_client

    headers = {"Authorization": f"Bearer {token}"}
    rows: list[tuple[str, list[float], list[float]]] = []
    async with httpx.AsyncClient(base_url=url, headers=headers, timeout=60) as rest:
        async with httpx2.AsyncClient(headers=headers, timeout=60) as http:
            async with streamable_http_client(f"{url}/mcp", http_client=http) as streams:
                async with ClientSession(streams[0], streams[1]) as session:
                    await session.initialize()

                    async def rest_search(i: int) -> None:
                        q = QUERIES[i % len(QUERIES)]
                        (await rest.get("/api/search", params={"q": q})).raise_for_status()

                    async def mcp_search(i: int) -> None:
                        q = QUERIES[i % len(QUERIES)]
                        result = await session.call_tool("search", {"query": q})
                        assert not result.is_error

                    async def rest_unit(i: int) -> None:
                        ref = f"UU 31/1999 Pasal {UNITS[i % len(UNITS)]}"
                        (await rest.get("/api/units", params={"ref": ref})).raise_for_status()

                    async def mcp_unit(i: int) -> None:
                        ref = f"UU 31/1999 Pasal {UNITS[i % len(UNITS)]}"
                        result = await session.call_tool("get_unit", {"ref": ref})
                        assert not result.is_error

                    async def rest_status(i: int) -> None:
                        # What law_status reads: the status and relations, and the
                        # consolidation (chain, amended Pasal).
                        (await rest.get(f"/api/documents/{document_id}")).raise_for_status()
                        consolidated = await rest.get(f"/api/documents/{document_id}/consolidated")
                        consolidated.raise_for_status()

                    async def mcp_status(i: int) -> None:
                        result = await session.call_tool("law_status", {"ref": "UU 31/1999"})
                        assert not result.is_error

                    # Interleaved per pair so drift of the loaded machine hits both alike.
                    for name, rest_call, mcp_call in (
                        ("search vs /api/search", rest_search, mcp_search),
                        ("get_unit vs /api/units", rest_unit, mcp_unit),
                        ("law_status vs documents+consolidated", rest_status, mcp_status),
                    ):
                        a, b = [], []
                        for _ in range(3):
                            a += await timed(calls // 3, rest_call)
                            b += await timed(calls // 3, mcp_call)
                        rows.append((name, a, b))
    print(
        f"{'call':36} {'REST p50':>9} {'MCP p50':>9} {'REST p95':>9} {'MCP p95':>9} "
        f"{'MCP÷REST p50':>13}"
    )
    for name, a, b in rows:
        ratio = statistics.median(b) / statistics.median(a)
        print(
            f"{name:36} {statistics.median(a):9.1f} {statistics.median(b):9.1f} "
            f"{pct(a, 0.95):9.1f} {pct(b, 0.95):9.1f} {ratio:13.2f}"
        )


async def paced(
    client: httpx.AsyncClient, rate: float, seconds: float, out: list[tuple[float, int, str | None]]
) -> None:
    """Open loop: one request every 1/rate s for ``seconds``, each timed on its own."""

    async def one(i: int) -> None:
        started = time.perf_counter()
        try:
            response = await client.get("/api/search", params={"q": QUERIES[i % len(QUERIES)]})
        except httpx.TransportError:  # a kept-alive connection the server had just closed
            out.append(((time.perf_counter() - started) * 1000, 0, None))
            return
        ms = (time.perf_counter() - started) * 1000
        out.append((ms, response.status_code, response.headers.get("Retry-After")))

    tasks = []
    start = time.perf_counter()
    i = 0
    while time.perf_counter() - start < seconds:
        tasks.append(asyncio.create_task(one(i)))
        i += 1
        await asyncio.sleep(max(0.0, start + i / rate - time.perf_counter()))
    await asyncio.gather(*tasks)


async def fairness(url: str, token_a: str, token_b: str, seconds: float, rounds: int = 1) -> None:
    """B alone, then B beside A, ``rounds`` times over (``seconds`` each phase), the samples
    of each side pooled: a p95 of 40 calls moves by half its value from run to run, and
    alternating lets the machine's drift fall on both sides alike."""
    import httpx

    limits = httpx.Limits(max_connections=64)
    alone: list[tuple[float, int, str | None]] = []
    loaded_b: list[tuple[float, int, str | None]] = []
    loaded_a: list[tuple[float, int, str | None]] = []
    async with (
        httpx.AsyncClient(
            base_url=url, headers={"Authorization": f"Bearer {token_a}"}, timeout=60, limits=limits
        ) as a,
        httpx.AsyncClient(
            base_url=url, headers={"Authorization": f"Bearer {token_b}"}, timeout=60
        ) as b,
    ):
        for _ in range(rounds):
            await paced(b, 2, seconds, alone)
            await asyncio.sleep(1.0)  # A's last calls drain
            await asyncio.gather(paced(a, 50, seconds, loaded_a), paced(b, 2, seconds, loaded_b))
            await asyncio.sleep(1.0)
    b_alone, b_loaded = [ms for ms, _, _ in alone], [ms for ms, _, _ in loaded_b]
    p95_alone, p95_loaded = pct(b_alone, 0.95), pct(b_loaded, 0.95)
    statuses = Counter(status for _, status, _ in loaded_a)
    refused = [ra for _, status, ra in loaded_a if status == 429]
    five = sum(1 for _, s, _ in loaded_a + loaded_b + alone if s >= 500)
    print(
        f"token B (2/s): p95 alone {p95_alone:.1f} ms, under A's load {p95_loaded:.1f} ms "
        f"(×{p95_loaded / p95_alone:.2f}; goal ≤ 1.20); p50 {pct(b_alone, 0.5):.1f} → "
        f"{pct(b_loaded, 0.5):.1f} ms; {len(alone)} + {len(loaded_b)} calls, {rounds} round(s)"
    )
    print(
        f"token A (50/s): {dict(sorted(statuses.items()))}; 429 with Retry-After: "
        f"{sum(1 for r in refused if r)}/{len(refused)}; 5xx anywhere: {five}"
    )


async def throughput(url: str, tokens: list[str], seconds: float) -> None:
    """Every token calls ``/api/search`` in a closed loop for ``seconds``: what the process
    serves when several clients are busy at once (what fair shares cost, if anything)."""
    import httpx

    samples: list[float] = []
    statuses: Counter[int] = Counter()

    async def loop(token: str) -> None:
        headers = {"Authorization": f"Bearer {token}"}
        async with httpx.AsyncClient(base_url=url, headers=headers, timeout=60) as client:
            end, i = time.perf_counter() + seconds, 0
            while time.perf_counter() < end:
                started = time.perf_counter()
                response = await client.get("/api/search", params={"q": QUERIES[i % 4]})
                statuses[response.status_code] += 1
                samples.append((time.perf_counter() - started) * 1000)
                i += 1

    await asyncio.gather(*(loop(t) for t in tokens))
    print(
        f"{len(tokens)} busy tokens: {statuses[200] / seconds:.1f} searches/s served, p50 "
        f"{pct(samples, 0.5):.1f} ms, p95 {pct(samples, 0.95):.1f} ms; {dict(statuses)}"
    )


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument(
        "--database-url", help="a scratch database: empty, or filled by an earlier run (reused)"
    )
    parser.add_argument("--calls", type=int, default=30, help="timed calls per side")
    parser.add_argument("--seconds", type=float, default=8.0, help="length of each load phase")
    parser.add_argument("--rate", default="10/second", help="API_RATE_LIMIT of the load phase")
    parser.add_argument("--rounds", type=int, default=1, help="alone/loaded phase pairs, pooled")
    parser.add_argument("--fairness-only", action="store_true", help="skip the latency table")
    parser.add_argument(
        "--throughput", type=int, default=0, help="N tokens in closed loops (no rate limit)"
    )
    parser.add_argument(
        "--workers",
        type=int,
        default=1,
        help="web workers of the load phase; > 1: gunicorn as deployed, with a shared Redis",
    )
    args = parser.parse_args()
    setup_django(args.database_url)
    import logging

    logging.disable(logging.WARNING)
    document_id = load_chain()
    print("figures from this machine as it is (shared CPU: read ratios, not absolutes)")
    if not args.fairness_only:
        url, server = serve("off")  # the latency phase measures calls, not the limiter
        try:
            asyncio.run(latency(url, issue("bench-latency"), document_id, args.calls))
        finally:
            stop(server)
    if args.throughput:
        url, server = serve("off")
        try:
            tokens = [issue(f"bench-busy-{i}") for i in range(args.throughput)]
            asyncio.run(throughput(url, tokens, args.seconds))
        finally:
            stop(server)
        return 0
    redis = _redis(args.workers)
    url, server = serve(args.rate, args.workers, redis.url if redis else None)
    print(
        f"load phase: API_RATE_LIMIT={args.rate}, burst {os.environ.get('API_RATE_BURST', 30)},"
        f" {args.workers} web worker(s){' sharing Redis' if redis else ''}"
    )
    try:
        asyncio.run(fairness(url, issue("bench-a"), issue("bench-b"), args.seconds, args.rounds))
    finally:
        stop(server)
        if redis:
            redis.stop()
    return 0


def _redis(workers: int) -> Any:
    if workers <= 1:
        return None
    import tempfile

    from scripts.services import start_redis

    return start_redis(Path(tempfile.mkdtemp(prefix="bench-mcp-redis-")))


if __name__ == "__main__":
    sys.exit(main())
