"""Build bench/fate/gold.json: the definitions and cross-book references of the Fate shelf.

Mechanical, from the books' own structure, with per-book knowledge of where the catalogs
are (this is the yardstick, not the product: it never imports crossbook's extractor):

- catalog entries: the child headings of a catalog heading (Fate Core's skills, Venture
  City's powers, the Toolkit's magic systems...), qualifiers such as "(2 skill points)"
  stripped;
- glossary-style entries: a paragraph or list item that opens with a bold name
  (``**Sprinter**.``, ``<strong>Flight:</strong>``, ``- Careful: A Careful action``) inside the
  sections that hold a catalog;
- the first column of catalog tables;
- core concepts, by the heading that explains them, listed by heading text per book
  ("Aspects" defines Aspect; topical headings such as "What Do I Need to Play?" are not
  listed).

Cross-book references: for every gold entity and every book that does not define it, the
book's markup-stripped text is searched for the entity's names (see ``find_mentions``).

    python -m bench.fate.build_gold            # writes bench/fate/gold.json
    python -m bench.fate.build_gold --check    # exits 1 when gold.json is not what it builds
"""

from __future__ import annotations

import argparse
import json
import re
from collections import defaultdict
from dataclasses import dataclass, field
from functools import lru_cache
from pathlib import Path

from bench.fate.fate_text import BOOKS, Heading, headings, read, strip_markup
from bench.fate.names import canonical_keys, name_key

HERE = Path(__file__).resolve().parent

GOLD = HERE / "gold.json"


# -- rules ----------------------------------------------------------------------------------

@dataclass
class Children:
    """The headings one level below a catalog heading define entities."""
    parent: str                    # heading text of the catalog (exact, markup stripped)
    kind: str
    exclude: tuple[str, ...] = ()
    depth: int = 1                 # children this many levels below (by path length)
    line_range: tuple[int, int] | None = None


@dataclass
class Bold:
    """Bold-lead entries (``**Name**.`` / ``<strong>Name:</strong>``) in the sections whose
    last heading matches ``section`` (a regex) define entities."""
    section: str
    kind: str
    exclude: tuple[str, ...] = ()
    under: str | None = None       # and whose path contains a heading matching this


@dataclass
class Table:
    """The first column of the tables in the section named ``section``."""
    section: str
    kind: str


@dataclass
class Pattern:
    """A regex with one group for the name, searched line by line in a section."""
    section: str
    regex: str
    kind: str


@dataclass
class HeadingPattern:
    """Headings whose text matches ``regex`` (group 1 is the name) define entities; a name
    with a comma ("Demonbane, The Enchanted Sword") is named by its first part, the whole
    kept as an alias."""
    regex: str
    kind: str
    exclude: tuple[str, ...] = ()


@dataclass
class Concepts:
    """Headings that explain a core concept: heading text -> entity names (the first is
    the name, the rest its aliases). A list value defines several entities."""
    table: dict[str, object]
    kind: str = "concept"


# Core game terms that the books use in lowercase running text ("an aspect", "take
# stress"): their references are matched without case. Every other name is matched as a
# name (capitalized words), see find_mentions.
LOWERCASE_TERMS = {
    "aspect", "stress", "consequence", "stunt", "skill", "refresh", "fate_point", "compel",
    "invoke", "boost", "zone", "milestone", "approach", "high_concept", "trouble",
    "situation_aspect", "character_aspect", "game_aspect", "create_an_advantage", "overcome",
    "challenge", "contest", "conflict", "exchange", "taken_out", "extra", "free_invocation",
    "minor_milestone", "significant_milestone", "major_milestone", "mild_consequence",
    "moderate_consequence", "severe_consequence", "extreme_consequence", "stress_track",
    "fate_fractal", "bronze_rule", "mega_stunt", "power_synergy", "collateral_damage_effect",
    "nameless_npc", "supporting_npc", "main_npc", "major_npc", "minor_npc", "zone_aspect",
    "full_defense", "succeed_with_style", "success_with_style", "stunt_family", "skill_mode",
    "gear_aspect", "genre_aspect", "roar_phase", "roar_aspect", "divine_interest",
    "divine_mantle", "equipment_stunt", "lethal_attack", "reinforced_skill",
}

