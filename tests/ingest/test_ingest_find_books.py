"""Directory ingest: which files are books (globs, exclusions, README and friends)."""

import json

from crossbook.ingest.books import find_books
from tests.helpers import BOOK_A, write


def _tree(root):
    for name in ("a.md", "b.markdown", "notes.txt", "README.md", "readme.markdown", "CHANGELOG.md",
                 "LICENSE", "License.md", "drafts/c.md", "deep/drafts/d.md", "deep/e.md"):
        path = root / name
        path.parent.mkdir(parents=True, exist_ok=True)
        write(path, f"# {path.stem}\n\n## One\n\nText.\n")
    return root


def _names(root, found):
    return [p.relative_to(root).as_posix() for p in found]


def test_a_directory_gives_its_books_of_every_format_without_readme_changelog_license(tmp_path):
    root = _tree(tmp_path / "shelf")
    for name in ("rules.pdf", "novel.epub", "page.html", "image.png", ".hidden/x.md"):
        (root / name).parent.mkdir(parents=True, exist_ok=True)
        (root / name).write_bytes(b"x")
    assert _names(root, find_books([root])) == [
        "a.md", "b.markdown", "deep/drafts/d.md", "deep/e.md", "drafts/c.md", "notes.txt", "novel.epub",
        "page.html", "rules.pdf"]


def test_a_vault_is_one_book_found_by_its_marker_or_as_book(tmp_path):
    root = _tree(tmp_path / "shelf")
    (root / "vault" / ".obsidian").mkdir(parents=True)
    write(root / "vault" / "Note.md", "A note.\n")
    (root / "mdbook").mkdir()
    write(root / "mdbook" / "SUMMARY.md", "- [One](one.md)\n")
    write(root / "mdbook" / "one.md", "# One\n")
    found = _names(root, find_books([root]))
    assert "vault" in found and "mdbook" in found
    assert not any(name.startswith(("vault/", "mdbook/")) for name in found)
    assert find_books([root / "vault"]) == [root / "vault"]
    assert find_books([root / "deep"], as_book=True) == [root / "deep"]
    assert _names(root, find_books([root / "deep"])) == ["deep/drafts/d.md", "deep/e.md"]


def test_a_file_named_on_its_own_is_taken_as_given(tmp_path):
    root = _tree(tmp_path / "shelf")
    assert find_books([root / "README.md"]) == [root / "README.md"]


def test_include_and_exclude_globs(tmp_path):
    root = _tree(tmp_path / "shelf")
    assert _names(root, find_books([root], include=("*.txt",))) == ["notes.txt"]
    assert _names(root, find_books([root], exclude=("drafts/*",))) == ["a.md", "b.markdown", "deep/e.md", "notes.txt"]
    assert _names(root, find_books([root], include=("*.md",), exclude=("*/drafts/*", "drafts/*"))) == ["a.md", "deep/e.md"]


def test_globs_that_leave_nothing_are_an_error(tmp_path, cli):
    root = _tree(tmp_path / "shelf")
    result = cli("ingest", root, "--glob", "*.rst")
    assert result.exit_code == 1 and result.stdout == ""
    assert "no files matching *.rst found in directory" in result.stderr


def test_ingest_with_globs(tmp_path, cli):
    root = tmp_path / "shelf"
    root.mkdir()
    write(root / "core.md", BOOK_A)
    write(root / "README.md", "# About this shelf\n\n## Usage\n\nRead me.\n")
    (root / "drafts").mkdir()
    write(root / "drafts" / "wip.md", "# Work In Progress\n\n## Soon\n\nLater.\n")
    result = cli("ingest", root, "--exclude", "drafts/*", "--relations", "off", "--json")
    assert result.exit_code == 0, result.stderr
    assert [r["title"] for r in json.loads(result.stdout)] == ["Core Rules"]
