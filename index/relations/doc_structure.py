"""Relations a documentation page's structure states, read with no parse of its sentences.

A doc set's reader (index/readers/docset) marks what each page documents: its subject (a
mention the page defines as its ``note``) and the terms of its sections (definition lists, an
inventory's entries, a man page's options), each typed with the kind its markup states. From
them and where they sit, for a book whose genres read structure (core/genres.reads_structure):

- ``member_of``: a term is a member of the nearest thing before it that can own it, as the
  ontology's map of each member kind says which kinds own it (its ``member_of`` pair candidates) (a method of its class, an
  option of its command, a function of its module): first the terms its own section defines
  before it, then those of the sections before it on its page at or above its place, then
  the page's subject. Never from a name's ``owner › member`` form, which only options
  documented on two or more pages get.
- ``see_also`` (symmetric): what a "See also" section or line references are the authors'
  pointers from the entry it belongs to (the nearest term before the lead, else the page's
  subject).
- ``replaced_by``: a sentence that says its entry is deprecated, and names after a replacement
  lead a thing the chunk mentions ("Deprecated: Use `decodeUtf8` instead"), says that thing
  replaces the entry (the nearest term before the sentence, else the page's subject).

The words (section titles, leads) are the documentation pack's, read where the rule runs.
``doc_places`` reads what the rule needs from SQLite; ``structure_claims`` is pure.
"""

from __future__ import annotations

import re
from collections import defaultdict
from dataclasses import dataclass, field

from sqlite_utils import Database

from ..core.models import SUB_ENTRY_SEPARATOR
from ..core.normalize import collapse_whitespace, normalize_name
from ..core.packs import genre_words, word_pattern
from ..storage.store import in_values
from .claims import Claim
from .ontology import Ontology

EXTRACTOR = "structure"
SUBJECT_SOURCE = "note"   # the mention source of a page's subject (index/extract/marks.py)
PATH_SEPARATOR = " > "
SPAN_CHARS = 300          # how far after a deprecation word its replacement may be named
EVIDENCE_CHARS = 200
# a release's number ("v16.5.0", "2.2"): a version history's row, never a documented thing
_VERSION = re.compile(r"v?\d+(?:\.\d+)+\S*|\W*", re.IGNORECASE)
# what may follow a name that is whole: not a word, nor a dot or colon going on into one ("app" of "app.json")
_NAME_GOES_ON = re.compile(r"\w|[.:#/-]\w")
# between a replacement lead and the name it gives: spaces, code and emphasis marks, an article
_BEFORE_NAME = re.compile(r"[\s`*_\[(]*(?:the\s+)?[`*_\[]*", re.IGNORECASE)

EntityKey = tuple[str, str]


@dataclass(frozen=True)
class Term:
    """An entity a chunk mentions: its name, how the chunk writes it, its key, how it is mentioned."""

    name: str
    written: str
    key: EntityKey
    source: str = ""
    defines: bool = True


@dataclass
class DocPlace:
    """Where a chunk sits on its page: the page's subject, the terms the sections before it
    at or above its place define (nearest last), what it defines and references."""

    subject: Term | None = None
    above: list[Term] = field(default_factory=list)
    defined: list[Term] = field(default_factory=list)
    referenced: list[Term] = field(default_factory=list)

    def signature(self) -> list:
        """What the chunk's structure claims depend on, for the offline pass's signature."""
        return [self.subject and list(self.subject.key), [list(t.key) for t in self.above],
                [[t.written, list(t.key), t.source] for t in self.defined],
                [[t.written, list(t.key)] for t in self.referenced]]


