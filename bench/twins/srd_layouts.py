"""The 5.1 SRD laid out in other forms that books of other games use: twins of the Markdown
shelf, made by regular expressions over its real text (no game content is written), so every
name, kind and stated relationship of srd51's gold carries over to each twin.

Three twins, each a folder of the same 17 book files (CRLF kept):

- ``headings``: classes are second-level headings under a "Classes" chapter, each with a
  traits table under a heading titled by its name and a kind word ("### Barbarian Traits",
  from the class's Hit Points and Proficiencies fields) and its features under
  "Barbarian Features"; the skills are the rows of a table (``| Skill | Ability |``) and their
  leads in the ability sections are gone, so only the rows define them; a creature's gear
  (its weapon attacks and the armor its Armor Class names) is a field line "Gear: Scimitar,
  Leather armor".
- ``leads``: classes as above, the traits table titled by a bold caption ("**Core Barbarian
  Traits**"), "As a member of the Barbarian class, you gain..."; the skills list is gone and
  each skill is a bold lead ("**Athletics.** Your Strength (Athletics) check..."); every stat
  block field is a list item ("- **Armor Class** 17") and the gear one more ("- **Kit**
  Scimitar, Shortbow"); "the *wish* spell" is "the Wish spell"; creatures and items "call
  forth" what srd51 has them summon or call.
- ``tables``: classes as above, the traits table titled in its header row ("| Barbarian
  Traits | |"); the skills as srd51 lists them; a stat block's fields are the rows of one
  two-column table, with an "Equipment" row for its gear; "the prone condition" is "the
  Prone condition"; what srd51 has creatures call, they "summon".

The gold of a twin is srd51's (``bench/srd51``: its listed kinds, catalog entries and stated
relationships, the questions whose quotes the twin still prints); the fair count of its
definitions reads the twin's own Markdown (``eval_definitions.source_names``) and rejects the
labels a twin adds (``added_labels``: "Barbarian Traits", "Hit Dice", "Kit"...).

    python -m bench.twins.write_twins [--out DIR] [--twin headings|leads|tables]
"""

from __future__ import annotations

import re
from pathlib import Path

from bench.srd51.stated_gold import CREATURE_BOOKS, ITEMS_BOOK, equipment, section_gear

ROOT = Path(__file__).resolve().parents[2]

TWINS = ("headings", "leads", "tables")
CLASSES_BOOK, MECHANICS_BOOK = "02 classes.md", "06 mechanics.md"
GEAR_LABEL = {"headings": "Gear", "leads": "Kit", "tables": "Equipment"}
FIELD_LABELS = ("Armor Class", "Hit Points", "Speed", "Saving Throws", "Skills", "Damage Vulnerabilities",
                "Damage Resistances", "Damage Immunities", "Condition Immunities", "Senses", "Languages", "Challenge")
FIELD = re.compile(r"^\*\*(?P<label>[A-Z][A-Za-z ]+?)\*\*(?P<tail> Class)?\s+(?P<rest>\S.*)$")
TRAIT_FIELD = re.compile(r"\*\*(?P<label>[^*:]+?):\*\*\s*(?P<value>.*?)(?=\s*\*\*[^*:]+?:\*\*|$)")
SETEXT_H1, SETEXT_H2 = re.compile(r"^=+\s*$"), re.compile(r"^-{3,}\s*$")
ATX = re.compile(r"^(#{1,6})(\s+.*)$")
_SMALL = {"a", "an", "and", "as", "at", "by", "for", "from", "in", "of", "on", "or", "the", "to", "with"}


def tidy(lines: list[str]) -> list[str]:
    """The lines with each run of blank lines made one (where a twin took lines out)."""
    return [line for i, line in enumerate(lines) if line.strip() or not i or lines[i - 1].strip()]


def title_case(name: str) -> str:
    """"conjure elemental" -> "Conjure Elemental", "protection from evil and good" ->
    "Protection from Evil and Good"."""
    words = name.split(" ")
    return " ".join(w if i and w in _SMALL else w[:1].upper() + w[1:] for i, w in enumerate(words))


# -- classes ------------------------------------------------------------------------------------

def _class_blocks(lines: list[str]) -> list[tuple[str, list[str]]]:
    """(class name, the lines after its setext heading) of each class, in order."""
    starts = [i - 1 for i, line in enumerate(lines) if i and SETEXT_H1.match(line) and lines[i - 1].strip()]
    return [(lines[s].strip(), lines[s + 2:(starts[n + 1] if n + 1 < len(starts) else len(lines))])
            for n, s in enumerate(starts)]


