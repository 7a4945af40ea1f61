"""Global options, settings files, exit codes and JSON errors: the command line's contract."""

import json
import re

import pytest

from tests.helpers import BOOK_A, write


@pytest.fixture
def other_index(tmp_path, cli_json):
    """An index somewhere else than CROSSBOOK_INDEX, with one book."""
    where = tmp_path / "elsewhere"
    cli_json("--index", where, "ingest", write(tmp_path / "a.md", BOOK_A), "--relations", "off")
    return where


# -- item 5: global options after the command ---------------------------------------------------

def test_global_options_work_after_the_command(other_index, cli, cli_json):
    assert cli("books").exit_code == 1  # nothing at CROSSBOOK_INDEX: the option is what counts
    books = cli_json("books", "--index", other_index)
    assert [b["title"] for b in books] == ["Core Rules"]
    assert [b["title"] for b in cli_json("books", f"--index={other_index}")] == ["Core Rules"]
    result = cli_json("where-else", "Chilled", "--index", other_index, "--debug", "--embedder", "hash")
    assert result["entities"][0]["name"] == "Chilled"


def test_global_options_after_a_subcommand_of_a_group(other_index, cli):
    result = cli("review", "accept", "999", "--index", other_index, "--json")
    assert result.exit_code == 1 and "no relationship with id 999" in result.stderr


def test_an_option_value_and_text_after_double_dash_stay_put():
    from typer.main import get_command

    from crossbook.cli.group import hoist_global_options
    from crossbook.cli.main import app

    group = get_command(app)
    assert hoist_global_options(group, ["where-else", "--", "--debug"]) == ["where-else", "--", "--debug"]
    assert hoist_global_options(group, ["books", "--index"]) == ["books", "--index"]
    assert hoist_global_options(group, ["--debug", "books", "--index", "X", "--json"]) == \
        ["--index", "X", "--debug", "books", "--json"]
    assert hoist_global_options(group, ["--json", "review", "accept", "3"]) == ["review", "accept", "3", "--json"]


def test_json_before_the_command_works_too(other_index, cli):
    result = cli("--json", "books", "--index", other_index)
    assert result.exit_code == 0 and json.loads(result.stdout)[0]["title"] == "Core Rules"


# -- item 6: --config ---------------------------------------------------------------------------

def test_an_explicit_config_that_is_missing_is_an_error(other_index, cli, tmp_path):
    result = cli("--config", tmp_path / "nope.toml", "books", "--index", other_index)
    assert result.exit_code == 1 and result.stdout == ""
    assert "settings file" in result.stderr and "nope.toml' (--config) does not exist" in result.stderr


def test_an_explicit_config_is_read(other_index, cli, tmp_path, monkeypatch):
    monkeypatch.delenv("CROSSBOOK_INDEX")  # the environment would win over the file
    config = write(tmp_path / "settings.toml", f'index = "{other_index}"\n')
    result = cli("books", "--config", config, "--json")
    assert result.exit_code == 0 and json.loads(result.stdout)[0]["title"] == "Core Rules"


def test_the_default_config_may_be_absent(other_index, cli):
    assert cli("books", "--index", other_index).exit_code == 0


# -- item 7: exit codes -------------------------------------------------------------------------

@pytest.mark.parametrize("args, option", [
    (("ingest", "BOOK", "--pack", "gurpz"), "--pack"),
    (("relations", "--status", "bogus"), "--status"),
    (("export", "--format", "csv"), "--format"),
    (("ingest", "BOOK", "--relations", "sometimes"), "--relations"),
    (("ingest", "BOOK", "--extractor", "magic"), "--extractor"),
    (("books", "--embedder", "nope"), "--embedder"),
])
def test_an_invalid_option_value_is_a_usage_error(other_index, cli, tmp_path, args, option):
    book = write(tmp_path / "b.md", BOOK_A)
    result = cli(*[book if a == "BOOK" else a for a in args], "--index", other_index)
    assert result.exit_code == 2 and result.stdout == ""
    assert f"Error: Invalid value for '{option}'" in result.stderr


def test_no_hits_exit_0_and_a_name_not_in_the_index_exits_1(other_index, cli, cli_json):
    # a query that ran and found nothing is a result
    assert cli_json("relations", "--status", "invalid", "--index", other_index) == []
    filtered = cli_json("where-else", "Chilled", "--type", "spell", "--index", other_index)
    assert filtered["entities"] == []  # Chilled is a condition
    text = cli("where-else", "Chilled", "--type", "spell", "--index", other_index)
    assert text.exit_code == 0 and "No mention of 'Chilled' matches the filters" in text.stdout
    # naming something the index does not have is an error
    assert cli("where-else", "Nothing Like It", "--index", other_index).exit_code == 1
    assert cli("entity", "Nothing Like It", "--index", other_index).exit_code == 1
    assert cli("where-else", "Chilled", "--book", "Nope", "--index", other_index).exit_code == 1


# -- JSON errors ----------------------------------------------------------------------------------

