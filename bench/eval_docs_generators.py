"""Doc sets other generators write, ingested as a folder with no flag (readers/docset/detect.py).

Shelves, built here from the git man pages the system installs (one line and skipped when a
tool is missing):

- groff: ``groff -Thtml -man`` of each page (titles "GIT-ADD", a contents list of in-page links);
- docbook: each page through ``pandoc -f man -t docbook4`` made a ``<refentry>`` of one
  ``<book>``, its ``**git-x**(1)`` cross-references made ``<link linkend>``s, chunked by
  docbook-xsl (``xsltproc html/chunk.xsl``: navigation header and footer, "Prev", "Up",
  "Home", "Next", on every page).

Figures, as the held-out checks ask them: the folder is one doc set with no flag; pages
define their command (the page's file name); the authors' links between pages found as
references; the most pages any one name is defined on (<= 20); references whose shown text
is a navigation word; the sub-entries of a shared option (a parameter's bare name lists its owners).

    python -m bench.eval_docs_generators [--pages 25]
"""

from __future__ import annotations

import argparse
import gzip
import re
import shutil
import sqlite3
import subprocess
import tempfile
from pathlib import Path

from bench.eval_docs import found_links, ingest, link_pairs, names_by_page, ratio
from crossbook.core.normalize import normalize_name
from crossbook.query.lookup import where_else
from crossbook.readers import read_book
from crossbook.storage.db import open_db

ROOT = Path(__file__).resolve().parent.parent

MAN1 = Path("/usr/share/man/man1")
CHUNK_XSL = Path("/usr/share/xml/docbook/stylesheet/docbook-xsl/html/chunk.xsl")
NAVIGATION = {"prev", "next", "up", "home"}


def sources(pages: int) -> list[Path]:
    return sorted(MAN1.glob("git-*.1.gz"))[:pages] if MAN1.is_dir() else []


def groff_shelf(work: Path, pages: int) -> Path | None:
    found = sources(pages)
    if not found or shutil.which("groff") is None:
        return None
    folder = work / "groff"
    folder.mkdir()
    scratch = work / "groff-images"  # grohtml writes a page's images (grohtml-PID.png) where it runs
    scratch.mkdir()
    for source in found:
        html = subprocess.run(["groff", "-Thtml", "-man"], input=gzip.decompress(source.read_bytes()),
                              capture_output=True, cwd=scratch).stdout
        (folder / f"{source.name[:-len('.1.gz')]}.html").write_bytes(html)
    return folder


def _refentry(source: Path) -> str:
    name = source.name[:-len(".1.gz")]
    xml = subprocess.run(["pandoc", "-f", "man", "-t", "docbook4"], input=gzip.decompress(source.read_bytes()),
                         capture_output=True, check=True).stdout.decode("utf-8")
    match = re.search(r"<sect1[^>]*>\s*<title>\s*NAME\s*</title>\s*<para>\s*(.*?)</para>\s*</sect1>", xml, re.S)
    purpose = re.sub(r"^\S+\s+-\s+", "", match.group(1).strip()) if match else name
    if match:
        xml = xml.replace(match.group(0), "")
    xml = re.sub(r"<(/?)sect([123])", r"<\1refsect\2", re.sub(r' id="[^"]*"', "", xml))
    # an index term where the page describes its command (docbook-xsl writes the back index)
    xml = xml.replace("<para>", f"<para><indexterm><primary>{name}</primary></indexterm>", 1)
    return (f'<refentry id="{name}"><refmeta><refentrytitle>{name}</refentrytitle><manvolnum>1</manvolnum>'
            f'</refmeta><refnamediv><refname>{name}</refname><refpurpose>{purpose}</refpurpose></refnamediv>'
            f'{xml}</refentry>')


def docbook_shelf(work: Path, pages: int) -> Path | None:
    found = sources(pages)
    if not found or not CHUNK_XSL.is_file() or not shutil.which("xsltproc") or not shutil.which("pandoc"):
        return None
    entries = "".join(_refentry(source) for source in found)
    ids = {source.name[:-len(".1.gz")] for source in found}
    entries = re.sub(r'<emphasis role="strong">([\w.-]+)</emphasis>\((\d)\)',
                     lambda m: f'<link linkend="{m.group(1)}">{m.group(0)}</link>' if m.group(1) in ids else m.group(0),
                     entries)
    book = ('<?xml version="1.0"?><book><title>Git Reference Manual</title><preface><title>About</title>'
            f'<para>This manual documents git.</para></preface><reference><title>Commands</title>{entries}'
            '</reference><index/></book>')
    (work / "book.xml").write_text(book, encoding="utf-8")
    folder = work / "docbook"
    folder.mkdir()
    subprocess.run(["xsltproc", "--nonet", "--novalid", "--stringparam", "use.id.as.filename", "1",
                    str(CHUNK_XSL), str(work / "book.xml")], cwd=folder, capture_output=True, check=True)
    return folder