def _traits(body: list[str]) -> tuple[list[tuple[str, str]], list[str]]:
    """The fields of the class's "Hit Points" and "Proficiencies" sections, and the body
    without those two sections."""
    fields, kept, inside = [], [], False
    paragraph: list[str] = []
    for line in body:
        heading = ATX.match(line)
        if heading:
            inside = heading.group(2).strip() in ("Hit Points", "Proficiencies")
            if inside:
                continue
        if inside:
            paragraph.append(line.strip())
        else:
            kept.append(line)
    text = " ".join(p for p in paragraph if p)
    fields = [(m.group("label").strip(), m.group("value").strip()) for m in TRAIT_FIELD.finditer(text)]
    return fields, kept


def _traits_table(name: str, fields: list[tuple[str, str]], twin: str) -> list[str]:
    rows = [f"| {label} | {value} |" for label, value in fields]
    if twin == "headings":
        return [f"### {name} Traits", "", rows[0], "|---|---|", *rows[1:], ""]
    if twin == "leads":
        return [f"**Core {name} Traits**", "", rows[0], "|---|---|", *rows[1:], ""]
    return [f"| {name} Traits | |", "|---|---|", *rows, ""]


def classes_layout(text: str, twin: str) -> str:
    """Classes as second-level headings under a "Classes" chapter, each with its traits table."""
    lines = text.split("\n")
    out = ["Classes", "=======", ""]
    for name, body in _class_blocks(lines):
        fields, body = _traits(body)
        out += [f"## {name}", "", *_traits_table(name, fields, twin)]
        for i, line in enumerate(body):
            if SETEXT_H2.match(line) and i and body[i - 1].strip():
                continue  # the underline of the heading written on the line before
            if i + 1 < len(body) and SETEXT_H2.match(body[i + 1]) and line.strip():
                heading = line.strip()
                if twin == "headings" and heading == "Class Features":
                    heading = f"{name} Features"
                out.append(f"### {heading}")
            elif heading := ATX.match(line):
                out.append(f"#{heading.group(1)}{heading.group(2)}")
            elif twin == "leads":
                out.append(re.sub(r"^As an? \w+, you (gain|have) the following class features\.",
                                  rf"As a member of the {name} class, you \1 the following class features.", line))
            else:
                out.append(line)
    return "\n".join(out)


# -- skills -------------------------------------------------------------------------------------

def skills_layout(text: str, twin: str) -> str:
    """The skills list under "### Skills" as a table (headings), or gone with the skills'
    leads made bold (leads); the tables twin keeps srd51's list."""
    if twin == "tables":
        return text
    lines = text.split("\n")
    start = lines.index("### Skills")
    end = next(i for i in range(start + 1, len(lines)) if lines[i].startswith("### "))
    pairs, listed, ability = [], set(), None
    for i in range(start + 1, end):
        if m := re.match(r"^#### (Strength|Dexterity|Constitution|Intelligence|Wisdom|Charisma)\s*$", lines[i]):
            ability = m.group(1)
            listed.add(i)
        elif ability and (m := re.match(r"^- (.+?)\s*$", lines[i])):
            pairs.append((m.group(1), ability))
            listed.add(i)
    first = min(listed)
    block = ["| Skill | Ability |", "|---|---|", *(f"| {s} | {a} |" for s, a in pairs)] if twin == "headings" else []
    out = [*lines[:first], *block, *(line for i, line in enumerate(lines) if i >= first and i not in listed)]
    skills = "|".join(re.escape(s) for s, _ in pairs)
    lead = re.compile(rf"^\*\*\*({skills})\.\*\*\* ?")
    return "\n".join(lead.sub("" if twin == "headings" else r"**\1.** ", line) for line in tidy(out))


# -- stat blocks --------------------------------------------------------------------------------

def _sections(lines: list[str]) -> list[list[str]]:
    """The lines split before each ATX heading."""
    out: list[list[str]] = [[]]
    for line in lines:
        if ATX.match(line):
            out.append([])
        out[-1].append(line)
    return out


def _field(line: str) -> re.Match | None:
    m = FIELD.match(line)
    return m if m and (m.group("label") + (m.group("tail") or "")) in FIELD_LABELS else None


