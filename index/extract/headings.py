"""From a heading to an entity name, and which headings define one. Pure.

``heading_name`` turns heading text into the name of the entity it would define:
- markup and HTML are dropped, ALL-CAPS is shown in title case;
- numbering and level prefixes go: ``Chapter 3 - Magic``, ``5: Choose a Path``,
  ``Level 6: Ember Ward``;
- trailing qualifiers go: ``Frost Lance (Level 2 Evocation)``, ``Hearthglow [Condition]``,
  ``Rations (5 SP)``; a parenthesized alternate name becomes an alias
  (``Cloak of the Vale (Mistcloak)``), as does "aka" (``The Bronze Rule, aka the Fate
  Fractal``); a name written with a slash (``Frostbite/Chilblains``) is one name, its parts
  aliases the book's own uses confirm (``rules.with_slash_parts``).

``is_topical`` says whether a heading reads as prose rather than a name: questions,
exclamations, gerund or imperative openings ("Choosing a Path", "Make Characters"),
prepositional or pronoun openings ("As a First-Level Hero", "Your Character Idea"),
"Parts of a Talent", long phrases; and the book's structure: a page that gathers other
things ("Skill List", "Moves Summary"), more of a kind ("New Skills"), a count ("Fifteen
skills", "Number of Zones") or a topic word ("Limits").
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from functools import lru_cache

from ..core.normalize import singular
from ..core.packs import genre_words, per_genres, shipped_genres
from ..core.titles import clean_inline

_NUMBER_WORDS = r"one|two|three|four|five|six|seven|eight|nine|ten|[ivxlc]+|\d+[a-z]?"
_PREFIX = re.compile(
    rf"^(?:(?:chapter|part|section|appendix|book|step|phase|stage|level|rank|tier|circle|lesson)\s+(?:{_NUMBER_WORDS})"
    rf"|\d+(?:\.\d+)*|[ivxlc]+(?=[.:)]))\s*[-–—:.)]\s*",
    re.IGNORECASE,
)
_BARE_NUMBERING = re.compile(r"^\d+(?:\.\d+)*\.?\s+(?=[A-Za-z])")
_BRACKETS = re.compile(r"\s*\[[^\]]*\]\s*")
_TRAILING_PAREN = re.compile(r"\s*\(([^()]*)\)\s*$")
_AKA = re.compile(r"\s*(?:,|\()?\s*\b(?:aka|a\.k\.a\.|also (?:called|known as))\s+(.+?)\)?\s*$", re.IGNORECASE)
_SMALL = {"a", "an", "and", "as", "at", "by", "for", "from", "in", "into", "nor", "of", "on", "or",
          "the", "to", "vs", "vs.", "with", "per", "via"}


def _display_caps_genres() -> tuple[str, ...]:
    """The genre packs that may set names in capitals for display (their [words] display_caps)."""
    return tuple(g.name for g in shipped_genres() if "display_caps" in g.words)


@per_genres
def _qualifier_words() -> frozenset[str]:
    """Qualifier words: a parenthesis made only of these (or holding a digit) is not an alias."""
    return genre_words("rulebook", "qualifier_words") | genre_words("rulebook", "spell_schools")



def clean_text(heading: str) -> str:
    """Heading text without markup, HTML entities or runs of whitespace."""
    # a Markdown escape goes; a backslash that opens a command stays ("\\appto", "\\b")
    return clean_inline(re.sub(r"\\(?![A-Za-z@])", "", heading)).strip(" #:;,-–—")


def display_case(text: str) -> str:
    """ALL-CAPS text in title case ("THE SKILL CAP" -> "The Skill Cap") where the book's genre
    sets names in capitals for display (a genre pack's ``display_caps`` words: a rulebook's
    "FIREBALL"); other text, and capitals a book's genre writes as the name itself (a
    documentation book's PGUSER, G_LIKELY), unchanged."""
    if not any(genre_words(genre, "display_caps") for genre in _display_caps_genres()):
        return text
    letters = [c for c in text if c.isalpha()]
    if not letters or not all(c.isupper() for c in letters) or len(letters) < 2:
        return text
    words = text.lower().split(" ")
    out = []
    for i, word in enumerate(words):
        if i and word in _SMALL:
            out.append(word)
        else:
            out.append(re.sub(r"^([^\w]*)(\w)", lambda m: m.group(1) + m.group(2).upper(), word, count=1))
    return " ".join(out)


def _is_alias_like(text: str) -> bool:
    words = re.findall(r"[\w'’.-]+", text)
    if not words or len(words) > 5 or any(c.isdigit() for c in text):
        return False
    if all(w.lower().strip(".") in _qualifier_words() for w in words):
        return False
    return words[0][0].isupper()