def docbook_links(folder: Path) -> set[tuple[str, str]]:
    """(linking page, linked page) of the authors' cross-references: docbook-xsl writes a
    ``<link>`` as ``<a class="link">`` (its navigation and contents links have no class)."""
    from lxml import html as lxml_html

    pairs = set()
    for page in folder.glob("*.html"):
        for href in lxml_html.fromstring(page.read_bytes()).xpath('//a[@class="link" or @class="xref"]/@href'):
            target = href.partition("#")[0]
            if target and target != page.name and (folder / target).is_file():
                pairs.add((page.name, target))
    return pairs


def index_found(folder: Path, db: sqlite3.Connection) -> tuple[int, int]:
    """(found, all) of the back index's (term, page) pairs whose page mentions the term."""
    from lxml import html as lxml_html

    mentioned: dict[str, set[str]] = {}
    for name, page in db.execute("SELECT e.name, c.source_file FROM entity_mentions m JOIN entities e"
                                 " ON e.id = m.entity_id JOIN chunks c ON c.id = m.chunk_id"):
        mentioned.setdefault(page, set()).add(normalize_name(name.rpartition(" › ")[2]))
    pairs = set()
    for page in folder.glob("ix*.html"):
        for dt in lxml_html.fromstring(page.read_bytes()).iter("dt"):
            term = (dt.text or "").strip().rstrip(",").strip()
            for href in dt.xpath(".//a/@href"):
                pairs.add((term, href.partition("#")[0]))
    found = sum(1 for term, target in pairs if normalize_name(term) in mentioned.get(target, set()))
    return found, len(pairs)


def score(shelf: str, folder: Path, index: Path, seconds: float) -> None:
    book = read_book(folder)
    db = sqlite3.connect(index / "crossbook.db")
    commands = sorted(p.stem for p in folder.glob("git-*.html"))
    by_page = names_by_page(db)
    missed = [c for c in commands if normalize_name(c) not in by_page.get(f"{c}.html", set())]
    hit = len(commands) - len(missed)
    gold = docbook_links(folder) if shelf == "docbook" else link_pairs(folder)
    spread = db.execute(
        "SELECT e.name, count(DISTINCT c.source_file) n FROM entity_mentions m JOIN entities e ON e.id = m.entity_id"
        " JOIN chunks c ON c.id = m.chunk_id WHERE m.mention_type = 'defines' GROUP BY e.id ORDER BY n DESC"
        " LIMIT 1").fetchone()
    navigation = db.execute(
        "SELECT count(*) FROM entity_mentions WHERE mention_type = 'references' AND lower(trim(name)) IN"
        " ('prev', 'next', 'up', 'home')").fetchone()[0]
    books = db.execute("SELECT count(*) FROM books").fetchone()[0]
    print(f"\n{shelf}: {len(commands)} pages, ingested as a folder with no flag: {books} book(s), format "
          f"{book.format} ({seconds:.1f} s)")
    print(f"  pages that define their command (>= 0.95):    {ratio((hit, len(commands)))} {missed[:5]}")
    print(f"  authors' links found as references (>= 0.95): {ratio((len(found_links(db) & gold), len(gold)))}")
    print(f"  most pages one name is defined on (<= 20):    {spread[1]} ({spread[0]})")
    if shelf == "docbook":
        print(f"  back-index terms mentioned where they point (>= 0.85): {ratio(index_found(folder, db))}")
    print(f"  references shown as a navigation word (0):    {navigation}")
    shelf_db = open_db(index)
    try:
        owners = where_else(shelf_db, "--quiet").get("entities", [])
        print(f"  owners '--quiet' lists (its pages):           {len(owners)}")
    except Exception as exc:  # an option this sample does not share
        print(f"  owners '--quiet' lists:                       none ({type(exc).__name__})")
    db.close()


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--pages", type=int, default=25)
    args = parser.parse_args()
    with tempfile.TemporaryDirectory(prefix="crossbook-docgen-") as tmp:
        work = Path(tmp)
        for shelf, build in (("groff", groff_shelf), ("docbook", docbook_shelf)):
            folder = build(work, args.pages)
            if folder is None:
                print(f"{shelf}: its tools (groff; pandoc, xsltproc and docbook-xsl) are not installed here, skipped")
                continue
            index = work / f"index-{shelf}"
            seconds = ingest([folder], index, as_book=False)
            score(shelf, folder, index, seconds)


if __name__ == "__main__":
    main()
