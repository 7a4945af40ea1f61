"""Naming books and entities the way a user types them: prefixes, any case, ids, aliases,
accents; errors that list the candidates."""

import json

import pytest

from tests.conftest import SAMPLE
from tests.helpers import BOOK_A, BOOK_B, write

PACK = """
name = "mini"
[[entity_types]]
name = "spell"
cues = ["cast", "casts", "spell"]
[[entity_types]]
name = "dish"
[[entity_types]]
name = "condition"
[[entity_types]]
name = "equipment"
[[entity_types]]
name = "other"
[[heading_rules]]
under = "Spells"
type = "spell"
[[heading_rules]]
under = "Conditions"
type = "condition"
[[heading_rules]]
under = "Equipment"
type = "equipment"
[[heading_rules]]
under = "Sauces"
type = "dish"
[aliases]
"Frost Lance" = ["Ice Lance"]
"""

APPENDIX = """# Grimoire Appendix

## Sauces

### Velouté
A velouté is a white sauce; chefs who cast Frost Lance chill it.
"""


@pytest.fixture
def shelf(tmp_path, cli_json):
    """Three books: 'Core Rules', 'Grimoire' and 'Grimoire Appendix' (offline, no relations)."""
    pack = write(tmp_path / "pack.toml", PACK)
    books = [write(tmp_path / n, t) for n, t in (("a.md", BOOK_A), ("b.md", BOOK_B), ("c.md", APPENDIX))]
    cli_json("ingest", *books, "--pack", pack, "--relations", "off")
    return {b["title"]: b["id"] for b in cli_json("books")}


def _books_of(result) -> list[str]:
    return [g["book"] for g in result["entities"][0]["books"]]


# -- item 2: --book / --exclude-book -----------------------------------------------------------

def test_book_filter_takes_a_prefix_any_case_or_the_id(shelf, cli_json):
    assert _books_of(cli_json("where-else", "Frost Lance", "--book", "core")) == ["Core Rules"]
    assert _books_of(cli_json("where-else", "Frost Lance", "--book", "CORE RULES")) == ["Core Rules"]
    assert _books_of(cli_json("where-else", "Frost Lance", "--book", str(shelf["Core Rules"]))) == ["Core Rules"]
    # the full title of a book wins over its being a prefix of another title
    assert _books_of(cli_json("where-else", "Frost Lance", "--book", "grimoire")) == ["Grimoire"]


def test_exclude_book_takes_a_prefix(shelf, cli_json):
    result = cli_json("where-else", "Frost Lance", "--exclude-book", "grimoire a", "--exclude-book", "Core")
    assert _books_of(result) == ["Grimoire"]


def test_ambiguous_book_is_an_error_listing_the_candidates(shelf, cli):
    result = cli("where-else", "Frost Lance", "--book", "grim")
    assert result.exit_code == 1 and result.stdout == ""
    assert "--book 'grim' matches several books: 'Grimoire', 'Grimoire Appendix'" in result.stderr


def test_unknown_book_and_unknown_excluded_book_are_errors(shelf, cli):
    for option in ("--book", "--exclude-book"):
        result = cli("where-else", "Frost Lance", option, "Bestiary")
        assert result.exit_code == 1 and result.stdout == ""
        assert f"{option} 'Bestiary' is not a book in the index" in result.stderr
        assert "'Core Rules'" in result.stderr and "crossbook books" in result.stderr


def test_close_misspelling_of_a_book_is_suggested(shelf, cli):
    result = cli("where-else", "Frost Lance", "--book", "Grimoir Apendix")
    assert result.exit_code == 1 and "did you mean 'Grimoire Appendix'" in result.stderr


def test_search_and_relations_resolve_the_book_too(shelf, cli, cli_json):
    result = cli_json("search", "frost", "--book", "core r")
    assert result["results"] and {p["book"] for p in result["results"]} == {"Core Rules"}
    assert cli("search", "frost", "--book", "nope").exit_code == 1
    assert cli("relations", "--book", "GRIMOIRE").exit_code == 0
    assert "matches several books" in cli("relations", "--book", "gri").stderr


