"""The note-vault reader: a folder of notes (Obsidian, mdBook, a wiki folder) as one book.

The folder tree and the notes are the section tree: folder > note > the headings inside
the note; a note's heading path is (folders..., note name, inner headings), so two notes
of one name in two folders are two sections. Each note's section starts with a heading
line that names the note (the author's own, when it names it; else one is written, and the
author's first heading is kept as a child). mdBook (``SUMMARY.md``): the summary gives the
chapters' order, titles and nesting; files it does not list follow, by path.

A note's section carries what the note's conventions say exactly (index/extract/marks.py
turns them into mentions): the names it defines (its name, front-matter title and
aliases; a stat block's ``name:``), the notes its links reference, and its folders and tags
(which the pack's heading rules may type). Bodies are Markdown as a reader sees it
(render.py). The book's sha256 covers every note's relative path and bytes.
Raises BadInput (an empty vault); a note that cannot be decoded or whose front matter is
broken is read with a warning, never refused.
"""

from __future__ import annotations

import hashlib
import re
from dataclasses import dataclass, field, replace
from pathlib import Path

from ...chunk.chunking import split_sections
from ...core.errors import BadInput
from ...core.models import Section
from ..files import FolderFiles
from ..source import ReadOptions, SourceBook
from .links import NOTE_SUFFIXES, NoteIndex
from .render import Rendered, render_note

SUMMARY = "SUMMARY.md"
_ATX = re.compile(r"^ {0,3}#{1,6}(?=[ \t]|$)")
_SUMMARY_ENTRY = re.compile(r"^(\s*)(?:[-*+]\s+)?\[([^\]]*)\]\(([^)]*)\)")


@dataclass
class NotePlace:
    """Where a note sits in the book: its name, the headings above it, its level."""

    path: str                       # relative to the vault, POSIX
    above: tuple[str, ...]          # folders (a vault) or parent chapters (mdBook)
    title: str | None = None        # mdBook: the summary's title for it


@dataclass
class _Vault:
    files: FolderFiles
    places: list[NotePlace] = field(default_factory=list)
    data: dict[str, bytes] = field(default_factory=dict)


def _note_files(files: FolderFiles) -> list[str]:
    """The notes of the vault (each real folder once; links only inside it; files.py);
    hidden folders (.obsidian/, .trash/, .git/) are not notes."""
    found = [f for f in files.files if Path(f).suffix.lower() in NOTE_SUFFIXES]
    return sorted(found, key=lambda p: (p.count("/") > 0, p.casefold()))


def is_mdbook(files: FolderFiles) -> bool:
    """An mdBook source (a ``SUMMARY.md`` gives its chapters); in an Obsidian vault
    (``.obsidian/``) SUMMARY.md is a note like any other."""
    return files.has(SUMMARY) and not (files.root / ".obsidian").is_dir()


def _summary_places(files: FolderFiles, notes: list[str]) -> list[NotePlace]:
    """mdBook: the chapters SUMMARY.md lists, in its order and nesting, then the others."""
    from urllib.parse import unquote

    known = {n.casefold(): n for n in notes}
    places, stack, listed = [], [], set()
    text = files.read_bytes(SUMMARY).decode("utf-8", errors="replace")
    for line in text.splitlines():
        entry = _SUMMARY_ENTRY.match(line)
        if not entry:
            continue
        depth = len(entry.group(1).replace("\t", "    ")) // 2
        title, href = " ".join(entry.group(2).split()), unquote(entry.group(3).strip().strip("<>"))
        note = known.get(href.lstrip("./").casefold())
        while stack and stack[-1][0] >= depth:
            stack.pop()
        if note is None or note in listed:
            continue  # a draft chapter (no file), or one listed twice
        listed.add(note)
        places.append(NotePlace(note, tuple(t for _, t in stack), title or None))
        stack.append((depth, title or Path(note).stem))
    for note in notes:
        if note not in listed and note != SUMMARY:
            places.append(NotePlace(note, tuple(note.split("/")[:-1])))
    return places


def _scan(root: Path, options: ReadOptions, warnings: list[str]) -> _Vault:
    files = FolderFiles(root, options.selection, options.limits)
    warnings.extend(files.skipped)
    notes = _note_files(files)
    vault = _Vault(files)
    if is_mdbook(files):
        vault.places = _summary_places(files, notes)
    else:
        vault.places = [NotePlace(n, tuple(n.split("/")[:-1])) for n in notes]
    if not vault.places:
        raise BadInput(f"'{root}' holds no notes (*.md files): there is nothing to ingest")
    for place in vault.places:
        try:
            vault.data[place.path] = files.read_bytes(place.path)
        except (OSError, ValueError) as exc:
            raise BadInput(f"cannot read note '{root / place.path}': {getattr(exc, 'strerror', None) or exc}") from None
    return vault


def vault_sha256(vault: _Vault) -> str:
    digest = hashlib.sha256()
    for path in sorted(vault.data):
        digest.update(path.encode("utf-8") + b"\0")
        digest.update(hashlib.sha256(vault.data[path]).digest())
    if is_mdbook(vault.files):
        digest.update(b"SUMMARY\0" + vault.files.read_bytes(SUMMARY))
    return digest.hexdigest()


