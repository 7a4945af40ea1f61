"""Write bench/srd51/template_questions.json: two-book questions made by templates over the
5.1 SRD's Markdown (never over what crossbook extracts), split by the first hop's book.

A question names a first-hop entry (a creature, an NPC, a magic item, a race's or a class's
feature, a spell) and asks about the one spell or condition that entry's text names there;
the answer is that spell's or condition's own section in another book. Four templates:

- a stat block's use line that names one spell ("1/day: *commune*");
- an entry whose section casts exactly one spell ("cast the *levitate* spell");
- a creature's action that names exactly one condition ("the target is grappled");
- a spell whose description names exactly one condition.

The first hop is named three ways in turn: as the book writes it, in lower case, and by a
part of its name or in other words ("Adult Red Dragon" -> "red dragon", "Boots of
Levitation" -> "levitation boots"). Books ``TUNE`` hold the first hops to tune on; the
others are the check half. The set was written, and committed, before any tuning.

    python -m bench.srd51.make_template_questions [--books DIR]
"""

from __future__ import annotations

import argparse
import json
import random
import re
from pathlib import Path

HERE = Path(__file__).resolve().parent
OUT = HERE / "template_questions.json"
SPELLS_BOOK, CONDITIONS_BOOK = "08 spellcasting.md", "12 conditions.md"
TUNE = ("11 monsters.md", "10 magic items.md")
CHECK = ("02 classes.md", "15 creatures.md", "16 npcs.md", "08 spellcasting.md", "01 races.md")
PER_TEMPLATE_AND_BOOK = 12
SEED = 51

HEADING = re.compile(r"^(#{1,6})\s+(.+?)\s*#*$")
ITALIC = re.compile(r"(?<![*\w])\*([^*\n]+?)\*(?!\*)")
USE_LINE = re.compile(r"^(?P<label>At will|\d/day(?: each)?|Cantrips \(at will\)|\d(?:st|nd|rd|th) level \(\d slots?\))"
                      r"\s*:\s*(?P<rest>.+)$", re.IGNORECASE)
CASTS = re.compile(r"(?:cast(?:s)?\s+(?:the\s+)?|know\s+the\s+)\*(?P<name>[^*\n]+)\*(?:\s+(?:spell|cantrip))?", re.IGNORECASE)
ACTION = re.compile(r"^\*\*\*(?P<action>[^*.]+?)(?:\s*\([^)]*\))?\.\*\*\*?")
ASKS_SPELL = ("What does that spell do?", "What are that spell's casting time and range?",
              "How long does that spell last?")
ASKS_CONDITION = ("What does that condition do to a creature?", "What can a creature in that condition not do?",
                  "How does that condition affect attack rolls?")
FREQUENCY = {"at will": "at will", "1/day": "once a day", "1/day each": "once a day",
             "2/day": "twice a day", "2/day each": "twice a day", "3/day": "three times a day",
             "3/day each": "three times a day", "cantrips (at will)": "at will as a cantrip"}


def plain(text: str) -> str:
    text = re.sub(r"[*_`]+", "", text).translate(str.maketrans({"’": "'", "‘": "'", "“": '"', "”": '"'}))
    return re.sub(r"\s+", " ", text).strip()


def sections(path: Path) -> list[tuple[str, list[str]]]:
    """(heading, lines) of every headed section, in order."""
    out: list[tuple[str, list[str]]] = []
    for line in path.read_text(encoding="utf-8").splitlines():
        match = HEADING.match(line)
        if match:
            out.append((plain(match.group(2)), []))
        elif out:
            out[-1][1].append(line)
    return out


def first_prose(lines: list[str]) -> str | None:
    """Eight words of a section's first prose line (not a field, a school line or a table)."""
    for line in lines:
        text = line.strip()
        if not text or text.startswith(("|", "**", "#")) or re.fullmatch(r"\*[^*]+\*", text):
            continue
        words = plain(text.lstrip("*-• ")).split()
        if len(words) >= 6:
            return " ".join(words[:8])
    return None


def window(line: str, name: str) -> str:
    """The plain line around ``name``: a quote of the first hop."""
    text = plain(line)
    at = text.lower().find(name.lower())
    lo = max(0, text.rfind(" ", 0, max(0, at - 40)) + 1) if at > 40 else 0
    hi = text.find(" ", at + len(name) + 30)
    return text[lo:hi if hi > 0 else len(text)].strip()


def named(name: str, way: int) -> tuple[str, str]:
    """(how the question names the entry, which way): as written, lower case, a part or other words."""
    words = name.split()
    if way == 0:
        return name, "as written"
    if way == 2 and " of " in name and len(words) <= 4:
        head, _, tail = name.partition(" of ")
        return f"{re.sub(r'^(?:the|a|an) ', '', tail.lower())} {head.lower()}", "other words"
    if way == 2 and len(words) >= 2:
        return " ".join(words[1:]).lower(), "part of the name"
    return name.lower(), "lower case"


def load(books: Path) -> tuple[dict[str, str], dict[str, str]]:
    """Spell name -> gold quote, condition name -> gold quote."""
    spells = {}
    secs = sections(books / SPELLS_BOOK)
    start = next(i for i, (h, _) in enumerate(secs) if h == "Acid Arrow")
    for heading, lines in secs[start:]:
        quote = first_prose(lines)
        if quote:
            spells[heading.lower()] = quote
    conditions = {h.lower(): q for h, lines in sections(books / CONDITIONS_BOOK) if (q := first_prose(lines))}
    return spells, conditions


