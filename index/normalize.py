"""Name normalization: the key under which "The Rapid Strike" and "rapid strike" meet.

Rule (from the entity index design): Unicode NFKC, case-folded, diacritics kept, a leading
article removed ("the", "a", "an"), every run of spaces and punctuation collapsed to one
``_``, no leading or trailing ``_``.
"""

from __future__ import annotations

import re
import unicodedata

_ARTICLES = ("the", "a", "an")
_NON_WORD = re.compile(r"[\W_]+", re.UNICODE)
_SPACES = re.compile(r"\s+")


def normalize_name(name: str) -> str:
    """Return the normalized key of an entity name ('' when nothing is left)."""
    folded = unicodedata.normalize("NFKC", name).casefold()
    words = [w for w in _NON_WORD.split(folded) if w]
    if len(words) > 1 and words[0] in _ARTICLES:
        words = words[1:]
    return "_".join(words)


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

    ``normalize_name(n)`` occurs in a text as whole words exactly when
    ``"_" + normalize_name(n) + "_"`` is a substring of this.
    """
    folded = unicodedata.normalize("NFKC", text).casefold()
    return "_" + "_".join(w for w in _NON_WORD.split(folded) if w) + "_"
