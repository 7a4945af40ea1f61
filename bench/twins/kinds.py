"""The kinds each shelf's books state, and their members: what "types of the named kinds"
scores (bench/twins/eval_halves.py). Read from the books and their gold, never from what
crossbook extracts; written beside each shelf's gold by ``python -m bench.twins.write_halves``
(bench/srd51/kinds.json, bench/fate/kinds.json, bench/ironsworn/kinds.json,
sample_corpus/kinds.json).

A kind is the book's own word for a sort of thing ("class", "stunt", "ritual", "foe"), how
the book states it, its members, and the type an index should give them: one of the rulebook
kinds crossbook writes (index/extract/entry_kinds.py ``RULEBOOK_KINDS``; a domain pack's own
types on the sample), or null where none fits (a race, a Fate approach, an Ironsworn move):
a kind with a null type is named, not scored.
"""

from __future__ import annotations

import json
import re
from collections import defaultdict
from pathlib import Path

from bench.srd51 import eval_definitions as D
from bench.srd51.make_template_questions import sections as srd_sections
from bench.srd51.stated_gold import CREATURE_BOOKS, ITEMS_BOOK, equipment

ROOT = Path(__file__).resolve().parents[2]
# a magic item's category line ("*Wondrous item, rare*", "*Armor (plate), legendary*")
# a spell's level and school line ("*2nd-level evocation*", "*Conjuration cantrip*"); a table's
# caption under the catalog ("#### Precipitation" of Control Weather) has none
SPELL_LINE = re.compile(r"^\*(?:\d\w\w-level \w+|\w+ cantrip)", re.IGNORECASE)
ITEM_LINE = re.compile(r"^\*(?:Wondrous item|Weapon|Armor|Ring|Rod|Staff|Wand|Potion|Scroll)\b")


def kind(word: str, type_: str | None, stated_by: str, members) -> dict:
    return {"kind": word, "type": type_, "stated_by": stated_by, "members": sorted(set(members), key=str.lower)}


def srd51(markdown: Path) -> list[dict]:
    """The 5.1 SRD's kinds: its listed classes, skills and conditions (eval_definitions'
    gold), its catalogs (spells, magic items, stat blocks, feats), the weapons and armor of
    its equipment tables, and its races (no crossbook type)."""
    gold = D.gold(markdown)
    files = gold["files"]
    display = {}
    for text in files.values():
        written = [name for _, name, _ in D.headings(text)]
        written += [D.clean(item) for item in re.findall(r"(?m)^\s*[-*]\s+(.+?)\s*$", text)]
        for name in written:
            display.setdefault(D.normalize_name(name), name)
    listed = defaultdict(list)
    for normalized, k in gold["kinds"].items():
        listed[k].append(display.get(normalized, normalized.replace("_", " ").title()))
    spells, items, creatures, feats, races = [], [], [], [], []
    for stem, text in files.items():
        for path, body in D.sections(text):
            parent = next((p for p in reversed(path[:-1]) if p), "")  # a skipped level is an empty part
            if parent == "Spell Descriptions" and SPELL_LINE.match(body.strip()):
                spells.append(path[-1])
            elif stem == Path(ITEMS_BOOK).stem and ITEM_LINE.match(body.strip()):
                items.append(path[-1])
            if stem == "05 feats" and len(path) > 1:
                feats.append(path[-1])
            if stem == "01 races" and len(path) == 2 and path[-1] != "Racial Traits":
                races.append(path[-1])
    for book in (*CREATURE_BOOKS, ITEMS_BOOK):
        creatures += [h for h, lines in srd_sections(markdown / book)
                      if any(line.startswith(("**Armor Class**", "**Hit Points**")) for line in lines)]
    gear = sorted(set(equipment(markdown).values()))
    return [
        kind("class", "class", "the classes book: one chapter per class", listed["class"]),
        kind("skill", "skill", "the list under 'Skills' in Using Ability Scores", listed["skill"]),
        kind("condition", "condition", "the headings of 'Appendix PH-A: Conditions'", listed["condition"]),
        kind("spell", "spell", "the entries under 'Spell Descriptions' (a level and school line)", spells),
        kind("magic item", "item", "a section of the Magic Items book opening with its category line", items),
        kind("creature", "creature", "a section with a stat block (Armor Class, Hit Points)", creatures),
        kind("feat", "feature", "the entries of the Feats book", feats),
        kind("weapon or armor", "item", "the rows of the equipment book's weapon and armor tables", gear),
        kind("race", None, "the chapters of the Races book ('Dwarf Traits')", races),
    ]


