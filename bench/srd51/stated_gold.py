"""The relationships the 5.1 SRD's Markdown states, read by templates from the books (never
from what crossbook extracts), for recall per relation type (bench/eval_statblocks.py):

- casts: a stat block's use line ("1/day each: *commune*, *raise dead*") under the entry
  whose spellcasting lead speaks of it, and an entry that casts "the *X* spell";
- variant_of: a magic weapon's or armour's category line that names one base
  ("*Armor (plate), legendary*": Plate Armor of Etherealness variant_of Plate);
- inflicts: the creatures' conditions read by hand (tests/fixtures/statblocks/
  srd51_creature_conditions.json);
- casts, from a magic item's own lists (``item_casts``): a spell with its cost in charges
  ("*fireball* (7th-level version, 7 charges)"), the spells after "... spells from it:", and a
  column headed "Spell" in the item's table (a necklace's beads);
- wields (``wields``): a creature's gear as its stat block states it, read against the
  equipment book's weapon and armor tables: a weapon attack named by a weapon of the tables
  ("***Scimitar.*** *Melee Weapon Attack*") and the armor its Armor Class names
  ("**Armor Class** 15 (chain shirt, shield)"); "Light Crossbow" is the table's "Crossbow,
  light" and "leather armor" its "Leather";
- summons (``summons``): a creature or a magic item that summons or calls creatures the
  shelf's stat blocks define: a sentence whose verb is summon or call ("summon a water
  elemental", "calls 2d4 swarms of bats or rats"), a *conjure* spell limited to one creature
  ("*conjure elemental* (air elemental only)"), and a table column headed "Summoned"
  ("| Gem | Summoned Elemental |", "Berserkers Summoned": the rows or the header's creature).

Each item carries the template that read it in ``form``.
"""

from __future__ import annotations

import json
import re
from pathlib import Path

from bench.srd51.make_template_questions import CASTS, ITALIC, USE_LINE, load, plain, sections, speaker_is
from bench.srd51.source_gold import tables

CREATURE_BOOKS = ("11 monsters.md", "15 creatures.md", "16 npcs.md")
ITEMS_BOOK = "10 magic items.md"
EQUIPMENT_BOOK = "04 equipment.md"
BASE_LINE = re.compile(r"^\*(?:Weapon|Armor) \((?P<base>[^),]+)\)")
CHARGES = re.compile(r"\*(?P<name>[^*\n]+)\*\s*\((?:[^()]*?,\s*)?\d+(?: or more)? charges?\)")
FROM_IT = re.compile(r"spells? from it[^:.]*:(?P<rest>[^\n]+)")
WEAPON_ATTACK = re.compile(r"^\*\*\*(?P<name>[^*.(]+?)(?:\s*\([^)]*\))?\.\*\*\*?\s*\*?(?:Melee|Ranged)(?: or Ranged)? Weapon Attack")
ARMOR_CLASS = re.compile(r"^\*\*Armor(?: Class\*\*|\*\* Class)\s*\d+\s*\((?P<gear>[^)]*)\)")
SUMMON_VERB = re.compile(r"\b(?:summon(?:s|ed)?|call(?:s|ed)?(?: forth)?)\b", re.IGNORECASE)
CONJURE_ONLY = re.compile(r"\*conjure [^*]+\*\s*\((?P<name>[^()]+?) only\)", re.IGNORECASE)


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


def table_rows(lines: list[str]) -> list[list[list[str]]]:
    """The pipe tables of a section: each a list of rows of stripped cells, header first."""
    return tables("\n".join(lines), cell=str.strip)


def item_casts(books: Path, spells: dict[str, str]) -> list[dict]:
    """What a magic item's own lists cast: a spell with its cost in charges, the spells
    after "spells from it:", and the cells of a column headed "Spell"."""
    out = []
    for heading, lines in sections(books / ITEMS_BOOK):
        named = set()
        for line in lines:
            named |= {m.group("name").strip().lower() for m in CHARGES.finditer(line)}
            if after := FROM_IT.search(line):
                named |= {n.strip().lower() for n in ITALIC.findall(after.group("rest"))}
        for table in table_rows(lines):
            if "Spell" in table[0]:
                column = table[0].index("Spell")
                for row in table[1:]:
                    cell = row[column] if column < len(row) else ""
                    named |= {re.sub(r"\s*\([^)]*\)", "", part).strip().lower() for part in re.split(r"\s+or\s+", cell)}
        out += [{"source": heading, "target": n, "type": "casts", "form": "item list"} for n in sorted(named) if n in spells]
    return out