CORE_ASPECTS = {
    "Aspects": "Aspect", "Skills": "Skill", "Stunts": "Stunt", "Stress": "Stress",
    "Consequences": "Consequence", "Refresh": "Refresh",
}

RULES: dict[str, list] = {
    "fate-core.md": [
        Children("SKILLS AND GEAR", "skill"),
        Bold(r"^\w+ Stunts$", "stunt", under="SKILLS AND GEAR"),
        Table("Skill List", "skill"),
        HeadingPattern(r"^Extra: (.+)$", "extra", exclude=("Resources, Revisited",)),
        HeadingPattern(r"^(Sujan, the Spirit of Warding)$", "extra"),
        Bold(r"^Branching Effects$", "stunt"),
        Bold(r"^Extra: (Media|The Galerider|Lucas's Arts|Schools of Power)$", "extra stunt",
             exclude=("The Black League",)),
        Bold(r"^Naming a Consequence$", "concept"),
        Concepts({
            **CORE_ASPECTS,
            "The Ladder": "Ladder", "Fate Points": "Fate Point", "Compels": "Compel",
            "Invoking an Aspect": ["Invoke", "Invocation"],
            "High Concept": "High Concept", "Trouble": "Trouble", "The Phase Trio": "Phase Trio",
            "Game Aspects": "Game Aspect", "Character Aspects": "Character Aspect",
            "Situation Aspects": "Situation Aspect", "Boosts": "Boost",
            "Free Invocations": "Free Invocation",
            "Overcome": "Overcome", "Create an Advantage": "Create an Advantage",
            "Attack": "Attack", "Defend": "Defend",
            "Fail": ["Fail", "Failure"], "Tie": "Tie", "Succeed": ["Succeed", "Success"],
            "Succeed with Style": ["Succeed with Style", "Success with Style"], "Turn Order": "Turn Order",
            "Opposition": "Opposition",
            "CHALLENGES": "Challenge", "CONTESTS": "Contest", "CONFLICTS": "Conflict",
            "Zones": "Zone", "The Exchange": "Exchange", "Full Defense": "Full Defense",
            "Extreme Consequences": "Extreme Consequence", "TEAMWORK": "Teamwork",
            "Stunt Families": "Stunt Family", "Skill Columns": "Skill Column",
            "Nameless NPCs": "Nameless NPC", "Mobs": "Mob", "Supporting NPCs": "Supporting NPC",
            "Main NPCs": "Main NPC",
            "Minor Milestones": "Minor Milestone", "Significant Milestones": "Significant Milestone",
            "Major Milestones": "Major Milestone",
            "DEFINING SCENARIOS": "Scenario", "DEFINING SCENES": "Scene", "DEFINING ARCS": "Arc",
            "DEFINING CAMPAIGNS": "Campaign", "DEFINING MILESTONES": "Milestone",
            "DEFINING EXTRAS": "Extra",
            "THE BRONZE RULE, AKA THE FATE FRACTAL": ["Bronze Rule", "Fate Fractal"],
            "The Golden Rule": "Golden Rule", "THE SILVER RULE": "Silver Rule",
            "Game Time": "Game Time", "Story Time": "Story Time", "THE ELLIPSIS TRICK": "Ellipsis Trick",
        }),
    ],
    "Fate-Condensed-SRD-CC-BY.md": [
        Bold(r"^Skill List$", "skill"),
        Children("Ways to Break the Rules for Big Bads", "rule"),
        Children("Obstacles", "obstacle"),
        Bold(r"^(Other Kinds of Aspects|Safety Tools)$", "concept"),
        Concepts({
            **CORE_ASPECTS, "Stress and Consequences": {"Stress": ["Stress"], "Consequence": ["Consequence"]},
            "High Concept": "High Concept", "Trouble": "Trouble", "Relationship": "Relationship",
            "The Adjective Ladder": ["Adjective Ladder", "Ladder"],
            "Overcome": "Overcome", "Create an Advantage": "Create an Advantage",
            "Attack": "Attack", "Defend": "Defend",
            "Failure": ["Failure", "Fail"], "Tie": "Tie", "Success": ["Success", "Succeed"],
            "Success with Style": ["Success with Style", "Succeed with Style"], "NPCs": "NPC",
            "Aspects and Fate Points": "Fate Point",
            "Character Aspects": "Character Aspect", "Situation Aspects": "Situation Aspect",
            "Boosts": "Boost", "Invokes": ["Invoke", "Invocation"], "Compels": "Compel",
            "Zones": "Zone", "Zone Aspects": "Zone Aspect", "Turn Order": "Turn Order",
            "Teamwork": "Teamwork", "Challenges": "Challenge", "Contests": "Contest",
            "Conflicts": "Conflict", "Getting Taken Out": "Taken Out",
            "Minor Milestones": "Minor Milestone", "Major Milestones": "Major Milestone",
            "Major NPCs": "Major NPC", "Minor NPCs": "Minor NPC",
            "Conditions": "Condition", "Countdowns": "Countdown",
            "Extreme Consequences": "Extreme Consequence", "Full Defense": "Full Defense",
            "Scale": "Scale", "Time Shifts": "Time Shift", "The Ellipsis Trick": "Ellipsis Trick",
        }),
    ],
    "fate-accelerated-SRD.md": [
        Pattern("Choose Your Approach", r"^\s*-\s*(\w+):\s+An?\s+\1\b", "approach"),
        Children("Example Characters", "character"),
        Concepts({
            "High Concept": "High Concept", "Trouble": "Trouble",
            "Stunts and Refresh": {"Stunt": ["Stunt"], "Refresh": ["Refresh"]},
            "Choose Your Approach": "Approach",
            "Create an Advantage": "Create an Advantage", "Overcome": "Overcome",
            "Attack": "Attack", "Defend": "Defend",
            "Challenges": "Challenge", "Contests": "Contest", "Conflicts": "Conflict",
            "Exchanges": "Exchange", "What Are Consequences?": "Consequence",
            "Ouch! Damage, Stress, and Consequences": "Stress",
            "Aspects and Fate Points": {"Aspect": ["Aspect"], "Fate Point": ["Fate Point"]},
            "Invoking Aspects": ["Invoke", "Invocation"], "Compelling Aspects": "Compel",
            "Milestones": "Milestone", "Minor Milestones": "Minor Milestone",
            "Significant Milestones": "Significant Milestone", "Major Milestones": "Major Milestone",
        }),
    ],
    "fate-system-toolkit-SRD.md": [
        Children("Systems", "magic system", exclude=("Variations and Options",)),
        Children("Aspects of Storm", "storm"),
        Concepts({h: h for h in ("The Eye", "The Giant", "The Shadow", "The Soldier", "The Steward",
                                 "The Villager")}, "vizier"),
        Concepts({h: h for h in ("Wound-Eating Beetles", "Lightning Worms", "Lazarus Eyes", "Freet",
                                 "The Dapper Gent", "Mineo Toadstool")}, "creature"),
        Children("Elementals", "elemental", exclude=("Elemental Summary", "ELEMENTAL Bonuses")),
        Children("New Stunt Rubrics", "stunt rubric"),
        Children("Your Toolbox", "magic tool", exclude=("Effects", "Limits")),
        Concepts({"Channeling": "Channeling", "Kung Fu": "Kung Fu", "Cyberware": "Cyberware",
                  "Squad-Based Action": "Squad-Based Action",
                  "THIS MEANS WAR: MASS COMBAT": ["Mass Combat", "This Means War: Mass Combat"],
                  "SWASHBUCKLING DUELS": "Swashbuckling Duels"}, "subsystem"),
        Bold(r"^Drunken Fist$", "kung fu stunt"),
        Bold(r"^(Investigation|Lore|Notice|Athletics|Physique|Will|Burglary|Deceive|Stealth|Fight"
             r"|Ride|Shoot|Provoke|Rapport|Resources|Contacts|Crafts|Empathy)$", "blessing", under="Blessings"),
        Bold(r"^Example Augs$", "aug"),
        Bold(r"^(Flexible Stunts|Aspected Stunts|Triggered Effects|Magic Stunts|Vehicle Stunts|"
             r"\w+ Sample Stunts)$", "stunt"),
        Bold(r"^(Stress|Consequences)$", "rule option", under="7: Customized Tools"),
        Bold(r"^Spells$", "spell"),
        Bold(r"^Tweaks$", "tweak", under="The Six Profanities"),
        Bold(r"^Monster Abilities$", "monster ability"),
        Bold(r"^\[Create\] Create an Advantage$", "unit advantage"),
        Bold(r"^Skill Modes$", "mode"),
        Concepts({
            "Aspects": "Aspect", "The Bronze Rule": "Bronze Rule",
            "Genre Aspects": "Genre Aspect", "Quest Aspects": "Quest Aspect",
            "Gear Aspects": "Gear Aspect", "Conditions": "Condition",
            "Approaches": "Approach", "Professions": "Profession", "Freeform Skills": "Freeform Skill",
            "Skill Modes": ["Skill Mode", "Mode"], "Reinforced Skills": "Reinforced Skill",
            "Aspect Events": "Aspect Event", "Chases": "Chase", "Social Conflict": "Social Conflict",
            "Motivations and Instincts": {"Motivation": ["Motivation"], "Instinct": ["Instinct"]},
            "Consequences": "Consequence", "Zones": "Zone", "Scale": "Scale", "Wealth": "Wealth",
            "Supplemental Actions": "Supplemental Action", "Instinct Aspects": "Instinct Aspect",
            "Doom Points": "Doom Point", "Elementals": "Elemental", "Skill: Magic": "Magic",
            "Skill: Conjuration": "Conjuration", "Skill: Summoning": "Summoning",
            "The Kung Fu Skill": "Kung Fu", "Drunken Fist": "Drunken Fist",
            "Sidekicks vs. Allies": {"Sidekick": ["Sidekick"], "Ally": ["Ally"]},
            "Wealth Stress": "Wealth Stress",
        }),
    ],
    "atomic-robo-SRD.md": [
        Children("Sample Skills", "skill"),
        Bold(r"^(The Standard Modes|Custom Modes)$", "mode"),
        Bold(r"^(Add a Bonus|Add a New Action to a Skill|Add a Rules Exception to a Skill)$", "stunt"),
        Bold(r"^Personal Hardware$", "personal hardware"),
        Bold(r"^Step Four: Pay For It$", "catch", exclude=("Outcome", "Who chooses?")),
        Children("What Mega-Stunts Can Do", "mega-stunt", exclude=("Weapon or Armor Rating", "Stunt Benefit")),
        Concepts({
            "Modes": "Mode", "Stunts": "Stunt", "Reinforced Skills": "Reinforced Skill", "Mega-Stunts": "Mega-Stunt",
            "Martial Artist": "Martial Artist", "Pilot": "Pilot", "Reporter": "Reporter",
            "Robot": "Robot", "Secret Agent": "Secret Agent", "Soldier": "Soldier",
            "Have a Signature Aspect": "Signature Aspect", "Personal Hardware": "Personal Hardware",
            "Invention": "Invention", "Brainstorms": "Brainstorm", "Mission Briefings": "Mission Briefing",
            "Serious Catches": "Serious Catch", "Science: It's Special": "Science",
        }),
    ],
    "venture-city.md": [
        Pattern(None, r"^\s*<strong>Basic ([^<:]+?):</strong>", "power"),
        Children("Power Themes", "power theme"),
        Bold(r"^(Enhancements|Collateral Damage Effects|Improved Special Effects?)$", "power effect"),
        Concepts({
            "Power Budget": "Power Budget", "Basic Power": "Basic Power", "Enhancements": "Enhancement",
            "Power Synergy": "Power Synergy", "Power Themes": "Power Theme",
            "Special Effects and Improved Special Effects": {
                "Special Effect": ["Special Effect"], "Improved Special Effect": ["Improved Special Effect"]},
            "Drawbacks": "Drawback", "Collateral Damage Effects": "Collateral Damage Effect",
        }),
    ],
    "gods-and-monsters-SRD.md": [
        Pattern("Communities", r"^\s*-\s*<strong>(\w+)</strong>", "community rating"),
        Pattern("Approaches", r"^\s*-\s*<em>(\w+)</em>", "approach"),
        Concepts({
            "Aspects": "Aspect", "Approaches": "Approach", "Regions": "Region", "Sub-Regions": "Sub-Region", "Communities": "Community",
            "The Divine Mantle": ["Divine Mantle", "Mantle"], "Intention": "Intention",
            "Stations": "Station", "Boons": "Boon", "Geasa": ["Geas", "Geasa"],
            "Corruption": "Corruption", "Regional Stunts": "Regional Stunt", "Meddling": "Meddling",
        }),
    ],
    "war-of-ashes.md": [
        Pattern("Equipment Stunts", r"^>\s*<strong>([^<]+)</strong>\s*:", "equipment stunt"),
        Bold(r"^(General Rituals|Battle Rituals)$", "ritual"),
        Bold(r"^Stunts and Weight$", "stunt"),
        Bold(r"^Maneuvers as (Actions|Boosts)$", "maneuver", exclude=("Maneuvers as boosts are determined after the roll",)),
        Bold(r"^The Opposition$", "adventure approach", exclude=("Adventure Stats",)),
        Bold(r"^Characters and Creatures$", "npc kind", exclude=("Vidaar Sailor", "Skilled (+2) at", "Bad (-2) at",
                                                              "Groups of Minions", "Swarms")),
        Concepts({
            "Equipment Stunts": "Equipment Stunt", "Roar Phase": "Roar Phase", "Zone Aspects": "Zone Aspect",
            "Exchanges": "Exchange",
            "Creating a Roar Aspect": "Roar Aspect", "Weight": "Weight", "Swarms": "Swarm",
            "Maneuvers": "Maneuver", "Lethal Attacks": "Lethal Attack", "Divine Interest": "Divine Interest",
        }),
    ],
}

