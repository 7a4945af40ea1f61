"""Man pages as DocBook renders them: each page lifted from roff to a DocBook 5 ``refentry``
by doclifter, then rendered to HTML by the docbook-xsl-ns stylesheets (xsltproc), one page
alone (``render_page``: a fifth man renderer) or the pages of a half as one chunked book
(``render_book``: a manual of many pages, each with DocBook's navigation header and footer,
"Prev", "Up", "Home", and a contents page).
"""

from __future__ import annotations

import html.entities
import re
import shutil
import subprocess
import tempfile
from pathlib import Path

STYLESHEETS = Path("/usr/share/xml/docbook/stylesheet/docbook-xsl-ns/html")
TOOLS = ("doclifter", "xsltproc")
_XML_ENTITIES = {"amp", "lt", "gt", "quot", "apos"}


def available() -> bool:
    return all(shutil.which(tool) for tool in TOOLS) and (STYLESHEETS / "docbook.xsl").is_file()


def _numeric_entities(xml: str) -> str:
    """doclifter writes HTML's named entities (&copy;) that DocBook 5 does not declare."""
    def numeric(match: re.Match) -> str:
        name = match.group(1)
        if name in _XML_ENTITIES:
            return match.group(0)
        return f"&#{html.entities.name2codepoint.get(name, ord('?'))};"
    return re.sub(r"&([A-Za-z][A-Za-z0-9]*);", numeric, xml)


def page_id(stem: str) -> str:
    """An XML id (and so a chunk's file name) for a page: letters, digits, '.', '-', '_'."""
    safe = re.sub(r"[^A-Za-z0-9._-]", "_", stem)
    return safe if safe[:1].isalpha() else f"p{safe}"


def lift(roff: bytes, stem: str) -> str | None:
    """The page as a DocBook refentry (its xml:id the page's id), or None where doclifter fails."""
    with tempfile.TemporaryDirectory() as work:
        source = Path(work) / f"{page_id(stem)}.1"
        source.write_bytes(roff)
        done = subprocess.run(["doclifter", "-x", source.name], cwd=work, capture_output=True, timeout=60)
        lifted = Path(work) / f"{source.name}.xml"
        if done.returncode != 0 or not lifted.is_file():
            return None
        xml = _numeric_entities(lifted.read_text(encoding="utf-8", errors="replace"))
    if "<refentry" not in xml:
        return None
    xml = re.sub(r"<\?xml[^>]*\?>\s*", "", xml)
    return re.sub(r"(<refentry\b[^>]*?)\sxml:id='[^']*'", rf"\1 xml:id='{page_id(stem)}'", xml, count=1)


def _xsltproc(stylesheet: str, source: Path, *params: str, cwd: Path | None = None) -> bytes | None:
    done = subprocess.run(["xsltproc", "--nonet", *params, str(STYLESHEETS / stylesheet), str(source)],
                          capture_output=True, cwd=cwd, timeout=120)
    return done.stdout if done.returncode == 0 else None


def render_page(roff: bytes, stem: str) -> bytes | None:
    """One page as docbook-xsl renders a refentry alone."""
    xml = lift(roff, stem)
    if xml is None:
        return None
    with tempfile.TemporaryDirectory() as work:
        source = Path(work) / "page.xml"
        source.write_text(xml, encoding="utf-8")
        rendered = _xsltproc("docbook.xsl", source)
    return rendered if rendered and rendered.strip() else None


def render_book(lifted: dict[str, str], title: str, target: Path) -> dict[str, str]:
    """The pages (stem -> refentry) as one chunked DocBook book in ``target``: a contents
    page (index.html) and a page per refentry named by its id. Returns stem -> file name of
    the pages rendered."""
    target.mkdir(parents=True, exist_ok=True)
    book = (f"<reference xmlns='http://docbook.org/ns/docbook' version='5.0' xml:id='manual'>"
            f"<title>{title}</title>{''.join(lifted.values())}</reference>")
    source = target / "book.xml"
    source.write_text(book, encoding="utf-8")
    _xsltproc("chunk.xsl", source, "--stringparam", "use.id.as.filename", "1",
              "--stringparam", "base.dir", f"{target}/", cwd=target)
    source.unlink()
    return {stem: f"{page_id(stem)}.html" for stem in lifted if (target / f"{page_id(stem)}.html").is_file()}