def stat_block(section: list[str], twin: str, gear: dict[str, str]) -> list[str]:
    """One section with its stat block's fields and gear laid out as the twin lays them."""
    if not any(_field(line) and line.startswith("**Armor") for line in section):
        return section
    worn = [surface[:1].upper() + surface[1:] for surface, _ in section_gear(section, gear)]
    label = GEAR_LABEL[twin]
    out, rows, at = [], [], None
    for line in section:
        field = _field(line)
        if twin == "tables" and field:
            at = len(out) if at is None else at
            rows.append(f"| {field.group('label')}{field.group('tail') or ''} | {field.group('rest').replace('|', '/')} |")
            continue
        out.append(f"- {line}" if twin == "leads" and field else line)
        if field and field.group("label") == "Challenge" and worn and twin != "tables":
            out += ["", f"{label}: {', '.join(worn)}" if twin == "headings" else f"- **{label}** {', '.join(worn)}"]
    if twin == "tables" and rows:
        rows += [f"| {label} | {', '.join(worn)} |"] if worn else []
        out[at:at] = ["", rows[0], "|---|---|", *rows[1:], ""]
        out = tidy(out)
    return out


def stat_blocks_layout(text: str, twin: str, gear: dict[str, str]) -> str:
    return "\n".join(line for section in _sections(text.split("\n")) for line in stat_block(section, twin, gear))


# -- phrases ------------------------------------------------------------------------------------

def type_phrases(text: str, twin: str, conditions: set[str]) -> str:
    """How the text names a spell ("the Wish spell") and a condition ("the Prone condition")."""
    if twin == "leads":
        return re.sub(r"\bthe \*([a-z][^*\n]*?)\* spell\b", lambda m: f"the {title_case(m.group(1))} spell", text)
    if twin == "tables":
        return re.sub(r"\bthe ([a-z]+) condition\b",
                      lambda m: f"the {m.group(1).title()} condition" if m.group(1) in conditions else m.group(0), text)
    return text


def summon_phrases(text: str, twin: str) -> str:
    """How a creature or an item summons: srd51's "summon a water elemental" and "calls 2d4
    swarms of bats" are "call forth ..." (leads) or "summons 2d4 ..." (tables)."""
    if twin == "leads":
        return re.sub(r"\b(?:summon|call)(s?) (?=an? |the |\d)", r"call\1 forth ", text)
    if twin == "tables":
        return re.sub(r"\bcall(s?) (?=\d)", r"summon\1 ", text)
    return text


def relay(twin: str, markdown: Path, out: Path, conditions: set[str]) -> Path:
    """Write the twin's books to ``out/twin`` (the same file names as srd51's); returns the folder."""
    folder = out / twin
    folder.mkdir(parents=True, exist_ok=True)
    gear = equipment(markdown)
    for book in sorted(markdown.glob("*.md")):
        text = book.read_text(encoding="utf-8")
        if book.name == CLASSES_BOOK:
            text = classes_layout(text, twin)
        if book.name == MECHANICS_BOOK:
            text = skills_layout(text, twin)
        if book.name in (*CREATURE_BOOKS, ITEMS_BOOK):  # where srd51's creatures and items summon
            text = summon_phrases(stat_blocks_layout(text, twin, gear), twin)
        (folder / book.name).write_text(type_phrases(text, twin, conditions), encoding="utf-8", newline="\r\n")
    return folder


def added_labels(twin: str, markdown: Path) -> dict[str, set[str]]:
    """Book stem -> the names the twin writes as labels, not entries: the chapter "Classes",
    each traits table's title and row labels, "<Class> Features", the stat block's field
    labels and its gear label."""
    classes = [name for name, _ in _class_blocks((markdown / CLASSES_BOOK).read_text(encoding="utf-8").split("\n"))]
    traits = [label for _, body in _class_blocks((markdown / CLASSES_BOOK).read_text(encoding="utf-8").split("\n"))
              for label, _ in _traits(body)[0]]
    title = {"headings": "{} Traits", "leads": "Core {} Traits", "tables": "{} Traits"}[twin]
    out = {Path(CLASSES_BOOK).stem: {"Classes", *traits, *(title.format(c) for c in classes),
                                     *(f"{c} Features" for c in classes if twin == "headings")}}
    for book in (*CREATURE_BOOKS, ITEMS_BOOK):
        out[Path(book).stem] = {*FIELD_LABELS, GEAR_LABEL[twin]}
    return out
