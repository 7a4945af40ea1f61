"""Structure is not an entity. A heading that ends with a colon ("Expertise:",
"Using skills:") is a field to fill in or a lead-in to what follows, and defines nothing.

The fixture marked "Ironsworn" is an excerpt of the Ironsworn SRD by Shawn Tomkin (CC BY 4.0,
corpora/ironsworn/README.md).
"""

from __future__ import annotations

from crossbook.chunk.chunking import parent_chunks, split_sections
from crossbook.core.packs import load_pack
from crossbook.extract.glossary import glossary_terms
from crossbook.extract.rules import book_mentions

GENERIC = load_pack("generic")


def defined(text: str, book: str = "Book") -> set[str]:
    parents = parent_chunks(book, split_sections(text))
    return {m.name for found in book_mentions(parents, GENERIC, book) for m in found if m.mention_type == "defines"}


def test_a_heading_ending_with_a_colon_defines_nothing():
    # Ironsworn: the Kindred asset's fields, among assets
    text = ("# Assets\n\n## Companions\n\n### Kindred\n\nYour friend stands by you.\n\n"
            "#### Expertise:\n\n#### Health: 4\n\n"
            "### Hawk\n\nYour hawk lends its expertise.\n\n### Hound\n\nYour hound is your steadfast companion.\n")
    found = defined(text)
    assert {"Kindred", "Hawk", "Hound"} <= found
    assert "Expertise" not in found


def test_the_same_heading_without_the_colon_still_defines():
    text = ("# Assets\n\n## Companions\n\n### Kindred\n\nYour friend stands by you.\n\n"
            "### Expertise\n\nExpertise is what your companion knows.\n\n### Hawk\n\nYour hawk can aid you.\n")
    assert "Expertise" in defined(text)


def test_a_numbered_step_defines_nothing_but_its_terms_do():
    # after Atomic Robo (Fate SRD): the steps of a procedure, each a heading
    text = ("# Book\n\n## Brainstorms\n\nA brainstorm is how the team solves a mystery. Mission Overview comes "
            "first, Expected Obstacles next, Resource Allocation last.\n\n"
            "### Step One: Mission Overview\n\nSay what the mission is.\n\n"
            "### Step Two: Expected Obstacles\n\nList what stands in the way.\n\n"
            "### Step Three: Resource Allocation\n\nSpend your resources.\n\n"
            "**Red Tape.** Paperwork slows you down.\n")
    found = defined(text)
    assert not found & {"Mission Overview", "Expected Obstacles", "Resource Allocation"}
    assert "Red Tape" in found


def test_a_slash_inside_a_phrase_is_no_alias_pair():
    from crossbook.extract.headings import HeadingName, heading_name

    # Ironsworn: "Ask a Yes/No Question" is one heading, not "Ask a Yes" aka "No Question"
    assert heading_name("Ask a Yes/No Question").name == "Ask a Yes/No Question"
    # a name written with a slash is one name; its parts are candidate aliases
    assert heading_name("Frostbite/Chilblains") == HeadingName("Frostbite/Chilblains", ("Frostbite", "Chilblains"))
    assert heading_name("Mighty Blow/Crushing Strike").name == "Mighty Blow/Crushing Strike"


def test_a_line_of_its_own_does_not_swallow_the_next_lead_and_an_italic_one_is_no_lead():
    from crossbook.extract.glossary import glossary_terms

    # a stat block: "**Actions**" on its own line, then the creature's actions
    text = "*Huge Beast, Wild*\n\n**Wounds:** 3\n\n**Actions**\n\n**Tail Sweep.** Hit: 4 damage.\n"
    names = [t.name for t in glossary_terms(text)]
    assert "Tail Sweep" in names
    assert "Huge Beast, Wild" not in names


def test_an_emphasized_word_inside_a_wrapped_sentence_opens_no_entry():
    from crossbook.extract.glossary import glossary_terms

    # a man page's option, its sentence wrapped a line at a time (in a quote, as DocBook renders it)
    wrapped = "**set**\n\n> Sets the value of\n> *KEY*\n> to\n> *VALUE*. The value is a serialized\n> **GVariant**.\n"
    assert [t.name for t in glossary_terms(wrapped)] == []
    # the same lead after a finished sentence, a rule, a line break or a line of entries is one
    assert [t.name for t in glossary_terms("The spell ends.\n**Fireball.** A streak flashes.")] == ["Fireball"]
    assert [t.name for t in glossary_terms("<hr/>\n<b>Fireball.</b> A streak flashes.")] == ["Fireball"]
    assert [t.name for t in glossary_terms("Read on<br/>\n**Fireball.** A streak flashes.")] == ["Fireball"]
    catalog = "**Aid** 2nd-level abjuration\n**Alarm** 1st-level abjuration\n**Bless** 1st-level enchantment"
    assert [t.name for t in glossary_terms(catalog)] == ["Aid", "Alarm", "Bless"]


def test_a_step_in_bold_is_no_entry_in_any_case():
    text = ("# Book\n\n## Playing\n\n**Describe What Your Character Does.** Then roll.\n\n"
            "**Roll the Dice.** Add your skill.\n\n**Describe what your character does.** Say it.\n\n"
            "**Read Their Intent.** Ask what the foe wants.\n")
    found = defined(text)
    assert not found & {"Describe What Your Character Does", "Describe what your character does"}


def test_a_bold_cell_of_an_html_table_is_a_value_no_lead():
    table = ("<table><tr>\n<td>\n\n<strong>Outcome</strong>\n</td>\n<td>\n\n<strong>Victories</strong>\n</td>\n"
             "<td>\n\n<strong>Defeats</strong>\n</td></tr></table>\n")
    assert [t.name for t in glossary_terms(table)] == []
    leads = "<strong>Alpha:</strong> one thing.\n\n<strong>Beta:</strong> two.\n\n<strong>Gamma:</strong> three.\n"
    assert [t.name for t in glossary_terms(leads)] == ["Alpha", "Beta", "Gamma"]


def test_two_leads_that_are_the_whole_section_are_a_catalog():
    # a power's "Collateral Damage Effects": two entries, nothing else under the heading;
    # their names read as topics alone ("Extra Copies"), so only a catalog's rule takes them
    section = ("### Collateral Damage Effects\n\n**Army of Me:** You duplicate yourself beyond your limits.\n\n"
               "**Extra Copies:** You make an extra clone, and something goes wrong.\n")
    assert [t.name for t in glossary_terms(section)] == ["Army of Me", "Extra Copies"]
    # the same two leads after a paragraph of prose are two leads of a text, not its catalog
    prose = section.replace("\n\n**Army", "\n\nWhat goes wrong when the power is pushed.\n\n**Army", 1)
    assert [t.name for t in glossary_terms(prose)] == []
    # two "- Name:" items under a heading are a rule's two options, not entries
    options = "## If you wield a spear...\n- When you face danger, roll.\n\t- Iron: Strike now.\n\t- Edge: Take +1 momentum.\n"
    assert [t.name for t in glossary_terms(options)] == []
