"""What the docs claim about the tool, checked against the tool where a claim can be read:
the formats a directory gives, where the local model is cached, the environment variables
they name. (The README said a directory gave `*.md` files while it took every format, and two
pages named two places for the model cache.)"""

import re
from dataclasses import fields
from pathlib import Path

from crossbook.cli.paths import model_cache_dir
from crossbook.core.config import Settings
from crossbook.readers import BOOK_SUFFIXES

ROOT = Path(__file__).resolve().parents[2]
DOCS = [ROOT / "README.md", *sorted((ROOT / "docs").glob("*.md"))]


def _text(path: Path) -> str:
    return path.read_text(encoding="utf-8")


def test_the_readme_names_every_format_a_directory_gives_and_no_other():
    paragraph = next(p for p in re.split(r"\n\s*\n", _text(ROOT / "README.md")) if p.startswith("A directory gives"))
    named = set(re.findall(r"`\*(\.[a-z]+)`", paragraph.split(";")[0]))
    assert named == set(BOOK_SUFFIXES)


def test_every_place_the_docs_name_for_the_model_cache_is_the_one_the_cli_uses():
    home, xdg = "~", "/XDG_CACHE_HOME"
    used = {
        str(model_cache_dir({"HOME": home, "XDG_CACHE_HOME": xdg})).replace(xdg, "$XDG_CACHE_HOME"),
        str(model_cache_dir({"HOME": home})),
    }
    named = {(doc.name, m) for doc in DOCS for m in re.findall(r"`([^`\s]*/models)`", _text(doc))}
    assert named, "no doc names the model cache"
    assert {m for _, m in named} <= used, sorted(named)


def _option_variables() -> set[str]:
    """The variables a command's option reads (``crossbook mcp --token``: CROSSBOOK_MCP_TOKEN)."""
    import typer.main

    from crossbook.cli.main import app

    found, commands = set(), [typer.main.get_command(app)]
    while commands:
        command = commands.pop()
        commands += list(getattr(command, "commands", {}).values())
        for param in command.params:
            envvar = getattr(param, "envvar", None)
            found |= {envvar} if isinstance(envvar, str) else set(envvar or ())
    return found


def test_every_crossbook_variable_the_docs_name_is_a_setting():
    settings = {f"CROSSBOOK_{f.name.upper()}" for f in fields(Settings)} | {"CROSSBOOK_INDEX"} | _option_variables()
    named = {(doc.name, v) for doc in DOCS for v in re.findall(r"CROSSBOOK_[A-Z_]+[A-Z]", _text(doc))}
    assert named
    assert {v for _, v in named} <= settings, sorted(n for n in named if n[1] not in settings)