def condition_in(text: str, conditions: dict[str, str]) -> list[str]:
    """The conditions a text puts on someone ("or be knocked prone", "the target is grappled"),
    not those it guards against ("against being frightened", "isn't incapacitated")."""
    low = plain(text).lower()
    if "against being" in low or "immune" in low:
        return []
    return sorted({c for c in conditions if re.search(
        rf"(?<!against being )(?<!immune to being )\b(?:be|is|are|becomes?|knocked|falls?) (?:\w+ )?{c}\b", low)})


def speaker_is(lines: list[str], line: str, heading: str) -> bool:
    """Whether the lead line over a use line speaks of the section's entry ("The archmage ..."
    under a missing heading is not the acolyte's)."""
    before = lines[:lines.index(line)]
    lead = next((li for li in reversed(before) if li.startswith("***")), "")
    return heading.split()[-1].lower() in lead.lower()


def candidates(books: Path, book: str, spells: dict[str, str], conditions: dict[str, str]) -> list[dict]:
    out = []
    for heading, lines in sections(books / book):
        body = "\n".join(lines)
        if book == SPELLS_BOOK:
            if heading.lower() in spells and len(found := condition_in(body, conditions)) == 1:
                line = next(li for li in lines if re.search(rf"\b{found[0]}\b", plain(li).lower()))
                out.append({"template": "spell-condition", "entry": heading, "via": found[0], "line": line,
                            "lead": f"The spell {{entry}} can leave a creature {found[0] and 'in a condition'}."})
            continue
        for line in lines:
            use = USE_LINE.match(line.strip())
            names = [n.lower() for n in ITALIC.findall(line)]
            if use and len(names) == 1 and names[0] in spells and speaker_is(lines, line, heading):
                how = FREQUENCY.get(use.group("label").lower(), "as a " + use.group("label").split(" (")[0] + " spell")
                out.append({"template": "use-line", "entry": heading, "via": names[0], "line": line,
                            "lead": f"{{Entry}} can cast one spell {how}."})
            action = ACTION.match(line.strip())
            if action and len(found := condition_in(line, conditions)) == 1:
                out.append({"template": "action-condition", "entry": heading, "via": found[0], "line": line,
                            "lead": f"The {action.group('action').strip().lower()} of {{entry}} can leave its target in a condition."})
        cast = {m.group("name").lower() for m in CASTS.finditer(body)} & set(spells)
        if len(cast) == 1 and not any(USE_LINE.match(li.strip()) for li in lines) and "spell" not in heading.lower():
            via = cast.pop()
            line = next(li for li in lines if f"*{via}*" in li.lower())
            out.append({"template": "casts-one-spell", "entry": heading, "via": via, "line": line,
                        "lead": "{Entry} lets its user cast a spell."})
    return out


def question(c: dict, way: int, book: str, spells: dict[str, str], conditions: dict[str, str], n: int) -> dict:
    name, how = named(c["entry"], way)
    name = re.sub(r"^(?:the|a|an) ", "", name, flags=re.IGNORECASE)
    lead = c["lead"].replace("{Entry}", name[:1].upper() + name[1:]).replace("{entry}", name)
    is_spell = c["via"] in spells and c["template"] in ("use-line", "casts-one-spell")
    asks = ASKS_SPELL if is_spell else ASKS_CONDITION
    second = {"file": SPELLS_BOOK, "quote": spells[c["via"]]} if is_spell else \
        {"file": CONDITIONS_BOOK, "quote": conditions[c["via"]]}
    return {
        "question": f"{lead} {asks[n % len(asks)]}",
        "via": c["via"].title(), "template": c["template"], "named": how,
        "split": "tune" if book in TUNE else "check",
        "first_hop": {"file": book, "quote": window(c["line"], c["via"])},
        "second_hop": second,
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--books", type=Path, default=Path("/work/shared/corpora/srd51/markdown"))
    args = parser.parse_args()
    spells, conditions = load(args.books)
    rng = random.Random(SEED)
    questions = []
    for book in (*TUNE, *CHECK):
        found = candidates(args.books, book, spells, conditions)
        by_template: dict[str, list[dict]] = {}
        for c in found:
            by_template.setdefault(c["template"], []).append(c)
        for template in sorted(by_template):
            picked = rng.sample(by_template[template], min(PER_TEMPLATE_AND_BOOK, len(by_template[template])))
            for c in picked:
                questions.append(question(c, len(questions) % 3, book, spells, conditions, len(questions)))
    about = ("Two-book questions written by templates over the 5.1 SRD's Markdown (bench/srd51/"
             "make_template_questions.py), never over crossbook's own edges; fixed before tuning. "
             "'split' is tune when the first hop's book is one of " + ", ".join(TUNE) + ", else check.")
    spec = json.loads((HERE / "questions.json").read_text(encoding="utf-8"))
    OUT.write_text(json.dumps({"about": about, "books": spec["books"], "questions": questions},
                              indent=1, ensure_ascii=False) + "\n", encoding="utf-8")
    print(f"{len(questions)} questions -> {OUT}")


if __name__ == "__main__":
    main()
