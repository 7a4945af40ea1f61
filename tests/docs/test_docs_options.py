"""Doc drift fails CI: every option the README and docs/ name for a command exists on it.

Two places name options: the usage lines (``crossbook [GLOBAL] COMMAND ... --option``) of
the shell blocks, and prose lists such as "`--book` and `--exclude-book` (on `where-else`,
`search`, ...)". (--exclude-book was documented on six commands, only one had it.)
"""

import re
import shlex

import pytest

from tests.docs_usage import CLICK, DOCS, GLOBAL, PROSE, USAGE, command_options, usage_command


def test_the_docs_have_usage_lines_and_option_lists():
    assert len(USAGE) > 20
    assert any(PROSE.search(doc.read_text(encoding="utf-8")) for doc in DOCS)


@pytest.mark.parametrize("where,line", USAGE, ids=[w for w, _ in USAGE])
def test_every_option_of_a_usage_line_exists(where, line):
    try:
        words = shlex.split(line.replace("[", "").replace("]", "").replace("|", " "))[1:]
    except ValueError:
        pytest.skip("not a shell line")
    command, rest = usage_command(words)
    if command is None:
        return
    known = command_options(command) | GLOBAL
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
                missing = [o for o in options if o not in command_options(CLICK.commands[name])]
                assert not missing, f"{doc.name}: `{name}` has no {', '.join(missing)}"
                checked += 1
    assert checked >= 6
