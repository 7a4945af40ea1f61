"""The progress display: rich bars naming book and phase on a terminal, plain lines that
name the book elsewhere, nothing with --quiet, a "loading model" phase."""

import io
import json
import re
from pathlib import Path

import pytest
from rich.console import Console

from tests.helpers import BOOK_A, BOOK_B, write

ANSI = re.compile(r"\x1b\[[0-9;?]*[A-Za-z]")


@pytest.fixture
def two_books(tmp_path):
    return write(tmp_path / "a.md", BOOK_A), write(tmp_path / "b.md", BOOK_B)


def test_plain_lines_off_a_terminal_name_the_book(two_books, cli):
    result = cli("ingest", *two_books, "--relations", "off", "--json")
    assert result.exit_code == 0
    lines = result.stderr.splitlines()
    assert "1/2 Core Rules" in lines and "2/2 Grimoire" in lines
    assert "Core Rules: extract 6/6 chunks" in lines and "Core Rules: plan 6/6 sections" in lines
    # the write step by step, each with its count (no "write 0/1" with only its seconds)
    assert any(re.fullmatch(r"Grimoire: write: linking (\d+)/\1 sections", line) for line in lines)
    assert not any(line.endswith(" s)") and "/" not in line for line in lines)
    assert [r["title"] for r in json.loads(result.stdout)] == ["Core Rules", "Grimoire"]


def test_quiet_prints_no_progress(two_books, cli):
    result = cli("ingest", *two_books, "--relations", "off", "--quiet")
    assert result.exit_code == 0 and result.stderr == ""
    assert "Core Rules: added" in result.stdout and "Grimoire: added" in result.stdout
    again = cli("-q", "ingest", *two_books)
    # one count, not one "unchanged, skipped" line per book
    assert again.stderr == "" and again.stdout == "2 unchanged books skipped\n"


@pytest.fixture
def terminal(monkeypatch):
    """The progress console as a 120-column terminal writing to a buffer."""
    import crossbook.cli.progress as progress

    buffer = io.StringIO()
    monkeypatch.setattr(progress, "stderr", Console(file=buffer, force_terminal=True, width=120))
    return buffer


def test_on_a_terminal_the_bars_name_book_phase_count_and_eta(terminal):
    from crossbook.cli.progress import ProgressReporter

    with ProgressReporter("ingest", books=2, tty=True) as progress:
        sink = progress.watching(lambda event: None)
        sink({"event": "book.start", "book": "Core Rules"})
        progress("extract", 3, 6)
        progress("extract", 6, 6)
        sink({"event": "book.start", "book": "Grimoire"})
        progress("embed", 4, 10)
    text = ANSI.sub("", terminal.getvalue())
    assert re.search(r"Core Rules · extract \(chunks\) .* 3/6 .*ETA", text)
    assert re.search(r"Grimoire · vectors: embedding \(children\) .* 4/10", text)
    assert re.search(r"ingest books .* 1/2", text)
    # the last frame: the whole run done and the book row gone, so the summaries follow cleanly
    last_frame = text.rstrip().splitlines()[-1]
    assert re.search(r"ingest done .* 2/2", last_frame) and "Grimoire" not in last_frame


def test_on_a_terminal_quiet_shows_nothing(terminal):
    from crossbook.cli.progress import ProgressReporter

    with ProgressReporter("ingest", books=1, tty=True, quiet=True) as progress:
        progress.event({"event": "book.start", "book": "Core Rules"})
        progress("extract", 1, 1)
    assert terminal.getvalue() == ""


def test_a_local_model_load_is_its_own_phase(monkeypatch):
    import crossbook.vectors.embed as embed
    from crossbook.cli.progress import LOADING_MODEL, ModelLoadReporter

    loaded = []

    class FakeLocal(embed.LocalEmbedder):
        def load_model(self):
            loaded.append(True)

        def embed(self, texts):
            return [[1.0] for _ in texts]

    calls = []
    embedder = ModelLoadReporter(FakeLocal(Path("unused")), lambda *call: calls.append(call))
    assert embedder.id.startswith("local:") and embedder.batch_size == 256
    embedder.embed(["a"])
    embedder.embed(["b"])
    assert calls == [(LOADING_MODEL, 0, 1), (LOADING_MODEL, 1, 1)] and loaded == [True]
    # an embedder with nothing to load reports nothing
    hashed = ModelLoadReporter(embed.HashEmbedder(), lambda *call: calls.append(call))
    hashed.embed(["c"])
    assert len(calls) == 2


def test_plain_loading_model_line(capsys, monkeypatch):
    import crossbook.cli.progress as progress
    from crossbook.cli.progress import LOADING_MODEL, ProgressReporter

    buffer = io.StringIO()
    monkeypatch.setattr(progress, "stderr", Console(file=buffer, force_terminal=False, soft_wrap=True))
    with ProgressReporter("rebuild", books=1, tty=False) as progress:
        progress.event({"event": "book.start", "book": "Bestiary"})
        progress(LOADING_MODEL, 0, 1)
        progress(LOADING_MODEL, 1, 1)
        progress("embed", 17, 17)
    assert buffer.getvalue().splitlines() == ["Bestiary: loading model...", "Bestiary: vectors: embedding 17/17 children"]


