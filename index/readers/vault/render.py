"""A note as its reader sees it: front matter apart, and the body as plain Markdown. Pure.

- Front matter (``---`` YAML at the top) is metadata: ``title``, ``aliases`` (``alias``) and
  ``tags`` are read from it; it is not body text. Front matter that is not YAML is left out
  with a warning (the note is still read).
- ``[[Note|shown]]`` is ``shown``; ``[[Note]]`` is ``Note``; ``[[Note#Heading]]`` is
  ``Note > Heading``; ``[[Note#^block]]`` is ``Note``; an embed ``![[Note]]`` is the note's
  name (a reference: its text stays in its own note); an embedded image goes. Markdown links
  to notes (``[text](Other.md)``) are their text. Each resolved link is recorded.
- Callout markers (``> [!tldr]-``) go, their title and body stay (nested too); block ids
  (``^roll``), tags (``#Asset/Path``, recorded), checkbox inputs and other HTML tags,
  task boxes (``- [x]``), ``%%comments%%`` and ``==highlight==`` marks go.
- Plugin code blocks (dataview, dice-roller, ...), inline ``dice:`` rolls and dataview
  queries are skipped (``=this.file.name`` shows the note's name, as dataview does); a
  stat block (```` ```statblock ````) is read as its ``key: value`` lines, and its ``name:``
  is recorded as a creature the note defines. Other code blocks stay as written.

Lines keep their count (what is skipped becomes an empty line), so line numbers hold.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field

from ...core.packs import genre_words
from .links import NoteIndex, is_note

PLUGIN_BLOCKS = {"dataview", "dataviewjs", "dice", "dice-roller", "dice-mod", "query", "tasks", "button",
                 "meta-bind", "meta-bind-button", "meta-bind-js-view", "tracker", "chart", "leaflet",
                 "mermaid", "excalidraw", "tldraw", "timeline", "calendar", "chronos", "js-engine",
                 "encounter", "initiative-tracker", "fantasy-statblocks"}
STAT_BLOCKS = genre_words("rulebook", "stat_block_fences")

_FENCE = re.compile(r"^(\s*(?:>\s*)*)(`{3,}|~{3,})\s*([\w+-]*)")
_WIKILINK = re.compile(r"(!?)\[\[([^\[\]|#]*)(#[^\[\]|]*)?(?:\|([^\[\]]*))?\]\]")
_MD_LINK = re.compile(r"(!?)\[([^\[\]]*)\]\((<[^>]*>|[^()\s]*(?:\([^()]*\)[^()\s]*)*)(?:\s+\"[^\"]*\")?\)")
_CALLOUT = re.compile(r"^(\s*(?:>\s*)+)\[![\w-]+\][-+]?[ \t]*")
_BLOCK_ID_LINE = re.compile(r"^\s*(?:>\s*)*\^[A-Za-z0-9-]+\s*$")
_BLOCK_ID_END = re.compile(r"\s+\^[A-Za-z0-9-]+\s*$")
_TAG = re.compile(r"(?<![^\s(\[>])#((?:[\w/-]*[^\W\d][\w/-]*))")
_HTML = re.compile(r"</?[A-Za-z][\w-]*(?:\s[^<>]*)?/?>")
_TASK = re.compile(r"^(\s*(?:>\s*)*[-*+]\s+)\[[ xX/-]\]\s+")
_DICE = re.compile(r"`dice(?:-mod)?:[^`]*`")
_DATAVIEW_INLINE = re.compile(r"`=\s*([^`]*)`")
_COMMENT = re.compile(r"%%.*?%%")
_HIGHLIGHT = re.compile(r"==(?=\S)(.+?)(?<=\S)==")
_INLINE_CODE = re.compile(r"(`+)(.+?)\1")
_FRONT_END = ("---", "...")
_FILE_NAME = ("this.file.name", "this.file.link")


@dataclass
class Rendered:
    """One note read: its metadata and body, and what the body marks."""

    body: str                                   # Markdown as a reader sees it
    body_line: int                              # the body's first line in the file (after front matter)
    title: str | None = None
    aliases: list[str] = field(default_factory=list)
    tags: list[str] = field(default_factory=list)
    # per body line: (target note, text shown) of each resolved link on it
    links: dict[int, list[tuple[str, str]]] = field(default_factory=dict)
    creatures: dict[int, list[str]] = field(default_factory=dict)  # line -> stat block names
    warnings: list[str] = field(default_factory=list)


def split_front_matter(text: str) -> tuple[str | None, str, int]:
    """(front matter text or None, body, the body's first line)."""
    lines = text.split("\n")
    if not lines or lines[0].rstrip() != "---":
        return None, text, 0
    for i in range(1, len(lines)):
        if lines[i].rstrip() in _FRONT_END:
            return "\n".join(lines[1:i]), "\n".join(lines[i + 1:]), i + 1
    return None, text, 0  # no closing line: not front matter


def _strings(value) -> list[str]:
    if value is None:
        return []
    if isinstance(value, str):
        return [part.strip() for part in value.split(",") if part.strip()]
    if isinstance(value, (list, tuple)):
        return [str(v).strip() for v in value if v is not None and str(v).strip()]
    return [str(value).strip()]


def read_front_matter(front: str, where: str, out: Rendered) -> None:
    import yaml  # PyYAML: only when a note has front matter

    try:
        data = yaml.safe_load(front)
    except yaml.YAMLError as exc:
        problem = str(exc).splitlines()[0] if str(exc) else "not YAML"
        out.warnings.append(f"'{where}': front matter is not valid YAML ({problem}): left out, the note is read")
        return
    if data is None:
        return
    if not isinstance(data, dict):
        out.warnings.append(f"'{where}': front matter is not a YAML mapping: left out, the note is read")
        return
    fields = {str(k).casefold(): v for k, v in data.items()}
    title = fields.get("title")
    if isinstance(title, (str, int, float)) and str(title).strip():
        out.title = " ".join(str(title).split())
    out.aliases = _strings(fields.get("aliases", fields.get("alias")))
    out.tags = [t.lstrip("#") for t in _strings(fields.get("tags", fields.get("tag")))]


def _shown(target: str, fragment: str | None, alias: str | None) -> str:
    if alias is not None and alias.strip():
        return alias.strip()
    name = target.strip().rsplit("/", 1)[-1]
    if is_note(name):
        name = name.rsplit(".", 1)[0]
    heading = (fragment or "").lstrip("#").strip()
    if heading.startswith("^") or not heading:
        return name
    heading = " > ".join(h.strip() for h in heading.split("#") if h.strip())
    return f"{name} > {heading}" if name else heading


class _LineRenderer:
    def __init__(self, notes: NoteIndex, source: str, out: Rendered):
        self.notes, self.source, self.out = notes, source, out
        self.name = source.rsplit("/", 1)[-1].rsplit(".", 1)[0]

    def line(self, number: int, text: str) -> str:
        if _BLOCK_ID_LINE.match(text):
            return ""
        text = _DICE.sub("", text)
        if "`=" in text:  # dataview's inline query: the note's own name is what it shows
            text = _DATAVIEW_INLINE.sub(lambda m: self.name if m.group(1).strip() in _FILE_NAME else "", text)
        text = _COMMENT.sub("", text)
        # inline code is left as written (a [[link]] in backticks is not a link)
        parts = _INLINE_CODE.split(text)
        out = []
        i = 0
        while i < len(parts):
            out.append(self._prose(number, parts[i]))
            if i + 2 < len(parts):
                out.append(parts[i + 1] + parts[i + 2] + parts[i + 1])
            i += 3
        text = "".join(out)
        text = _CALLOUT.sub(r"\1", text)
        text = _TASK.sub(r"\1", text)
        text = _BLOCK_ID_END.sub("", text)
        return text.rstrip() if text.strip() else ""

    def _link(self, number: int, target_path: str, fragment: str | None, alias: str | None, embed: bool) -> str:
        if not target_path.strip():  # [[#Heading]]: this note
            return _shown("", fragment, alias)
        target = self.notes.resolve(target_path, self.source)
        shown = _shown(target_path, fragment, alias)
        if target is None:
            if embed and "." in target_path.rsplit("/", 1)[-1] and not is_note(target_path):
                return ""  # an embedded image or file: nothing a reader reads
            return shown
        self.out.links.setdefault(number, []).append((target, shown))
        return shown

    def _wikilink(self, number: int, m: re.Match) -> str:
        raw = m.group(4) if m.group(4) is not None else m.group(2)
        before = len(self.out.links.get(number, ()))
        # in a table a link's pipe is escaped: [[Note\|shown]]
        target, fragment = m.group(2), m.group(3)
        if m.group(4) is not None:
            if fragment is not None:
                fragment = fragment.removesuffix("\\")
            else:
                target = target.removesuffix("\\")
        shown = self._link(number, target, fragment, m.group(4), bool(m.group(1)))
        if not shown:
            return shown
        # the link is a word of its own to a reader: "[[ Clash ]]at" reads "Clash at"; and a
        # word glued to it ("[[gaunt]]s") is the word the text shows for it
        lead = " " if raw[:1].isspace() else ""
        trail = " " if raw[-1:].isspace() else ""
        prefix = re.search(r"\w*$", m.string[:m.start()]).group(0) if not lead else ""
        suffix = re.match(r"\w*", m.string[m.end():]).group(0) if not trail else ""
        found = self.out.links.get(number, [])
        if (prefix or suffix) and len(found) > before:
            target, _ = found[-1]
            found[-1] = (target, prefix + shown + suffix)
        return lead + shown + trail

    def _prose(self, number: int, text: str) -> str:
        text = _WIKILINK.sub(lambda m: self._wikilink(number, m), text)

        def md_link(m: re.Match) -> str:
            target = self.notes.resolve_href(m.group(3), self.source)
            if target is None:
                return m.group(0)
            shown = m.group(2).strip() or target.rsplit("/", 1)[-1].rsplit(".", 1)[0]
            self.out.links.setdefault(number, []).append((target, shown))
            return shown

        text = _MD_LINK.sub(md_link, text)
        text = _HIGHLIGHT.sub(r"\1", text)
        text = _HTML.sub("", text)
        if "#" in text:
            for tag in _TAG.findall(text):
                self.out.tags.append(tag)
            text = _TAG.sub("", text)
        return text


def render_note(text: str, source: str, notes: NoteIndex) -> Rendered:
    """Read one note's text (``source``: its path in the vault, for links and warnings)."""
    front, body, body_line = split_front_matter(text.replace("\r\n", "\n").replace("\r", "\n"))
    out = Rendered(body="", body_line=body_line)
    if front is not None:
        read_front_matter(front, source, out)
    renderer = _LineRenderer(notes, source, out)
    lines = body.split("\n")
    rendered: list[str] = []
    fence: tuple[str, str, str] | None = None  # (quote prefix, marker, info) of an open block
    fence_kind = "code"
    in_comment = False
    for number, line in enumerate(lines):
        if fence is not None:
            match = _FENCE.match(line)
            if match and match.group(2)[0] == fence[1][0] and len(match.group(2)) >= len(fence[1]) \
                    and not match.group(3):
                fence = None
                rendered.append("" if fence_kind != "code" else line)
                continue
            if fence_kind == "plugin":
                rendered.append("")
            elif fence_kind == "stats":
                content = line[len(fence[0]):] if line.startswith(fence[0]) else line
                key, _, value = content.partition(":")
                if key.strip().casefold() == "name" and value.strip():
                    out.creatures.setdefault(number, []).append(value.strip().strip("\"'"))
                rendered.append(fence[0] + content.strip() if content.strip() else "")
            elif fence_kind == "admonition":
                rendered.append(renderer.line(number, line))
            else:
                rendered.append(line)
            continue
        if in_comment:
            if "%%" in line:
                in_comment = False
                rendered.append(renderer.line(number, line.split("%%", 1)[1]))
            else:
                rendered.append("")
            continue
        match = _FENCE.match(line)
        if match:
            info = match.group(3).casefold()
            fence = (match.group(1), match.group(2), info)
            if info in PLUGIN_BLOCKS or info.startswith(("dataview", "dice")):
                fence_kind = "plugin"
            elif info in STAT_BLOCKS or info.startswith("statblock"):
                fence_kind = "stats"
            elif info.startswith("ad-"):
                fence_kind = "admonition"  # the Admonition plugin: its body is prose
            else:
                fence_kind = "code"
            rendered.append(line if fence_kind == "code" else "")
            continue
        if fence is None and line.count("%%") % 2 == 1:
            in_comment = True
            rendered.append(renderer.line(number, line.rsplit("%%", 1)[0]))
            continue
        rendered.append(renderer.line(number, line))
    out.body = "\n".join(rendered)
    out.tags = list(dict.fromkeys(out.tags))
    return out
