"""A kind one book states does not split a name from the same name in a book that states
none; two stated kinds (a spell and an armour both named "Shield") stay two."""

from crossbook.ingest.pipeline import ingest_paths
from crossbook.storage.db import open_db
from tests.conftest import make_job
from tests.fakes import ScriptedExtractor, m
from tests.helpers import write


def _types(db, normalized):
    return sorted(r[0] for r in db.execute("SELECT entity_type FROM entities WHERE normalized = ?", [normalized]))


def test_an_unstated_kind_joins_the_one_stated_kind(tmp_path, index_dir):
    skills = write(tmp_path / "skills.md", "# Skills\n\n## Stealth\nStealth is hiding.\n")
    gear = write(tmp_path / "gear.md", "# Gear\n\n## Sneaking\nStealth: move quietly.\n")
    script = {
        "Stealth": [m("Stealth", "skill", "defines", "Stealth is hiding.")],
        "Sneaking": [m("Stealth", "other", "defines", "Stealth: move quietly.")],
    }
    ingest_paths(make_job(index_dir, pack="generic", extractor=ScriptedExtractor(script)), [skills, gear])
    assert _types(open_db(index_dir), "stealth") == ["skill"]


def test_two_stated_kinds_stay_two_and_an_unstated_one_stays_apart(tmp_path, index_dir):
    book = write(tmp_path / "a.md", "# B\n\n## Shield\nShield the spell.\n\n## Shield Armor\nA Shield is armor.\n\n"
                 "## Odd\nShield: odd.\n")
    script = {
        "Shield": [m("Shield", "spell", "defines", "Shield the spell.")],
        "Shield Armor": [m("Shield", "item", "defines", "A Shield is armor.")],
        "Odd": [m("Shield", "other", "defines", "Shield: odd.")],
    }
    ingest_paths(make_job(index_dir, pack="generic", extractor=ScriptedExtractor(script)), [book])
    assert _types(open_db(index_dir), "shield") == ["item", "other", "spell"]


def test_a_part_of_an_entry_does_not_take_a_name_of_no_kind(tmp_path, index_dir):
    book = write(tmp_path / "a.md", "# B\n\n## Strength\nStrength is might.\n\n## Ioun Stone\nStrength: +2.\n")
    script = {
        "Strength": [m("Strength", "other", "defines", "Strength is might.")],
        "Ioun Stone": [m("Strength", "feature", "defines", "Strength: +2.")],
    }
    ingest_paths(make_job(index_dir, pack="generic", extractor=ScriptedExtractor(script)), [book])
    assert _types(open_db(index_dir), "strength") == ["feature", "other"]
