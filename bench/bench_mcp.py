"""where_else through ``crossbook mcp`` beside the CLI's ``crossbook where-else``.

Builds the sample corpus index (hash embedder), then measures, interleaved and as medians:
the CLI's where-else as a user runs it (a fresh process each time), the MCP server's
start (spawn + initialize + tools/list, through the mcp SDK's stdio client), and a
where_else tool call in a running session. Then where_else's latency in a server that is
ingesting a large book meanwhile (``--allow-ingest``: the same server, its reads on their own
connections), beside the same server idle. Then stdio beside ``--http`` (the SDK's streamable
HTTP client): each one's start, first and later calls, and the calls of ten clients at once
(stdio: ten servers; HTTP: one shared). Prints the figures; asserts nothing.

    python -m bench.bench_mcp [--runs 7] [--book-mb 2] [--book PATH] [--skip-ingest]
"""

from __future__ import annotations

import argparse
import os
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import anyio

ROOT = Path(__file__).resolve().parent.parent
CROSSBOOK = str(Path(sys.executable).parent / "crossbook")
NAME = "Frost Lance"


def _cli_where_else(index: Path, env: dict) -> float:
    start = time.perf_counter()
    subprocess.run([CROSSBOOK, "--index", str(index), "where-else", NAME, "--json"], env=env, check=True,
                   capture_output=True)
    return time.perf_counter() - start


async def _mcp_session(index: Path, calls: int) -> tuple[float, list[float]]:
    from mcp import ClientSession, StdioServerParameters, stdio_client

    params = StdioServerParameters(command=CROSSBOOK, args=["--index", str(index), "mcp"],
                                   env={"CROSSBOOK_EMBEDDER": "hash"})
    start = time.perf_counter()
    async with stdio_client(params) as (read, write), ClientSession(read, write) as session:
        await session.initialize()
        await session.list_tools()
        started = time.perf_counter() - start
        times = []
        for _ in range(calls):
            t0 = time.perf_counter()
            result = await session.call_tool("where_else", {"name": NAME})
            times.append(time.perf_counter() - t0)
            assert not result.is_error
    return started, times


# -- stdio and HTTP side by side: start, first call, ten clients at once --------------------------

CLIENTS = 10


def _http_server(index: Path, env: dict) -> tuple[subprocess.Popen, str, float]:
    """``crossbook mcp --http 127.0.0.1:0`` started: the process, its URL, and the seconds
    until it listened (it prints the URL once its socket is bound)."""
    start = time.perf_counter()
    process = subprocess.Popen([CROSSBOOK, "--index", str(index), "mcp", "--http", "127.0.0.1:0"],
                               env=env, stderr=subprocess.PIPE, text=True)
    line = process.stderr.readline()
    if "http://" not in line:
        process.kill()
        raise SystemExit(f"the HTTP server did not start: {line}{process.stderr.read()}")
    return process, line.split()[-1], time.perf_counter() - start


def _connect(index: Path, url: str | None):
    """A client session's transport: a stdio server of its own, or the shared HTTP server at ``url``."""
    from mcp import StdioServerParameters, stdio_client
    from mcp.client.streamable_http import streamable_http_client

    if url is None:
        return stdio_client(StdioServerParameters(command=CROSSBOOK, args=["--index", str(index), "mcp"],
                                                  env={"CROSSBOOK_EMBEDDER": "hash"}))
    return streamable_http_client(url)


async def _timed_session(index: Path, url: str | None, go=None, calls: int = 5) -> dict:
    """One client: seconds to connect (initialize + tools/list), its first where_else, later
    calls (where_else and search in turn); with ``go`` (a barrier), its calls wait for every
    client to be connected."""
    from mcp import ClientSession

    start = time.perf_counter()
    async with _connect(index, url) as streams, ClientSession(streams[0], streams[1]) as session:
        await session.initialize()
        await session.list_tools()
        connected = time.perf_counter() - start
        if go is not None:
            await go.wait()
        times = []
        for i in range(calls):
            t0 = time.perf_counter()
            name, arguments = ("search", {"query": "frost breath", "k": 10}) if i % 2 else ("where_else", {"name": NAME})
            result = await session.call_tool(name, arguments)
            times.append(time.perf_counter() - t0)
            assert not result.is_error, result.content[0].text
    return {"connect": connected, "first": times[0], "later": times[1:]}


