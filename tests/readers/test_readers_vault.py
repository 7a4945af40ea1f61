"""The note-vault reader: a folder of notes is one book, read as a reader sees it.

Small excerpts follow the Ironsworn vault (corpora/ironsworn: the Ironsworn rules by Shawn
Tomkin, CC-BY 4.0, converted to Obsidian Markdown by the Obsidian-TTRPG-Community).
"""

from __future__ import annotations

import pytest

from crossbook.chunk.chunking import parent_chunks
from crossbook.core.errors import BadInput
from crossbook.ingest.books import find_books
from crossbook.readers import read_book
from crossbook.readers.vault.links import NoteIndex
from tests.helpers import vault


def by_path(book):
    return {section.heading_path: section for section in book.sections}


def test_folder_note_headings_are_the_section_tree(tmp_path):
    root = vault(tmp_path / "v", {
        "Chapter 1/Momentum.md": "# Momentum\nMomentum is a special mechanic.\n\n## Gaining Momentum\nYou gain it.\n",
        "Chapter 3/Face Danger.md": "When you attempt something risky, roll.\n",
    })
    book = read_book(root)
    sections = by_path(book)
    assert book.format == "vault" and book.title == "v"
    note = sections[("Chapter 1", "Momentum")]
    assert note.level == 2 and note.file == "Chapter 1/Momentum.md"
    assert note.text.startswith("## Momentum\n") and "special mechanic" in note.text
    inner = sections[("Chapter 1", "Momentum", "Gaining Momentum")]
    assert inner.level == 3 and inner.text.startswith("### Gaining Momentum")
    # a note without a heading of its own gets one that names it
    assert sections[("Chapter 3", "Face Danger")].text.startswith("## Face Danger\n\nWhen you attempt")
    assert sections[("Chapter 3", "Face Danger")].defines == (("Face Danger",),)
    assert inner.defines == ()


def test_a_heading_that_differs_from_the_note_is_kept_as_its_child(tmp_path):
    root = vault(tmp_path / "v", {"Chapter 3/03 Chapter - Moves.md": "# Making Moves\nMoves help you decide.\n"})
    sections = by_path(read_book(root))
    assert sections[("Chapter 3", "03 Chapter - Moves")].text == "## 03 Chapter - Moves\n"
    child = sections[("Chapter 3", "03 Chapter - Moves", "Making Moves")]
    assert child.level == 3 and "Moves help you decide." in child.text


def test_two_notes_with_one_name_are_two_sections(tmp_path):
    root = vault(tmp_path / "v", {
        "Chapter 5/Mammoth.md": "## Mammoth\nThese beasts resemble elephants.\n",
        "Assets/Mammoth.md": "# Mammoth\nYour mammoth walks a resolute path.\n",
    })
    book = read_book(root)
    sections = by_path(book)
    assert {("Chapter 5", "Mammoth"), ("Assets", "Mammoth")} <= set(sections)
    parents = parent_chunks("v", list(book.sections))
    assert len({p.id for p in parents}) == len(parents) == 2


def test_front_matter_is_metadata_title_and_aliases_define(tmp_path):
    root = vault(tmp_path / "v", {
        "Assets/0 Assets List.md": "---\naliases: Assets List\ntags: [asset]\n---\n# Assets List\nAll assets.\n",
        "Notes/Kit.md": "---\ntitle: The Kit\naliases:\n  - Gear\n  - Pack\n---\nWhat you carry.\n",
    })
    sections = by_path(read_book(root))
    listed = sections[("Assets", "0 Assets List")]
    assert listed.defines == (("0 Assets List", "Assets List"),)
    assert "aliases" not in listed.text and "---" not in listed.text and "All assets." in listed.text
    assert "asset" in listed.kinds
    kit = sections[("Notes", "The Kit")]
    assert kit.defines == (("The Kit", "Kit", "Gear", "Pack"),)
    assert kit.text.startswith("## The Kit\n")


def test_broken_front_matter_warns_and_the_note_is_read(tmp_path):
    root = vault(tmp_path / "v", {"Bad.md": "---\naliases: [unclosed\ntitle: : :\n---\nThe body stays.\n"})
    book = read_book(root)
    assert any("front matter is not valid YAML" in w and "Bad.md" in w for w in book.warnings)
    (note,) = book.sections
    assert "The body stays." in note.text and "unclosed" not in note.text
    assert note.defines == (("Bad",),)