@pytest.mark.parametrize("phase, expected", [
    ("extract", "'Grimoire' was not written; the books before it are in the index."),
    ("embed", "'Grimoire' is in the index without all its vectors (run: crossbook doctor --repair"),
    ("vectors", "'Grimoire' is in the index without all its vectors (run: crossbook doctor --repair"),
])
def test_ctrl_c_says_what_the_index_holds(phase, expected, monkeypatch):
    import crossbook.cli.progress as progress
    from crossbook.cli.progress import ProgressReporter

    buffer = io.StringIO()
    monkeypatch.setattr(progress, "stderr", Console(file=buffer, force_terminal=False, soft_wrap=True))
    with pytest.raises(KeyboardInterrupt):
        with ProgressReporter("ingest", books=2, tty=False, quiet=True) as progress:
            progress.event({"event": "book.start", "book": "Core Rules"})
            progress.event({"event": "book.start", "book": "Grimoire"})
            progress(phase, 1, 4)
            raise KeyboardInterrupt
    assert expected in buffer.getvalue()


@pytest.mark.parametrize("second_written, expected", [
    (False, "'Grimoire' was not written; the books before it are in the index. 1 of them without all "
            "their vectors yet (Core Rules: crossbook books says which"),
    (True, "'Grimoire' is in the index without all its vectors (run: crossbook doctor --repair, or ingest it "
           "again); the books before it are in the index. 1 of them without all their vectors yet (Core Rules:"),
])
def test_ctrl_c_names_the_books_whose_vectors_a_run_had_not_stored(second_written, expected, monkeypatch):
    """A run stores each book's vectors behind the next book's write (index/changes/behind.py):
    a Ctrl-C then leaves written books whose vectors are still to do."""
    import crossbook.cli.progress as progress
    from crossbook.cli.progress import ProgressReporter

    buffer = io.StringIO()
    monkeypatch.setattr(progress, "stderr", Console(file=buffer, force_terminal=False, soft_wrap=True))
    with pytest.raises(KeyboardInterrupt):
        with ProgressReporter("ingest", books=3, tty=False, quiet=True) as progress:
            for title in ("Bestiary", "Core Rules"):
                progress.event({"event": "book.start", "book": title})
                progress.event({"event": "phase.start", "phase": "write", "book": title})
                progress.event({"event": "phase.done", "phase": "write", "book": title})
            progress.event({"event": "phase.start", "phase": "vectors", "book": "Bestiary"})
            progress.event({"event": "phase.done", "phase": "vectors", "book": "Bestiary"})
            progress.event({"event": "phase.start", "phase": "vectors", "book": "Core Rules"})
            progress.event({"event": "book.start", "book": "Grimoire"})
            progress.event({"event": "phase.start", "phase": "write", "book": "Grimoire"})
            if second_written:
                progress.event({"event": "phase.done", "phase": "write", "book": "Grimoire"})
            raise KeyboardInterrupt
    assert expected in buffer.getvalue()


def test_vectors_stored_behind_are_shown_under_their_own_book_with_their_count(monkeypatch):
    import crossbook.cli.progress as progress
    from crossbook.cli.progress import ProgressReporter

    buffer = io.StringIO()
    monkeypatch.setattr(progress, "stderr", Console(file=buffer, force_terminal=False, soft_wrap=True))
    with ProgressReporter("ingest", books=2, tty=False) as progress:
        progress.event({"event": "book.start", "book": "Grimoire"})
        progress.event({"event": "phase.start", "phase": "vectors", "book": "Core Rules", "total": 8,
                        "unit": "children", "behind": True})
        progress.event({"event": "phase.progress", "phase": "vectors", "book": "Core Rules", "done": 8,
                        "total": 8, "unit": "children", "behind": True})
    assert "Core Rules: vectors: embedding 8/8 children" in buffer.getvalue().splitlines()


def test_off_a_terminal_a_long_phase_says_where_it_is_every_heartbeat(monkeypatch):
    """No line for ``heartbeat`` seconds while a phase goes on: one saying where it is, its
    count and the time it has left at its rate so far (a clock given to ``tick``, not waited for)."""
    import crossbook.cli.progress as progress
    from crossbook.cli.progress import ProgressReporter

    buffer = io.StringIO()
    monkeypatch.setattr(progress, "stderr", Console(file=buffer, force_terminal=False, soft_wrap=True))
    reporter = ProgressReporter("ingest", books=1, tty=False, heartbeat=5.0)
    reporter.event({"event": "book.start", "book": "Manual"})
    reporter("embed", 0, 2000)
    start = reporter._current[4]
    reporter.tick(reporter._said_at + 4.0)
    assert buffer.getvalue() == ""  # a line was said less than 5 s ago
    reporter.tick(start + 6.0)
    reporter.tick(start + 7.0)  # 1 s after the heartbeat line: nothing
    reporter._current = (*reporter._current[:2], 500, 2000, start)  # a quarter done (as the last call left it)
    reporter.tick(start + 12.0)
    assert buffer.getvalue().splitlines() == ["Manual: vectors: embedding 0/2,000 children (6 s)",
                                              "Manual: vectors: embedding 500/2,000 children, about 36 s left"]
    reporter("embed", 2000, 2000)
    reporter.tick(start + 30.0)  # the phase ended: the next one speaks for itself
    assert buffer.getvalue().splitlines()[-1] == "Manual: vectors: embedding 2,000/2,000 children"