# Bold leads that are labels, not names (a catalog entry's fields, example markers).
LABELS = {"examples", "example", "special", "costs", "permissions", "skills", "benefit", "effect",
          "aspect", "aspects", "stunts", "stress", "overcome", "attack", "defend", "create an advantage"}

_BOLD_LEAD = re.compile(
    r"^\s*(?:[-*>•]\s*)*(?:\*\*\*?|<strong>|<b>)\s*([^*<]{2,80}?)\s*[:.]?\s*(?:\*\*\*?|</strong>|</b>)")
_QUALIFIER = re.compile(r"\s*[\(\[][^)\]]*[\)\]]\s*$")


def clean_name(text: str) -> str:
    """A heading or bold lead as an entity name: markup and trailing qualifiers such as
    "(2 skill points)" or "(minor)" stripped, trailing punctuation dropped."""
    name = strip_markup(text)
    name = _QUALIFIER.sub("", name)
    name = name.strip(" .:!").strip()
    if name.isupper() and len(name) > 3:  # an ALL-CAPS heading: shown in title case
        name = " ".join(w if w.casefold() in _SMALL and i else w.capitalize() for i, w in enumerate(name.split()))
    return name


# -- extraction -----------------------------------------------------------------------------

@dataclass
class Definition:
    book: str
    name: str
    kind: str
    section: str
    line: int
    aliases: list[str] = field(default_factory=list)

    @property
    def key(self) -> str:
        return name_key(self.name)


