"""Exact mentions from a note vault's conventions, for every extractor (rules and LLM alike).

A vault's reader (index/readers/vault) marks on each section what the notes state exactly:
the names a note defines (its name, front-matter title and aliases; a stat block's
``name:``) and the notes its links reference. ``NoteMarks.verify`` turns them into mentions
next to the extractor's own, checked against the chunk text like any mention (the note's
heading line and each link's shown text are in the chunk):

- a note defines its entity (source ``note``; a stat block's creature: ``statblock``);
  front-matter aliases are kept as the entity's aliases (they are the note's metadata, not
  its text, so no text has to show them);
- a link references the entity its target note defines (source ``wikilink``), named as the
  target defines it, so it resolves to that note whatever text it shows;
- exact beats a guess: the extractor's mentions of a name the chunk's note defines or links
  are dropped for the exact ones, and a heading that is a link or an embed
  (``## ![[Burning Momentum]]``) defines nothing here: it names another note's entity.

Entity type of a note's entity: the pack's heading rules over the note's folders and tags
(``Assets/`` or ``#Asset/Path`` under a rule for "Assets"); else the one kind its tags name
by the rulebook pack's kind words (``#Asset/Ritual``: spell); else the kind its first section
states of itself (a stat block, field lines "Rank:", "Drives:"; entry_kinds.own_kind); else the type the extractor
gave the same name in the note's own chunk; else the kind of a note named by a plural kind
that embeds it as a heading ("Beasts" over ``## ![[Marsh Wyrm]]``); else ``other``. A stat
block's creature takes the pack's ``creature``/``monster``/``npc`` type when it has one. A link declares its
target's type, so it resolves to that note's entity when two notes share a name.

A documentation set (index/readers/docset) marks the same way: a page defines its subject
(source ``note``) and each term of its definition lists (``deflist``), typed with the kind the
page's markup states (``function``, ``option``, ``command``...); an author's hyperlink to
another page, or to an entry on it, references what it documents (``wikilink``).
"""

from __future__ import annotations

import re
from dataclasses import dataclass, replace

from ..core.models import SUB_ENTRY_SEPARATOR, ChunkExtraction, ParentChunk, RawMention
from ..core.normalize import collapse_whitespace, normalize_name, singular
from ..core.packs import DomainPack, genre_list
from ..readers.html_markdown import markdown_text
from .contract import first_rule, is_on
from .entry_kinds import heading_kind, own_kind, rulebook_kinds
from .text import first_body_sentence
from .verify import MAX_CONTEXT, ChunkText, Verified, verify_mentions

# a name that cannot be an ordinary word: a TeX command, an identifier, a call, an option
CODE_LIKE = re.compile(r"\\[A-Za-z]|\w_\w|[A-Za-z_]\.[A-Za-z_]|\(\)|^--?\w|[a-z][A-Z]")
# a heading that names a command (a TeX command, an option, a call): five make a book a manual
COMMAND_HEADING = re.compile(r"^(?:\\[A-Za-z@]|--?[A-Za-z])|\w\(\)")
_MANUAL_HEADINGS = 5


