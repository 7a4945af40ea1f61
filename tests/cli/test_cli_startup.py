"""Start-up: a command imports only what it uses, and typer's parameters are
converted without pydantic to the same values typer's own conversion gives."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest
import typer

from crossbook.cli.coercion import QuickCoercion
from crossbook.cli.main import app

# slow: fresh interpreters, one per measured import (`pytest -m "not slow"` leaves it out)
pytestmark = pytest.mark.slow

ROOT = Path(__file__).resolve().parents[2]
SAMPLE = ROOT / "sample_corpus"

# imported by none of the commands below: each costs start-up and none is used by them
NOT_FOR_QUERIES = ("pydantic", "importlib.metadata", "rich.progress", "rich.table", "tomllib",
                   "crossbook.vectors.embed", "chromadb", "onnxruntime", "markdown_it", "spacy", "openai")


def imported_modules(*args: str) -> list[str]:
    """Run ``crossbook args`` as the entry point does, in a fresh process; the modules of
    NOT_FOR_QUERIES it imported."""
    code = (
        "import sys, json, atexit\n"
        f"atexit.register(lambda: print(json.dumps(sorted(m for m in {NOT_FOR_QUERIES!r} if m in sys.modules))))\n"
        "from crossbook.cli.main import run\n"
        "sys.argv = ['crossbook', *sys.argv[1:]]\n"
        "run()\n"
    )
    out = subprocess.run([sys.executable, "-c", code, *args], cwd=ROOT, capture_output=True, text=True)
    assert out.returncode == 0, out.stderr
    return json.loads(out.stdout.strip().splitlines()[-1])


def test_where_else_imports_nothing_it_does_not_use(cli, index_dir):
    assert cli("--embedder", "hash", "rebuild", SAMPLE / "crossbook.toml").exit_code == 0
    assert imported_modules("--index", str(index_dir), "where-else", "Frost Lance") == []
    assert imported_modules("--index", str(index_dir), "entity", "Chilled", "--json") == []


def all_parameters():
    command = typer.main.get_command(app)
    yield from ((None, p) for p in command.get_params(command.context_class(command)))
    for name, sub in command.commands.items():
        yield from ((name, p) for p in sub.params)
        for subname, leaf in getattr(sub, "commands", {}).items():
            yield from ((f"{name} {subname}", p) for p in leaf.params)


VALUES = ["x", "", "Frost Lance", "0", "7", "-3", "1.5", ".5", "1e3", " 4", "12abc", "/tmp", "sample_corpus",
          ["a", "b"], ("c",), [], None, True, False]


def typer_conversion(param, value):
    """typer's own conversion of ``value`` for ``param`` (a pydantic TypeAdapter)."""
    from typer._coercion import build_runtime_param

    try:
        return build_runtime_param(param.type_descriptor).coerce(value, param=param, ctx=None)
    except Exception as exc:  # noqa: BLE001 - compared by type and message
        return ("error", type(exc).__name__, str(exc))


def quick_conversion(param, value):
    runtime = param.get_runtime_param()
    assert isinstance(runtime, QuickCoercion)
    try:
        return runtime.coerce(value, param=param, ctx=None)
    except Exception as exc:  # noqa: BLE001
        return ("error", type(exc).__name__, str(exc))


@pytest.mark.parametrize("value", VALUES, ids=repr)
def test_every_parameter_converts_values_as_typer_does(value):
    checked = 0
    for command, param in all_parameters():
        if param.type_descriptor.annotation is bool and isinstance(value, bool):
            continue  # typer does not convert these either
        quick, expected = quick_conversion(param, value), typer_conversion(param, value)
        assert (type(quick), quick) == (type(expected), expected), (command, param.name, value)
        checked += 1
    assert checked > 40  # every command's parameters were seen


def test_where_else_mentions_are_the_mention_shape(cli, index_dir):
    """where_else returns its rows as they come (no Mention.to_dict() per row): each must
    still be exactly a Mention's dict, for a name, an alias and folded accents."""
    from crossbook.core.models import Mention
    from crossbook.query.lookup import where_else
    from crossbook.storage.db import open_db

    assert cli("--embedder", "hash", "rebuild", SAMPLE / "crossbook.toml").exit_code == 0
    db = open_db(index_dir)
    seen = set()
    for name in ("Frost Lance", "ice lance", "CHILLED", "Shield"):
        result = where_else(db, name)
        seen.add(result["matched_by"])
        mentions = [m for e in result["entities"] for g in e["books"] for m in g["mentions"]]
        assert mentions
        for mention in mentions:
            assert list(mention) == list(Mention.__dataclass_fields__)
            assert mention == Mention(**mention).to_dict()
    assert seen == {"name", "alias"}
