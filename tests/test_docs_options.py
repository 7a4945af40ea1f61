"""Doc drift fails CI: every option the README and docs/ name for a command exists on it.

Two places name options: the usage lines (``crossbook [GLOBAL] COMMAND ... --option``) of
the shell blocks, and prose lists such as "`--book` and `--exclude-book` (on `where-else`,
`search`, ...)". (Issue 19: --exclude-book was documented on six commands, only one had it.)
"""

import re
import shlex
from pathlib import Path

import pytest
import typer

from cli.main import app

ROOT = Path(__file__).resolve().parent.parent
DOCS = [ROOT / "README.md", *sorted((ROOT / "docs").glob("*.md"))]
CLICK = typer.main.get_command(app)
PROSE = re.compile(r"((?:`--[a-z-]+`(?:,| and| or|\s)*)+)\(on ((?:`[a-z-]+`(?:,| and| or|\s)*)+)\)")


def _options(command) -> set[str]:
    return {opt for param in command.params for opt in (*param.opts, *param.secondary_opts)}


GLOBAL = _options(CLICK) | {"--help", "-h"}


def _command(words: list[str]):
    """The (sub)command a usage line runs and the words after it; None when it names none."""
    command, rest = CLICK, words
    while rest and hasattr(command, "commands"):
        word = rest[0]
        if word in command.commands:
            command, rest = command.commands[word], rest[1:]
        elif word.startswith("-"):
            param = next((p for p in command.params if word.split("=")[0] in p.opts), None)
            takes_value = param is not None and not getattr(param, "is_flag", False) and "=" not in word
            rest = rest[2:] if takes_value else rest[1:]
        else:
            rest = rest[1:]
    return (command, rest) if command is not CLICK else (None, rest)


def _usage_lines():
    for doc in DOCS:
        in_shell = False
        for number, line in enumerate(doc.read_text(encoding="utf-8").splitlines(), 1):
            if line.startswith("```"):
                in_shell = line.strip() in ("```sh", "```bash", "```console", "```shell")
                continue
            code = line.split(" #")[0].strip().lstrip("$ ")
            if in_shell and code.startswith("crossbook "):
                yield f"{doc.name}:{number}", code


USAGE = list(_usage_lines())


def test_the_docs_have_usage_lines_and_option_lists():
    assert len(USAGE) > 20
    assert any(PROSE.search(doc.read_text(encoding="utf-8")) for doc in DOCS)


@pytest.mark.parametrize("where,line", USAGE, ids=[w for w, _ in USAGE])
def test_every_option_of_a_usage_line_exists(where, line):
    try:
        words = shlex.split(line.replace("[", "").replace("]", "").replace("|", " "))[1:]
    except ValueError:
        pytest.skip("not a shell line")
    command, rest = _command(words)
    if command is None:
        return
    known = _options(command) | GLOBAL
    for word in rest:
        option = word.split("=")[0]
        if re.fullmatch(r"--?[a-zA-Z][a-z0-9-]*", option):
            assert option in known, f"{where}: {line!r} names {option}, which `{command.name}` does not have"


def test_every_option_a_prose_list_names_exists_on_each_command():
    checked = 0
    for doc in DOCS:
        for match in PROSE.finditer(doc.read_text(encoding="utf-8")):
            options = re.findall(r"`(--[a-z-]+)`", match.group(1))
            for name in re.findall(r"`([a-z-]+)`", match.group(2)):
                assert name in CLICK.commands, f"{doc.name}: no command `{name}`"
                missing = [o for o in options if o not in _options(CLICK.commands[name])]
                assert not missing, f"{doc.name}: `{name}` has no {', '.join(missing)}"
                checked += 1
    assert checked >= 6