def slash_parts(name: str) -> tuple[str, str] | None:
    """The two names a name written with one slash joins ("Frostbite/Chilblains" -> ("Frostbite",
    "Chilblains")), or None: no slash, a spaced one, a number ("1/2"), or a phrase around it
    ("Ask a Yes/No Question", whose left part is no name of its own)."""
    if "/" not in name or " / " in name or name.count("/") != 1 or any(c.isdigit() for c in name):
        return None
    left, right = (part.strip() for part in name.split("/"))
    if len(left) < 2 or len(right) < 2 or topical_strength(left):
        return None  # "X/Day": a count per use, no name
    return left, right


def is_rate(name: str) -> bool:
    """A count per unit written with a slash ("X/Day", "1/Turn"), no name."""
    return re.fullmatch(r"(?:\d+|[A-Za-z])\s*/\s*[^\W\d_]+", name.strip()) is not None


@dataclass(frozen=True)
class HeadingName:
    name: str                        # the entity name the heading gives
    aliases: tuple[str, ...] = ()
    qualifier: str | None = None     # what was stripped: "Level 2 Evocation", "Condition"


def heading_name(heading: str) -> HeadingName | None:
    """The entity name (and aliases) a heading gives, or None when nothing name-like is left."""
    text = clean_text(heading)
    qualifiers: list[str] = []
    aliases: list[str] = []
    for bracket in re.findall(r"\[([^\]]*)\]", text):
        qualifiers.append(bracket.strip())
    text = _BRACKETS.sub(" ", text).strip()
    aka = _AKA.search(text)
    if aka and aka.start() > 0:
        aliases.append(aka.group(1).strip(" .,"))
        text = text[:aka.start()].strip(" ,(")
    while True:
        paren = _TRAILING_PAREN.search(text)
        if not paren or paren.start() == 0:
            break
        inner = paren.group(1).strip()
        (aliases if _is_alias_like(inner) else qualifiers).append(inner)
        text = text[:paren.start()].strip()
    prefix = _PREFIX.match(text) or _BARE_NUMBERING.match(text)
    if prefix and prefix.end() < len(text):
        qualifiers.append(text[:prefix.end()].strip(" -–—:.)"))
        text = text[prefix.end():].strip()
    if (parts := slash_parts(text)) is not None:
        # "Frostbite/Chilblains" is one name; its parts are aliases only where the book writes
        # them alone (rules.with_slash_parts keeps those); "Ask a Yes/No Question": no parts
        aliases.extend(parts)
    elif " / " in text:
        left, right = (part.strip() for part in text.split(" / ", 1))
        text = left
        aliases.append(right)
    text = text.strip(" :;,-–—.")
    if not re.search(r"[^\W\d_]", text):
        return None
    name = display_case(text)
    aliases = [display_case(a) for a in aliases if a and a.lower() != text.lower()]
    return HeadingName(name, tuple(dict.fromkeys(aliases)), "; ".join(q for q in qualifiers if q) or None)


# -- topical headings --------------------------------------------------------------------------

_OPENERS = {
    # questions, conditions, prepositions, pronouns, determiners, adverbs
    "how", "what", "why", "when", "where", "who", "which", "whose", "whom", "whether", "if", "unless",
    "can", "could", "do", "does", "did", "is", "are", "was", "were", "should", "would", "will", "shall",
    "must", "may", "might", "as", "in", "on", "at", "for", "with", "without", "from", "into", "onto",
    "by", "to", "about", "after", "before", "during", "beyond", "under", "over", "between", "through",
    "toward", "towards", "against", "among", "within", "beside", "besides", "since", "until", "upon",
    "your", "you", "you’re", "you're", "my", "our", "we", "i", "it", "its", "it’s", "it's", "this",
    "that", "these", "those", "some", "more", "most", "other", "another", "all", "no", "not", "so",
    "let", "let’s", "let's", "don’t", "don't", "there", "here", "now", "then", "also", "just", "only",
    "even", "again", "still", "always", "never", "sometimes", "often", "why", "putting", "further",
    "beyond", "than", "very", "each", "every", "both", "either", "neither", "many", "much", "few",
    "one", "two", "three", "four", "five", "six", "seven", "eight", "nine", "ten", "first", "second",
    "third", "next", "last", "final", "finally", "quick", "example", "examples", "sample",
}
# common imperative openings of instructions ("Make Characters", "Choose a Path")
_IMPERATIVES = {
    "make", "take", "get", "go", "choose", "create", "build", "roll", "play", "start", "use", "add",
    "pick", "find", "keep", "give", "set", "run", "know", "ask", "decide", "determine", "write",
    "read", "learn", "try", "spend", "gain", "earn", "buy", "remove", "change", "fill", "say",
    "vary", "stay", "follow", "think", "look", "see", "put", "bring", "call", "tell", "turn", "move",
    "help", "describe", "define", "assign", "record", "note", "consider", "remember", "mark", "check",
    "end", "begin", "open", "close", "stop", "avoid", "prepare", "select", "adjust", "apply", "allow",
    "break", "blame", "succeed", "fail", "hit", "miss", "meet", "explore", "ignore", "introduce",
    "drill", "zoom", "zooming", "raise", "lower", "reduce", "increase", "skip", "combine", "split",
    "establish", "begin", "pay", "scale", "re-scale", "handle", "deal",
}
_GENERIC_HEADS = {
    "parts", "part", "types", "type", "kinds", "kind", "uses", "use", "rules", "basics", "anatomy",
    "list", "lists", "table", "tables", "summary", "overview", "elements", "structure", "history",
    "examples", "example", "sorts", "varieties", "forms", "components", "options", "notes", "role",
    "roles", "nature", "purpose", "purposes", "art", "arts", "importance", "meaning", "limits",
    "number", "amount",
}
# the last word of a heading that gathers other things ("Skill List", "Moves Summary",
# "Table of Contents"): a page of the book, not a thing in it
_COLLECTIONS = {"list", "lists", "summary", "summaries", "glossary", "index", "contents", "overview",
                "checklist", "cheatsheet", "toc"}