def section_of(heads: list[Heading], line: int) -> Heading | None:
    current = None
    for h in heads:
        if h.line > line:
            break
        current = h
    return current


def definitions_of(book: str) -> list[Definition]:
    text_lines = read(book).splitlines()
    heads = headings(book)
    found: list[Definition] = []

    def add(name: str, kind: str, heading: Heading | None, line: int, aliases=(), label_ok=True) -> None:
        name = clean_name(name)
        if not name or (not label_ok and name.casefold() in LABELS):
            return
        if kind == "power effect" and name.startswith("Basic "):
            return  # "Basic Flight" is the power's basic form: an alias of the power
        if kind == "power":
            aliases = [*aliases, f"Basic {name}"]
        found.append(Definition(book, name, kind, heading.text if heading else "", line, list(aliases)))

    def lines_in(h: Heading):
        """(line number, text) of the body of a heading, up to the next heading."""
        later = [x.line for x in heads if x.line > h.line]
        end = later[0] if later else len(text_lines) + 1
        for number in range(h.line + 1, end):
            yield number, text_lines[number - 1]

    for rule in RULES[book]:
        if isinstance(rule, Children):
            for parent in (h for h in heads if h.text == rule.parent):
                if rule.line_range and not rule.line_range[0] <= parent.line <= rule.line_range[1]:
                    continue
                depth = len(parent.path) + rule.depth
                for h in heads:
                    if (len(h.path) == depth and h.path[:len(parent.path)] == parent.path
                            and h.line > parent.line and h.text not in rule.exclude):
                        if rule.line_range and not h.line <= rule.line_range[1]:
                            continue
                        add(h.text, rule.kind, h, h.line)
        elif isinstance(rule, Bold):
            for h in heads:
                if not re.search(rule.section, h.text):
                    continue
                if rule.under and not any(re.search(rule.under, p) for p in h.path[:-1]):
                    continue
                for number, line in lines_in(h):
                    match = _BOLD_LEAD.match(line)
                    if match and match.group(1).strip(" .:").casefold() not in {e.casefold() for e in rule.exclude}:
                        add(match.group(1), rule.kind, h, number, label_ok=False)
        elif isinstance(rule, Table):
            for h in (h for h in heads if h.text == rule.section):
                rows = [(n, line) for n, line in lines_in(h) if line.lstrip().startswith("|")]
                for number, line in rows[2:]:  # header row and the --- row
                    add(line.strip().strip("|").split("|")[0], rule.kind, h, number)
        elif isinstance(rule, Pattern):
            regex = re.compile(rule.regex)
            scopes = [h for h in heads if h.text == rule.section] if rule.section else [None]
            for h in scopes:
                body = lines_in(h) if h else enumerate(text_lines, 1)
                for number, line in body:
                    match = regex.match(line)
                    if match:
                        add(match.group(1), rule.kind, h or section_of(heads, number), number)
        elif isinstance(rule, HeadingPattern):
            for h in heads:
                match = re.match(rule.regex, h.text)
                if match and match.group(1) not in rule.exclude:
                    name = match.group(1)
                    first = name.split(", ")[0]
                    add(first, rule.kind, h, h.line, aliases=[name] if first != name else [])
        elif isinstance(rule, Concepts):
            for heading_text, value in rule.table.items():
                matches = [h for h in heads if h.text == heading_text]
                if not matches:
                    raise SystemExit(f"{book}: no heading {heading_text!r}")
                h = matches[0]
                if isinstance(value, str):
                    entries = {value: [value]}
                elif isinstance(value, list):
                    entries = {value[0]: value}
                else:
                    entries = value
                for name, names in entries.items():
                    add(name, rule.kind, h, h.line, aliases=[a for a in names if a != name])
    # one definition per (book, key): the first rule that found it wins
    out: dict[str, Definition] = {}
    for d in found:
        if d.key in out:
            for alias in [d.name, *d.aliases]:
                if name_key(alias) != d.key and alias not in out[d.key].aliases:
                    out[d.key].aliases.append(alias)
            continue
        out[d.key] = d
    return list(out.values())


