"""The JSON shapes the library returns (dataclasses; ``asdict`` gives the CLI's --json). The
API's TypedDicts of the records below, and so the MCP output schemas, are made from these
fields (index/api/shapes.py): a field added here is in all three."""

from __future__ import annotations

from dataclasses import asdict, dataclass, field
from typing import Literal

MentionType = Literal["defines", "references"]
MENTION_TYPES = ("defines", "references")
# between an owner and its sub-entry in a scoped name ("Ember Drake › Bite"): a generic name
# defined under several entries of a book is each entry's own, not one shelf-wide entity
SUB_ENTRY_SEPARATOR = " › "


@dataclass(frozen=True)
class DocTerm:
    """What a documentation page states it documents (index/readers/docset): its subject (the
    command of a man page's NAME line, the module of a Sphinx page's title) or a term of a
    definition list (a Sphinx ``py:function`` entry, an option block's ``-a, --all``)."""

    name: str                    # as the section shows it ("json.dump", "--all", "git-commit")
    kind: str                    # "command", "option", "function", "class", "module", ... or "other"
    subject: bool = False        # the page's subject (stored as source 'note'), else a term ('deflist')
    aliases: tuple[str, ...] = ()
    target: str = ""             # the page (and #anchor) a hyperlink names it by
    rule: str = ""               # the reader's rule that found it ("back_index"...); '' = by what it is


@dataclass(frozen=True)
class Section:
    """A heading and the Markdown body up to the next heading of any level."""

    heading: str | None          # None for text before the first heading
    level: int                   # 0 for text before the first heading
    heading_path: tuple[str, ...]
    text: str                    # heading line(s) + body, as Markdown (as in the source for .md)
    start_line: int
    pages: tuple[int, int] | None = None  # first and last page it spans (a PDF)
    file: str | None = None      # the chapter file or note it came from, relative to the book
    # what a note vault's conventions say exactly (index/readers/vault, index/extract/marks.py):
    # the names the section defines, each (name, *aliases); the notes its links reference,
    # each (target entity name, text shown, target note file); the note's folders and tags
    defines: tuple[tuple[str, ...], ...] = ()
    links: tuple[tuple[str, str, str], ...] = ()
    kinds: tuple[str, ...] = ()
    terms: tuple[DocTerm, ...] = ()  # what a documentation page's section documents


@dataclass(frozen=True)
class ParentChunk:
    id: str
    book: str
    ordinal: int                 # position of the parent in the book
    heading: str | None
    heading_path: tuple[str, ...]
    part: int                    # >0 when a long section was split
    text: str
    sha256: str
    token_count: int
    pages: tuple[int, int] | None = None  # its section's pages (a PDF)
    file: str | None = None      # its section's chapter file or note (an EPUB, a vault)
    defines: tuple[tuple[str, ...], ...] = ()   # its section's (the first part only), see Section
    links: tuple[tuple[str, str, str], ...] = ()
    kinds: tuple[str, ...] = ()
    terms: tuple[DocTerm, ...] = ()  # those of its section whose name this part shows (see Section)

    @property
    def path_str(self) -> str:
        return " > ".join(self.heading_path)


@dataclass(frozen=True)
class ChildChunk:
    id: str
    parent_id: str
    book: str
    ordinal: int
    text: str
    token_count: int


@dataclass(frozen=True)
class RawMention:
    """One entity mention as an extractor proposes it, before verification."""

    name: str
    entity_type: str
    mention_type: str
    context: str
    source: str                  # "heading", "glossary", "deflist", "table", "llm" or "linker"
    aliases: tuple[str, ...] = ()  # other names the chunk gives the entity it defines
    rule: str = ""                 # the rule that made it (index/extract/contract.py; "llm" for a model's)


@dataclass(frozen=True)
class RawRelation:
    """One relationship as an extractor proposes it, before normalization and resolution.

    An endpoint is named (``*_name``, as written in the chunk; resolved through the chunk's
    entities, then the corpus by normalized name) or given by the id of a known entity
    offered in the prompt (``*_id``). ``relation_type`` is raw: an ontology type, an
    inverse or alias of one, an UPPER_SNAKE verb (offline path), or anything else (it
    becomes ``custom:<type>``). ``evidence`` must be a verbatim quote from the chunk.
    """

    source_name: str | None
    target_name: str | None
    relation_type: str
    evidence: str
    confidence: float = 1.0
    polarity: str = "asserted"          # "asserted", "denied" or "uncertain"
    implicit: bool = False
    source_id: int | None = None
    target_id: int | None = None
    extractor: str = "llm"              # "llm", "spacy" or "llm-refine"
    target_kind: str | None = None      # a named end's kind ("item": what a creature wields), resolved among it


