"""``crossbook show``: the section a chunk id (where-else, search, retrieve) points to, a
book's sections on a page, or a section by its heading path; and a book left without its
vectors is flagged in ``books`` and named by ``search --book`` with the fix."""

from __future__ import annotations

import json

from tests.conftest import SAMPLE
from tests.helpers import make_pdf, write


def _mention(result: dict, book_prefix: str) -> dict:
    return next(m for e in result["entities"] for g in e["books"] if g["book"].startswith(book_prefix)
                for m in g["mentions"])


def test_the_chunk_id_of_where_else_shows_its_section(cli, cli_json):
    assert cli("-q", "rebuild", SAMPLE / "crossbook.toml").exit_code == 0
    mention = _mention(cli_json("where-else", "Frost Lance"), "Bestiary")
    shown = cli_json("show", mention["chunk_id"])["sections"]
    assert len(shown) == 1
    section = shown[0]
    assert (section["chunk_id"], section["book"], section["heading_path"]) == (
        mention["chunk_id"], mention["book"], mention["heading_path"])
    assert mention["context"][:40] in " ".join(section["text"].split())
    text = cli("show", mention["chunk_id"])
    assert text.exit_code == 0 and mention["heading_path"] in text.stdout


def test_a_section_by_its_heading_path_any_case_and_by_its_last_headings(cli, cli_json):
    assert cli("-q", "rebuild", SAMPLE / "crossbook.toml").exit_code == 0
    search = cli_json("search", "frost wyrm breath", "-k", "1", "--book", "bestiary")["results"][0]
    full = cli_json("show", "bestiary", search["section"])["sections"]
    tail = cli_json("show", "BESTIARY", " > ".join(search["section"].split(" > ")[-2:]).lower())["sections"]
    assert [s["chunk_id"] for s in full] == [s["chunk_id"] for s in tail] == [search["chunk_id"]]


def test_a_child_chunk_shows_its_whole_section_even_when_it_is_stored_in_parts(cli, cli_json, tmp_path, monkeypatch):
    paragraphs = "\n\n".join(f"Paragraph {n} of the long rule: " + "the ember burns on. " * 30 for n in range(12))
    book = write(tmp_path / "long.md", f"# Long Book\n\n## The Long Rule\n\n{paragraphs}\n\n## After\n\nShort.\n")
    monkeypatch.setenv("CROSSBOOK_PARENT_TOKENS", "300")
    assert cli("-q", "ingest", book).exit_code == 0
    import sqlite3

    db = sqlite3.connect(tmp_path / "index" / "crossbook.db")
    parts = db.execute("SELECT id FROM chunks WHERE kind = 'parent' AND heading_path LIKE '%The Long Rule'"
                       " ORDER BY ordinal").fetchall()
    child = db.execute("SELECT id FROM chunks WHERE kind = 'child' AND parent_id = ?", [parts[-1][0]]).fetchone()[0]
    assert len(parts) > 2
    section = cli_json("show", child)["sections"][0]
    assert section["chunk_ids"] == [p[0] for p in parts]
    assert "Paragraph 0 " in section["text"] and "Paragraph 11 " in section["text"] and "Short." not in section["text"]


def test_a_page_of_a_pdf_gives_the_sections_on_it(cli, cli_json, tmp_path):
    pages = [["Conditions", "A condition changes what a creature can do.", "Chilled", "A Chilled creature is slow."],
             ["Prone", "A Prone fighter is easy to hit."], ["Equipment", "Shield", "A Shield is worn."]]
    outline = [("Conditions", 1, 0), ("Chilled", 2, 0), ("Prone", 2, 1), ("Equipment", 1, 2), ("Shield", 2, 2)]
    assert cli("-q", "ingest", make_pdf(tmp_path / "core.pdf", pages, outline)).exit_code == 0
    first = cli_json("show", "the book", "--page", "1")["sections"]
    assert [s["heading_path"].split(" > ")[-1] for s in first] == ["Conditions", "Chilled"]
    assert all(s["pages"] == [1, 1] for s in first)
    assert [s["heading_path"].split(" > ")[-1] for s in cli_json("show", "1", "--page", "3")["sections"]] == [
        "Equipment", "Shield"]
    beyond = cli("show", "the book", "--page", "9", "--json")
    assert beyond.exit_code == 1 and json.loads(beyond.stdout)["error"]["code"] == "section_not_found"
    assert "pages 1-3" in beyond.stderr


def test_what_cannot_be_shown_is_one_line_that_says_what_to_give(cli):
    assert cli("-q", "rebuild", SAMPLE / "crossbook.toml").exit_code == 0
    cases = {("show", "p0000000000"): "section_not_found", ("show", "ashen"): "bad_input",
             ("show", "ashen", "--page", "2"): "bad_input", ("show", "ashen", "No Such Heading"): "section_not_found",
             ("show", "nobook", "Spells"): "book_not_found"}
    for args, code in cases.items():
        result = cli(*args, "--json")
        assert result.exit_code == 1, args
        assert json.loads(result.stdout)["error"]["code"] == code, args
        assert len(result.stderr.strip().splitlines()) == 1, result.stderr


