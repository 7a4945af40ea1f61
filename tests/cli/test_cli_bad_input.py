"""Bad input: one line on stderr, non-zero exit, no traceback, the index unchanged."""

import pytest

from tests.helpers import BOOK_A, snapshot, write


@pytest.fixture
def seeded(tmp_path, cli_json, index_dir):
    cli_json("ingest", write(tmp_path / "a.md", BOOK_A))
    return snapshot(index_dir)


def _fails(result, fragment):
    assert result.exit_code != 0
    assert result.stdout == ""
    lines = result.stderr.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith("Error: ") and fragment in lines[0], result.stderr
    assert "Traceback" not in result.stderr


def _usage(result, fragment):
    """A bad option value is a usage error: exit 2, Click's one "Error:" line, nothing on stdout."""
    assert result.exit_code == 2, result.stderr
    assert result.stdout == ""
    errors = [line for line in result.stderr.splitlines() if line.startswith("Error: ")]
    assert len(errors) == 1 and "Invalid value for" in errors[0] and fragment in errors[0], result.stderr
    assert "Traceback" not in result.stderr


def test_missing_path(seeded, cli, index_dir):
    _fails(cli("ingest", "nope.md"), "does not exist")
    assert snapshot(index_dir) == seeded


def test_directory_with_no_books(seeded, cli, tmp_path, index_dir):
    (tmp_path / "empty_dir").mkdir()
    write(tmp_path / "empty_dir" / "notes.rst", "not a format crossbook reads")
    _fails(cli("ingest", tmp_path / "empty_dir"), "no books (*.md")
    assert snapshot(index_dir) == seeded


def test_empty_file(seeded, cli, tmp_path, index_dir):
    _fails(cli("ingest", write(tmp_path / "e.md", "  \n")), "is empty")
    assert snapshot(index_dir) == seeded


def test_binary_file(seeded, cli, tmp_path, index_dir):
    (tmp_path / "b.md").write_bytes(b"\x89PNG\r\n\x1a\n\x00\x00\x00IHDR")
    _fails(cli("ingest", tmp_path / "b.md"), "binary")
    assert snapshot(index_dir) == seeded


def test_not_utf8(seeded, cli, tmp_path, index_dir):
    (tmp_path / "l1.md").write_bytes("# Título\n\nCaída libre.\n".encode("latin-1"))
    _fails(cli("ingest", tmp_path / "l1.md"), "not UTF-8")
    assert snapshot(index_dir) == seeded


def test_one_bad_file_among_good_ones_changes_nothing(seeded, cli, tmp_path, index_dir):
    good = write(tmp_path / "g.md", "# Good\n\n## Thing\nText.\n")
    _fails(cli("ingest", good, tmp_path / "missing.md"), "does not exist")
    assert snapshot(index_dir) == seeded


def test_book_with_no_headings_is_one_section_with_a_warning(cli, tmp_path):
    result = cli("ingest", write(tmp_path / "plain.md", "Just prose, no headings.\n"), "--json")
    assert result.exit_code == 0
    assert "Warning:" in result.stderr and "no headings" in result.stderr
    import json
    [r] = json.loads(result.stdout)
    assert (r["title"], r["sections"], r["parents"]) == ("plain", 1, 1)


def test_delete_unknown_book(seeded, cli, index_dir):
    _fails(cli("delete-book", "Nope"), "book 'Nope' is not in the index (")
    assert snapshot(index_dir) == seeded


def test_where_else_empty_name(seeded, cli):
    _fails(cli("where-else", ""), "entity name is empty")


def test_openai_without_a_key(seeded, cli, tmp_path, index_dir):
    _fails(cli("ingest", tmp_path / "a.md", "--extractor", "openai"), "OPENAI_API_KEY")
    assert snapshot(index_dir) == seeded


def test_index_dir_that_is_not_an_index(cli, tmp_path):
    other = tmp_path / "photos"
    other.mkdir()
    write(other / "cat.jpg", "meow")
    _fails(cli("--index", other, "books"), "is not a crossbook index")
    _fails(cli("--index", other, "ingest", write(tmp_path / "a.md", BOOK_A)), "is not a crossbook index")
    assert sorted(p.name for p in other.iterdir()) == ["cat.jpg"]


def test_sqlite_file_of_another_program(cli, tmp_path):
    import sqlite3
    other = tmp_path / "otherdb"
    other.mkdir()
    conn = sqlite3.connect(other / "crossbook.db")
    conn.execute("CREATE TABLE photos (id INTEGER)")
    conn.commit()
    conn.close()
    _fails(cli("--index", other, "books"), "not a crossbook index")


def test_garbage_in_the_db_file(cli, tmp_path):
    other = tmp_path / "junk"
    other.mkdir()
    write(other / "crossbook.db", "this is not sqlite at all" * 100)
    _fails(cli("--index", other, "books"), "not a crossbook index")


def test_read_command_before_any_ingest(cli):
    _fails(cli("books"), "no index at")


def test_unknown_extractor_and_pack(seeded, cli, tmp_path, index_dir):
    _usage(cli("ingest", tmp_path / "a.md", "--extractor", "magic"), "unknown extractor 'magic'")
    _usage(cli("ingest", tmp_path / "a.md", "--pack", "nope"), "unknown pack 'nope'")
    assert snapshot(index_dir) == seeded


def test_debug_shows_the_traceback(seeded, cli):
    from crossbook.core.errors import BookNotFound
    with pytest.raises(BookNotFound):
        cli("--debug", "delete-book", "Nope")


@pytest.mark.parametrize("flags, fragment", [
    (("--relations", "bogus"), "unknown relations mode 'bogus'"),
    (("--ontology", "nope"), "unknown ontology pack 'nope'"),
    (("--embedder", "nope"), "unknown embedder 'nope'"),
])
def test_bad_relation_and_embedder_settings(seeded, cli, tmp_path, index_dir, flags, fragment):
    book = write(tmp_path / "b.md", BOOK_A.replace("Core Rules", "Other Rules"))
    args = (*flags, "ingest", book) if flags[0] == "--embedder" else ("ingest", book, *flags)
    _usage(cli(*args), fragment)
    assert snapshot(index_dir) == seeded


@pytest.mark.parametrize("args, fragment", [
    (("ingest", "BOOK", "--relations", "x"), "unknown relations mode"),
    (("--embedder", "x", "ingest", "BOOK"), "unknown embedder"),
    (("--chroma-url", "ftp://x", "ingest", "BOOK"), "is not an http(s)://host:port URL"),
])
def test_bad_settings_on_a_new_index_create_nothing(cli, tmp_path, args, fragment):
    book = write(tmp_path / "a.md", BOOK_A)
    result = cli("--index", tmp_path / "fresh", *[book if a == "BOOK" else a for a in args])
    _fails(result, fragment) if result.exit_code == 1 else _usage(result, fragment)
    assert not (tmp_path / "fresh").exists()


def test_unreachable_chroma_and_bad_chroma_url(seeded, cli, tmp_path, index_dir):
    book = write(tmp_path / "b.md", BOOK_A.replace("Core Rules", "Other Rules"))
    _fails(cli("--chroma-url", "ftp://x", "ingest", book), "is not an http(s)://host:port URL")
    assert snapshot(index_dir) == seeded
