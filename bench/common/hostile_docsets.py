"""Hostile doc sets and books for bench_hostile.py (and, small, for the tests): each a folder
or file built in ``work``, with the pages it holds that must be stored and a marker that lies
only outside the folder (found in the index, it would say something leaked in).

Cases: RDoc's search index naming /dev/zero and a FIFO outside the folder; inventories under
hidden names and behind links out of the folder (devhelp, a Doxygen tag file, a Texinfo
page); an objects.inv that inflates without end; a rustdoc search index of 20 MB; 20,000
inventory entries on one 230 KB page; folders named like inventory files and a dangling tag
link; a table of separator rows only, in a book and in a doc set.
"""

from __future__ import annotations

import json
import os
import zlib
from dataclasses import dataclass
from pathlib import Path

SECRET = "ZZOUTSIDEZZ"  # written only outside the folders given
PAGE = ('<html><head><title>{title}</title></head><body><nav><a href="index.html">Home</a> '
        '<a href="good.html">Good</a></nav><h1>{title}</h1><p>{body}</p></body></html>')


@dataclass(frozen=True)
class Case:
    label: str
    path: Path
    pages: int          # pages (or sections) of the folder that must be stored
    target: str


def _pages(folder: Path, count: int = 2, body: str = "The frob_open function opens a frob.") -> None:
    folder.mkdir(parents=True, exist_ok=True)
    (folder / "index.html").write_text(PAGE.format(title="Frob Manual", body=body), encoding="utf-8")
    for n in range(1, count):
        name = "good.html" if n == 1 else f"page{n}.html"
        (folder / name).write_text(PAGE.format(title=f"Good {n}", body=f"Good page {n}: frob_close closes."),
                                   encoding="utf-8")


def _outside(work: Path) -> Path:
    outside = work / "outside"
    outside.mkdir(parents=True, exist_ok=True)
    return outside


def rdoc_named_files(work: Path) -> Case:
    """RDoc's index naming /dev/zero, a FIFO outside the folder and a page outside it."""
    folder = work / "rdoc"
    _pages(folder)
    outside = _outside(work)
    fifo = outside / "pipe"
    if not fifo.exists():
        os.mkfifo(fifo)
    (outside / "secret.html").write_text(f'<h1 class="class">{SECRET}</h1>', encoding="utf-8")
    rows = [["Zero", "", "/dev/zero"], ["Zero2", "", "../../../../../../dev/zero"], ["Pipe", "", str(fifo)],
            ["Pipe2", "", "../outside/pipe"], ["Secret", "", "../outside/secret.html"],
            ["frob_open", "Frob", "index.html#method-i-frob_open"]]
    (folder / "js").mkdir()
    (folder / "js" / "search_index.js").write_text(
        "var search_data = " + json.dumps({"index": {"info": rows}}) + ";", encoding="utf-8")
    return Case("RDoc index names /dev/zero, a FIFO", folder, 2, "seconds; nothing opened outside")


def hidden_and_linked(work: Path) -> Case:
    """Inventories under hidden names and behind links that lead out of the folder."""
    folder = work / "linked"
    _pages(folder)
    outside = _outside(work)
    devhelp = (f'<?xml version="1.0"?><book xmlns="http://www.devhelp.net/book" name="x" link="index.html">'
               f'<functions><keyword type="function" name="{SECRET} ()" link="index.html#x"/></functions></book>')
    (outside / "secret.devhelp2").write_text(devhelp, encoding="utf-8")
    (outside / "secret.tag").write_text(f'<?xml version="1.0"?><tagfile><compound kind="class"><name>{SECRET}'
                                        '</name><filename>index.html</filename></compound></tagfile>', encoding="utf-8")
    (outside / "manual.html").write_text(
        f'<html><head><meta name="Generator" content="makeinfo"><!-- Texinfo --></head><body><h2>Index</h2>'
        f'<table class="index-fn"><tr><td></td><td><a href="index.html#x"><code>{SECRET}</code></a></td></tr>'
        f'</table></body></html>', encoding="utf-8")
    (folder / ".hidden.devhelp2").write_text(devhelp, encoding="utf-8")
    for name in ("secret.devhelp2", "secret.tag", "manual.html"):
        os.symlink(outside / name, folder / f"linked-{name}")
    os.symlink("/etc/passwd", folder / "passwd.html")
    return Case("hidden names, links out", folder, 2, "nothing from outside; no line names it")