class NoteMarks:
    """The marks of one book's chunks (none for a book that is not a vault: a no-op)."""

    def __init__(self, pack: DomainPack, parents: list[ParentChunk], extractions: list[ChunkExtraction | None]):
        self.pack = pack
        # the pack's types and the kinds a book gives its entries without one (entry_kinds.py)
        self.types = tuple(dict.fromkeys((*pack.type_names, *rulebook_kinds())))
        self.note_types: dict[str, str] = {}  # note file -> the type of the entity it defines
        for parent, extraction in zip(parents, extractions, strict=True):
            if parent.defines and parent.file and parent.file not in self.note_types:
                name = parent.defines[0][0]
                self.note_types[parent.file] = self._type(name, parent, extraction)
        for file, kind in embedded_kinds(parents).items():
            if self.note_types.get(file) == "other" and kind in self.types:
                self.note_types[file] = kind
        creature = [t for t in genre_list("rulebook", "creature_types") if t in pack.type_names]
        self.creature_type = creature[0] if creature else None
        # a documentation page's terms by the page (and #anchor) a hyperlink names them by
        self.doc_types = {term.target: term.kind for parent in parents for term in parent.terms if term.target}
        self.page_labels = page_labels(parents) if self.doc_types else set()
        # the pages of a documentation set (a page that states its subject)
        self.doc_pages = {p.file for p in parents if p.file and any(t.subject for t in p.terms)}
        self.documentation = bool(self.doc_types or self.doc_pages)  # a doc set's links, not a vault's
        # a manual: its markup or back index states what it documents, or its headings name
        # commands ("\\appto", "--all", "open()")
        self.manual = bool(self.doc_types) or sum(1 for p in parents if p.heading and COMMAND_HEADING.search(
            p.heading)) >= _MANUAL_HEADINGS

    def _type(self, name: str, parent: ParentChunk, extraction: ChunkExtraction | None) -> str:
        by_rule = self.pack.type_for((*parent.kinds, name))
        if by_rule != "other":
            return by_rule
        if (tagged := tag_kind(parent)) in self.types:
            return tagged
        if (shaped := own_kind(parent.text, None)) in self.types:  # a stat block's callout ("Rank:", "Drives:")
            return shaped
        key = normalize_name(name)
        for mention in (extraction.mentions if extraction is not None else ()):
            if normalize_name(mention.name) == key and mention.entity_type in self.pack.type_names:
                return mention.entity_type
        return "other"

    def verify(self, parent: ParentChunk, mentions: list[RawMention], chunk: ChunkText) -> Verified:
        """The extractor's ``mentions`` verified (verify.py), with this chunk's marks added in
        their place; dropped marks are counted with the extractor's drops."""
        if not parent.defines and not parent.links and not parent.terms and not self.manual and not self.doc_pages:
            return verify_mentions(mentions, chunk, self.types)
        marks = self._marks(parent)
        view = GuessView(self, parent, {normalize_name(m.name) for m in marks}
                         | {normalize_name(a) for m in marks for a in m.aliases})
        guessed, vetoed = [], []
        for mention in mentions:
            veto = first_rule(GUESS_VETOES, view, mention)
            if veto is None:
                guessed.append(mention)
            elif mention.mention_type == "defines":
                vetoed.append((mention.name, veto))
        verified = verify_mentions(guessed, chunk, self.types)
        verified.vetoed = vetoed
        seen = {(normalize_name(m.name), m.entity_type, m.mention_type) for m in verified.mentions}
        for mark, surface in self._surfaces(parent, marks):
            key = (normalize_name(mark.name), mark.entity_type, mark.mention_type)
            if key in seen:
                continue
            context = _note_context(parent.text, mark.name) if mark.source == "note" else None
            if mark.source == "deflist" and mark.mention_type == "defines":
                context = _term_context(parent.text, mark.name.rpartition(SUB_ENTRY_SEPARATOR)[2])
            # a name the page's Markdown escapes ("\\_\\_pool") is shown as escaped
            context = context or chunk.sentence_of(surface) or chunk.sentence_of(markdown_text(surface))
            if context is None:  # a mark whose text is not in this part of the note
                verified.dropped["mark_not_in_chunk"] += 1
                continue
            seen.add(key)
            verified.mentions.append(RawMention(mark.name, mark.entity_type, mark.mention_type, context,
                                                mark.source, mark.aliases, mark.rule))
        return verified

    def _marks(self, parent: ParentChunk) -> list[RawMention]:
        """The mentions the section's marks make: each mark the reader states (``stated``),
        unless a veto of ``MARK_VETOES`` drops it, named by the first rule of ``MARKS`` that
        agrees (a mark a reader's own rule stated: that rule, when it is on)."""
        stated = self.stated(parent)
        view = MarkView(self, parent, {normalize_name(m.mention.name) for m in stated
                                       if m.mention.mention_type == "defines"})
        out = []
        for mark in stated:
            if first_rule(MARK_VETOES, view, mark) is not None:
                continue
            rule = first_rule(MARKS, view, mark)
            if rule == reader_rule.__name__:
                rule = mark.stated_by if is_on(mark.stated_by) else None
            if rule is not None:
                out.append(replace(mark.mention, rule=rule))
        return out

    def stated(self, parent: ParentChunk) -> list["Mark"]:
        """What the reader states of a section, in order: its note's name, its stat blocks'
        names, its terms (a page's subject first), its links."""
        out: list[Mark] = []
        if parent.defines and parent.file in self.note_types:
            name, *aliases = parent.defines[0]
            out.append(Mark("note", RawMention(name, self.note_types[parent.file], "defines", "", "note",
                                               tuple(aliases))))
        for n, (name, *aliases) in enumerate(parent.defines):
            if n > 0 or parent.file not in self.note_types:
                kind = self.creature_type or self.note_types.get(parent.file, "other")
                out.append(Mark("statblock", RawMention(name, kind, "defines", "", "statblock", tuple(aliases))))
        for term in parent.terms:
            source = "note" if term.subject else "deflist"
            out.append(Mark("subject" if term.subject else "term",
                            RawMention(term.name, term.kind, "defines", "", source, term.aliases), term.rule))
        for target, shown, target_file in parent.links:
            kind = self.doc_types.get(target_file) or self.note_types.get(target_file, "other")
            out.append(Mark("link", RawMention(target, kind, "references", shown, "wikilink", ())))
        return out

    @staticmethod
    def _surfaces(parent: ParentChunk, marks: list[RawMention]):
        """Each mark with the text that shows it in the chunk: a definition its name, a link
        its shown text (kept in ``context`` until verified)."""
        for mark in marks:  # a sub-entry ("frob-add › --verbose") shows its own name
            yield mark, (mark.context if mark.mention_type == "references"
                         else mark.name.rpartition(SUB_ENTRY_SEPARATOR)[2])