# -- references -----------------------------------------------------------------------------

_SMALL = {"a", "an", "the", "of", "and", "or", "to", "in", "on", "for", "with", "at", "by", "vs"}


_ASPECT_SPAN = re.compile(r'<span class="aspect">(.*?)</span>')


def book_text(book: str) -> tuple[str, list[int]]:
    """The book's text with markup stripped line by line (line breaks kept), and the offset
    at which each line starts. An aspect's name (``<span class="aspect">``) is kept between
    ‹ and › so that a name inside it is not taken for a mention."""
    lines = [strip_markup(_ASPECT_SPAN.sub(r"‹\1›", line)) for line in read(book).splitlines()]
    offsets, pos = [], 0
    for line in lines:
        offsets.append(pos)
        pos += len(line) + 1
    return "\n".join(lines), offsets


@lru_cache(maxsize=16)
def _folded(text: str) -> str:
    return text.casefold()


@lru_cache(maxsize=None)
def name_regex(name: str) -> re.Pattern:
    words = re.findall(r"[\w']+", name.replace("’", "'"))
    body = r"[\s\-]+".join(re.escape(w) for w in words)
    return re.compile(rf"(?<![\w\-]){body}(?:s|es)?(?![\w\-])", re.IGNORECASE)


def acceptable(match: re.Match, text: str, name: str, lowercase: bool) -> bool:
    """Case and context rules for one occurrence of a name (see GOLD.md)."""
    surface = match.group(0)
    words = re.findall(r"[\w']+", surface)
    window = text[max(0, match.start() - 200):match.start()]
    if window.rfind("‹") > window.rfind("›"):
        return False  # inside an aspect's name ("Ramming Speed!" the aspect, not the stunt)
    before_words = re.findall(r"[\w']+", window)[-2:]
    if lowercase and surface.casefold() == "extra" and re.match(r"^[ ]+[A-Za-z]", text[match.end():match.end() + 3]):
        return False  # "extra stress", "Extra Movement": the adjective, not the Extras concept
    if lowercase and surface.islower():
        if surface == "approach" and not re.search(r"\b[A-Z][a-z]+[ ]$", window):
            return False  # "this approach": English; "your Quick approach": the term
        if surface in ("exchange",) and (before_words[-1:] == ["in"] or text.startswith(" for", match.end())):
            return False  # "in exchange for": the English idiom
        if before_words[-1:] and before_words[-1] in ("to", "will", "can", "may", "would", "could") \
                and len(words) == 1 and not surface.endswith("s"):
            return False  # a verb ("other parties will contest", "to challenge them")
    if lowercase:
        return True
    # a name: its significant words capitalized (or ALL CAPS)
    if not all(w[0].isupper() for w in words if w.casefold() not in _SMALL):
        return False
    before = text[max(0, match.start() - 60):match.start()]
    after = text[match.end():match.end() + 60]
    if len(words) == 1:
        line_start = text.rfind("\n", 0, match.start()) + 1
        if text.startswith("#", line_start) or re.match(r"\s*#", text[line_start:match.start()]):
            return False  # a heading capitalizes every word
        if surface.isupper() and not name.isupper():
            return False
        # not the first word of a sentence, a line or a list item (capitalized anyway)
        if re.search(r"(^|[.!?:;\"“(>•]|^\s*[-*+]|\d\.)\s*$", before, re.M) or match.start() < 60 and not before.strip():
            return False
        # not part of a longer capitalized name ("Nose for Trouble", "Super Strength")
        prev = re.search(r"([\w']+)[ ]$", before)
        nxt = re.match(r"^[ ]([\w']+)", after)
        if prev and prev.group(1)[0].isupper():
            return False
        # "Protect His Students from Harm": a title-case phrase with a small word before it
        if prev and prev.group(1) in ("from", "of", "the", "for", "to", "in", "on", "with") and \
                re.search(r"\b[A-Z][\w']*[ ]+" + prev.group(1) + r"[ ]$", before):
            return False
        # "Surrounded by Sadness", "Charge!": an aspect's or a boost's name
        if re.match(r"^[ ](by|of|from|for|to|in|on|with|the)[ ]+[A-Z]", after) or after.startswith("!"):
            return False
        if nxt and nxt.group(1)[0].isupper():
            return False
    return True


