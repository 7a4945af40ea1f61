"""A first hop the question names loosely (index/query/loose_names.py): in lower case, by a
part of its name, or with an "X of Y" name turned round, still links the entry's section."""

from __future__ import annotations

import pytest

from crossbook.ingest.pipeline import ingest_paths
from crossbook.query.loose_names import heading_sections, loose_names
from crossbook.query.question import parse_question, question_names
from tests.conftest import make_job

BOOK = """# Bestiary

## Monsters

### Dust Mephit

***Innate Spellcasting.*** The mephit can innately cast *sleep*.

### Steam Mephit

***Innate Spellcasting.*** The mephit can innately cast *blur*.

### Lion

***Pounce.*** If the lion moves 20 feet toward a creature, the target must succeed on a save or be knocked prone.

## Rules

### Fight

A fight is a contest of blows between two sides, round after round.

## Eldritch Invocations

### Eldritch Sight

You can cast *detect magic* at will, without expending a spell slot.

### Thief of Five Fates

You can cast *bane* once using a warlock spell slot.

# Monk

## Advancement

### Empty Body

Beginning at 18th level, you can spend 8 ki points to cast the *astral projection* spell.

## Powers

### Basic Energy Blast

You hurl raw energy at a target two zones away.

### Mental Blast

You strike a mind with a blast of will.

## Magic Items

### Boots of Levitation

While you wear these boots, you can cast *levitate* on yourself at will.
"""


@pytest.fixture(scope="module")
def db(tmp_path_factory):
    tmp = tmp_path_factory.mktemp("loose")
    book = tmp / "bestiary.md"
    book.write_text(BOOK, encoding="utf-8")
    job = make_job(tmp / "index")
    ingest_paths(job, [book])
    return job.db


def _loose(db, question: str) -> list[str]:
    return loose_names(db, parse_question(question), set(question_names(question)))


def test_a_lowercase_name_links_its_entry(db):
    assert "lion" in _loose(db, "The pounce of the lion can leave its target in a condition.")
    assert "lion" not in question_names("The pounce of the lion can leave its target in a condition.")


def test_a_part_of_a_name_links_the_entries_it_ends(db):
    assert set(_loose(db, "What spell can a mephit cast?")) == {"dust_mephit", "steam_mephit"}


def test_an_of_name_turned_round_links_its_entry(db):
    assert _loose(db, "What spell do levitation boots cast?")[:1] == ["boots_of_levitation"]


def test_a_whole_name_wins_over_parts(db):
    # the question names the Dust Mephit: no other mephit is linked by its last word
    assert "steam_mephit" not in _loose(db, "What spell can a Dust Mephit cast?")


def test_one_lowercase_word_of_a_rule_links_nothing(db):
    types = dict(db.execute("SELECT normalized, entity_type FROM entities").fetchall())
    assert types.get("fight") not in ("creature", "spell", "item", "feature", "class", "skill", "condition")
    assert "fight" not in _loose(db, "What happens when you fight back?")


def test_a_part_of_a_name_links_an_entry_of_any_kind(db):
    kinds = dict(db.execute("SELECT normalized, entity_type FROM entities").fetchall())
    assert kinds["eldritch_sight"] == "other"  # an invocation: no kind the books give
    assert "eldritch_sight" in _loose(db, "Sight lets its user cast a spell. How long does that spell last?")


def test_a_longer_of_name_turned_round_links_its_entry(db):
    assert "thief_of_five_fate" in _loose(db, "Five fates thief lets its user cast a spell.")


@pytest.fixture(scope="module")
def rolls_db(tmp_path_factory):
    tmp = tmp_path_factory.mktemp("rolls")
    topics = "".join(f"### Topic {n}\n\nYou roll the dice for topic {n}.\n\n" for n in range(30))
    book = tmp / "rules.md"
    book.write_text(f"# Rules\n\n## Topics\n\n{topics}## Feats\n\n### Progress Roll\n\nA Progress Roll counts"
                    " ticks.\n\n### Iron Will\n\nYou never yield.\n", encoding="utf-8")
    job = make_job(tmp / "index")
    ingest_paths(job, [book])
    return job.db


def test_a_common_word_is_no_part_of_a_name(rolls_db):
    assert "progress_roll" in _loose(rolls_db, "What does a progress roll count?")
    # "roll" is in most of the shelf's sections: it stands for no name that ends in it
    assert "progress_roll" not in _loose(rolls_db, "What do you roll on a weak hit?")


def test_a_heading_no_entity_is_defined_by_names_its_section(db):
    assert not db.execute("SELECT 1 FROM entities WHERE normalized = 'empty_body'").fetchall()
    rows = heading_sections(db, question_names("Empty Body lets its user cast a spell."))
    assert [(name, heading) for name, heading, _, _ in rows] == [("empty_body", "Empty Body")]
    # in lower case too, and it is a name named whole: no part of another name is linked
    assert _loose(db, "What spell does empty body let its user cast?") == ["empty_body"]


def test_the_longest_part_that_stands_for_names_wins(db):
    linked = _loose(db, "How far does an energy blast reach?")
    # "energy blast" ends Basic Energy Blast; "blast" would add Mental Blast as well
    assert "basic_energy_blast" in linked and "mental_blast" not in linked