def tag_kind(parent: ParentChunk) -> str | None:
    """The kind a note's tags state of the entity it defines: the one kind the rulebook pack's
    kind words give its tags' segments (``#Asset/Ritual``: a spell, ``#Asset/Combat_Talent``: a
    feature, as a heading "Rituals" names its entries'), or None when they name none or two.
    The note's first section carries its folders, then its tags' segments, in ``kinds``."""
    folders = parent.heading_path[:-1]
    if parent.kinds[:len(folders)] != folders:
        return None
    kinds = {kind for segment in parent.kinds[len(folders):] if (kind := heading_kind(segment))}
    return next(iter(kinds)) if len(kinds) == 1 else None


def embedded_kinds(parents: list[ParentChunk]) -> dict[str, str]:
    """note file -> the kind of the note that embeds it as a heading under its own name when
    that name is a plural kind ("Beasts" over ``## ![[Marsh Wyrm]]``: a creature), as a heading
    named by a plural kind types its direct children; a note so embedded under two kinds takes
    neither."""
    found: dict[str, set[str]] = {}
    for parent in parents:
        if not parent.heading or len(parent.heading_path) < 2:
            continue
        host = parent.heading_path[-2]
        last = host.split()[-1].casefold() if host.split() else ""
        kind = heading_kind(host) if last and singular(last) != last else None
        for _, shown, target_file in parent.links if kind else ():
            # a note named by a kind itself ("Debilities" over ``## ![[Conditions]]``) is a group of them, no member
            if shown == parent.heading and heading_kind(shown) is None:
                found.setdefault(target_file, set()).add(kind)
    return {file: next(iter(kinds)) for file, kinds in found.items() if len(kinds) == 1}


def page_labels(parents: list[ParentChunk], pages: int = 3) -> set[str]:
    """The headings a documentation set repeats below the titles of ``pages`` or more of its
    pages (a man page's "OPTIONS", "CONFIGURATION", "SEE ALSO"; a reference's "Examples"):
    structure labels, the doc set's own, which name nothing (normalized names)."""
    seen: dict[str, set[str]] = {}
    for parent in parents:
        if parent.file and parent.heading and len(parent.heading_path) > 1:
            seen.setdefault(normalize_name(parent.heading), set()).add(parent.file)
    return {name for name, files in seen.items() if len(files) >= pages}


def _term_context(text: str, name: str) -> str | None:
    """A definition list's term in its words: the term's line (the first that shows the name
    and is followed by its ``: definition``, or an indented ``> description``) through the end
    of the definition's first sentence, verbatim but for whitespace; None when no line does."""
    lines = text.split("\n")
    at_start = re.compile(r"^\s*(?:\*\w+\*\s+)?[@`\\]*" + re.escape(name) + r"(?![\w.-])")
    anywhere = re.compile(r"(?<![\w.-])" + re.escape(name) + r"(?![\w.-])")
    for shows in (at_start.search, anywhere.search):  # an entry's own line ("*class* x.Y(...)") first
        found = _term_line(text, lines, shows)
        if found is not None:
            return found
    return None


def _term_line(text: str, lines: list[str], shows) -> str | None:
    starts = [0]
    for line in lines:
        starts.append(starts[-1] + len(line) + 1)
    for i, line in enumerate(lines[:-1]):
        if not shows(line) or line.lstrip().startswith((": ", ">")):
            continue
        # its description: the next line that opens with ": " or "> ", past a blank line or
        # the other terms of one entry ("re.I" then "re.IGNORECASE", then the description)
        j = i + 1 + (not lines[i + 1].strip())
        while j < min(len(lines), i + 6) and lines[j].strip() and not lines[j].lstrip().startswith((": ", "> ")):
            j += 1
        if j < len(lines) and lines[j].lstrip().startswith((": ", "> ")):
            offset, body = starts[i], starts[j]
            # the description's first sentence, which may run over its next lines
            rest = text[body:body + MAX_CONTEXT]
            cut = re.search(r"(?<=[.!?])\s|\n\s*\n", rest)
            stop = body + (cut.start() if cut else len(rest))
            context = collapse_whitespace(text[offset:stop])
            return context if len(context) <= MAX_CONTEXT else collapse_whitespace(line)
    return None