def _decode(data: bytes, where: str, warnings: list[str]) -> str:
    try:
        return data.decode("utf-8-sig")
    except UnicodeDecodeError as exc:
        warnings.append(f"'{where}' is not UTF-8 (byte {exc.start}): read with the bad bytes replaced")
        return data.decode("utf-8-sig", errors="replace")


def _same_name(heading: str | None, name: str) -> bool:
    return heading is not None and " ".join(heading.split()).casefold() == " ".join(name.split()).casefold()


def _set_level(text: str, level: int) -> str:
    """``text`` with its first line's ATX heading marker at ``level`` (Markdown stops at 6)."""
    first, sep, rest = text.partition("\n")
    if _ATX.match(first):
        first = _ATX.sub("#" * min(level, 6), first, count=1)
    return first + sep + rest


def note_sections(place: NotePlace, rendered: Rendered, stem: str) -> list[Section]:
    """One note's sections: the note (level = depth), then its inner headings below it."""
    name = place.title or rendered.title or stem
    level = len(place.above) + 1
    inner = split_sections(rendered.body) if rendered.body.strip() else []
    preamble = ""
    if inner and inner[0].heading is None:
        preamble = inner.pop(0).text
    note_text = f"{'#' * min(level, 6)} {name}\n"
    note_start = rendered.body_line
    own_names = [name, rendered.title, stem, *rendered.aliases]
    if inner and not preamble.strip() and any(_same_name(inner[0].heading, n) for n in own_names if n):
        first = inner.pop(0)  # the author's heading names the note: it is the note's heading
        body = first.text.partition("\n")[2]
        note_start += first.start_line
    else:
        body = preamble
    note_text += ("\n" + body.lstrip("\n")) if body.strip() else ""
    names = [name] + [n for n in (rendered.title, stem, *rendered.aliases) if n and n.casefold() != name.casefold()]
    defines = tuple(dict.fromkeys(names))
    kinds = tuple(place.above) + tuple(p for tag in rendered.tags for p in tag.split("/") if p)
    out = [Section(heading=name, level=level, heading_path=(*place.above, name), text=note_text,
                   start_line=note_start, file=place.path)]
    starts = [0]  # the body line each section starts on (the note's own: the body's start)
    base = min((s.level for s in inner), default=1)
    stack: list[tuple[int, str]] = []
    for section in inner:
        depth = level + 1 + section.level - base
        while stack and stack[-1][0] >= depth:
            stack.pop()
        stack.append((depth, section.heading or ""))
        out.append(Section(heading=section.heading, level=depth,
                           heading_path=(*place.above, name, *(h for _, h in stack)),
                           text=_set_level(section.text, depth), start_line=rendered.body_line + section.start_line,
                           file=place.path))
        starts.append(section.start_line)
    # what each section marks: the links and stat blocks on its body lines
    marked = []
    for i, section in enumerate(out):
        lo, hi = (starts[i] if i else -1), (starts[i + 1] if i + 1 < len(starts) else 1 << 30)
        links = tuple(link for line, found in sorted(rendered.links.items()) if lo <= line < hi for link in found)
        creatures = tuple((c,) for line, found in sorted(rendered.creatures.items()) if lo <= line < hi
                          for c in found if c.casefold() != name.casefold())
        marked.append(replace(section, defines=((defines,) if i == 0 else ()) + creatures, links=links,
                              kinds=kinds))
    return marked


def read(path: Path, options: ReadOptions = ReadOptions()) -> SourceBook:
    """A vault folder as one book (module docstring). Raises BadInput for an empty vault."""
    warnings: list[str] = []
    vault = _scan(path, options, warnings)
    index = NoteIndex([p.path for p in vault.places])
    rendered: dict[str, Rendered] = {}
    for place in vault.places:
        text = _decode(vault.data[place.path], place.path, warnings)
        rendered[place.path] = note = render_note(text, place.path, index)
        warnings.extend(note.warnings)
    names = {p.path: p.title or rendered[p.path].title or Path(p.path).stem for p in vault.places}
    sections: list[Section] = []
    for place in vault.places:
        note = rendered[place.path]
        # a link names the entity its target note defines (its title, else its file name), and
    # the note itself (whose folders and tags type it)
        note.links = {line: [(names[target], shown, target) for target, shown in found]
                      for line, found in note.links.items()}
        sections.extend(note_sections(place, note, Path(place.path).stem))
    title = _vault_title(path)
    return SourceBook(path=path, format="vault", title=title, sections=tuple(sections),
                      sha256=vault_sha256(vault), warnings=tuple(warnings))


def _vault_title(path: Path) -> str:
    """mdBook's ``book.toml`` title, else the folder's name."""
    import tomllib

    for candidate in (path / "book.toml", path.parent / "book.toml"):
        if candidate.is_file():
            try:
                title = tomllib.loads(candidate.read_text(encoding="utf-8")).get("book", {}).get("title")
            except (OSError, UnicodeDecodeError, tomllib.TOMLDecodeError):
                title = None
            if isinstance(title, str) and title.strip():
                return title.strip()
    return path.resolve().name
