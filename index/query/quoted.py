"""The sections a question quotes: a run of its words that only a few sections contain.

A question that describes what it is about instead of naming it ("the power that makes you
fade from view") often repeats the words of that entry ("You can completely fade from
view"). Vector search ranks a short entry written that way below long sections of the same
style (a catalog's dozens of "Enhancements" lists), so hop 1 may miss it; the words the
two share are rare, and the linker's word index of each section (``link_words``, SQLite
FTS5) finds them. ``quoted_sections`` returns those sections; retrieve.py adds them to
hop 1's seeds beside the sections that define what the question names.
"""

from __future__ import annotations

import sqlite3

from sqlite_utils import Database

from ..core.words import letter_runs
from ..linking.link_state import chunks_matching
from . import bridge

QUOTED_WORDS = 3             # a run of this many words of the question ...
QUOTED_CONTENT = 2           # ... with this many content words (not opening or closing on a stopword)
QUOTED_UP_TO = 3             # ... contained by at most this many sections is a quotation
QUOTED_SEEDS = 2             # sections retrieve.py adds to the seeds, the most quoted first


def quoted_runs(text: str) -> list[str]:
    """The runs of QUOTED_WORDS words of ``text`` (case-folded letters, as the word index
    reads them) that open and close on a content word and hold QUOTED_CONTENT of them;
    each once, in the order of the text."""
    words = letter_runs(text.casefold())
    runs: list[str] = []
    for start in range(len(words) - QUOTED_WORDS + 1):
        part = words[start:start + QUOTED_WORDS]
        if part[0] in bridge.STOPWORDS or part[-1] in bridge.STOPWORDS:
            continue
        run = " ".join(part)
        if len(bridge.content_words(run)) >= QUOTED_CONTENT and run not in runs:
            runs.append(run)
    return runs


def quoted_sections(db: Database, text: str, skip: set[str]) -> list[str]:
    """Parent chunk ids of the sections that contain a run of the question (``quoted_runs``)
    found in at most QUOTED_UP_TO sections, those containing the most such runs first (ties
    by chunk id), none of ``skip``. An index without the word index gives none."""
    counts: dict[str, int] = {}
    try:
        for run in quoted_runs(text):
            found = chunks_matching(db, f'"{run}"', QUOTED_UP_TO + 1)
            if len(found) <= QUOTED_UP_TO:
                for chunk_id in found:
                    counts[chunk_id] = counts.get(chunk_id, 0) + 1
    except sqlite3.OperationalError:
        return []
    return sorted((c for c in counts if c not in skip), key=lambda c: (-counts[c], c))
