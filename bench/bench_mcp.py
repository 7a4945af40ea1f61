"""where_else through ``crossbook mcp`` beside the CLI's ``crossbook where-else``.

Builds the sample corpus index (hash embedder), then measures, interleaved and as medians:
the CLI's where-else as a user runs it (a fresh process each time), the MCP server's
start (spawn + initialize + tools/list, through the mcp SDK's stdio client), and a
where_else tool call in a running session. Prints the figures; asserts nothing.

    .venv/bin/python bench/bench_mcp.py [--runs 7]
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


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=7)
    args = parser.parse_args()
    env = {**os.environ, "CROSSBOOK_EMBEDDER": "hash"}
    with tempfile.TemporaryDirectory() as tmp:
        index = Path(tmp) / "index"
        subprocess.run([CROSSBOOK, "-q", "--index", str(index), "rebuild", str(ROOT / "sample_corpus" / "crossbook.toml")],
                       env=env, check=True, capture_output=True)
        cli, starts, first_calls, calls = [], [], [], []
        for _ in range(args.runs):
            cli.append(_cli_where_else(index, env))
            started, times = anyio.run(_mcp_session, index, 10)
            starts.append(started)
            first_calls.append(times[0])
            calls.extend(times[1:])
    ms = lambda xs: f"{statistics.median(xs) * 1000:.1f} ms"  # noqa: E731
    print(f"CLI where-else (fresh process):        {ms(cli)}")
    print(f"MCP server start (spawn+init+list):    {ms(starts)}")
    print(f"MCP where_else, first call:            {ms(first_calls)}")
    print(f"MCP where_else, later calls:           {ms(calls)}")
    print(f"MCP start + first where_else vs CLI:   {statistics.median(starts) / statistics.median(cli):.2f}x"
          f" + {statistics.median(first_calls) * 1000:.1f} ms")


if __name__ == "__main__":
    main()
