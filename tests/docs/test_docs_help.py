"""Every command and long option that ``--help`` shows is documented in README.md or docs/*.md.

The convention (what counts as documented):
- a command (``where-else``, ``batch status``) is documented when a usage line of a shell
  block runs it (``crossbook [GLOBAL] where-else ...``);
- an option of a command is documented when a usage line of that command names it, or a
  prose list names it "(on `command`, ...)", or a line of the docs names both, in backticks:
  `--option` and `command` (an option table row, a sentence);
- an option is documented on every command when a doc says "Every command takes `--option`";
- any name of an option counts (``-k`` for ``--top``, ``--no-link`` for ``--link/--no-link``);
- a global option is documented when any doc names it.
The other half (every option the docs name exists) is tests/docs/test_docs_options.py.
"""

import re
import shlex

from tests.docs_usage import CLICK, DOCS, PROSE, USAGE, usage_command


def _walk(command, path=()):
    """(path, click command) for every command under the app, groups included."""
    for name, sub in sorted(getattr(command, "commands", {}).items()):
        if sub.hidden:
            continue
        yield (*path, name), sub
        yield from _walk(sub, (*path, name))


def _options(command) -> dict[str, set[str]]:
    """{long name: every name of that option} (``--top``: {``--top``, ``-k``})."""
    options = {}
    for param in command.params:
        if param.param_type_name == "option" and not param.hidden:
            names = {*param.opts, *param.secondary_opts}
            options[max(names, key=len)] = names
    options.pop("--help", None)
    return options


def _undocumented(command, named: set[str]) -> list[str]:
    return sorted(name for name, names in _options(command).items() if not names & named)


def documented():
    """{command path: set of options documented for it}; () holds the global options."""
    found: dict[tuple, set[str]] = {(): set()}
    for _, line in USAGE:
        words = _words(line) or []
        command, _ = usage_command(words)
        if command is None:
            continue
        found.setdefault(_path_of(command), set()).update(w.split("=")[0] for w in words if w.startswith("-"))
    for doc in DOCS:
        text = doc.read_text(encoding="utf-8")
        for match in PROSE.finditer(text):
            for name in re.findall(r"`([a-z-]+)`", match.group(2)):
                found.setdefault((name,), set()).update(re.findall(r"`(--[a-z-]+)`", match.group(1)))
        for every in re.findall(r"[Ee]very command takes `(--[a-z-]+)`", text):
            found.setdefault("every", set()).add(every)
        for line in text.splitlines():
            options = re.findall(r"(--?[a-zA-Z][a-z-]*)", line)
            found[()].update(options)
            for name in re.findall(r"`(?:crossbook )?([a-z][a-z -]*?)(?: [A-Z\[<.].*?)?`", line):
                found.setdefault(tuple(name.split()), set()).update(options)
    return found


def _path_of(command) -> tuple:
    for path, sub in _walk(CLICK):
        if sub is command:
            return path
    return ()


COMMANDS = list(_walk(CLICK))


def _words(line: str) -> list[str] | None:
    try:
        return shlex.split(line.replace("[", "").replace("]", "").replace("|", " "))[1:]
    except ValueError:
        return None  # not a shell line


def test_every_command_is_run_by_a_usage_line():
    assert len(COMMANDS) >= 20 and any(path == ("review", "adjust") for path, _ in COMMANDS)
    run = set()
    for _, line in USAGE:
        command, _ = usage_command(_words(line) or [])
        if command is not None:
            run.add(_path_of(command))
    missing = [" ".join(path) for path, command in COMMANDS if path not in run and not hasattr(command, "commands")]
    assert not missing, f"no usage line (```sh block: crossbook ...) runs: {missing}"


def test_every_option_of_every_command_is_documented():
    found = documented()
    missing = []
    for path, command in COMMANDS:
        named = found.get(path, set()) | found.get("every", set())
        missing += [f"{' '.join(path)} {opt}" for opt in _undocumented(command, named)]
    assert not missing, f"documented nowhere (README.md, docs/*.md): {missing}"


def test_every_global_option_is_documented():
    missing = _undocumented(CLICK, documented()[()])
    assert not missing, f"global options documented nowhere: {missing}"