def test_under_json_an_error_is_a_json_document_on_stdout(other_index, cli):
    result = cli("where-else", "Chiled", "--index", other_index, "--json")
    assert result.exit_code == 1
    error = json.loads(result.stdout)["error"]
    assert error["code"] == "entity_not_found" and error["message"].startswith("no entity named 'Chiled'")
    assert error["suggestions"][0] == "Chilled"
    assert result.stderr.startswith("Error: no entity named 'Chiled'")
    book = cli("where-else", "Chilled", "--book", "Nope", "--index", other_index, "--json")
    assert json.loads(book.stdout)["error"]["code"] == "book_not_found"


def test_under_json_a_usage_error_is_a_json_document_too(other_index, cli):
    result = cli("relations", "--status", "bogus", "--json", "--index", other_index)
    assert result.exit_code == 2
    error = json.loads(result.stdout)["error"]
    assert error["code"] == "usage" and "unknown status 'bogus'" in error["message"]
    missing = cli("books", "--json", "--no-such-option")
    assert missing.exit_code == 2 and json.loads(missing.stdout)["error"]["code"] == "usage"


def test_without_json_stdout_stays_empty_on_error(other_index, cli):
    result = cli("where-else", "Chiled", "--index", other_index)
    assert result.exit_code == 1 and result.stdout == ""


# -- item 8: help ---------------------------------------------------------------------------------

COMMANDS = [("ingest",), ("delete-book",), ("where-else",), ("entity",), ("books",), ("rebuild",),
            ("search",), ("retrieve",), ("doctor",), ("reembed",), ("relations",), ("export",),
            ("review",), ("review", "accept"), ("review", "reject"), ("review", "adjust"),
            ("entities",), ("stats",)]


@pytest.mark.parametrize("command", COMMANDS, ids=" ".join)
def test_every_command_help_is_plain_and_has_an_example(cli, command):
    result = cli(*command, "--help")
    assert result.exit_code == 0
    text = result.stdout
    assert "--json" in text and "Examples:" in text and f"crossbook {' '.join(command)}" in text.split("Examples:")[1]
    for leak in ("<bool>", "<list", "<str>", "<path>", "<int"):
        assert leak not in text, (leak, text)
    assert not re.search(r"\{[a-z_]+\}", text), text  # typer's {paths}


def test_help_shows_brackets_as_written_and_arguments_in_capitals(cli):
    rebuild = cli("rebuild", "--help").stdout
    assert "Manifest listing [[books]] (path, title)" in rebuild and "[MANIFEST]" in rebuild
    ingest = cli("ingest", "--help").stdout
    assert "ingest [OPTIONS] PATHS..." in ingest and "--book" in ingest and "TEXT" in ingest


# -- expected and missing: --version, completion ------------------------------------------------

def test_version(cli):
    from importlib.metadata import version

    for args in (("--version",), ("books", "--version")):
        result = cli(*args)
        assert result.exit_code == 0 and result.stdout == f"crossbook {version('crossbook')}\n"


def test_shell_completion_is_offered(cli, monkeypatch):
    import shellingham

    # Typer detects the shell from the parent process; CI runs with none, so name it
    monkeypatch.setattr(shellingham, "detect_shell", lambda *a, **k: ("bash", "/bin/bash"))
    assert "--install-completion" in cli("--help").stdout
    result = cli("--show-completion")
    assert result.exit_code == 0 and "complete" in result.stdout and "COMP_WORDS" in result.stdout


# -- a read-only index, a manifest entry whose file is missing ---------------------

def test_a_read_only_index_can_be_queried(other_index, cli, cli_json, monkeypatch):
    import sqlite3

    import crossbook.storage.db as db_module

    monkeypatch.setattr(db_module, "_writable", lambda path: False)
    assert [b["title"] for b in cli_json("books", "--index", other_index)] == ["Core Rules"]
    assert cli_json("where-else", "chilled", "--index", other_index)["entities"][0]["name"] == "Chilled"
    assert cli_json("stats", "--index", other_index)["books"] == 1
    db = db_module.open_db(other_index)
    with pytest.raises(sqlite3.OperationalError, match="readonly"):  # opened read-only: nothing is written
        db.execute("DELETE FROM books")


def test_a_write_to_a_read_only_index_says_so(cli, monkeypatch, tmp_path):
    import sqlite3

    import crossbook.query.lookup as lookup

    def refuse(*args, **kwargs):
        raise sqlite3.OperationalError("attempt to write a readonly database")

    write(tmp_path / "a.md", BOOK_A)
    cli("ingest", tmp_path / "a.md", "--relations", "off")
    monkeypatch.setattr(lookup, "list_books", refuse)
    result = cli("books", "--json")
    assert result.exit_code == 1 and "Error: the index is read-only" in result.stderr
    assert json.loads(result.stdout)["error"]["code"] == "index_read_only"


def test_rebuild_warns_about_a_missing_manifest_entry(cli, tmp_path):
    write(tmp_path / "a.md", BOOK_A)
    manifest = write(tmp_path / "crossbook.toml", '[[books]]\npath = "a.md"\n[[books]]\npath = "gone.md"\n')
    result = cli("rebuild", manifest, "--relations", "off", "--json")
    assert result.exit_code == 1
    assert json.loads(result.stdout)["added"] == ["Core Rules"]
    assert "Warning: book not rebuilt" in result.stderr and "gone.md' does not exist" in result.stderr