# one word that titles a section about a topic, never a thing ("Limits", "Basics", "Examples")
_TOPIC_WORDS = {"basics", "rules", "examples", "options", "notes", "limits", "tips", "variants",
                "introduction", "credits", "types", "kinds", "uses", "features"}
# an adjective that opens a heading about a group of things ("New Skills", "Additional Flaws",
# "Special Actions"): more of a kind, not a named thing
_GROUP_ADJECTIVES = {"new", "additional", "other", "more", "optional", "alternate", "alternative",
                     "further", "extra", "sample", "typical", "various", "different", "miscellaneous",
                     "assorted"}
_NUMBER_NAMES = {"one", "two", "three", "four", "five", "six", "seven", "eight", "nine", "ten", "eleven",
                 "twelve", "thirteen", "fourteen", "fifteen", "sixteen", "seventeen", "eighteen", "nineteen",
                 "twenty", "thirty", "forty", "fifty", "hundred"}
_PROSE_WORDS = {"you", "your", "you’re", "you're", "we", "our", "i", "my", "me", "us", "is", "are", "do",
                "does", "don’t", "don't", "can", "can’t", "can't", "will", "won’t", "won't", "should",
                "must", "isn’t", "isn't", "aren’t", "aren't", "was", "were", "it’s", "it's", "vs", "vs.",
                "versus", "whether"}


@lru_cache(maxsize=8192)
def is_gerund(word: str) -> bool:
    """An -ing word whose stem is a common English word ("Choosing", "Building"; not "Ring")."""
    lowered = word.lower()
    if len(lowered) < 6 or not lowered.endswith("ing") or not lowered.isalpha():
        return False
    stem = lowered[:-3]
    candidates = [stem, stem + "e"]
    if len(stem) > 2 and stem[-1] == stem[-2]:
        candidates.append(stem[:-1])
    if stem.endswith("y"):
        candidates.append(stem)
    return any(_common_word(c) for c in candidates)


@lru_cache(maxsize=8192)
def _common_word(word: str) -> bool:
    from wordfreq import zipf_frequency

    return zipf_frequency(word, "en") >= 3.0


_RELATING = {"in", "as", "with", "for", "within", "on", "at", "into", "from", "vs", "vs.", "versus", "without"}
_PARTICLES = {"in", "out", "up", "down", "off", "on", "over", "back", "away", "around", "through"}
_DETERMINERS = {"a", "an", "the", "your", "my", "our", "their", "his", "her", "its", "this", "that",
                "these", "those", "with", "without", "to", "for", "from", "into", "at", "by", "it",
                "them", "you", "up", "some", "any", "more", "less", "better", "worse", "and", "or"}


def _gerund_phrase(lowered: list[str]) -> bool:
    """A gerund that heads a phrase with an object ("Choosing a Path", "Building Stunts"),
    not one used as a name ("Burning", "Climbing Kit", "Crumbling Ledge")."""
    if len(lowered) == 1:
        return False
    if len(lowered) >= 3 or lowered[1] in _DETERMINERS or lowered[1] in _PARTICLES:
        return True
    second = lowered[1]
    return singular(second) != second  # gerund + plural object: "Invoking Aspects"


