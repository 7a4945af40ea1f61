"""Name normalization: the key under which "The Rapid Strike" and "rapid strike" meet.

Rule (from the entity index design, extended for real books): Unicode NFKC, case-folded,
diacritics kept, curly apostrophes straightened, a possessive "'s" dropped, a leading article
removed ("the", "a", "an" before a space), every run of spaces and punctuation collapsed to one ``_``, no
leading or trailing ``_`` (a backslash that opens a word before a letter is kept: the
command ``\\caption`` and the word "caption" are two keys; lookups fold it, ``unslashed``), and the last word's English plural folded to its singular
("Fate Points" and "fate point" meet; "Abilities" and "ability"; "Witches" and "witch"), but
not an identifier's (``load_parts`` is no plural).

A word written as code keeps its case: one opened by a backslash (the TeX commands
``\\rangeHsb`` and ``\\rangeHSB`` are two) or by the dash of an option (``-s`` and ``-S`` are
two options) or that is part of a dotted identifier (the class ``random.Random`` and the
function ``random.random``) -- code is case-sensitive where prose is not. Lookups fold that case too
(``case_folded``), so a name asked in any case still finds it.

``normalized_words`` is the same without the plural fold: verification uses it to check that
a name occurs in a chunk as written.
"""

from __future__ import annotations

import re
import unicodedata

from .words import KEY_WORD

_ARTICLES = ("the", "a", "an")
# a dotted identifier (``random.Random``, ``inspect.Signature``): a qualified name in code
# (a word of two characters at least: "U.S." and "e.g." are prose)
_DOTTED = r"(?<![\w.])(?=[\w.]*\w\w)[A-Za-z_]\w*(?:\.[A-Za-z_]\w*)+"
# a run of text written as code, whose words keep their case: a word opened by a backslash,
# an option (one or two dashes that open the text or follow a space or a bracket, and the
# word they open), a dotted identifier
_CODE_RUN = re.compile(r"(?<![^\W_])\\[^\W\d_][^\W_]*|(?<![^\s(\[{,;/|])--?[^\W\d_][^\W_]*|" + _DOTTED,
                       re.UNICODE)
# where a code run can be (its backslash, dash or dot before a letter): found first, as
# most text has few, so prose pays one cheap scan
_CODE_MARK = re.compile(r"[\\.-](?=[^\W\d_])", re.UNICODE)
_SPACES = re.compile(r"\s+")
_ARTICLE_OPENS = re.compile(r"\s*(?:the|a|an)\s", re.IGNORECASE)
_SNAKE_END = re.compile(r"[^\W_]_[^\W_]+$")
_POSSESSIVE = re.compile(r"(?<=\w)['’]s\b|(?<=s)['’](?=\W|$)", re.IGNORECASE)
# endings that look plural but are not (status, analysis, class, ...)
_NOT_PLURAL = ("ss", "us", "is", "ous", "ics")
_ES_AFTER = ("ches", "shes", "sses", "xes", "zes", "oes")


def singular(word: str) -> str:
    """The singular of one lowercase English word by suffix rules (short words kept)."""
    if len(word) < 4 or not word.isalpha() or word.endswith(_NOT_PLURAL):
        return word
    if word.endswith("ies") and len(word) > 4:
        return word[:-3] + "y"
    if word.endswith(_ES_AFTER):
        return word[:-2]
    if word.endswith("s"):
        return word[:-1]
    return word


def _code_runs(text: str) -> list[tuple[int, int]]:
    """The spans of ``text`` written as code (``_CODE_RUN``), in order."""
    runs: list[tuple[int, int]] = []
    for mark in _CODE_MARK.finditer(text):
        at = mark.start()
        if runs and at < runs[-1][1]:
            continue
        if text[at] == ".":
            while at > 0 and (text[at - 1].isalnum() or text[at - 1] in "_."):
                at -= 1
        elif text[at] == "-" and at > 0 and text[at - 1] == "-":
            at -= 1
        run = _CODE_RUN.match(text, at)
        if run and (not runs or run.start() >= runs[-1][1]):
            runs.append(run.span())
    return runs