def fate(gold_path: Path) -> list[dict]:
    """Fate's kinds from its gold's ``kind`` field (bench/fate/build_gold.py): the skill
    lists, the stunts of every kind, the Toolkit's spells and War of Ashes' rituals, the
    Toolkit's creatures; the rest named with no crossbook type."""
    definitions = json.loads(gold_path.read_text(encoding="utf-8"))["definitions"]
    by_kind = defaultdict(list)
    for d in definitions:
        by_kind[d["kind"]].append(d["name"])
    typed = {"skill": "skill", "spell": "spell", "ritual": "spell", "creature": "creature"}
    out = []
    for word in sorted(by_kind):
        type_ = typed.get(word) or ("feature" if word.endswith("stunt") else None)
        out.append(kind(word, type_, "bench/fate/gold.json definitions of this kind", by_kind[word]))
    return out


def ironsworn(vault: Path) -> list[dict]:
    """Ironsworn's kinds: the debilities (conditions, banes and burdens of Chapter 2), the
    foes of Chapter 5 (a note whose callout gives a Rank), the asset cards by their tag
    (#Asset/Ritual, #Asset/Combat_Talent, #Asset/Companion, #Asset/Path), the moves of
    Chapter 3 (a note whose summary callout says what to roll)."""
    notes = {p: p.read_text(encoding="utf-8") for p in sorted(vault.rglob("*.md"))
             if not any(part.startswith(".") for part in p.relative_to(vault).parts)}
    debilities = []
    for name in ("Conditions.md", "Debilities.md"):
        text = notes.get(vault / "Chapter 2" / name, "")
        debilities += re.findall(r"(?m)^>- ([A-Z][a-z]+) (?:may be|is) marked", text)
    tags = defaultdict(list)
    for path, text in notes.items():
        for tag in re.findall(r"(?m)^\s*#Asset/(\w+)\s*$", text):  # a tag line, not a query's
            tags[tag].append(path.stem)
    foes = [p.stem for p, text in notes.items() if p.parent.name == "Chapter 5" and re.search(r"(?m)^>\s*Rank:", text)]
    moves = [p.stem for p, text in notes.items() if p.parent.name == "Chapter 3"
             and re.search(r"(?m)^>\[!tldr\]", text) and re.search(r"(?i)roll \+", text)]
    return [
        kind("debility", "condition", "Chapter 2: Conditions, Banes, Burdens ('Wounded may be marked...')", debilities),
        kind("foe", "creature", "Chapter 5: a note whose callout gives the foe's Rank", foes),
        kind("ritual", "spell", "the #Asset/Ritual tag", tags["Ritual"]),
        kind("combat talent", "feature", "the #Asset/Combat_Talent tag", tags["Combat_Talent"]),
        kind("companion", None, "the #Asset/Companion tag", tags["Companion"]),
        kind("path", None, "the #Asset/Path tag", tags["Path"]),
        kind("move", None, "Chapter 3: a note whose summary callout says what to roll", moves),
    ]


def sample(gold_path: Path) -> list[dict]:
    """The sample's kinds: its pack's types, with the definitions its gold lists of each."""
    by_type = defaultdict(list)
    for section in json.loads(gold_path.read_text(encoding="utf-8"))["sections"]:
        for d in section["defines"]:
            by_type[d["type"]].append(d["name"])
    return [kind(t, t if t != "other" else None, "the Emberfall pack's type, from sample_corpus/gold.json", names)
            for t, names in sorted(by_type.items())]