def test_every_link_form_shows_its_text_and_names_its_note(tmp_path):
    root = vault(tmp_path / "v", {
        "Chapter 3/Pay the Price.md": "# Pay the Price\nSomething bad happens.\n^roll\n",
        "Chapter 3/Ask the Oracle.md": "# Ask the Oracle\n#### Pick Two\n^pick2\nRate one.\n",
        "Chapter 2/Debilities.md": "# Debilities\nConditions.\n",
        "Chapter 1/Momentum.md": (
            "# Momentum\n"
            "Miss: [[Pay the Price#^roll|Pay the Price]].\n"
            "Suffer a [[Debilities|debility]].\n"
            "See [[Chapter 3/Ask the Oracle]] and [[ask the oracle#Pick Two]].\n"
            "Or [[Ask the Oracle#^pick2]], or [[#Losing]].\n"
            "Riding [[gaunt]]s and [[ Debilities ]]at once.\n"
            "Read [the price](../Chapter%203/Pay%20the%20Price.md) and [web](https://example.com).\n"
            "| a | [[Debilities\\|banes]] |\n"
        ),
    })
    sections = by_path(read_book(root))
    note = sections[("Chapter 1", "Momentum")]
    text = note.text
    assert "Miss: Pay the Price." in text and "Suffer a debility." in text
    assert "See Ask the Oracle and ask the oracle > Pick Two." in text
    assert "Or Ask the Oracle, or Losing." in text
    assert "Riding gaunts and  Debilities at once." in text  # an unresolved link is its text
    assert "Read the price and [web](https://example.com)." in text
    assert "[[" not in text
    assert note.links == (
        ("Pay the Price", "Pay the Price", "Chapter 3/Pay the Price.md"),
        ("Debilities", "debility", "Chapter 2/Debilities.md"),
        ("Ask the Oracle", "Ask the Oracle", "Chapter 3/Ask the Oracle.md"),
        ("Ask the Oracle", "ask the oracle > Pick Two", "Chapter 3/Ask the Oracle.md"),
        ("Ask the Oracle", "Ask the Oracle", "Chapter 3/Ask the Oracle.md"),
        ("Debilities", "Debilities", "Chapter 2/Debilities.md"),
        ("Pay the Price", "the price", "Chapter 3/Pay the Price.md"),
        ("Debilities", "banes", "Chapter 2/Debilities.md"),
    )
    assert "| a | banes |" in text
    assert "^roll" not in sections[("Chapter 3", "Pay the Price")].text


def test_links_resolve_as_obsidian_does():
    notes = NoteIndex(["Assets/Mammoth.md", "Chapter 5/Mammoth.md", "Chapter 5/Deep/Wolf.md", "Wolf.md", "Top.md"])
    assert notes.resolve("Mammoth", "Chapter 5/Elf.md") == "Chapter 5/Mammoth.md"      # same folder first
    assert notes.resolve("mammoth", "Other/x.md") == "Assets/Mammoth.md"               # shortest, then path order
    assert notes.resolve("Assets/Mammoth", "Chapter 5/Elf.md") == "Assets/Mammoth.md"  # a path
    assert notes.resolve("Deep/Wolf", "Top.md") == "Chapter 5/Deep/Wolf.md"            # a path's end
    assert notes.resolve("Wolf", "Chapter 5/Deep/Bear.md") == "Chapter 5/Deep/Wolf.md"
    assert notes.resolve("Wolf", "Top.md") == "Wolf.md"
    assert notes.resolve("Wolf.md", "Top.md") == "Wolf.md"
    assert notes.resolve("map.png", "Top.md") is None and notes.resolve("Nowhere", "Top.md") is None


def test_embeds_are_references_and_images_go(tmp_path):
    root = vault(tmp_path / "v", {
        "Chapter 1/Burning Momentum.md": "# Burning Momentum\nBurn it.\n",
        "Chapter 1/Momentum.md": "# Momentum\nText.\n## ![[Burning Momentum]]\n\n![[map.png]]\nAfter.\n",
    })
    sections = by_path(read_book(root))
    embed = sections[("Chapter 1", "Momentum", "Burning Momentum")]
    assert embed.links == (("Burning Momentum", "Burning Momentum", "Chapter 1/Burning Momentum.md"),)
    assert "map.png" not in embed.text and "After." in embed.text and "Burn it." not in embed.text


