"""Back indexes as LaTeX builds them (tests/fixtures/latex_index, built here with pdflatex and
makeindex; skipped where TeX is not installed): LaTeX's two-column ``theindex`` with and
without hyperref (whose outline anchors "Index" and "Bibliography" before their page breaks),
and a ``doc``/``ltxdoc`` code-line index in three columns below the text of its page, with no
outline. Every entry is defined in the body, none by the index."""

from __future__ import annotations

import shutil
import subprocess
from pathlib import Path

import pytest

from crossbook.readers import read_book
from crossbook.readers.passes.printed_index import is_back_index

FIXTURES = Path(__file__).resolve().parent.parent / "fixtures" / "latex_index"
COMMANDS = [f"\\frob{a}{b}" for a in "abcdef" for b in "stuvwxyz"]
OPTIONS = [f"knob{a}{b}" for a in "ghij" for b in "stuvwxyz"]

pytestmark = [pytest.mark.slow,
              pytest.mark.skipif(not (shutil.which("pdflatex") and shutil.which("makeindex")),
                                 reason="pdflatex and makeindex (texlive-latex-recommended) are not installed")]


def _build(tmp_path: Path, source: str, job: str, tex_input: str, style: list[str]) -> Path:
    shutil.copy(FIXTURES / source, tmp_path / source)
    for _ in range(2):  # the index, then the pages the outline and the index print
        subprocess.run(["pdflatex", "-interaction=nonstopmode", tex_input], cwd=tmp_path, check=False,
                       capture_output=True, timeout=120)
        subprocess.run(["makeindex", "-q", *style, f"{job}.idx"], cwd=tmp_path, check=True, capture_output=True,
                       timeout=60)
    subprocess.run(["pdflatex", "-interaction=nonstopmode", tex_input], cwd=tmp_path, check=False,
                   capture_output=True, timeout=120)
    return tmp_path / f"{job}.pdf"


def _defined(book) -> dict[str, str]:
    """Each back-index entry's name -> the heading of the section it is defined in."""
    return {t.name: s.heading for s in book.sections for t in s.terms if t.rule == "back_index"}


@pytest.mark.parametrize("hyperref", [False, True])
def test_a_two_column_theindex_defines_every_entry_in_the_body(tmp_path, hyperref):
    tex_input = "\\def\\withhyperref{}\\input{frobtwo}" if hyperref else "frobtwo"
    book = read_book(_build(tmp_path, "frobtwo.tex", "frobtwo", tex_input, []))
    defined = _defined(book)
    assert set(COMMANDS + OPTIONS) <= set(defined)
    assert all("Commands of group" in defined[c] for c in COMMANDS)
    assert all(defined[o].endswith("Options") for o in OPTIONS)
    assert not any(t.rule == "back_index" for s in book.sections if is_back_index(s) for t in s.terms)
    # the Bibliography, printed after the index, holds none of its entries
    bibliography = [s for s in book.sections if s.heading == "Bibliography"]
    assert all("knob" not in s.text and "frob" not in s.text.replace("frob book", "") for s in bibliography)


def test_a_code_line_index_below_the_text_of_its_page(tmp_path):
    book = read_book(_build(tmp_path, "frobcode.dtx", "frobcode", "frobcode.dtx", ["-s", "gind.ist"]))
    defined = _defined(book)
    names = [f"\\frob{a}{b}" for a in "abcdefgh" for b in "stuvwxyz"]
    # its italic numbers are the pages that describe a command: the Usage section
    assert set(names) <= set(defined) and all(defined[n].endswith("Usage") for n in names)
    # its other numbers are code lines: the Implementation's listing prints them
    used = {link[0] for s in book.sections if (s.heading or "").endswith("Implementation") for link in s.links}
    assert set(names) <= used
    assert not any(s.terms for s in book.sections if is_back_index(s))
    index = "\n".join(s.text for s in book.sections if is_back_index(s))
    at = [index.index(n + "`") for n in names]
    assert at == sorted(at)  # read column by column


def test_entries_set_in_math_or_listed_in_a_table_are_placed_like_any_other(tmp_path):
    defined = _defined(read_book(_build(tmp_path, "frobmath.tex", "frobmath", "frobmath", [])))
    assert {defined.get(n) for n in ("\\frobnorm", "\\frobsum", "frobdist")} == {"1 Math commands"}
    assert {defined.get(n) for n in ("\\frobtaba", "\\frobtabb")} == {"2 Table of commands"}
    assert "frobdist*" not in defined