def _cased_words(text: str) -> list[str]:
    """The text's words, case-folded except those written as code (see the module doc)."""
    text = _POSSESSIVE.sub("", unicodedata.normalize("NFKC", text).replace("’", "'"))
    out: list[str] = []
    done = 0
    for start, end in _code_runs(text):
        out += KEY_WORD.findall(text[done:start].casefold())
        out += KEY_WORD.findall(text[start:end])
        done = end
    out += KEY_WORD.findall(text[done:].casefold())
    return out


def _words(name: str) -> list[str]:
    words = _cased_words(name)
    # an article is a word before a space ("the Rapid Strike"), not a name's part ("a->b", "a_b")
    if len(words) > 1 and words[0] in _ARTICLES and _ARTICLE_OPENS.match(name):
        words = words[1:]
    return words


def article_dropped(name: str) -> str | None:
    """The name as written without its opening article ("Drunkard's Stagger" for "The
    Drunkard's Stagger": the same key), when two words or more are left; else None."""
    match = _ARTICLE_OPENS.match(name)
    if match is None or len(_cased_words(name)) < 3:
        return None
    return name[match.end():].strip() or None


def normalized_words(name: str) -> str:
    """The name's words, ``_``-joined, as written (no plural fold)."""
    return "_".join(_words(name))


def normalize_name(name: str) -> str:
    """Return the normalized key of an entity name ('' when nothing is left). The last word's
    plural is folded unless it is code: ``json.dumps`` is not ``json.dump``, nor ``--colors``
    ``--color``."""
    words = _words(name)
    if words and not _ends_in_code(name):
        words[-1] = singular(words[-1])
    return "_".join(words)


def _ends_in_code(name: str) -> bool:
    text = name.strip().removesuffix("()")
    if _SNAKE_END.search(text):  # load_parts, G_THREAD_ERRORS: an identifier, not an English plural
        return True
    runs = _code_runs(text)
    return bool(runs) and runs[-1][1] >= len(text)


_CODE_NAME = re.compile(r"(?:\\|--?)[^\W\d_]|" + _DOTTED + r"(?:\(\))?$")


def written_as_code(name: str) -> bool:
    """Whether a name is written as code whose case is significant: a TeX command
    (``\\rangeHSB``), an option (``-S``, ``--all``) or a dotted identifier (``random.Random``)."""
    return bool(_CODE_NAME.match(name))


def case_folded(key: str) -> str:
    """A normalized key with its code words' case folded too: what a lookup of ``\\rangehsb``,
    ``\\rangeHsb`` and ``\\rangeHSB`` share."""
    return key.casefold()


def unslashed(key: str) -> str:
    """A normalized key without the backslashes that open its words: what a lookup of
    ``definecolor`` and of ``\\definecolor`` share."""
    return key.replace("\\", "")


def fold_accents(text: str) -> str:
    """``text`` without its diacritics ("Velouté" -> "Veloute"), for lookups only: the
    index keys keep them, so "résumé" and "resume" stay two entities."""
    decomposed = unicodedata.normalize("NFKD", text)
    return unicodedata.normalize("NFKC", "".join(c for c in decomposed if not unicodedata.combining(c)))


def collapse_whitespace(text: str) -> str:
    """Collapse every whitespace run to one space and strip the ends."""
    return _SPACES.sub(" ", text).strip()


def normalized_tokens(text: str) -> str:
    """The text as its normalized word sequence, ``_``-joined and ``_``-padded.

    ``normalized_words(n)`` occurs in a text as whole words exactly when
    ``"_" + normalized_words(n) + "_"`` is a substring of this.
    """
    return "_" + "_".join(_cased_words(text)) + "_"