def test_callouts_tags_block_ids_checkboxes_and_plugin_blocks(tmp_path):
    root = vault(tmp_path / "v", {"Assets/Alchemist.md": (
        "# Alchemist\n#Asset/Path\n"
        "> [!tldr]- Face Danger\n> When you attempt something risky.\n>>[!error] Nested\n>> Roll it: `dice: 1d100`\n"
        "^tldr\n"
        "- <input type=\"checkbox\" checked>When you create an elixir, roll. ^first\n"
        "- [x] A task done.\n"
        "%% a comment %%Seen.\n"
        "```dataview\nLIST FROM #asset\n```\n"
        "```dice-roller\n1d6\n```\n"
        "```python\nprint('kept')\n```\n"
        "```statblock\nname: Cave Lion\nhp: 3\n```\n"
        "This is ==highlighted==.\n"
        "## `=this.file.name` table\n`=this.file.mtime`Row.\n"
    )})
    note = read_book(root).sections[0]
    text = note.text
    assert "[!" not in text and "> Face Danger" in text and ">>Nested" in text
    assert "dice:" not in text and "1d100" not in text
    assert "#Asset" not in text and ("Asset", "Path") == note.kinds[1:]
    assert "^tldr" not in text and "^first" not in text and "<input" not in text
    assert "- When you create an elixir, roll." in text and "- A task done." in text
    assert "comment" not in text and "Seen." in text
    assert "LIST FROM" not in text and "1d6" not in text
    assert "print('kept')" in text
    assert "name: Cave Lion" in text and "This is highlighted." in text
    assert note.defines == (("Alchemist",), ("Cave Lion",))
    assert by_path(read_book(root))[("Assets", "Alchemist", "Alchemist table")].text == "### Alchemist table\nRow.\n"


def test_an_empty_vault_is_one_clear_error(tmp_path):
    root = vault(tmp_path / "empty", {"image.png": "x"})
    with pytest.raises(BadInput, match="holds no notes"):
        read_book(root)


def test_mdbook_summary_gives_order_titles_and_nesting(tmp_path):
    root = vault(tmp_path / "src", {
        "SUMMARY.md": "# Summary\n\n[Intro](intro.md)\n\n- [The Rules](rules/index.md)\n"
                      "  - [Combat Rules](rules/combat.md)\n- [Draft]()\n",
        "intro.md": "# Intro\nWelcome.\n",
        "rules/index.md": "# Rules\nAll rules. See [combat](combat.md).\n",
        "rules/combat.md": "# Combat Rules\nFight.\n",
        "extra.md": "Unlisted.\n",
    }, obsidian=False)
    assert find_books([root]) == [root]
    book = read_book(root)
    paths = [s.heading_path for s in book.sections]
    assert paths == [("Intro",), ("The Rules",), ("The Rules", "Rules"), ("The Rules", "Combat Rules"), ("extra",)]
    rules = by_path(book)[("The Rules", "Rules")]
    assert rules.links == (("Combat Rules", "combat", "rules/combat.md"),)


def test_sha256_covers_paths_and_bytes(tmp_path):
    root = vault(tmp_path / "v", {"A.md": "# A\nText.\n", "B.md": "# B\nText.\n"})
    first = read_book(root).sha256
    (root / "B.md").rename(root / "C.md")
    renamed = read_book(root).sha256
    (root / "C.md").write_text("# C\nOther.\n", encoding="utf-8")
    assert len({first, renamed, read_book(root).sha256}) == 3
    (root / ".obsidian" / "workspace.json").write_text("{}", encoding="utf-8")
    assert read_book(root).sha256 == read_book(root).sha256


def test_each_part_of_a_long_note_carries_the_links_it_shows(tmp_path):
    filler = " ".join(["The journey goes on through the long cold night."] * 60)
    root = vault(tmp_path / "v", {
        "Strike.md": "# Strike\nHit.\n", "Clash.md": "# Clash\nParry.\n",
        "Example.md": f"# Example\nFirst I [[Strike]].\n\n{filler}\n\n{filler}\n\nThen I [[Clash]].\n",
    })
    book = read_book(root)
    parts = [p for p in parent_chunks("v", list(book.sections), parent_tokens=300) if p.file == "Example.md"]
    assert len(parts) > 1
    assert parts[0].links == (("Strike", "Strike", "Strike.md"),)
    assert parts[-1].links == (("Clash", "Clash", "Clash.md"),)
    assert parts[0].defines == (("Example",),) and all(p.defines == () for p in parts[1:])