def test_books_show_their_id(shelf, cli):
    text = cli("books").stdout
    assert text.split("\n")[0].split()[0] == "id"
    assert sorted(shelf.values()) == [1, 2, 3]


# -- item 3: names, aliases, case, accents, suggestions -----------------------------------------

def test_an_alias_from_the_pack_finds_the_entity(shelf, cli_json):
    for query in ("Ice Lance", "ice lance", "ICE LANCE"):
        result = cli_json("where-else", query)
        assert [e["name"] for e in result["entities"]] == ["Frost Lance"], query
    assert cli_json("entity", "ice lance")["entities"][0]["name"] == "Frost Lance"


def test_accents_fold(shelf, cli_json):
    result = cli_json("where-else", "veloute")
    assert [e["name"] for e in result["entities"]] == ["Velouté"]
    assert cli_json("entity", "VELOUTE")["entities"][0]["name"] == "Velouté"


def test_suggestions_are_ranked_by_similarity_in_any_case(shelf, cli):
    result = cli("where-else", "frost lanse")
    assert result.exit_code == 1 and result.stdout == ""
    assert "Did you mean: Frost Lance" in result.stderr
    result = cli("where-else", "chiled")
    assert result.exit_code == 1 and "Did you mean: Chilled" in result.stderr


def test_suggest_ranks_the_closest_name_first_and_maps_aliases(shelf, index_dir):
    from crossbook.query.naming import suggest
    from crossbook.storage.db import open_db

    db = open_db(index_dir)
    assert suggest(db, "SHEILD")[0] == "Shield"
    assert suggest(db, "ice lanse")[0] == "Frost Lance"      # through its alias
    assert suggest(db, "veloutte")[0] == "Velouté"


# -- item 10: smaller frictions -------------------------------------------------------------------

def test_result_lines_do_not_repeat_the_book_title(shelf, cli):
    where = cli("where-else", "Frost Lance").stdout
    assert "defines    Spells > Frost Lance" in where and "Grimoire > Spells" not in where
    search = cli("search", "frost lance", "-k", "1", "--book", "grimoire").stdout
    assert search.startswith(" 1. Grimoire — Spells > Frost Lance")
    entity = cli("entity", "Chilled").stdout
    assert "defined in Core Rules — Conditions > Chilled" in entity


def test_empty_books_says_so(cli, tmp_path):
    empty = tmp_path / "empty"
    empty.mkdir()
    write(tmp_path / "only.md", "# Only\n\n## One\n\nText.\n")
    assert cli("--index", empty / "ix", "ingest", tmp_path / "only.md").exit_code == 0
    assert cli("--index", empty / "ix", "delete-book", "Only").exit_code == 0
    result = cli("--index", empty / "ix", "books")
    assert result.exit_code == 0 and "No books in the index yet (run: crossbook ingest BOOK)" in result.stdout
    assert json.loads(cli("--index", empty / "ix", "books", "--json").stdout) == []


def test_ingest_counts_mentions_like_books(tmp_path, cli_json):
    pack = write(tmp_path / "pack.toml", PACK)
    books = [write(tmp_path / n, t) for n, t in (("a.md", BOOK_A), ("b.md", BOOK_B))]
    ingested = cli_json("ingest", *books, "--pack", pack, "--relations", "off")
    listed = {b["title"]: b["mentions"] for b in cli_json("books")}
    # Grimoire is ingested last, so nothing changes its mentions afterwards
    assert ingested[1]["title"] == "Grimoire" and ingested[1]["mentions"] == listed["Grimoire"]


def test_export_json_without_output_is_one_json_document(shelf, cli):
    result = cli("export", "--json")
    assert result.exit_code == 0
    graph = json.loads(result.stdout)
    assert set(graph) == {"nodes", "edges"}


