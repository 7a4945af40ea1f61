"""Name normalization: the key under which "The Rapid Strike" and "rapid strike" meet.

Rule (from the entity index design, extended for real books): Unicode NFKC, case-folded,
diacritics kept, curly apostrophes straightened, a possessive "'s" dropped, a leading article
removed ("the", "a", "an"), every run of spaces and punctuation collapsed to one ``_``, no
leading or trailing ``_`` (a backslash that opens a word before a letter is kept: the
command ``\\caption`` and the word "caption" are two keys; lookups fold it, ``unslashed``), and the last word's English plural folded to its singular
("Fate Points" and "fate point" meet; "Abilities" and "ability"; "Witches" and "witch").

``normalized_words`` is the same without the plural fold: verification uses it to check that
a name occurs in a chunk as written.
"""

from __future__ import annotations

import re
import unicodedata

_ARTICLES = ("the", "a", "an")
_NON_WORD = re.compile(r"[\W_]+", re.UNICODE)
# a word: letters and digits; a backslash that opens a word before a letter is part of it (a
# TeX command or an escape: "\\caption" is not "caption", "\\a" is not the letter "a")
_WORD = re.compile(r"(?:(?<![^\W_])\\(?=[^\W\d_]))?[^\W_]+", re.UNICODE)
_SPACES = re.compile(r"\s+")
_POSSESSIVE = re.compile(r"(?<=\w)['’]s\b|(?<=s)['’](?=\W|$)")
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


def _words(name: str) -> list[str]:
    folded = unicodedata.normalize("NFKC", name).replace("’", "'").casefold()
    folded = _POSSESSIVE.sub("", folded)
    words = _WORD.findall(folded)
    if len(words) > 1 and words[0] in _ARTICLES:
        words = words[1:]
    return words


def normalized_words(name: str) -> str:
    """The name's words, ``_``-joined, as written (no plural fold)."""
    return "_".join(_words(name))


def normalize_name(name: str) -> str:
    """Return the normalized key of an entity name ('' when nothing is left)."""
    words = _words(name)
    if words:
        words[-1] = singular(words[-1])
    return "_".join(words)


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
    folded = unicodedata.normalize("NFKC", text).replace("’", "'").casefold()
    folded = _POSSESSIVE.sub("", folded)
    return "_" + "_".join(_WORD.findall(folded)) + "_"