def find_mentions(entity_names: list[str], text: str) -> list[re.Match]:
    """Occurrences of any of an entity's names in a book's text (see ``acceptable``)."""
    keys = {name_key(n) for n in entity_names}
    folded = _folded(text)
    hits = []
    for name in entity_names:
        first_word = re.findall(r"[\w']+", name.replace("’", "'"))[:1]
        if first_word and first_word[0].casefold() not in folded:
            continue  # cheap pre-filter: the regex below cannot match
        lowercase = name_key(name) in LOWERCASE_TERMS
        for match in name_regex(name).finditer(text):
            if name_key(match.group(0)) in keys and acceptable(match, text, name, lowercase):
                hits.append(match)
    return sorted(hits, key=lambda m: m.start())


def line_of(offsets: list[int], pos: int) -> int:
    lo, hi = 0, len(offsets) - 1
    while lo < hi:
        mid = (lo + hi + 1) // 2
        if offsets[mid] <= pos:
            lo = mid
        else:
            hi = mid - 1
    return lo + 1


def build() -> dict:
    definitions = {book: definitions_of(book) for book in BOOKS}
    canonical = canonical_keys([(d.name, d.aliases) for defs in definitions.values() for d in defs])
    entities: dict[str, dict] = {}
    for book, defs in definitions.items():
        for d in defs:
            entry = entities.setdefault(canonical[d.key], {"name": d.name, "names": [], "books": []})
            if book not in entry["books"]:
                entry["books"].append(book)
            for n in [d.name, *d.aliases]:
                if n not in entry["names"]:
                    entry["names"].append(n)
    texts = {book: book_text(book) for book in BOOKS}
    references = []
    for key, entity in sorted(entities.items()):
        for book in BOOKS:
            if book in entity["books"]:
                continue
            text, offsets = texts[book]
            hits = find_mentions(entity["names"], text)
            if not hits:
                continue
            first = hits[0]
            references.append({
                "book": book, "name": entity["name"], "names": entity["names"], "defined_in": entity["books"],
                "occurrences": len(hits), "surface": first.group(0), "line": line_of(offsets, first.start()),
                "lines": sorted({line_of(offsets, h.start()) for h in hits})[:50],
            })
    return {
        "about": "Fate SRD shelf gold (corpora/fate), built by bench/fate/build_gold.py; see bench/fate/GOLD.md",
        "books": [{"file": f, "title": t} for f, t in BOOKS.items()],
        "definitions": [
            {"book": d.book, "name": d.name, "aliases": d.aliases, "kind": d.kind, "section": d.section, "line": d.line}
            for book in BOOKS for d in definitions[book]
        ],
        "references": references,
    }


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--check", action="store_true", help="exit 1 when gold.json differs from a fresh build")
    args = parser.parse_args()
    gold = build()
    text = json.dumps(gold, ensure_ascii=False, indent=1) + "\n"
    if args.check:
        same = GOLD.exists() and GOLD.read_text(encoding="utf-8") == text
        print("gold.json is up to date" if same else "gold.json differs from a fresh build")
        return 0 if same else 1
    GOLD.write_text(text, encoding="utf-8")
    per_book = defaultdict(int)
    for d in gold["definitions"]:
        per_book[d["book"]] += 1
    refs = defaultdict(int)
    for r in gold["references"]:
        refs[r["book"]] += 1
    for book in BOOKS:
        print(f"{book:<32} definitions {per_book[book]:>4}  cross-book references {refs[book]:>4}")
    print(f"total: {len(gold['definitions'])} definitions, {len(gold['references'])} cross-book references")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