@dataclass
class ChunkExtraction:
    chunk_id: str
    mentions: list[RawMention] = field(default_factory=list)
    relationships: list[RawRelation] = field(default_factory=list)
    dropped: dict = field(default_factory=dict)   # reason -> count, items rejected by the parser
    raw: dict | None = None                       # the parsed answer, for later phases
    dropped_relations: dict = field(default_factory=dict)  # reason -> count, relationship items rejected
    known: dict = field(default_factory=dict)     # id -> KnownEntity: the ids this chunk's prompt offered
    # model-written, unverified: only ever joins the embedding text of the chunk's children
    situating_context: str | None = None


@dataclass(frozen=True)
class Veto:
    """A candidate a rule dropped before it could define a name: the chunk it stood in, the
    stage (``headings``, ``entries``, ``guesses``), the candidate's name as written, the veto."""

    chunk_id: str
    stage: str
    name: str
    rule: str


@dataclass
class Mention:
    """One mention of an entity: where it is (book, section, pages or file) and how (defines or references)."""

    entity_id: int
    name: str
    entity_type: str
    book: str
    chunk_id: str
    heading_path: str
    mention_type: str
    context: str
    source: str
    rule: str = ""                   # the extraction rule that made it (index/extract/contract.py)
    pages: list[int] | None = None   # [first, last] page of its section in the source (a PDF)
    file: str | None = None          # its section's chapter file or note (an EPUB, a vault)

    def to_dict(self) -> dict:
        return asdict(self)


@dataclass
class BookCount:
    """A book that holds an entity ``where_else`` found, and how often: its definitions and its
    references of that entity (every mention the filters keep, not only those of one page)."""

    book: str
    entity_id: int
    entity: str                      # the entity's name
    entity_type: str
    defines: int
    references: int

    def to_dict(self) -> dict:
        return asdict(self)


def page_range(start: int | None, end: int | None) -> list[int] | None:
    """A chunk's stored pages as the answers give them: ``[first, last]``, None when unknown."""
    if start is None:
        return None
    return [start, end if end is not None else start]


@dataclass
class BookInfo:
    """One book of the shelf, as ``books`` lists it: its source, counts, genres and whether its vectors are complete."""

    title: str
    path: str
    sha256: str
    extractor: str
    pack: str
    ingested_at: str
    sections: int
    entities_defined: int
    mentions: int
    dropped_mentions: int
    drop_reasons: dict = field(default_factory=dict)
    relationships: int = 0
    dropped_relations: int = 0
    relation_drop_reasons: dict = field(default_factory=dict)
    partial: int = 0             # parent chunks without extraction (stored with --allow-partial)
    id: int = 0                  # the books row id: --book accepts it ("crossbook books" shows it)
    format: str | None = None    # the reader it was read with (index/readers); None: before m010
    source: str | None = None    # the file or folder it was read from
    pages_without_text: list = field(default_factory=list)  # a PDF's scanned pages (no text layer), as printed
    # False: some of its sections have no current vector (run doctor --repair); None: the
    # index has no vectors at all
    vectors_complete: bool | None = None
    # the genre packs whose words apply to it (None: every genre, stored before the choice),
    # the signals that chose each (index/extract/genre_choice.py), and how ("auto@..." or "pack:...")
    genres: list | None = None
    genre_signals: dict = field(default_factory=dict)
    genre_choice: str = ""

    def to_dict(self) -> dict:
        return asdict(self)


@dataclass
class IngestResult:
    """One book an ingest read: what became of it (added, updated, unchanged) and its counts."""

    title: str
    path: str
    status: str                  # "added", "updated", "unchanged"
    renamed_from: str | None = None  # the title the book had (its file's title changed)
    sections: int = 0
    parents: int = 0
    children: int = 0
    mentions: int = 0
    dropped_mentions: int = 0
    repaired_contexts: int = 0   # definitions kept with the chunk's own sentence as context
    partial: int = 0             # chunks stored without entities (--allow-partial)
    llm_calls: int = 0
    cache_hits: int = 0
    relationships: int = 0       # rows derived from this book's claims
    relation_claims: int = 0
    refine_calls: int = 0        # --relations refine: model calls confirming candidates (cache misses)
    dropped_relations: int = 0   # ingest-time drops + claims left pending (unresolved_endpoint)
    situating_contexts: int = 0  # parent chunks the model situated (their children embed it)
    warnings: list[str] = field(default_factory=list)

    def to_dict(self) -> dict:
        return asdict(self)