def equipment(books: Path) -> dict[str, str]:
    """The weapons and armor of the equipment book's tables: how a stat block may write one
    (lowercase: "scimitar", "light crossbow", "leather armor") -> the table's name."""
    out = {}
    for heading, lines in sections(books / EQUIPMENT_BOOK):
        for table in table_rows(lines):
            if table[0][0] not in ("Name", "Armor"):
                continue
            for row in table[1:]:
                name = plain(row[0])
                out[name.lower()] = name
                if ", " in name:  # "Crossbow, light" is a "light crossbow"
                    base, _, kind = name.partition(", ")
                    out[f"{kind} {base}".lower()] = name
                if table[0][0] == "Armor":
                    out[f"{name} armor".lower()] = name
    return out


def section_gear(lines: list[str], gear: dict[str, str]) -> list[tuple[str, str]]:
    """(as the stat block writes it, the equipment table's name) of a section's weapons (its
    weapon attacks named by a weapon of the tables) and armor (what its Armor Class names),
    each once, in the order written."""
    found: dict[str, str] = {}
    for line in lines:
        if (attack := WEAPON_ATTACK.match(line.strip())) and attack.group("name").strip().lower() in gear:
            found.setdefault(gear[attack.group("name").strip().lower()], attack.group("name").strip())
        if armor := ARMOR_CLASS.match(line.strip()):
            for worn in (g.strip() for g in armor.group("gear").split(",")):
                if worn.lower() in gear:
                    found.setdefault(gear[worn.lower()], worn)
    return [(surface, name) for name, surface in found.items()]


def wields(books: Path) -> list[dict]:
    """What each creature's stat block wields, as the equipment tables name it."""
    gear = equipment(books)
    return [{"source": heading, "target": name, "type": "wields", "form": "stat block"}
            for book in CREATURE_BOOKS for heading, lines in sections(books / book)
            for name in sorted({name for _, name in section_gear(lines, gear)})]


def creatures(books: Path) -> dict[str, str]:
    """Every stat block's name, lowercase and in the plural forms a sentence may use
    ("swarms of bats", "wolves", "berserkers") -> the name as its heading writes it."""
    out = {}
    for book in (*CREATURE_BOOKS, ITEMS_BOOK):
        for heading, lines in sections(books / book):
            if any(line.startswith(("**Armor Class**", "**Hit Points**")) for line in lines):
                name = heading.lower()
                first, _, rest = name.partition(" of ")
                plural = re.sub(r"f$", "ves", first) if first.endswith("f") else re.sub(r"(?<=[^s])$", "s", first)
                for form in (name, f"{plural} of {rest}" if rest else plural):
                    out.setdefault(form, heading)
    return out


def _named_creatures(text: str, names: dict[str, str]) -> set[str]:
    """The creatures a text names, longest names first, each span once; "swarms of bats or
    rats" also names "swarms of rats"."""
    text = re.sub(r"\b(\w+) of (\w+) or (\w+)\b", r"\1 of \2 or \1 of \3", text.lower())
    found, taken = set(), []
    for form in sorted(names, key=len, reverse=True):
        for m in re.finditer(rf"(?<![\w-]){re.escape(form)}(?![\w-])", text):
            if not any(a < m.end() and m.start() < b for a, b in taken):
                taken.append((m.start(), m.end()))
                found.add(names[form])
    return found


def summons(books: Path) -> list[dict]:
    """Creatures and magic items that summon or call creatures the shelf defines."""
    names = creatures(books)
    out = []
    for book in (*CREATURE_BOOKS, ITEMS_BOOK):
        for heading, lines in sections(books / book):
            found = set()
            for line in lines:
                for sentence in re.split(r"(?<=[.!?])\s+", plain(line)):
                    if verb := SUMMON_VERB.search(sentence):  # what it summons, up to the clause's end
                        found |= _named_creatures(re.split(r"[—–;:,(]", sentence[verb.end():])[0], names)
                found |= {names[m.group("name").lower()] for m in CONJURE_ONLY.finditer(line)
                          if m.group("name").lower() in names}
            for table in table_rows(lines):
                for column, head in enumerate(table[0]):
                    if "summoned" not in head.lower():
                        continue
                    cells = [row[column] for row in table[1:] if column < len(row)]
                    hits = set().union(*(_named_creatures(plain(c), names) for c in cells))
                    found |= hits or _named_creatures(plain(head), names)
            found.discard(heading)
            out += [{"source": heading, "target": c, "type": "summons", "form": "summon sentence"} for c in sorted(found)]
    return out


def stated(books: Path, conditions_gold: Path) -> list[dict]:
    spells, _ = load(books)
    creatures_gold = json.loads(conditions_gold.read_text(encoding="utf-8"))
    inflicts = [{"source": creature, "target": condition, "type": "inflicts"}
                for creature, conditions in creatures_gold.items() if not creature.startswith("_")
                for condition in conditions]
    before = casts(books, spells) + variants(books) + inflicts
    seen = {(g["source"].lower(), g["target"].lower(), g["type"]) for g in before}
    added = [g for g in item_casts(books, spells) if (g["source"].lower(), g["target"].lower(), "casts") not in seen]
    return before + added + wields(books) + summons(books)
