"""The zoo's Doxygen family: the example builds of Doxygen's own manual (doxygen-doc),
libsigc++'s and cairomm's API pages (libsigc++-2.0-doc, libcairomm-1.0-doc), MagickWand's
(imagemagick-6-common), json-c's (libjson-c-doc), TinyXML's (libtinyxml-doc) and range-v3's
(librange-v3-doc: C++ class and struct pages titled by a namespace-qualified name, the form
of the check half that no other tune member shows), tuned on; libstdc++'s API pages
(libstdc++-12-doc), checked.

Per project, the pages the gold points a documented thing at, sorted by path, every k-th so
that at most ``PAGES_PER_PROJECT`` are kept, with the build's inventory beside them. The gold
is Doxygen's own: libstdc++'s tag file (``libstdc++.tag``: every class, namespace, file,
function, variable, typedef, enum and macro with its page; a page, group, directory or
example is structure; libsigc++'s and cairomm's tag files lie beside their ``html`` folder
and are copied into the member's); the examples, MagickWand, json-c, TinyXML and range-v3 have none, so their index pages (``annotated.html``,
``functions*.html``, ``globals*.html``, ``namespacemembers*.html``). Each entry's name is
defined on the page it links to.
"""

from __future__ import annotations

import re
import shutil
import sqlite3
import xml.etree.ElementTree as ET
from html import unescape
from pathlib import Path

from bench.docs_zoo import families as F
from bench.docs_zoo.family_common import every_kth, score_gold, zoo_member

HERE = Path(__file__).resolve().parent

NAME = "doxygen"
PACKAGES = ("doxygen-doc", "libsigc++-2.0-doc", "libcairomm-1.0-doc", "imagemagick-6-common", "libjson-c-doc",
            "libtinyxml-doc", "librange-v3-doc", "libstdc++-12-doc")
PROJECTS = [("doxygen", "doxygen-doc", F.DOC / "doxygen" / "html" / "examples", "tune"),
            ("libsigc++", "libsigc++-2.0-doc", F.DOC / "libsigc++-2.0-doc" / "reference" / "html", "tune"),
            ("cairomm", "libcairomm-1.0-doc", F.DOC / "libcairomm-1.0-doc" / "reference" / "html", "tune"),
            ("MagickWand", "imagemagick-6-common", F.DOC / "imagemagick-6-common" / "html" / "www" / "api" / "MagickWand",
             "tune"),
            ("json-c", "libjson-c-doc", F.DOC / "libjson-c-dev" / "html", "tune"),
            ("tinyxml", "libtinyxml-doc", F.DOC / "libtinyxml-dev" / "docs", "tune"),
            ("range-v3", "librange-v3-doc", F.DOC / "librange-v3-dev" / "html", "tune"),
            ("libstdc++", "libstdc++-12-doc", F.DOC / "gcc-12-base" / "libstdc++" / "user", "check")]
STRUCTURE = {"page", "group", "dir", "example"}
INDEX_PAGE = re.compile(r"(annotated|functions|globals|namespacemembers)(_\w+)?\.html")
# <li>member()&#160;:&#160;<a class="el" href="class_x.html#a39">Owner</a>, <a ...>Other</a></li>
_ITEM = re.compile(r"<li>([^<]+?)(?:\(\))?(?:&#160;|\s)*:(?:&#160;|\s)*((?:<a class=\"el\"[^>]*>[^<]*</a>(?:, )?)+)")
_LINK = re.compile(r'<a class="el" href="([^"#]+)[^"]*"[^>]*>([^<]*)</a>')


def tag_file(path: Path) -> list[tuple[str, str, str]]:
    """(name, kind, page) of a tag file's compounds and members, a member named with its scope."""
    out = set()
    for compound in ET.parse(path).getroot().findall("compound"):
        kind, name = compound.get("kind"), compound.findtext("name", "")
        if kind in STRUCTURE:
            continue
        if compound.findtext("filename"):
            out.add((name, kind, _html(compound.findtext("filename"))))
        scope = f"{name}::" if kind in ("class", "struct", "union", "namespace") else ""
        for member in compound.findall("member"):
            if member.findtext("anchorfile"):
                out.add((scope + member.findtext("name", ""), member.get("kind"), _html(member.findtext("anchorfile"))))
    return sorted(out)


def _html(name: str) -> str:
    return name if name.endswith(".html") else f"{name}.html"


def index_pages(folder: Path) -> list[tuple[str, str, str]]:
    """(name, kind, page) of the entries of every build's index pages below ``folder``: a
    class of ``annotated.html``, a member (``Owner::member``, a global by its own name) of the
    others; page relative to ``folder``."""
    out = set()
    for path in sorted(folder.rglob("*.html")):
        found = INDEX_PAGE.fullmatch(path.name)
        if not found:
            continue
        text = path.read_text(encoding="utf-8", errors="replace")
        rel = path.parent.relative_to(folder).as_posix()
        base = "" if rel == "." else f"{rel}/"
        if found.group(1) == "annotated":
            for page, name in re.findall(r'<td class="entry">.*?<a class="el" href="([^"#]+)"[^>]*>([^<]+)</a>', text):
                out.add((unescape(name), "class", f"{base}{page}"))
            continue
        for own, links in _ITEM.findall(text):
            for page, owner in _LINK.findall(links):
                scoped = found.group(1) != "globals" and not re.search(r"\.\w+$", owner)
                own, owner = unescape(own.strip()), unescape(owner)
                out.add((f"{owner}::{own}" if scoped else own, found.group(1), f"{base}{page}"))
    return sorted(out)


def tag_files(folder: Path) -> list[Path]:
    """The tag files of a build: in its folder, or beside it (a package's ``reference/html``)."""
    return sorted(folder.glob("*.tag")) or sorted(folder.parent.glob("*.tag"))


def gold_entries(folder: Path) -> list[tuple[str, str, str]]:
    tags = tag_files(folder)
    return tag_file(tags[0]) if tags else index_pages(folder)


def assemble(zoo: Path) -> list[dict]:
    members = []
    for project, package, root, half in PROJECTS:
        if not root.is_dir():
            print(f"{NAME}/{project}: {package} not installed, left out")
            continue
        tags = tag_files(root)
        linked = sorted({page for _, kind, page in gold_entries(root) if (root / page).is_file()
                         and not INDEX_PAGE.fullmatch(Path(page).name)})
        keep = [] if tags else [p.relative_to(root).as_posix() for p in sorted(root.rglob("*.html"))
                                if INDEX_PAGE.fullmatch(p.name)]
        members.append(zoo_member(zoo, NAME, project, package, half, root, every_kth(linked, F.PAGES_PER_PROJECT), keep,
                              tags[0].name if tags else "index-pages"))
        for tag in tags:  # into the member's folder, where gold_entries finds it
            shutil.copy(tag, zoo / NAME / project / tag.name)
    return members


def bare_copy(folder: Path, target: Path) -> Path:
    """The project without its tag file and index pages."""
    shutil.copytree(folder, target, ignore=lambda _, names: [n for n in names if n.endswith(".tag")
                                                                or INDEX_PAGE.fullmatch(n)])
    return target


def score(member: dict, db: sqlite3.Connection) -> dict:
    entries = gold_entries(Path(member["path"]))
    return score_gold(entries, set(member["pages"]), db)
