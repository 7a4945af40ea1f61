"""What a word is, in one place: each reader of text names the kind of word it reads.

A name's key (core/normalize.py) is made of ``KEY_WORD``\\s: letters and digits, a backslash
that opens a TeX command kept. A question is split once (query/question.py's
``parse_question``) into the other kinds, which differ where it matters:

- ``WRITTEN_WORD``: a word as a question writes it, opening on a letter or a digit and
  running through letters, digits, apostrophes and hyphens ("City's", "6th-level"): the words
  of the names and phrases a question may use (a possessive "'s" is dropped: ``written_words``);
- ``DASHED_WORD``: the same, but a word may open on a dash or an apostrophe: the words of the
  loose names a question links (query/loose_names.py), where an option keeps its dashes
  ("what does its --amend option replace?");
- ``LETTER_RUN``: a run of letters, no digits, split at apostrophes and hyphens: a content
  word (query/bridge.py: "ranged-weapon" gives "ranged" and "weapon") and a type name the
  question asks for ("which spells");
- ``WORD_OR_STOP``: a written word that opens on a letter, or a stop that ends a clause: the
  tokens query/bridge.py reads a name's category words from ("the Corruption theme").

They are kept apart because each reads differently what the others would read as one (a
docs question's "--amend", a "+3"'s digit): unifying two is a change of what questions find,
measured as any other (make eval).
"""

from __future__ import annotations

import re

# a word of a name's key: letters and digits; a backslash that opens a word before a letter is
# part of it (a TeX command or an escape: "\\caption" is not "caption", "\\a" is not the letter "a")
KEY_WORD = re.compile(r"(?:(?<![^\W_])\\(?=[^\W\d_]))?[^\W_]+", re.UNICODE)
WRITTEN_WORD = re.compile(r"[^\W_][\w'’-]*")
DASHED_WORD = re.compile(r"[\w'’-]+")
LETTER_RUN = re.compile(r"[^\W\d_]+", re.UNICODE)
WORD_OR_STOP = re.compile(r"[^\W\d_][\w'’-]*|[.!?;:]")
_POSSESSIVE_END = re.compile(r"['’]s$")


def without_possessive(word: str) -> str:
    """A word without its possessive "'s" ("City's" -> "City")."""
    return _POSSESSIVE_END.sub("", word)


def written_words(text: str) -> list[str]:
    """The ``WRITTEN_WORD``\\s of ``text``, each without its possessive "'s"."""
    return [without_possessive(word) for word in WRITTEN_WORD.findall(text)]


def dashed_words(text: str) -> list[str]:
    """The ``DASHED_WORD``\\s of ``text``, each without its possessive "'s"."""
    return [without_possessive(word) for word in DASHED_WORD.findall(text)]


def letter_runs(text: str) -> list[str]:
    """The ``LETTER_RUN``\\s of ``text``, as written."""
    return LETTER_RUN.findall(text)
