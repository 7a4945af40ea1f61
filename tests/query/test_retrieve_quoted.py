"""A section the question quotes (a run of its words that few sections contain:
index/query/quoted.py) is a hop-1 seed, as one whose entity the question names is, however
low vector search ranks it: a question that describes a short entry instead of naming it
("the power that makes you fade from view") reaches what that entry mentions."""

from __future__ import annotations

import pytest

from crossbook.query import quoted
from crossbook.query import retrieve as rules
from tests.helpers import opened_shelf, rebuild_books

# a catalog of powers, each with a long list of enhancements written alike, and one short
# entry the question describes in its own words
POWERS = "# Powers\n\n" + "".join(
    f"## {name}\n\nYou gain the {name} power and its benefits in play.\n\n### Enhancements\n\n"
    + "".join(f"- **Boost {i}.** The power adds a bonus: the boosted skill can defend against attempts"
              f" when you use {name}. Add +1 to the roll of a skill in a scene.\n"
              for i in range(6)) + "\n"
    for name in ("Shielding", "Flight", "Phasing", "Slowing", "Harm", "Disguise", "Absorption", "Agility"))
POWERS += ("## Invisibility\n\nYou can completely fade from view. Gain +2 to Stealth.\n\n"
           "## Camouflage\n\nYou blend in with walls; foes see a blur as you fade. Nothing fades from view.\n")
SKILLS = ("# Core Rules\n\n## Skills\n\n### Stealth\n\n"
          "Stealth lets you avoid detection and foil Notice attempts to pinpoint you.\n\n"
          "### Notice\n\nNotice is the skill of perceiving things.\n")
QUESTION = "The power that makes you fade from view adds a bonus. Which attempts does the boosted skill defend against?"


@pytest.fixture
def shelf(cli, tmp_path, index_dir):
    rebuild_books(cli, tmp_path, {"powers.md": POWERS, "core.md": SKILLS})
    yield from opened_shelf(index_dir)


def _section(db, ending: str) -> str:
    return db.execute("SELECT id FROM chunks WHERE kind = 'parent' AND heading_path LIKE ?",
                      [f"%{ending}"]).fetchone()[0]


def test_runs_open_and_close_on_content_words_and_hold_two():
    runs = quoted.quoted_runs(QUESTION)
    assert "fade from view" in runs
    # "makes you fade" holds two content words, "you fade from" opens on a stopword
    assert "you fade from" not in runs
    # each run holds two content words: "the boosted skill" closes on one but holds two
    assert all(len(r.split()) == quoted.QUOTED_WORDS for r in runs)
    assert quoted.quoted_runs("Which one of them is it?") == []


def test_the_section_a_rare_run_quotes_is_found(shelf):
    db, _ = shelf
    found = quoted.quoted_sections(db, QUESTION, set())
    assert _section(db, "Powers > Invisibility") in found
    # "fades from view" is another word to the word index: the camouflage is not quoted
    assert _section(db, "Powers > Camouflage") not in found
    assert quoted.quoted_sections(db, QUESTION, {_section(db, "Powers > Invisibility")}) == []


def test_a_run_many_sections_contain_quotes_none(shelf, monkeypatch):
    db, _ = shelf
    # "the boosted skill can defend against attempts" is in every list of enhancements
    asked = "Which power lets the boosted skill defend against attempts?"
    assert "boosted skill defend" in quoted.quoted_runs(asked)
    assert quoted.quoted_sections(db, asked, set()) == []
    # with more sections allowed to share a run, that run quotes them
    monkeypatch.setattr(quoted, "QUOTED_UP_TO", 20)
    assert len(quoted.quoted_sections(db, asked, set())) == 8


def test_the_quoted_section_is_a_seed_and_leads_to_what_it_names(shelf, monkeypatch):
    db, vectors = shelf
    invisibility = _section(db, "Powers > Invisibility")
    # one seed from vector search, and it is an enhancements list (the premise, checked
    # with no quoted seeds): the hash embedder ranks the short entry as MiniLM does not
    monkeypatch.setattr(rules, "SEEDS_PER_HOP", 1)
    monkeypatch.setattr(quoted, "QUOTED_SEEDS", 0)
    plain = rules.retrieve(vectors, db, QUESTION, k=10)
    assert invisibility not in plain["seeds"]
    assert not any(f["from_chunk"] == invisibility for f in plain["followed"])
    monkeypatch.setattr(quoted, "QUOTED_SEEDS", 2)
    result = rules.retrieve(vectors, db, QUESTION, k=10)
    assert invisibility in result["seeds"]
    followed = [f for f in result["followed"] if f["entity"] == "Stealth"]
    assert any(f["from_chunk"] == invisibility for f in followed)
    reached = next(p for p in result["results"] if p.section.endswith("> Stealth"))
    assert reached.via is not None and reached.via.from_chunk == invisibility


def test_a_quoted_section_of_another_book_is_no_seed_when_the_books_are_chosen(shelf):
    db, vectors = shelf
    result = rules.retrieve(vectors, db, QUESTION, k=10, books=("Core Rules",))
    assert _section(db, "Powers > Invisibility") not in result["seeds"]
