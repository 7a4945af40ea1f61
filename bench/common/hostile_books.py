"""Books built to be hostile to a reader, shared by bench/bench_hostile.py and the tests of
hostile input: an EPUB whose one chapter is written in pieces, so it may inflate to any size
without ever being in memory."""

from __future__ import annotations

import zipfile
from pathlib import Path

CONTAINER = ('<?xml version="1.0"?><container version="1.0" xmlns="urn:oasis:names:tc:opendocument:xmlns:container">'
             '<rootfiles><rootfile full-path="OEBPS/content.opf" media-type="application/oebps-package+xml"/>'
             "</rootfiles></container>")
PACKAGE = ('<?xml version="1.0"?><package xmlns="http://www.idpf.org/2007/opf" version="3.0">'
           '<metadata xmlns:dc="http://purl.org/dc/elements/1.1/"><dc:title>Bomb</dc:title></metadata>'
           '<manifest><item id="c1" href="ch1.xhtml" media-type="application/xhtml+xml"/></manifest>'
           '<spine><itemref idref="c1"/></spine></package>')


def streamed_epub(path: Path, head: bytes, middle: bytes, repeat: int, tail: bytes) -> Path:
    """An EPUB whose one chapter is ``head``, ``middle`` ``repeat`` times, then ``tail``:
    written in pieces, so a huge chapter is never in memory."""
    with zipfile.ZipFile(path, "w") as archive:
        archive.writestr("mimetype", "application/epub+zip", compress_type=zipfile.ZIP_STORED)
        archive.writestr("META-INF/container.xml", CONTAINER, compress_type=zipfile.ZIP_DEFLATED)
        archive.writestr("OEBPS/content.opf", PACKAGE, compress_type=zipfile.ZIP_DEFLATED)
        info = zipfile.ZipInfo("OEBPS/ch1.xhtml")
        info.compress_type = zipfile.ZIP_DEFLATED
        with archive.open(info, "w", force_zip64=True) as member:
            member.write(head)
            for _ in range(repeat):
                member.write(middle)
            member.write(tail)
    return path