def doc_places(db: Database, chunks: set[str] | None, books: set[str]) -> dict[str, DocPlace]:
    """The place of each parent chunk (of ``chunks``, or all) of ``books`` that comes from a
    page (its ``source_file``): its page's subject, the terms of the sections before it at or
    above it, and the entities it defines and references."""
    if not books:
        return {}
    book_condition, book_params = in_values("c.book", books)
    condition, params = in_values("c.id", chunks)
    pages = {(b, f) for b, f in db.execute(
        f"SELECT DISTINCT c.book, c.source_file FROM chunks c WHERE c.kind = 'parent' AND {book_condition}"
        f" AND {condition} AND c.source_file IS NOT NULL", book_params + params)}
    if not pages:
        return {}
    file_condition, file_params = in_values("c.source_file", {f for _, f in pages})
    sections: dict[tuple[str, str], list[tuple[int, str, str]]] = defaultdict(list)
    mentioned: dict[str, list[Term]] = defaultdict(list)
    for chunk_id, book, page, path, ordinal, name, normalized, entity_type, written, source, mention_type in db.execute(
        "SELECT c.id, c.book, c.source_file, c.heading_path, c.ordinal, e.name, e.normalized, e.entity_type, m.name,"
        " m.source, m.mention_type FROM chunks c LEFT JOIN entity_mentions m ON m.chunk_id = c.id"
        " LEFT JOIN entities e ON e.id = m.entity_id"
        f" WHERE c.kind = 'parent' AND {book_condition} AND {file_condition} ORDER BY c.ordinal, m.id",
        book_params + file_params,
    ):
        if (book, page) not in pages:
            continue
        if not sections[(book, page)] or sections[(book, page)][-1][1] != chunk_id:
            sections[(book, page)].append((ordinal, chunk_id, path))
        if name is not None:
            mentioned[chunk_id].append(Term(name, written, (normalized, entity_type), source, mention_type == "defines"))
    wanted = None if chunks is None else set(chunks)
    out: dict[str, DocPlace] = {}
    for rows in sections.values():
        subject = next((t for _, chunk_id, _ in rows for t in mentioned[chunk_id]
                        if t.defines and t.source == SUBJECT_SOURCE), None)
        for i, (_, chunk_id, path) in enumerate(rows):
            if wanted is not None and chunk_id not in wanted:
                continue
            own = [t for t in mentioned[chunk_id] if t.source != "linker" or not t.defines]
            above = [t for _, other, other_path in rows[:i] if _at_or_above(other_path, path)
                     for t in mentioned[other]
                     if t.defines and t.source not in (SUBJECT_SOURCE, "linker")]
            out[chunk_id] = DocPlace(subject, above, [t for t in own if t.defines and t.source != "linker"],
                                     [t for t in own if not t.defines])
    return out


def _at_or_above(path: str, below: str) -> bool:
    """Whether a section of ``path`` holds (or is) the section of ``below``."""
    return below == path or below.startswith(path + PATH_SEPARATOR)


def structure_claims(text: str, place: DocPlace, ontology: Ontology) -> list[Claim]:
    """The claims a chunk's place on its page and its text state (this module's docstring)."""
    found = _positions(text, place.defined)
    claims = _members(text, place, found, ontology)
    claims += _see_also(text, place, found)
    claims += _replaced(text, place, found)
    seen, out = set(), []
    for claim in claims:
        key = (claim.source_normalized, claim.source_type, claim.target_normalized, claim.target_type,
               claim.relation_type)
        if key not in seen and (claim.source_normalized, claim.source_type) != (claim.target_normalized,
                                                                                claim.target_type):
            seen.add(key)
            out.append(claim)
    return out


def _named(term: Term) -> bool:
    """A term that names a thing: not a release's number, nor a run of marks with no letter."""
    own = term.name.rpartition(SUB_ENTRY_SEPARATOR)[2].strip()  # a scoped entry's own name ("Zlib › v0.11.12")
    return _VERSION.fullmatch(own) is None and re.search(r"[^\W\d]", own) is not None


def _positions(text: str, terms: list[Term]) -> list[tuple[int, Term]]:
    """The chunk's terms by where the text first writes them (the page's subject left out)."""
    placed = []
    for term in terms:
        if term.source == SUBJECT_SOURCE or not _named(term):
            continue
        at = text.find(term.written)
        placed.append((at if at >= 0 else len(text), term))
    return sorted(placed, key=lambda p: p[0])


def _claim(source: Term, target: Term, relation_type: str, evidence: str) -> Claim:
    return Claim(source_name=source.name, source_normalized=source.key[0], source_type=source.key[1],
                 target_name=target.name, target_normalized=target.key[0], target_type=target.key[1],
                 relation_type=relation_type, evidence=collapse_whitespace(evidence)[:EVIDENCE_CHARS] or source.written,
                 confidence=1.0, polarity="asserted", implicit=False, extractor=EXTRACTOR)


def _line_at(text: str, at: int) -> str:
    """The line of ``text`` that holds position ``at``."""
    start = text.rfind("\n", 0, at) + 1
    end = text.find("\n", at)
    return text[start:end if end >= 0 else len(text)]


