"""The relationships the 5.1 SRD's Markdown states, read by templates from the books (never
from what crossbook extracts), for recall per relation type (bench/eval_statblocks.py):

- casts: a stat block's use line ("1/day each: *commune*, *raise dead*") under the entry
  whose spellcasting lead speaks of it, and an entry that casts "the *X* spell";
- variant_of: a magic weapon's or armour's category line that names one base
  ("*Armor (plate), legendary*": Plate Armor of Etherealness variant_of Plate);
- inflicts: the creatures' conditions read by hand (tests/fixtures/statblocks/
  srd51_creature_conditions.json).
"""

from __future__ import annotations

import json
import re
from pathlib import Path

from bench.srd51.make_template_questions import CASTS, ITALIC, USE_LINE, load, sections, speaker_is

CREATURE_BOOKS = ("11 monsters.md", "15 creatures.md", "16 npcs.md")
ITEMS_BOOK = "10 magic items.md"
BASE_LINE = re.compile(r"^\*(?:Weapon|Armor) \((?P<base>[^),]+)\)")


def casts(books: Path, spells: dict[str, str]) -> list[dict]:
    out = []
    for book in (*CREATURE_BOOKS, ITEMS_BOOK):
        for heading, lines in sections(books / book):
            if "spell" in heading.lower():
                continue  # a rule about spellcasting, no entry
            named = set()
            for line in lines:
                if USE_LINE.match(line.strip()) and speaker_is(lines, line, heading):
                    named |= {n.strip().lower() for n in ITALIC.findall(line)}
            named |= {m.group("name").lower() for m in CASTS.finditer("\n".join(lines))}
            out += [{"source": heading, "target": n, "type": "casts"} for n in sorted(named) if n in spells]
    return out


def variants(books: Path) -> list[dict]:
    out = []
    for heading, lines in sections(books / ITEMS_BOOK):
        first = next((line for line in lines if line.strip()), "")
        base = BASE_LINE.match(first)
        if base and not base.group("base").startswith("any") and " or " not in base.group("base"):
            out.append({"source": heading, "target": base.group("base"), "type": "variant_of"})
    return out


def stated(books: Path, conditions_gold: Path) -> list[dict]:
    spells, _ = load(books)
    creatures = json.loads(conditions_gold.read_text(encoding="utf-8"))
    inflicts = [{"source": creature, "target": condition, "type": "inflicts"}
                for creature, conditions in creatures.items() if not creature.startswith("_")
                for condition in conditions]
    return casts(books, spells) + variants(books) + inflicts
