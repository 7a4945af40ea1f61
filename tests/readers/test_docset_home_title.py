"""A doc set is titled by its home page's ``<title>`` less its version and the words that
say it is documentation (readers/docset/home_title.py); its folder's name titles it when
there is no home page to read one from."""

from __future__ import annotations

from pathlib import Path

import pytest

from crossbook.readers import read_book
from crossbook.readers.docset.home_title import cleaned_title, home_title

PAGE = """<html><head><title>{title}</title></head><body><h1>{heading}</h1>
<p>{text}</p><dl><dt><code>{name}()</code></dt><dd><p>Does a thing.</p></dd></dl></body></html>"""


def write(folder: Path, pages: dict[str, str]) -> Path:
    folder.mkdir(parents=True, exist_ok=True)
    for name, text in pages.items():
        (folder / name).parent.mkdir(parents=True, exist_ok=True)
        (folder / name).write_text(text, encoding="utf-8")
    return folder


def page(title: str, heading: str, name: str, text: str = "Some text.") -> str:
    return PAGE.format(title=title, heading=heading, name=name, text=text)


@pytest.mark.parametrize("title, expected", [
    ("Spool 2.1.4 Documentation", "Spool"),
    ("Welcome to Spool's documentation!", "Spool"),
    ("spool-0.6.4.1: Bobbins and threads", "spool: Bobbins and threads"),
    ("The Spool Library v3.2", "The Spool Library"),
    ("Spool 2.0rc1 docs", "Spool"),
    ("Spool", "Spool"),
    ("3.11.4 Documentation", ""),
])
def test_a_title_loses_its_version_and_the_words_that_say_it_is_documentation(title, expected):
    assert cleaned_title(title) == expected


def test_the_sites_name_the_pages_repeat_comes_first_then_the_home_pages_own_parts():
    assert home_title("Index | Spool v18.2 Documentation", frozenset({"Spool v18.2 Documentation"})) == "Spool"
    assert home_title("Overview \u2014 Spool 2.1 documentation", frozenset()) == "Overview"
    # a home page whose title is only a version: the name the other pages' titles repeat
    assert home_title("2.1 Documentation", frozenset({"Spool 2.1 documentation"})) == "Spool"
    assert home_title("2.1 Documentation", frozenset()) is None


def test_a_doc_set_in_a_folder_named_html_takes_its_home_pages_title(tmp_path):
    folder = write(tmp_path / "spool" / "html", {
        "index.html": page("Spool 2.1 Documentation", "Spool", "spool_open"),
        "api.html": page("API \u2014 Spool 2.1 Documentation", "API", "spool_read"),
        "guide/wind.html": page("Winding \u2014 Spool 2.1 Documentation", "Winding", "spool_wind"),
    })
    assert read_book(folder, fmt="docset").title == "Spool"


def test_with_no_index_page_a_top_page_about_no_one_thing_titles_it_and_a_things_page_does_not(tmp_path):
    home = write(tmp_path / "a" / "html", {
        "contents.html": page("Spool Reference Manual", "Contents", "spool_open",
                              text='<a href="reel.html">Reels</a>'),
        "reel.html": page("Reel", "Reel", "reel_open"),
    })
    assert read_book(home, fmt="docset").title == "Spool Reference Manual"
    command = write(tmp_path / "b" / "html", {
        "afmtodit.html": page("AFMTODIT(1)", "AFMTODIT(1)", "afmtodit",
                              text="afmtodit - create font files"),
    })
    assert read_book(command, fmt="docset").title == "html"
    nested = write(tmp_path / "c" / "docs", {"guide/intro.html": page("Spool Guide", "Introduction", "spool_open")})
    assert read_book(nested, fmt="docset").title == "docs"
