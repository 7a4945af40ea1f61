"""A name written with a slash ("Hush/Howl") is one name: a heading, a bold lead or a table
row that writes it defines that name, never its parts; a part is an alias of it only where
the book writes the part alone in another section."""

from __future__ import annotations

from crossbook.chunk.chunking import parent_chunks, split_sections
from crossbook.core.packs import load_pack
from crossbook.extract.rules import book_mentions

GENERIC = load_pack("generic")

BOOK = (
    "# Spells\n\n"
    "## Hush/Howl\n\nYou whisper or shout. Howl deals thunder damage to each creature near you.\n\n"
    "## Frost Lance\n\nA spear of ice.\n\n"
    "**Ember/Ash.** You set a creature alight; its remains burn to cinders.\n\n"
    "**Veil/Shroud:** A darkness falls over the area.\n\n"
    "## Combat\n\nA creature struck by the Howl is deafened. Nobody casts Hush/Howl twice. "
    "Hush is never cast on its own.\n\n"
    "## Ask a Yes/No Question\n\nRoll the oracle.\n"
)


def definitions(text: str) -> dict[str, tuple[str, ...]]:
    parents = parent_chunks("Book", split_sections(text))
    return {m.name: m.aliases for found in book_mentions(parents, GENERIC, "Book") for m in found
            if m.mention_type == "defines"}


def test_a_heading_or_bold_lead_written_with_a_slash_defines_one_name():
    found = definitions(BOOK)
    assert {"Hush/Howl", "Ember/Ash", "Veil/Shroud"} <= set(found)
    assert not set(found) & {"Hush", "Howl", "Ember", "Ash", "Veil", "Shroud"}


def test_a_part_is_an_alias_only_where_another_section_writes_it_alone():
    found = definitions(BOOK)
    # "the Howl" in Combat; "Hush" only opens a sentence there, and its own section's
    # "Howl deals" counts for nothing
    assert found["Hush/Howl"] == ("Howl",)
    assert found["Ember/Ash"] == () and found["Veil/Shroud"] == ()
    alone = BOOK.replace("Hush is never cast on its own.", "Nobody casts Hush on its own.")
    assert definitions(alone)["Hush/Howl"] == ("Hush", "Howl")
    own_section_only = BOOK.replace("struck by the Howl", "struck by the sound")
    assert definitions(own_section_only)["Hush/Howl"] == ()


OPTIONS = (
    "# Spells\n\n## Enlarge/Reduce\n\nYou grow or shrink a creature.\n\n"
    "***Enlarge.*** The target grows.\n\n***Reduce.*** The target shrinks.\n\n"
    "## Fire Bolt\n\nA bolt of fire.\n\n***X/Day.*** The notation X/Day means a count of uses.\n\n"
    "## Bless\n\nA prayer. Cast Enlarge on a friend.\n"
)


def test_a_lead_naming_a_part_of_its_entrys_slash_name_is_an_option_of_it():
    from crossbook.extract.contract import rules_off

    found = definitions(OPTIONS)
    assert found["Enlarge/Reduce"] == ("Enlarge",)
    assert not set(found) & {"Enlarge", "Reduce"}
    with rules_off(["slash_part"]):
        assert "Enlarge" in definitions(OPTIONS)


def test_a_count_per_unit_is_no_name():
    from crossbook.extract.headings import is_rate, slash_parts

    assert "X/Day" not in definitions(OPTIONS)
    assert is_rate("X/Day") and is_rate("1/Turn") and not is_rate("Hush/Howl")
    assert slash_parts("X/Day") is None and slash_parts("Hush/Howl") == ("Hush", "Howl")


def test_a_table_cell_writes_a_part_alone_and_a_longer_name_does_not():
    book = ("# Book\n\n## Monsters\n\n### Succubus/Incubus\n\nA fiend.\n\n### Stone/Frost\n\nA giant.\n\n"
            "### Stone Golem\n\nA golem of the Frost Hills.\n\n"
            "## Cards\n\n| Card | Effect |\n|---|---|\n| Queen | Succubus or incubus |\n")
    found = definitions(book)
    assert found["Succubus/Incubus"] == ("Succubus",)
    assert found["Stone/Frost"] == ()  # "Stone Golem", "the Frost Hills": words of other names