def _note_context(text: str, name: str) -> str | None:
    """A note's definition in its words: from its name in the heading line to the end of the
    note's first sentence ("Face Danger When you attempt something risky..."), verbatim but
    for whitespace; None when the note has no sentence or it is too far."""
    heading, _, _ = text.partition("\n")
    at = heading.find(name)
    first = first_body_sentence(text)
    end = text.find(first) + len(first) if first else -1
    if at < 0 or end <= len(heading):
        return None
    context = collapse_whitespace(text[at:end])
    return context if len(context) <= MAX_CONTEXT else None


# -- the vetoes over the extractor's guesses, in order ---------------------------------------

@dataclass
class GuessView:
    """One chunk's marks as the vetoes over the extractor's own mentions read them."""

    marks: NoteMarks
    parent: ParentChunk
    exact: set[str]  # the names (and aliases) the chunk's marks state exactly


def marked_exactly(view: GuessView, mention: RawMention) -> bool:
    """Exact beats a guess: the chunk's note defines or links the name."""
    return normalize_name(mention.name) in view.exact


def page_title(view: GuessView, mention: RawMention) -> bool:
    """A page's title names the thing the page documents ("json — JSON encoder and decoder"
    documents json); a heading that is a link or an embed ("# ![[03 Chapter - Moves]]") names
    another note's entity: the extractor's reading of it as a definition goes."""
    parent = view.parent
    return mention.mention_type == "defines" and mention.source == "heading" and (
        any(term.subject for term in parent.terms)
        or bool(parent.heading and any(shown == parent.heading for _, shown, _ in parent.links)))


def page_label(view: GuessView, mention: RawMention) -> bool:
    """"OPTIONS", "CONFIGURATION" on page after page: labels, not names."""
    return mention.source == "heading" and normalize_name(mention.name) in view.marks.page_labels


def manual_topic(view: GuessView, mention: RawMention) -> bool:
    """A manual documents its commands, options and entries; a section heading in words
    ("Basic Usage", "Hook Management", "Known problems") is a topic of the manual."""
    return view.marks.manual and not CODE_LIKE.search(view.parent.heading or "") \
        and mention.source == "heading" and mention.mention_type == "defines"


def doc_set_table(view: GuessView, mention: RawMention) -> bool:
    """A doc set's tables state their entries in markup (readers/docset/tables.py): the
    extractor's reading of a row as a definition ("If", "To" of a word table) goes."""
    marks = view.marks
    return bool(marks.doc_pages) and view.parent.file in marks.doc_pages \
        and mention.source == "table" and mention.mention_type == "defines"


GUESS_VETOES = (marked_exactly, page_title, doc_set_table, page_label, manual_topic)


# -- the marks: what a reader states exactly ---------------------------------------------------

@dataclass(frozen=True)
class Mark:
    """One thing a reader states of a section: its form ("note", "statblock", "subject",
    "term", "link"), the mention it makes, and the reader's own rule that stated it
    ("back_index"; "" where the markup states it)."""

    form: str
    mention: RawMention
    stated_by: str = ""


@dataclass
class MarkView:
    """One section's marks as the mark rules read them."""

    marks: NoteMarks
    parent: ParentChunk
    defined: set[str]  # the names the section's marks define (normalized)


def no_key(view: MarkView, mark: Mark) -> bool:
    """A symbol ("." in a table of regular expression syntax) has no name to key."""
    return mark.form in ("subject", "term") and not normalize_name(mark.mention.name)


def link_to_itself(view: MarkView, mark: Mark) -> bool:
    """A note's link to itself, in the section that defines it."""
    return mark.form == "link" and normalize_name(mark.mention.name) in view.defined


MARK_VETOES = (no_key, link_to_itself)


def note_name(view: MarkView, mark: Mark) -> bool:
    """A note defines its name, front-matter title and aliases (source 'note')."""
    return mark.form == "note"


def statblock_name(view: MarkView, mark: Mark) -> bool:
    """A stat block's ``name:`` defines its creature (source 'statblock')."""
    return mark.form == "statblock"


def reader_rule(view: MarkView, mark: Mark) -> bool:
    """A term a reader's own rule stated (a back index's entry): stored under that rule's
    name, and switched off with it."""
    return bool(mark.stated_by)


def page_subject(view: MarkView, mark: Mark) -> bool:
    """A documentation page's subject (source 'note')."""
    return mark.form == "subject"


def doc_term(view: MarkView, mark: Mark) -> bool:
    """A term a page's markup states (source 'deflist': a definition list, an inventory)."""
    return mark.form == "term"


def doc_link(view: MarkView, mark: Mark) -> bool:
    """A documentation page's hyperlink references what its target documents (source 'wikilink')."""
    return mark.form == "link" and view.marks.documentation


def wikilink(view: MarkView, mark: Mark) -> bool:
    """A vault's ``[[note]]`` references the entity its target note defines (source 'wikilink')."""
    return mark.form == "link" and not view.marks.documentation


MARKS = (note_name, statblock_name, reader_rule, page_subject, doc_term, doc_link, wikilink)
