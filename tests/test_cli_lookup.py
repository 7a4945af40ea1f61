"""Naming books and entities the way a user types them: prefixes, any case, ids, aliases,
accents; errors that list the candidates."""

import pytest

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
    from index.db import open_db
    from index.lookup import suggest

    db = open_db(index_dir)
    assert suggest(db, "SHEILD")[0] == "Shield"
    assert suggest(db, "ice lanse")[0] == "Frost Lance"      # through its alias
    assert suggest(db, "veloutte")[0] == "Velouté"