def objects_inv_bomb(work: Path, megabytes: int = 1) -> Case:
    """An objects.inv whose zlib body of ~``megabytes`` MB inflates without end."""
    folder = work / "bomb"
    _pages(folder)
    line = b"frob_open py:function 1 index.html#$ -\n"
    packer = zlib.compressobj(9)
    with (folder / "objects.inv").open("wb") as handle:
        handle.write(b"# Sphinx inventory version 2\n# Project: x\n# Version: 1\n"
                     b"# The remainder of this file is compressed using zlib.\n")
        block = line * 100_000
        while handle.tell() < megabytes << 20:
            handle.write(packer.compress(block))
        handle.write(packer.flush())
    return Case(f"objects.inv, {megabytes} MB of zlib", folder, 2, "seconds; the inventory left out with a line")


def rustdoc_big_index(work: Path, megabytes: int = 20) -> Case:
    """A rustdoc search index whose JSON.parse literal is ``megabytes`` MB, escapes and all."""
    folder = work / "rustdoc"
    _pages(folder)
    (folder / "crates.js").write_text("window.ALL_CRATES = [\"frob\"];", encoding="utf-8")
    names, size = [], 0
    while size < megabytes << 20:
        name = f"frob_\\\\u{len(names):05d}_it\\'s"
        names.append(name)
        size += len(name) + 4
    literal = '[["frob",{"t":"' + "F" * len(names) + '","n":["' + '","'.join(names) + '"],"q":[],"i":[],"p":[]}]]'
    (folder / "search-index.js").write_text(f"var searchIndex = new Map(JSON.parse('{literal}'));\n"
                                            "if (typeof exports !== 'undefined') {exports.searchIndex = searchIndex};",
                                            encoding="utf-8")
    return Case(f"rustdoc index, {megabytes} MB", folder, 2, "seconds, under 1 GB")


def many_entries_one_page(work: Path, entries: int = 20_000, kilobytes: int = 230) -> Case:
    """``entries`` inventory entries on one page of ``kilobytes`` KB."""
    folder = work / "placing"
    _pages(folder)
    words = [f"frob_call_{n}" for n in range(entries)]
    body = " ".join(f"<code>{w}</code> calls it." for w in words)[: kilobytes << 10]
    (folder / "index.html").write_text(PAGE.format(title="Frob Manual", body=body), encoding="utf-8")
    lines = "".join(f"frob.Frob.{w} py:method 1 index.html#frob.Frob.{w} -\n" for w in words).encode()
    (folder / "objects.inv").write_bytes(b"# Sphinx inventory version 2\n# Project: x\n# Version: 1\n"
                                         b"# The remainder of this file is compressed using zlib.\n"
                                         + zlib.compress(lines))
    return Case(f"{entries:,} entries on one {kilobytes} KB page", folder, 2, "seconds (linear)")


def odd_contents(work: Path) -> Case:
    """Folders named like inventory files, and a tag file that links nowhere."""
    folder = work / "odd"
    _pages(folder, body='<meta name="generator" content="Doxygen 1.9"> frob')
    (folder / "annotated.html").mkdir()
    (folder / "functions.html").mkdir()
    (folder / "x.tag").mkdir()
    (folder / "objects.inv").mkdir()
    os.symlink(folder / "nowhere.tag", folder / "dangling.tag")
    return Case("folders named annotated.html, x.tag", folder, 2, "read; the odd entries left out")


def separator_tables(work: Path) -> list[Case]:
    """A table of separator rows only, in a Markdown book and in a doc set."""
    book = work / "lantern.md"
    book.write_text("# Lantern\n\nThe lantern.\n\n## Layout\n\n|---|---|\n|---|---|\n\n## Wick\n\nThe wick burns.\n",
                    encoding="utf-8")
    folder = work / "tables"
    _pages(folder)
    (folder / "layout.html").write_text(PAGE.format(title="Layout", body="<br>|---|---|<br>|---|---|<br>")
                                        + "<pre>+---+---+\n| a | b |\n+---+---+\n|---|---|\n</pre>", encoding="utf-8")
    return [Case("separator-only table, a book", book, 3, "stored"),
            Case("separator-only table, a doc set", folder, 3, "stored")]


def all_cases(work: Path) -> list[Case]:
    return [rdoc_named_files(work), hidden_and_linked(work), objects_inv_bomb(work), rustdoc_big_index(work),
            many_entries_one_page(work), odd_contents(work), *separator_tables(work)]
