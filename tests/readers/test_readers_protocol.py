"""The reader seam: every format's module is a Reader, and what every book gets after its
reader is the explicit list of post-passes, run in its order."""

from __future__ import annotations

from importlib import import_module
from pathlib import Path

from crossbook.core.models import Section
from crossbook.readers import FORMATS, SourceBook, read_book
from crossbook.readers import passes as post_passes
from crossbook.readers.protocol import Reader


def test_every_format_module_is_a_reader():
    for fmt in FORMATS:
        assert isinstance(import_module(f"crossbook.readers.{fmt.module}"), Reader), fmt.name


def test_each_format_is_listed_once_with_its_own_suffixes():
    names = [fmt.name for fmt in FORMATS]
    suffixes = [s for fmt in FORMATS for s in fmt.suffixes]
    assert len(set(names)) == len(names) and len(set(suffixes)) == len(suffixes)
    assert {fmt.name for fmt in FORMATS if fmt.claims_folder is not None} == {"docset", "vault"}


def test_a_folder_is_detected_once_while_unchanged(tmp_path, monkeypatch):
    from crossbook.readers import registry

    folder = tmp_path / "vault"
    (folder / ".obsidian").mkdir(parents=True)
    (folder / "a.md").write_text("# A\n", encoding="utf-8")
    calls = []
    real = registry.FORMATS[-2].claims_folder

    def counted(path):
        calls.append(path)
        return real(path)

    docset = registry.Format("docset", "docset", claims_folder=counted)
    monkeypatch.setattr(registry, "FORMATS", (docset, *[f for f in registry.FORMATS if f.name != "docset"]))
    registry.forget_claims()
    assert registry.folder_claim(folder) == "vault" and registry.folder_claim(folder) == "vault"
    assert len(calls) == 1
    (folder / "b.md").write_text("# B\n", encoding="utf-8")  # the folder changed: asked again
    assert registry.folder_claim(folder) == "vault" and len(calls) == 2


def test_the_post_passes_are_the_list_in_its_order():
    assert [p.__name__ for p in post_passes.POST_PASSES] == ["code_entries", "back_index", "guide_entries",
                                                           "internal_links"]


def test_read_book_runs_each_post_pass_in_order(tmp_path, monkeypatch):
    seen = []

    def recorder(name):
        def post_pass(book: SourceBook) -> SourceBook:
            seen.append((name, book.title))
            return book
        return post_pass

    monkeypatch.setattr(post_passes, "POST_PASSES", (recorder("first"), recorder("second")))
    path = tmp_path / "book.md"
    path.write_text("# Book\n\nText.\n", encoding="utf-8")
    book = read_book(path)
    assert seen == [("first", book.title), ("second", book.title)]


def test_a_post_pass_leaves_a_book_it_does_not_apply_to_unchanged():
    sections = (Section("Intro", 1, ("Intro",), "# Intro\n\n`x`\n", 0),)
    book = SourceBook(path=Path("doc"), format="docset", title="Doc", sections=sections, sha256="0")
    assert post_passes.code_entries(book) is book
    assert post_passes.back_index(book) is book        # no section knows its pages
    assert post_passes.internal_links(book) is book    # no internal links
