"""The docs' usage lines and the click command tree, shared by the doc-drift tests
(tests/docs/test_docs_options.py: every option the docs name exists; tests/docs/test_docs_help.py:
every command and option of --help is documented)."""

import re
from pathlib import Path

import typer

from crossbook.cli.main import app

ROOT = Path(__file__).resolve().parent.parent
DOCS = [ROOT / "README.md", *sorted((ROOT / "docs").glob("*.md"))]
CLICK = typer.main.get_command(app)
PROSE = re.compile(r"((?:`--[a-z-]+`(?:,| and| or|\s)*)+)\(on ((?:`[a-z-]+`(?:,| and| or|\s)*)+)\)")


def command_options(command) -> set[str]:
    return {opt for param in command.params for opt in (*param.opts, *param.secondary_opts)}


GLOBAL = command_options(CLICK) | {"--help", "-h"}


def usage_command(words: list[str]):
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


def usage_lines():
    for doc in DOCS:
        in_shell = False
        for number, line in enumerate(doc.read_text(encoding="utf-8").splitlines(), 1):
            if line.startswith("```"):
                in_shell = line.strip() in ("```sh", "```bash", "```console", "```shell")
                continue
            code = line.split(" #")[0].strip().lstrip("$ ")
            if in_shell and code.startswith("crossbook "):
                yield f"{doc.name}:{number}", code


USAGE = list(usage_lines())