def _lose_vectors(index_dir, title: str) -> None:
    """What an ingest stopped between its SQLite commit and its embedding leaves: the
    book's rows, none of its vectors, no note that they were synced."""
    from crossbook.core.config import Settings
    from crossbook.storage.db import open_db
    from crossbook.vectors.chroma import open_vectors
    from crossbook.vectors.sync_notes import META_SYNCED

    db = open_db(index_dir)
    with open_vectors(Settings(index_dir=index_dir, embedder="hash"), db) as vectors:
        vectors.delete_book(title)
    with db.atomic():
        db.execute("DELETE FROM crossbook_meta WHERE key LIKE ? AND key LIKE ?", [f"{META_SYNCED}:%", f"%:{title}"])


def test_a_book_without_its_vectors_is_flagged_and_search_names_the_fix(cli, cli_json, index_dir):
    assert cli("-q", "rebuild", SAMPLE / "crossbook.toml").exit_code == 0
    assert all(b["vectors_complete"] for b in cli_json("books"))
    _lose_vectors(index_dir, "Bestiary of the Shattered Vale")
    flags = {b["title"]: b["vectors_complete"] for b in cli_json("books")}
    assert flags == {"Bestiary of the Shattered Vale": False, "Emberfall Core Rules": True, "The Ashen Grimoire": True}
    assert "1 book is missing vectors: run crossbook doctor --repair" in cli("books").stdout
    result = cli("search", "frost breath", "--book", "bestiary", "--json")
    assert result.exit_code == 1
    error = json.loads(result.stdout)["error"]
    assert error["code"] == "vectors_missing" and "doctor --repair" in error["message"]
    assert "No sections found" not in result.stdout
    other = cli("search", "frost breath", "--json")  # the other books answer; a warning names the one missing
    assert other.exit_code == 0 and "doctor --repair" in other.stderr
    assert cli("-q", "doctor", "--repair").exit_code == 0
    assert all(b["vectors_complete"] for b in cli_json("books"))
    assert cli_json("search", "frost breath", "--book", "bestiary")["results"]


def test_vectors_an_ingest_is_still_writing_are_not_sent_to_repair(cli, index_dir, monkeypatch):
    """While a writer holds the lock (an ingest between its SQLite commit and its embedding),
    books and search say so and ask to wait; doctor --repair is advised only once it is gone."""
    from crossbook.storage.lock import writer_lock

    monkeypatch.chdir(SAMPLE.parent)  # sources shown short, so the 200-column table keeps the title whole

    assert cli("-q", "rebuild", SAMPLE / "crossbook.toml").exit_code == 0
    _lose_vectors(index_dir, "Bestiary of the Shattered Vale")
    with writer_lock(index_dir, 1, command="ingest"):
        listing = cli("books").stdout
        searched = cli("search", "frost breath", "--book", "bestiary", "--json")
        while_writing = _mcp_books_note(index_dir)
    assert "being written)" in listing and "doctor --repair" not in listing  # the table may wrap the title
    assert "1 book is missing vectors: a writer is at work on the index (pid" in listing
    assert "crossbook ingest" in listing
    message = json.loads(searched.stdout)["error"]["message"]
    assert message.startswith("vectors missing for 1 book ('Bestiary of the Shattered Vale'): a writer is at work")
    assert "doctor --repair" not in message
    after = json.loads(cli("search", "frost breath", "--book", "bestiary", "--json").stdout)["error"]["message"]
    assert after.endswith("an ingest stopped before embedding them; run: crossbook doctor --repair")
    assert "a writer is at work" in while_writing and "doctor" not in while_writing  # the MCP's books alike
    assert _mcp_books_note(index_dir).endswith("whoever keeps the index can run: crossbook doctor --repair")


def _mcp_books_note(index_dir) -> str:
    """The note of the MCP books tool's answer (its text summary ends with it)."""
    import anyio
    from mcp import Client

    from crossbook.api import Shelf
    from crossbook.cli.mcp_server import build_server

    async def ask():
        with Shelf(index_dir, read_only=True, embedder="hash") as shelf:
            async with Client(build_server(shelf)) as client:
                return (await client.call_tool("books", {})).structured_content["note"]

    return anyio.run(ask)


def test_a_first_ingest_stopped_before_its_first_vector_leaves_books_missing_them(cli, index_dir):
    """No embedder recorded yet, but child chunks stored: every book is missing its vectors
    (not an index without any), so books marks them and search names the fix, which works."""
    import shutil
    import sqlite3

    assert cli("-q", "rebuild", SAMPLE / "crossbook.toml").exit_code == 0
    with sqlite3.connect(index_dir / "crossbook.db") as conn:  # as the first ingest left it
        conn.execute("DELETE FROM crossbook_meta WHERE key IN ('embedder', 'embedding_dimension', 'chunk_context')"
                     " OR key LIKE 'vectors_synced%'")
    shutil.rmtree(index_dir / "chroma")
    assert "3 books are missing vectors: run crossbook doctor --repair" in cli("books").stdout
    searched = cli("search", "frost breath", "--json")
    assert searched.exit_code == 1 and "No sections found" not in searched.stdout
    assert json.loads(searched.stdout)["error"]["message"].startswith("vectors missing for 3 books")
    assert cli("-q", "doctor", "--repair").exit_code == 0
    assert cli("search", "frost breath").exit_code == 0 and "missing" not in cli("books").stdout