class _Barrier:
    """Every one of ``n`` clients waits here until all have arrived."""

    def __init__(self, n: int):
        self.n, self.arrived, self.all_here = n, 0, anyio.Event()

    async def wait(self) -> None:
        self.arrived += 1
        if self.arrived == self.n:
            self.all_here.set()
        await self.all_here.wait()


async def _clients_at_once(index: Path, url: str | None, n: int = CLIENTS) -> list[dict]:
    """``n`` clients connected, then all calling at the same moment (bounded: 300 s)."""
    barrier, out = _Barrier(n), []

    async def one() -> None:
        out.append(await _timed_session(index, url, barrier))

    with anyio.fail_after(300):
        async with anyio.create_task_group() as group:
            for _ in range(n):
                group.start_soon(one)
    return out


def transport_latencies(index: Path, env: dict, runs: int) -> dict:
    """Medians over ``runs``: start, first and later calls for one client over stdio and over
    HTTP, and each call's latency with ten clients calling at once (stdio: ten servers;
    HTTP: one server shared)."""
    figures: dict[str, list[float]] = {}
    add = lambda key, values: figures.setdefault(key, []).extend(values)  # noqa: E731
    for _ in range(runs):
        alone = anyio.run(_timed_session, index, None)
        add("stdio start", [alone["connect"]]), add("stdio first", [alone["first"]]), add("stdio later", alone["later"])
        process, url, listening = _http_server(index, env)
        try:
            alone = anyio.run(_timed_session, index, url)
            add("http start", [listening + alone["connect"]]), add("http first", [alone["first"]])
            add("http later", alone["later"])
            together = anyio.run(_clients_at_once, index, url)
            add("http x10", [t for c in together for t in [c["first"], *c["later"]]])
        finally:
            process.terminate()
            process.wait(30)
        together = anyio.run(_clients_at_once, index, None)
        add("stdio x10", [t for c in together for t in [c["first"], *c["later"]]])
    return figures


def print_transport_latencies(figures: dict) -> None:
    ms = lambda xs: f"{statistics.median(xs) * 1000:.1f} ms"  # noqa: E731
    top = lambda xs: f"{max(xs) * 1000:.1f} ms"  # noqa: E731
    for transport in ("stdio", "http"):
        print(f"{transport:<5} start {ms(figures[transport + ' start'])}, first call {ms(figures[transport + ' first'])},"
              f" later calls {ms(figures[transport + ' later'])}; {CLIENTS} clients at once: median"
              f" {ms(figures[transport + ' x10'])}, slowest {top(figures[transport + ' x10'])}"
              f" ({len(figures[transport + ' x10'])} calls, every one answered)")


def _large_book(path: Path, megabytes: float) -> Path:
    """A generated Markdown rulebook of about ``megabytes`` MB: chapters of sections that
    define bold terms and mention earlier ones."""
    parts, n = ["# The Large Almanac\n"], 0
    while sum(len(p) for p in parts) < megabytes * 1_000_000:
        if n % 40 == 0:
            parts.append(f"\n## Chapter {n // 40 + 1}\n")
        parts.append(f"\n### Rime Technique {n}\n\n**Rime Technique {n}** lets a warden bind frost to a blade. "
                     f"It costs one Frost Point and works like Rime Technique {max(n - 1, 0)}, but the cold "
                     "lingers a round longer, and a Chilled foe must test its footing. " * 3 + "\n")
        n += 1
    path.write_text("".join(parts), encoding="utf-8")
    return path


