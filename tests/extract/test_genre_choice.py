"""Genre packs chosen per book from what it shows (index/extract/genre_choice.py), and the
words of a genre left out giving nothing to the rules that run for that book (core/genres.py)."""

from __future__ import annotations

import pytest

from crossbook.core.errors import ConfigError
from crossbook.core.genres import genre_active, genres_in_use, load_genre_packs
from crossbook.core.models import DocTerm, Section
from crossbook.core.packs import genre_list, genre_table, genre_words, shipped_genres
from crossbook.extract.entry_kinds import category_line_kind, stat_block_kind
from crossbook.extract.genre_choice import choice_label, choose_genres
from crossbook.linking.linker import files_as_state
from crossbook.relations.edge_guards import pack_words
from crossbook.relations.pattern_lists import list_kind
from tests.helpers import write

STAT_BLOCK = "### Ash Wolf\n\n*Medium beast, unaligned*\n\n**Armor Class** 13\n**Hit Points** 11 (2d8 + 2)\n"
PROSE = "### Lanterns\n\nA lantern sheds light. It burns for an hour on a flask of oil.\n"


def section(text: str, terms: tuple[DocTerm, ...] = ()) -> Section:
    heading = text.splitlines()[0].lstrip("# ")
    return Section(heading, 3, ("Book", heading), text, 1, terms=terms)


def choose(sections, fmt="markdown", override=None):
    return choose_genres(fmt, sections, shipped_genres(), override)


def test_a_stat_block_makes_a_book_a_rulebook():
    choice = choose([section(STAT_BLOCK), section(PROSE)])
    assert choice.genres == ("rulebook",)
    assert set(choice.signals) == {"rulebook"} and choice.signals["rulebook"][0] == "stat blocks"


def test_a_back_index_or_a_documentation_build_makes_a_book_documentation():
    indexed = section("### Index\n\nxcolor, 3\n", (DocTerm("\\definecolor", "command", rule="back_index"),))
    assert choose([section(PROSE), indexed], fmt="pdf").genres == ("documentation",)
    assert "a back index" in choose([section(PROSE), indexed], fmt="pdf").signals["documentation"]
    assert choose([section(PROSE)], fmt="docset").signals == {"documentation": ["a documentation tool's build"]}


def test_genres_combine_a_rulebook_with_a_back_index_is_both():
    indexed = section("### Index\n\nAsh Wolf, 3\n", (DocTerm("Ash Wolf", "other", rule="back_index"),))
    assert choose([section(STAT_BLOCK), indexed], fmt="pdf").genres == ("documentation", "rulebook")


def test_a_book_that_shows_no_genre_keeps_every_genre():
    choice = choose([section(PROSE)])
    assert choice.genres == ("documentation", "rulebook")
    assert choice.signals == {}


def test_dice_and_game_words_show_a_rulebook_without_stat_blocks():
    dice = [section(f"### Move {i}\n\nRoll 2d6 and add your edge.\n") for i in range(3)]
    assert choose(dice).signals == {"rulebook": ["dice notation"]}
    talk = [section("### Play\n\nThe GM asks the players; each player character spends fate points.\n")]
    assert choose(talk).signals == {"rulebook": ["game words"]}


def test_pack_override_chooses_instead_and_changes_the_label():
    choice = choose([section(STAT_BLOCK)], override=("documentation",))
    assert choice.genres == ("documentation",)
    assert choice.label == "pack:documentation"
    assert choose([section(STAT_BLOCK)]).label.startswith("auto@")


def test_a_new_genre_is_a_pack_file(tmp_path):
    write(tmp_path / "cookbook.toml", (
        'name = "cookbook"\n[words]\nmeasures = ["cup", "cups", "tablespoon", "teaspoon"]\n'
        '[[detect.signals]]\nname = "measures"\nwords = "measures"\nat_least = 100\n'))
    write(tmp_path / "generic.toml", 'name = "generic"\n[[entity_types]]\nname = "thing"\n')  # a domain pack
    packs = load_genre_packs(tmp_path)
    assert [p.name for p in packs] == ["cookbook"]
    recipe = section("### Scones\n\nTwo cups of flour, a tablespoon of sugar, a teaspoon of salt.\n")
    assert choose_genres("markdown", [recipe], packs).signals == {"cookbook": ["measures"]}
    # its fingerprint is in the label: editing the pack re-chooses for every book
    write(tmp_path / "cookbook.toml", (tmp_path / "cookbook.toml").read_text() + "# edited\n")
    assert choice_label(load_genre_packs(tmp_path), None) != choice_label(packs, None)


def test_a_signal_without_a_form_or_with_a_missing_word_list_is_refused(tmp_path):
    write(tmp_path / "odd.toml", 'name = "odd"\n[[detect.signals]]\nname = "nothing"\n')
    with pytest.raises(ConfigError, match="has no form"):
        choose_genres("markdown", [section(PROSE)], load_genre_packs(tmp_path))
    write(tmp_path / "odd.toml", 'name = "odd"\n[[detect.signals]]\nname = "w"\nwords = "absent"\n')
    with pytest.raises(ConfigError, match="absent"):
        choose_genres("markdown", [section(PROSE)], load_genre_packs(tmp_path))


def test_shipped_genres_are_the_packs_with_words_or_signals():
    assert {p.name for p in shipped_genres()} == {"rulebook", "documentation"}


def test_a_genre_left_out_gives_empty_words_except_its_shared_lists():
    assert genre_words("rulebook", "state_words")
    with genres_in_use(["documentation"]):
        assert not genre_active("rulebook") and genre_active("documentation")
        assert genre_words("rulebook", "state_words") == frozenset()
        assert genre_list("rulebook", "creature_types") == ()
        assert genre_table("rulebook", "kind_words") == {}
        assert genre_words("rulebook", "remark_leads")  # shared: keeps a remark from reading as a term
        assert genre_table("documentation", "sphinx_kinds")
        with genres_in_use(None):  # no choice: every genre
            assert genre_words("rulebook", "state_words")
        assert genre_words("rulebook", "state_words") == frozenset()
    assert genre_words("rulebook", "state_words")


def test_the_rules_of_a_genre_left_out_do_not_fire():
    assert stat_block_kind(STAT_BLOCK) == "creature"
    assert category_line_kind(STAT_BLOCK) == "creature"
    assert files_as_state("condition", "Conditions")
    assert list_kind("Spells Known") == "casts"
    assert pack_words("spell_level_words")
    with genres_in_use(["documentation"]):
        assert stat_block_kind(STAT_BLOCK) is None
        assert category_line_kind(STAT_BLOCK) is None
        assert not files_as_state("condition", "Conditions")
        assert list_kind("Spells Known") is None
        assert pack_words("spell_level_words") == frozenset()
    assert pack_words("spell_level_words")  # a cache filled inside the block does not keep it empty


def test_capitals_are_display_in_a_rulebook_and_the_name_itself_in_documentation():
    from crossbook.core.genres import genres_in_use
    from crossbook.extract.headings import heading_name

    with genres_in_use({"rulebook"}):
        assert heading_name("STRONG HIT").name == "Strong Hit"
    with genres_in_use({"documentation"}):  # an environment variable, a C macro: capitals are the name
        assert heading_name("PGUSER").name == "PGUSER"
        assert heading_name("G_LIKELY").name == "G_LIKELY"
    assert heading_name("STRONG HIT").name == "Strong Hit"  # a book of no genre: every genre, as before
