"""Found by the crash loop (bench/crash_test.py, seed 0): a book deleted, or changed back to an
earlier version, kept SQLite's note that its vectors were synced. After a crash between the
book's SQLite commit and its Chroma writes, the next ingest of the book found the old note
matching its children, skipped the sync, and left the book without vectors."""

import pytest

from crossbook.vectors.chroma import VectorStore
from tests.helpers import BOOK_B, write


class Killed(BaseException):
    """A kill: nothing in crossbook catches it."""


def _die(*args, **kwargs):
    raise Killed


@pytest.mark.parametrize("between", ["delete-book", "other version"])
def test_the_next_ingest_repairs_vectors_after_a_crash_whatever_came_before(between, cli, cli_json, tmp_path, monkeypatch):
    book = write(tmp_path / "b.md", BOOK_B)
    cli_json("ingest", book)  # synced: SQLite notes the digest of the book's children
    if between == "delete-book":
        with monkeypatch.context() as patch:  # killed after SQLite deleted it; repaired
            patch.setattr(VectorStore, "delete_book", _die)
            with pytest.raises(Killed):
                cli("delete-book", "Grimoire")
        assert cli("doctor", "--repair").exit_code == 0
    else:  # another version, killed after Chroma was written but before SQLite's note of it
        with monkeypatch.context() as patch:
            patch.setattr("crossbook.vectors.chroma.children_digest", _die)
            with pytest.raises(Killed):
                cli("ingest", write(tmp_path / "b.md", BOOK_B + "\n### Ward\nWard costs 1 Ember.\n"))
        assert cli("doctor").exit_code == 0  # SQLite and Chroma agree; only the note is old
    with monkeypatch.context() as patch:  # the first version again, killed before Chroma
        patch.setattr(VectorStore, "replace_book", _die)
        with pytest.raises(Killed):
            cli("ingest", write(tmp_path / "b.md", BOOK_B))
    assert cli_json("ingest", book)[0]["status"] == "unchanged"  # the next command
    result = cli("doctor", "--json")
    assert result.exit_code == 0, result.stdout