def _owners_before(at: int, found: list[tuple[int, Term]], place: DocPlace) -> list[Term]:
    """What an entry at ``at`` may belong to, nearest first: the chunk's terms before it, the
    terms of the sections before it at or above it, the page's subject."""
    before = [t for pos, t in found if pos < at][::-1]
    above = [t for t in place.above[::-1] if _named(t)]
    return before + above + ([place.subject] if place.subject is not None else [])


def _entry_before(at: int, found: list[tuple[int, Term]], place: DocPlace) -> Term | None:
    """The entry a line at ``at`` belongs to: the nearest thing before it of a stated kind (a
    term of no stated kind, a version history's row, is passed over), else the page's subject."""
    plain = genre_words("documentation", "plain_entry_kinds")
    return next((t for t in _owners_before(at, found, place) if t.key[1] not in plain), None)


def _members(text: str, place: DocPlace, found: list[tuple[int, Term]], ontology: Ontology) -> list[Claim]:
    out = []
    for at, term in found:
        entry = ontology.maps.get((term.key[1], "member_of"))
        if entry is None or not entry.pair_candidates:
            continue  # a kind no map says can be a member of anything
        owner = next((o for o in _owners_before(at, found, place)
                      if o.key != term.key and o.key[1] in entry.pair_candidates), None)
        if owner is not None:
            out.append(_claim(term, owner, "member_of", _line_at(text, min(at, len(text) - 1)) if text else ""))
    return out


def _lead(words: frozenset[str]) -> re.Pattern | None:
    return re.compile(rf"(?<![\w-])(?:{word_pattern(words)})(?![\w-])", re.IGNORECASE) if words else None


def _see_also(text: str, place: DocPlace, found: list[tuple[int, Term]]) -> list[Claim]:
    """A See also section's references (its heading is one of the pack's titles), or those
    after a See also lead that opens a line or a sentence, to the line's end (the paragraph
    after it when the line holds nothing more)."""
    titles = genre_words("documentation", "see_also_titles")
    lead = _lead(genre_words("documentation", "see_also_leads"))
    first_line, _, body = text.partition("\n")
    spans: list[tuple[int, int]] = []
    if first_line.startswith("#") and normalize_name(first_line.lstrip("#").strip(" *_:")) in titles:
        spans.append((0, len(text)))
    elif lead is not None:
        for opened in lead.finditer(text):
            before = text[text.rfind("\n", 0, opened.start()) + 1:opened.start()].rstrip(" \t*_")
            if before.strip(" \t>:") and before[-1:] not in ".!?":
                continue  # in a sentence, not opening one ("which see also ...")
            end = text.find("\n", opened.end())
            end = len(text) if end < 0 else end
            if not re.search(r"\w", text[opened.end():end]):  # the lead alone: the paragraph after it
                paragraph = text.find("\n\n", end + 1)
                end = len(text) if paragraph < 0 else paragraph
            spans.append((opened.start(), end))
    out = []
    for start, end in spans:
        owner = _entry_before(start, found, place)
        if owner is None:
            continue
        span = text[start:end]
        for target in place.referenced:
            at = span.find(target.written)
            if at >= 0 and _named(target):
                out.append(_claim(owner, target, "see_also", _line_at(span, at)))
    return out


def _replaced(text: str, place: DocPlace, found: list[tuple[int, Term]]) -> list[Claim]:
    """Each deprecation sentence's replacement, the first name the chunk mentions right after a
    replacement lead (code marks and an article between them)."""
    deprecated = _lead(genre_words("documentation", "deprecation_words"))
    replacing = _lead(genre_words("documentation", "replacement_leads"))
    if deprecated is None or replacing is None:
        return []
    names = sorted({t.written: t for t in [*place.referenced, *place.defined] if t.written.strip()}.items(),
                   key=lambda item: -len(item[0]))
    out = []
    for match in deprecated.finditer(text):
        paragraph = text.find("\n\n", match.end())
        end = min(len(text) if paragraph < 0 else paragraph, match.end() + SPAN_CHARS)
        for lead in replacing.finditer(text, match.end(), end):
            at = _BEFORE_NAME.match(text, lead.end()).end()
            target = next((t for written, t in names if text.startswith(written, at) and _named(t)
                           and not _NAME_GOES_ON.match(text, at + len(written))), None)
            if target is None:
                continue
            owner = _entry_before(match.start(), found, place)
            if owner is not None:
                out.append(_claim(owner, target, "replaced_by", text[match.start():at + len(target.written)]))
            break
    return out