def topical_strength(name: str) -> int:
    """0 for a name; 1 for weak prose signals (an imperative, gerund or preposition opening,
    a colon or comma), which a catalog of sibling names overrides ("Create an Advantage"
    among "Overcome", "Attack", "Defend"); 2 for prose no context makes a name (questions,
    pronouns, "Parts of a Talent", more than six words)."""
    raw = name.strip()
    if not raw or "?" in raw or "!" in raw or raw.endswith("."):
        return 2
    words = [w for w in re.split(r"[\s—–]+", raw) if w]
    if len(words) > 6:
        return 2
    lowered = [w.lower().strip(",.:;!?\"“”'‘’()") for w in words]
    if lowered[-1] in _COLLECTIONS or lowered[0] in _NUMBER_NAMES:
        return 2  # "Skill List", "Moves Summary", "Fifteen skills": a page or a count, not a thing
    if len(words) == 1:
        return 2 if lowered[0] in _TOPIC_WORDS else 0  # otherwise a name: "Will", "Fail", "Burning"
    if is_group_heading(name):
        return 2  # "New Skills", "Additional Flaws": more of a kind, not a thing
    if any(w in _PROSE_WORDS for w in lowered):
        return 2
    if len(lowered) >= 3 and lowered[0] in _GENERIC_HEADS and lowered[1] in ("of", "for", "and"):
        return 2
    first = lowered[0]
    if first in _OPENERS or first in _IMPERATIVES:
        return 1
    if is_gerund(words[0].strip(",.:;")) and _gerund_phrase(lowered):
        return 2  # "Choosing a Path", "Dealing with Time"
    if ":" in raw or "," in raw:
        return 1  # "Ouch! Damage, Stress, and Consequences", "Rules of Thumb:"
    if any(w in _RELATING for w in lowered[1:-1]):
        return 1  # "Advantages in a Challenge", "Aspects as Magic": a topic relating two things
    if "and" in lowered[1:-1] and not conjoined_names(raw):
        return 1  # "Zones and the Battlefield": a topic joining two things, not two names
    return 0


def is_group_heading(name: str) -> bool:
    """True for a heading over more things of a kind ("New Skills", "Other Solutions"): no
    thing itself, though its sections may be a catalog of things."""
    lowered = [w.lower().strip(",.:;!?\"“”'‘’()") for w in name.split()]
    return len(lowered) > 1 and lowered[0] in _GROUP_ADJECTIVES and singular(lowered[-1]) != lowered[-1]


def is_instruction(name: str) -> bool:
    """True for an instruction to the reader ("Describe What Your Character Does", "Pick
    Your Approach"): an imperative opening with a pronoun after it, in any case."""
    lowered = [w.lower().strip(",.:;!?\"“”'‘’()") for w in name.split()]
    return len(lowered) > 1 and lowered[0] in _IMPERATIVES and any(w in _PROSE_WORDS for w in lowered[1:])


@per_genres
def _generic_labels() -> frozenset[str]:
    return frozenset(singular(w) for w in genre_words("rulebook", "generic_labels"))


@per_genres
def _passage_labels() -> frozenset[str]:
    return frozenset(singular(w) for w in genre_words("rulebook", "passage_labels"))


def is_generic_label(name: str) -> bool:
    """"Adjustments", "Other Details": a label the rulebook pack lists, naming no thing; and
    "Example Rule-Changing Stunt", "Important Note": a passage's label, opening or closing with
    a word the pack lists."""
    words = singular(clean_text(name).lower()).split()
    return " ".join(words) in _generic_labels() or bool(words) and bool({singular(words[0]), words[-1]} & _passage_labels())


def function_word(word: str) -> bool:
    """True for a word no name opens with: a pronoun, a determiner, a preposition, a question
    word ("You", "The", "If", "Each")."""
    word = word.lower().strip(",.:;!?\"“”'‘’()*_")
    return word in _OPENERS or word in _SMALL


def opens_imperative(name: str) -> bool:
    """True for a phrase that opens with an imperative ("Roll initiative", "Choose a Target")."""
    words = [w.lower().strip(",.:;!?\"“”'‘’()*_") for w in name.split()]
    return len(words) > 1 and words[0] in _IMPERATIVES


def is_topical(name: str) -> bool:
    """True when a (cleaned) heading reads as a prose title, not the name of a thing."""
    return topical_strength(name) > 0


_CONJUNCTION = re.compile(r"\s*(?:,\s*and\s+|,\s*or\s+|\s+and\s+|\s*&\s*|,\s*)")


def conjoined_names(name: str) -> list[str]:
    """The names of a heading that joins several ("Aspects and Fate Points" -> both), or []."""
    if " and " not in name and "&" not in name:
        return []
    parts = [p.strip() for p in _CONJUNCTION.split(name) if p.strip()]
    if not 2 <= len(parts) <= 4 or any(len(p.split()) > 3 or topical_strength(p) for p in parts):
        return []
    if any(not p[0].isupper() for p in parts):
        return []
    return parts
