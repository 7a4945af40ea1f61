"""An EPUB's internal links (``<a href="frost.xhtml#lance">``) are the author's exact
references to what the target section defines, as a doc set's links are; a link to another
book's address, or whose text names nothing there, is none."""

from ebooklib import epub

from crossbook.core.config import load_settings
from crossbook.ingest.pipeline import IngestJob, ingest_paths
from crossbook.query.lookup import where_else
from crossbook.readers import read_book
from crossbook.storage.db import open_db


def _chapter(file_name: str, title: str, body: str) -> epub.EpubHtml:
    chapter = epub.EpubHtml(title=title, file_name=file_name, lang="en")
    chapter.content = f"<html><head><title>{title}</title></head><body>{body}</body></html>"
    return chapter


def _book(tmp_path, contents=False):
    book = epub.EpubBook()
    book.set_identifier("test-links")
    book.set_title("The Winter Grimoire")
    book.set_language("en")
    intro = _chapter("text/intro.xhtml", "Introduction",
                     "<h2>Introduction</h2><p>Casters who face a charge learn "
                     "<a href='frost.xhtml#lance'>Frost Lance</a> first, and later "
                     "<a href='fire.xhtml#kindle'>Kindle</a>. The "
                     "<a href='https://example.com/frost.xhtml#ward'>Frost Ward</a> errata are online; "
                     "the rules for ice are <a href='frost.xhtml#lance'>on the next page</a>.</p>")
    frost = _chapter("text/frost.xhtml", "Frost Spells",
                     "<h2>Frost Spells</h2><p>Cold magic.</p><h3 id='lance'>Frost Lance</h3>"
                     "<p>Frost Lance hurls a spear of ice at one foe.</p>"
                     "<h3 id='ward'>Frost Ward</h3><p>Frost Ward is a shield of ice.</p>")
    fire = _chapter("text/fire.xhtml", "Fire Spells",
                    "<h2>Fire Spells</h2><p>Hot magic.</p>"
                    "<p id='kindle'><b>Kindle</b> lights fuel within reach.</p>")
    listing = _chapter("text/contents.xhtml", "Contents",
                       "<h2>Contents</h2><p><a href='frost.xhtml#lance'>Frost Lance</a></p>"
                       "<p><a href='fire.xhtml#kindle'>Kindle</a></p>")
    for chapter in (intro, frost, fire, listing):
        book.add_item(chapter)
    book.toc = (epub.Link("text/intro.xhtml", "Introduction", "intro"),
                epub.Link("text/frost.xhtml", "Frost Spells", "frost"),
                epub.Link("text/fire.xhtml", "Fire Spells", "fire"))
    book.add_item(epub.EpubNcx())
    book.add_item(epub.EpubNav())
    book.spine = ["nav", *([listing] if contents else []), intro, frost, fire]
    path = tmp_path / "winter.epub"
    epub.write_epub(str(path), book, {})
    return path


def test_a_link_to_another_chapter_references_what_its_target_defines(tmp_path):
    book = read_book(_book(tmp_path))
    intro = next(s for s in book.sections if s.heading == "Introduction")
    # a heading's section by its heading, an entry by the name its anchor opens with; the
    # external address and "on the next page" name nothing the book defines there
    assert intro.links == (("Frost Lance", "Frost Lance", "EPUB/text/frost.xhtml#lance"),
                           ("Kindle", "Kindle", "EPUB/text/fire.xhtml#kindle"))
    assert all(not s.links for s in book.sections if s.heading != "Introduction")


def test_the_link_is_stored_as_a_reference_from_the_section_it_sits_in(tmp_path):
    path = _book(tmp_path)
    db = open_db(tmp_path / "idx", create=True)
    ingest_paths(IngestJob(db, load_settings({"index_dir": tmp_path / "idx", "embedder": "hash"}, {}, None)),
                 [path])
    found = [(m["mention_type"], m["source"], m["file"]) for e in where_else(db, "Frost Lance")["entities"]
             for g in e["books"] for m in g["mentions"]]
    assert ("references", "wikilink", "EPUB/text/intro.xhtml") in found


def test_a_contents_page_in_the_spine_lists_its_links_and_refers_to_nothing(tmp_path):
    book = read_book(_book(tmp_path, contents=True))
    assert [s.links for s in book.sections if s.heading == "Contents"] == [()]
    assert next(s for s in book.sections if s.heading == "Introduction").links  # the prose's links stay