def test_the_write_is_shown_step_by_step_from_its_events(monkeypatch):
    """Linking and relations, told only by events (core/steps.py), shown with their counts and
    the time left: "write: linking 1,204/3,586 sections, about N s left"."""
    import crossbook.cli.progress as progress
    from crossbook.cli.progress import ProgressReporter

    buffer = io.StringIO()
    monkeypatch.setattr(progress, "stderr", Console(file=buffer, force_terminal=False, soft_wrap=True))
    reporter = ProgressReporter("ingest", books=1, tty=False, heartbeat=5.0)
    reporter.event({"event": "book.start", "book": "Manual"})
    reporter.event({"event": "phase.start", "phase": "link", "book": "Manual", "total": 3586, "unit": "sections"})
    start = reporter._current[4]
    reporter.event({"event": "phase.progress", "phase": "link", "book": "Manual", "done": 1204, "total": 3586,
                    "unit": "sections"})
    reporter.tick(start + 20.0)
    reporter.event({"event": "phase.progress", "phase": "link", "book": "Manual", "done": 3586, "total": 3586,
                    "unit": "sections"})
    lines = buffer.getvalue().splitlines()
    assert re.fullmatch(r"Manual: write: linking 1,204/3,586 sections, about \d+ s left", lines[-2])
    assert lines[-1] == "Manual: write: linking 3,586/3,586 sections"


def test_reading_a_book_is_a_phase_of_its_own(tmp_path, two_books):
    """``load_books`` reports each file it reads, before reading it (a large PDF takes a while)."""
    from crossbook.ingest.pipeline import load_books

    calls = []
    load_books(list(two_books), None, progress=lambda phase, done, total: calls.append((phase, done, total)))
    assert calls == [("read a.md", 0, 2), ("read b.md", 1, 2)]


def test_events_carry_their_time_and_give_the_ingest_step_by_step(two_books, cli):
    result = cli("ingest", *two_books, "--events", "-", "--quiet")
    assert result.exit_code == 0, result.stderr
    events = [json.loads(line) for line in result.stdout.splitlines()]
    assert all(re.fullmatch(r"\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}\+00:00", e["time"]) for e in events)
    vectors = [(e["event"], e["book"]) for e in events if e.get("phase") == "vectors" and e["event"] != "phase.progress"]
    assert vectors == [("phase.start", "Core Rules"), ("phase.done", "Core Rules"),
                       ("phase.start", "Grimoire"), ("phase.done", "Grimoire")]
    steps = [e["phase"] for e in events if e["event"] == "phase.start" and e.get("book") == "Grimoire"]
    assert [p for p in steps if p in ("read", "plan", "extract", "link", "relations", "vectors")] == [
        "plan", "extract", "link", "relations", "vectors"]  # the reads come first, for every book
    done = {e["phase"]: e for e in events if e["event"] == "phase.done" and e.get("book") == "Grimoire"}
    assert done["plan"]["parents"] >= 1 and done["vectors"]["done"] == done["plan"]["children"]


def test_off_a_terminal_a_book_being_planned_is_said_before_its_first_phase(monkeypatch):
    import crossbook.cli.progress as progress
    from crossbook.cli.progress import ProgressReporter

    buffer = io.StringIO()
    monkeypatch.setattr(progress, "stderr", Console(file=buffer, force_terminal=False, soft_wrap=True))
    reporter = ProgressReporter("rebuild", books=1, tty=False, heartbeat=5.0)
    reporter("read manual.pdf", 0, 1)  # rebuild reads its books first
    reporter.tick(reporter._current[4] + 5.0)
    reporter.event({"event": "book.start", "book": "Manual"})
    reporter.tick(reporter._current[4] + 10.0)
    assert buffer.getvalue().splitlines() == ["rebuild read manual.pdf 0/1 (5 s)", "Manual: plan 0 chunks so far (10 s)"]


def test_the_plan_step_counts_sections_known_from_its_start(two_books, cli):
    # a long book's genres and parents take seconds: its plan step has a count from the start
    result = cli("ingest", *two_books, "--events", "-", "--quiet")
    events = [json.loads(line) for line in result.stdout.splitlines()]
    plan = [e for e in events if e.get("phase") == "plan" and e.get("book") == "Grimoire"]
    start, done = plan[0], plan[-1]
    assert start["event"] == "phase.start" and start["unit"] == "sections" and start["total"] >= 1
    assert done["event"] == "phase.done" and done["done"] == start["total"] == done["sections"]
    progress = [e["done"] for e in plan if e["event"] == "phase.progress"]
    assert progress == sorted(progress) and all(n <= start["total"] for n in progress)
