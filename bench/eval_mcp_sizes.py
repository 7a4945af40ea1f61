"""The MCP server's answer sizes on the development shelves: for the most-mentioned entity of
each (sample corpus, Fate, the Ironsworn vault), the default ``where_else`` answer and a
``search`` with ``k`` 10 for its name, in bytes on the wire (the tool result's JSON), against
the 8 KB an assistant's context can spare; and whether walking ``where_else``'s cursor gives
the library's whole answer once, in order.

    python -m bench.eval_mcp_sizes [--keep DIR]

Shelves are built with the offline defaults and the hash embedder (sizes, not relevance);
``--keep DIR`` builds them there once and reuses them.
"""

from __future__ import annotations

import argparse
import tempfile
from pathlib import Path

import anyio

from bench.common.shelves import IRONSWORN

ROOT = Path(__file__).resolve().parent.parent
BUDGET = 8 * 1024


def _shelves() -> list[tuple[str, list[str]]]:
    """(name, crossbook arguments that build it) for each shelf found."""
    fate = ROOT / "corpora" / "fate"
    out = [("sample_corpus", ["rebuild", str(ROOT / "sample_corpus" / "crossbook.toml")])]
    if fate.exists():
        out.append(("fate", ["ingest", *sorted(str(p) for p in fate.glob("*.md") if p.name != "README.md")]))
    if IRONSWORN.exists():
        out.append(("ironsworn", ["ingest", "--as-book", str(IRONSWORN)]))
    return out


def _build(index: Path, arguments: list[str]) -> None:
    from typer.testing import CliRunner

    from crossbook.cli.main import app

    if (index / "crossbook.db").exists():
        return
    result = CliRunner().invoke(app, ["--index", str(index), "--embedder", "hash", "-q", *arguments])
    if result.exit_code != 0:
        raise SystemExit(f"building {index} failed: {result.stderr}")


def _most_mentioned(index: Path) -> str:
    import sqlite3

    with sqlite3.connect(index / "crossbook.db") as conn:
        return conn.execute("SELECT e.name FROM entity_mentions m JOIN entities e ON e.id = m.entity_id"
                            " GROUP BY e.id ORDER BY count(*) DESC, e.name LIMIT 1").fetchone()[0]


async def _measure(index: Path, name: str) -> dict:
    from mcp import Client

    from crossbook.api import Shelf
    from crossbook.cli.mcp_server import build_server

    with Shelf(index, read_only=True, embedder="hash") as shelf:
        whole = [(m["chunk_id"], m["mention_type"]) for m in shelf.where_else(name).mentions]
        async with Client(build_server(shelf)) as client:
            first = await client.call_tool("where_else", {"name": name})
            search = await client.call_tool("search", {"query": name, "k": 10})
            walked, cursor, pages = [], None, 0
            while True:
                page = await client.call_tool("where_else", {"name": name, "limit": 50,
                                                             **({"cursor": cursor} if cursor else {})})
                data = page.structured_content
                walked += [(m["chunk_id"], m["mention_type"]) for e in data["entities"] for g in e["books"]
                           for m in g["mentions"]]
                pages, cursor = pages + 1, data["next_cursor"]
                if cursor is None:
                    break
    size = lambda result: len(result.model_dump_json(by_alias=True, exclude_none=True).encode())  # noqa: E731
    return {"entity": name, "mentions": len(whole), "where_else": size(first), "search": size(search),
            "walk": walked == whole, "pages": pages}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--keep", type=Path, help="Build the shelves here once and reuse them.")
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        root = args.keep or Path(tmp)
        print(f"{'shelf':<14} {'entity':<24} {'mentions':>8} {'where_else':>11} {'search -k 10':>13}  walk")
        for shelf, arguments in _shelves():
            index = root / shelf
            _build(index, arguments)
            row = anyio.run(_measure, index, _most_mentioned(index))
            mark = lambda n: f"{n / 1024:.1f} KB" + ("" if n < BUDGET else " (over 8 KB)")  # noqa: E731
            pages = f"{row['pages']} page{'s' * (row['pages'] != 1)} of 50"
            walk = f"whole, in order ({pages})" if row["walk"] else "MISMATCH"
            print(f"{shelf:<14} {row['entity'][:24]:<24} {row['mentions']:>8} {mark(row['where_else']):>11}"
                  f" {mark(row['search']):>13}  {walk}")


if __name__ == "__main__":
    main()