async def _where_else_while_ingesting(index: Path, book: Path) -> tuple[list[float], list[float], float]:
    """(where_else latencies idle, the same while the server ingests ``book``, the ingest's seconds)."""
    from mcp import ClientSession, StdioServerParameters, stdio_client

    params = StdioServerParameters(command=CROSSBOOK, args=["--index", str(index), "mcp", "--allow-ingest",
                                                            str(book.parent)], env={"CROSSBOOK_EMBEDDER": "hash"})
    async with stdio_client(params) as (read, write), ClientSession(read, write) as session:
        await session.initialize()

        async def where_else() -> float:
            t0 = time.perf_counter()
            result = await session.call_tool("where_else", {"name": NAME})
            assert not result.is_error, result.content
            return time.perf_counter() - t0

        idle = [await where_else() for _ in range(20)]
        busy: list[float] = []
        ingest: dict = {}

        async def run_ingest() -> None:
            t0 = time.perf_counter()
            result = await session.call_tool("ingest", {"paths": [str(book)]})
            assert not result.is_error, result.content
            ingest["seconds"] = time.perf_counter() - t0

        async with anyio.create_task_group() as tasks:
            tasks.start_soon(run_ingest)
            await anyio.wait_all_tasks_blocked()
            while "seconds" not in ingest:
                busy.append(await where_else())
                await anyio.sleep(0.05)
    return idle, busy, ingest["seconds"]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=7)
    parser.add_argument("--book-mb", type=float, default=2.0, help="size of the generated book ingested meanwhile")
    parser.add_argument("--book", type=Path, help="ingest this book instead of a generated one")
    parser.add_argument("--skip-ingest", action="store_true", help="only the start and idle figures")
    args = parser.parse_args()
    env = {**os.environ, "CROSSBOOK_EMBEDDER": "hash"}
    with tempfile.TemporaryDirectory() as tmp:
        index = Path(tmp) / "index"
        subprocess.run([CROSSBOOK, "-q", "--index", str(index), "rebuild", str(ROOT / "sample_corpus" / "crossbook.toml")],
                       env=env, check=True, capture_output=True)
        if not args.skip_ingest:
            books = Path(tmp) / "books"
            books.mkdir()
            book = args.book.resolve() if args.book else _large_book(books / "almanac.md", args.book_mb)
            idle, busy, seconds = anyio.run(_where_else_while_ingesting, index, book)
            size = book.stat().st_size / 1_000_000
            print(f"ingest of a {size:.1f} MB book through the same server: {seconds:.1f} s")
            for label, xs in (("idle", idle), (f"during the ingest ({len(busy)} calls)", busy)):
                xs = sorted(xs)
                print(f"MCP where_else, {label}: median {statistics.median(xs) * 1000:.1f} ms,"
                      f" p95 {xs[int(len(xs) * 0.95) - 1] * 1000:.1f} ms, max {xs[-1] * 1000:.1f} ms")
        cli, starts, first_calls, calls = [], [], [], []
        for _ in range(args.runs):
            cli.append(_cli_where_else(index, env))
            started, times = anyio.run(_mcp_session, index, 10)
            starts.append(started)
            first_calls.append(times[0])
            calls.extend(times[1:])
        shared = transport_latencies(index, env, args.runs)
    ms = lambda xs: f"{statistics.median(xs) * 1000:.1f} ms"  # noqa: E731
    print(f"CLI where-else (fresh process):        {ms(cli)}")
    print(f"MCP server start (spawn+init+list):    {ms(starts)}")
    print(f"MCP where_else, first call:            {ms(first_calls)}")
    print(f"MCP where_else, later calls:           {ms(calls)}")
    print(f"MCP start + first where_else vs CLI:   {statistics.median(starts) / statistics.median(cli):.2f}x"
          f" + {statistics.median(first_calls) * 1000:.1f} ms")
    print_transport_latencies(shared)


if __name__ == "__main__":
    main()