def test_openai_retries_are_warnings(capsys):
    import logging

    from crossbook.cli.output import report_retries

    report_retries()
    logging.getLogger("openai._base_client").info("Retrying request in %f seconds (retry %i of %s)", 0.5, 1, 5)
    logging.getLogger("openai._base_client").info("Not a retry")
    err = capsys.readouterr().err
    assert "Warning: the OpenAI-compatible endpoint did not answer; retrying request in 0.500000 seconds (retry 1 of 5)" in err
    assert "Not a retry" not in err


# -- entities and stats --------------------------------------------------------------------------

def test_entities_lists_and_counts(shelf, cli, cli_json):
    everything = cli_json("entities")
    names = [e["name"] for e in everything["entities"]]
    assert {"Frost Lance", "Chilled", "Velouté"} <= set(names) and everything["count"] == len(names)
    assert sum(everything["by_type"].values()) == everything["count"]
    spells = cli_json("entities", "--type", "spell")
    assert {(e["name"], tuple(e["defined_in"])) for e in spells["entities"]} == {
        ("Frost Lance", ("Grimoire",)), ("Shield", ("Grimoire",))}
    assert spells["by_type"] == {"spell": 2}
    frost = next(e for e in spells["entities"] if e["name"] == "Frost Lance")
    assert frost["books"] == 3 and frost["mentions"] >= 3   # defined once, referenced in two books
    in_core = cli_json("entities", "--book", "core")
    assert "Velouté" not in [e["name"] for e in in_core["entities"]]
    assert cli_json("entities", "--type", "dragon") == {"count": 0, "by_type": {}, "entities": []}
    assert "No entities match" in cli("entities", "--type", "dragon").stdout
    assert cli("entities", "--book", "nope").exit_code == 1
    text = cli("entities", "--type", "spell").stdout
    assert "Frost Lance" in text and "2 entities: 2 spell" in text


def test_stats(shelf, cli, cli_json, index_dir):
    stats = cli_json("stats")
    assert stats["books"] == 3 and stats["sections"] == stats["chunks"]["parent"]
    assert stats["entities"] == sum(stats["entities_by_type"].values()) == cli_json("entities")["count"]
    assert stats["mentions"] == sum(stats["mentions_by_source"].values()) == sum(stats["mentions_by_kind"].values())
    assert stats["mentions"] == sum(b["mentions"] for b in cli_json("books"))
    assert stats["embedder"] == "hash:256" and 0 < stats["sqlite_bytes"] <= stats["index_bytes"]
    assert stats["relationships"] == 0  # ingested with --relations off
    text = cli("stats").stdout
    assert "books           3" in text and "embedder        hash:256" in text


def test_delete_book_names_a_book_as_book_does_elsewhere(cli, cli_json):
    """delete-book takes the title in any case, a unique prefix of it or the id ``books``
    shows, like --book; an ambiguous or unknown name deletes nothing and names the candidates."""
    assert cli("-q", "rebuild", SAMPLE / "crossbook.toml").exit_code == 0
    ids = {b["title"]: b["id"] for b in cli_json("books")}
    assert cli_json("delete-book", "BESTIARY OF THE SHATTERED VALE")["title"] == "Bestiary of the Shattered Vale"
    assert cli_json("delete-book", "ashen")["title"] == "The Ashen Grimoire"
    assert cli_json("delete-book", str(ids["Emberfall Core Rules"]))["title"] == "Emberfall Core Rules"
    assert cli_json("books") == []


def test_delete_book_refuses_an_ambiguous_or_unknown_name(cli, cli_json, tmp_path):
    for name in ("Frost Notes", "Frost Tables"):
        assert cli("-q", "ingest", write(tmp_path / f"{name}.md", f"# {name}\n\n## A\n\nText.\n")).exit_code == 0
    ambiguous = cli("delete-book", "frost", "--json")
    assert ambiguous.exit_code == 1 and "matches several books: 'Frost Notes', 'Frost Tables'" in ambiguous.stderr
    unknown = cli("delete-book", "Frost Note Zero")
    assert unknown.exit_code == 1 and "did you mean 'Frost Notes'" in unknown.stderr
    assert len(cli_json("books")) == 2
