"""The writing commands: ``crossbook ingest``, ``delete-book`` and ``rebuild`` (registered on
the app by import).

Each is a client of ``crossbook.api.Shelf``'s writes, with the writer lock's options;
ingest and rebuild run through ``run_writing`` (the ``--events`` file and the progress
display). The rendering of their results is here.
"""

from pathlib import Path
from typing import Callable, Optional

import typer
from rich.console import Console
from rich.markup import escape

from crossbook.cli.app import BOOK_HELP, EVENTS_OPT, JSON_OPT, ONTOLOGY_OPT, RELATIONS_OPT, State, app
from crossbook.cli.choices import check_extractor, check_pack
from crossbook.cli.cost_output import DRY_RUN_OPT, MAX_COST_OPT, PRICE_TABLE_OPT, dry_run_or_budget
from crossbook.cli.group import examples
from crossbook.cli.output import EventWriter, cli_errors, emit, warn
from crossbook.cli.writing import lock_options
from crossbook.core.config import CONFIG_FILE, Settings

# -- ingest -----------------------------------------------------------------------------------

_PACK_HELP = ("Domain pack (generic, gurps, a .toml path) and/or genre packs (rulebook, documentation), "
              "comma-separated: gurps,rulebook. Genres named apply to every book instead of those chosen "
              "from what each book shows.")


@app.command(epilog=examples(
    "crossbook ingest book.md rulebook.pdf novel.epub more-books/ --pack gurps",
    "crossbook ingest my-vault/ --as-book",
    "crossbook ingest notes/ --glob '*.md' --glob '*.txt' --exclude 'drafts/*'",
    "crossbook ingest book.md --extractor openai --model gpt-4o-mini",
))
def ingest(
    ctx: typer.Context,
    paths: list[Path] = typer.Argument(..., help="Books (Markdown, PDF, EPUB, HTML, text), note vaults, or directories of them."),
    book: Optional[str] = typer.Option(None, "--book", help="Book title (default: first # heading or file stem);"
                                       " folders named together with it are one book."),
    extractor: Optional[str] = typer.Option(None, "--extractor", callback=check_extractor, help="rules (offline default) or openai."),
    model: Optional[str] = typer.Option(None, "--model", help="Chat model for --extractor openai."),
    base_url: Optional[str] = typer.Option(None, "--base-url", help="OpenAI-compatible endpoint (Ollama, vLLM, llama.cpp...)."),
    pack: Optional[str] = typer.Option(None, "--pack", callback=check_pack, help=_PACK_HELP),
    concurrency: Optional[int] = typer.Option(None, "--concurrency", min=1, help="LLM requests at once (default 8)."),
    link: Optional[bool] = typer.Option(None, "--link/--no-link", help="Add linker references to known entities (default on)."),
    force: bool = typer.Option(False, "--force", help="Re-extract even when the book is unchanged."),
    timeout: Optional[float] = typer.Option(None, "--timeout", min=0.1,
                                            help="Seconds before an LLM request counts as stalled and is asked again (default 120)."),
    allow_partial: bool = typer.Option(False, "--allow-partial", help="Store a book even if some chunks got no valid LLM answer (marked partial)."),
    include: list[str] = typer.Option(
        [], "--glob", help="In directories, take the files matching this glob instead of every supported type; inside a doc set"
        " or vault, only its files matching it (repeatable)."),
    exclude: list[str] = typer.Option(
        [], "--exclude", help="In directories, leave out the files matching this glob, e.g. 'drafts/*'; inside a doc set or vault"
        " too, e.g. '_modules/*' (repeatable)."),
    fmt: Optional[str] = typer.Option(
        None, "--format", help="Read every book as this format: markdown, pdf, epub, html, text, vault or docset (default: from the file)."),
    as_book: bool = typer.Option(
        False, "--as-book", help="Read each folder given as one book (a note vault, or a doc set of HTML pages), not as a directory of books."),
    relations: Optional[str] = RELATIONS_OPT,
    ontology: list[str] = ONTOLOGY_OPT,
    events: Optional[str] = EVENTS_OPT,
    batch: bool = typer.Option(False, "--batch", help="Ask the chunks not in the LLM cache through the OpenAI Batch API"
                               " (cheaper, within 24 h), wait for it, then ingest."),
    no_wait: bool = typer.Option(False, "--no-wait", help="With --batch: submit and exit (then: crossbook batch collect, and ingest again)."),
    dry_run: bool = DRY_RUN_OPT,
    max_cost: Optional[float] = MAX_COST_OPT,
    price_table: Optional[str] = PRICE_TABLE_OPT,
    as_json: bool = JSON_OPT,
) -> None:
    """Ingest books: sections -> chunks -> entity mentions in the index, child chunks in Chroma."""
    state: State = ctx.obj
    if no_wait and not batch:
        raise typer.BadParameter("--no-wait goes with --batch", param_hint="--no-wait")
    with cli_errors(state.debug, as_json):
        from crossbook.ingest.books import find_books
        from crossbook.ingest.joined import joins_folders
        from crossbook.ingest.unchanged import stored_files_at

        settings = state.settings(
            extractor=extractor, model=model, base_url=base_url, pack=pack,
            concurrency=concurrency, link=link, relations=relations, ontology=tuple(ontology) or None,
            request_timeout=timeout, allow_partial=allow_partial or None, max_cost=max_cost, price_table=price_table,
        )
        _check_extractor(settings, dry_run)
        if batch:
            from crossbook.ingest.batch import check_batch_settings

            check_batch_settings(settings)
        if not joins_folders(paths, book):  # folders named together with --book are one book: read as such
            paths = find_books(paths, tuple(include), tuple(exclude), as_book=as_book, warn=warn)
        # --batch plans every chunk: it reads every file, unchanged or not (the stored titles still hold)
        stored = stored_files_at(settings.index_dir)
        with EventWriter(events) as sink:  # the read is the ingest's first step: its events go there too
            if _streams(settings, paths, book, batch, dry_run):
                _ingest_streamed(ctx, settings, paths, fmt, stored, (tuple(include), tuple(exclude)), force, sink, as_json)
                return
            books_read, skipped = _read_books(state, settings, paths, book, fmt, as_book, stored,
                                              (tuple(include), tuple(exclude)), sink, reread=force or batch)
            from crossbook.ingest.cost import estimate_ingest

            def estimate() -> dict:  # the books that cannot be read are listed as rebuild's are
                return {**estimate_ingest(settings, books_read, force),
                        "failed": [{"path": str(path), "error": reason} for path, reason in skipped]}

            if dry_run_or_budget(estimate, settings.max_cost, dry_run, as_json):
                return
            run_writing(ctx, settings, "ingest", len(books_read), sink, lambda shelf, **hooks: shelf.ingest_books(
                books_read, force=force, batch=batch, wait=not no_wait, **hooks),
                _ingest_report(state, skipped, batch, as_json))


def _streams(settings: Settings, paths: list[Path], title: Optional[str], batch: bool, dry_run: bool) -> bool:
    """Whether ingest reads each book as the write asks for it (ingest/streamed.py): when a
    folder read as one book (a doc set, a vault: a read of minutes) is among ``paths`` (the
    books found), with the offline extractor, no estimate to make first (--dry-run,
    --max-cost), no --batch, and no --book. Books of files alone are all read first, so a
    title two of them share changes nothing."""
    return (any(path.is_dir() for path in paths) and settings.extractor == "rules" and not batch and not dry_run
            and settings.max_cost is None and title is None)


def _ingest_streamed(ctx: typer.Context, settings: Settings, paths: list[Path], fmt: Optional[str], stored,
                     picked: tuple[tuple[str, ...], tuple[str, ...]], force: bool, sink: EventWriter,
                     as_json: bool) -> None:
    """Ingest ``paths``, each book read when the write is ready for it (``_streams``); the
    books skipped (unreadable, or a title taken) are named by the error the run ends with."""
    from crossbook.ingest.streamed import StreamedBooks
    from crossbook.readers import ReadLimits, Selection

    streamed = StreamedBooks(paths, fmt, ReadLimits.of(settings), stored, Selection(*picked), reread=force)
    run_writing(ctx, settings, "ingest", len(streamed), sink,
                lambda shelf, **hooks: shelf.ingest_books(streamed, force=force, **hooks),
                _ingest_report(ctx.obj, streamed.skipped, False, as_json))


def _read_books(state: State, settings: Settings, paths: list[Path], title: Optional[str], fmt: Optional[str],
                as_book: bool, stored, picked: tuple[tuple[str, ...], tuple[str, ...]],
                sink: EventWriter, reread: bool = False) -> tuple[list, list[tuple[Path, str]]]:
    """Every book read before the index is touched (a bad path fails here): a book that
    cannot be read is skipped with a warning (the others are ingested, and the run ends with
    an error that names it); a file ``stored`` unchanged (its size and time, else its hash)
    is not read unless ``reread``, and a stored book keeps its title; ``picked`` (--glob,
    --exclude) also picks the files of a folder read as one book; the read's steps go to
    ``sink`` (--events) and the display.
    Returns the books read and the (path, reason) of each one skipped."""
    from crossbook.ingest.pipeline import load_books
    from crossbook.readers import ReadLimits, Selection

    skipped: list[tuple[Path, str]] = []
    with state.progress("ingest", transient=True) as reading:
        books_read = load_books(paths, title, fmt, as_book, ReadLimits.of(settings), skipped, stored, progress=reading,
                                selection=Selection(*picked), reread=reread, events=reading.watching(sink))
    for _, reason in skipped:
        warn(f"skipped: {reason}")
    return books_read, skipped


def _ingest_report(state: State, skipped: list, batch: bool, as_json: bool) -> Callable:
    """What ingest prints once written: the results (or the batches submitted with
    --no-wait); the error naming the books skipped when some could not be read."""
    from crossbook.ingest.pipeline import skipped_error

    def report(sink, outcome) -> None:
        if batch and outcome.results is None:  # --no-wait: submitted
            from crossbook.cli.batch_output import render_submitted

            sink.emit(outcome.to_dict(), as_json, lambda c: render_submitted(c, outcome))
            return
        results = outcome.results if batch else outcome
        if skipped:
            raise skipped_error(skipped, len(results))
        sink.emit([r.to_dict() for r in results], as_json, lambda c: _render_ingest(c, results, state.quiet))

    return report


def run_writing(ctx: typer.Context, settings: Settings, label: str, books: int, sink: EventWriter,
                write: Callable, report: Callable) -> None:
    """What every command that ingests shares (ingest, rebuild): the events file (``sink``,
    open) and the progress display, then ``write(shelf, **hooks)``, the API's Shelf write given
    the display's callbacks, and ``report(sink, result)`` once the display is gone."""
    from crossbook.api.shelf import Shelf

    with Shelf(settings=settings) as shelf:
        with ctx.obj.progress(label, books=books) as progress:
            result = write(shelf, progress=progress, events=progress.watching(sink), warn=warn, **lock_options(ctx))
        report(sink, result)


def _check_extractor(settings: Settings, dry_run: bool = False) -> None:
    from crossbook.core.config import effective_mode, require_model_endpoint
    from crossbook.core.errors import ConfigError
    from crossbook.relations.ontology import load_ontology

    # settings that would otherwise fail after the index directory was created; a dry run
    # calls no model, so it needs no API key
    if settings.extractor == "openai" and not dry_run:
        require_model_endpoint(settings, "--extractor openai", "use --extractor rules")
    if effective_mode(settings.relations, settings.extractor) == "refine" and not dry_run:
        require_model_endpoint(settings, "--relations refine", "use --relations spacy")
    if settings.embedder is not None:
        from crossbook.vectors.embed import EMBEDDERS

        if settings.embedder not in EMBEDDERS:
            raise ConfigError(f"unknown embedder '{settings.embedder}' (choose one of: {', '.join(EMBEDDERS)})")
    if settings.ontology:
        load_ontology(tuple(settings.ontology))


def _render_ingest(console: Console, results, quiet: bool = False) -> None:
    unchanged = sum(r.status == "unchanged" for r in results)
    for r in results:
        if r.status == "unchanged":
            if not quiet:  # -q: one line for them all, not one per book (233 for a vault)
                console.print(f"{escape(r.title)}: unchanged, skipped")
            continue
        console.print(
            f"{escape(r.title)}: {r.status}"
            + (f" (renamed from '{escape(r.renamed_from)}')" if r.renamed_from else "")
            + f" — {r.sections} sections, {r.parents} parent / "
            f"{r.children} child chunks, {r.mentions} mentions"
            + (f", {r.dropped_mentions} dropped" if r.dropped_mentions else "")
            + (f", {r.llm_calls} LLM calls, {r.cache_hits} cached" if r.llm_calls or r.cache_hits else "")
        )
    if quiet and unchanged:
        console.print(f"{unchanged} unchanged {'book' if unchanged == 1 else 'books'} skipped")


# -- delete-book ------------------------------------------------------------------------------

@app.command("delete-book", epilog=examples("crossbook delete-book \"Martial Arts\""))
def delete_book_cmd(
    ctx: typer.Context,
    title: str = typer.Argument(..., help=f"The book to remove: {BOOK_HELP}."),
    as_json: bool = JSON_OPT,
) -> None:
    """Remove a book and everything derived from it; drop entities left with no mention."""
    state: State = ctx.obj
    with cli_errors(state.debug, as_json):
        with state.shelf() as shelf:
            result = shelf.delete_book(title, **lock_options(ctx)).to_dict()
        emit(result, as_json, lambda c: c.print(
            f"Deleted '{escape(result['title'])}' ({result['entities_removed']} entities left with no mention removed)"
        ))


# -- rebuild ----------------------------------------------------------------------------------

@app.command(epilog=examples("crossbook rebuild", "crossbook rebuild sample_corpus/crossbook.toml --quiet --json"))
def rebuild(
    ctx: typer.Context,
    manifest: Path = typer.Argument(Path(CONFIG_FILE), help="Manifest listing [[books]] (path, title)."),
    extractor: Optional[str] = typer.Option(None, "--extractor", callback=check_extractor, help="rules (offline default) or openai."),
    relations: Optional[str] = RELATIONS_OPT,
    ontology: list[str] = ONTOLOGY_OPT,
    events: Optional[str] = EVENTS_OPT,
    dry_run: bool = DRY_RUN_OPT,
    max_cost: Optional[float] = MAX_COST_OPT,
    price_table: Optional[str] = PRICE_TABLE_OPT,
    as_json: bool = JSON_OPT,
) -> None:
    """Reconcile the index with a manifest: add, update, delete, skip unchanged books."""
    state: State = ctx.obj
    with cli_errors(state.debug, as_json):
        from crossbook.ingest.manifest import read_manifest

        entries = read_manifest(manifest)
        count = len(entries)
        settings = state.settings(config=manifest, extractor=extractor, relations=relations,
                                  ontology=tuple(ontology) or None, max_cost=max_cost, price_table=price_table)
        _check_extractor(settings, dry_run)
        from crossbook.ingest.cost import estimate_rebuild

        if dry_run_or_budget(lambda: estimate_rebuild(settings, entries), settings.max_cost, dry_run, as_json):
            return
        failed = []

        def report(sink, rebuilt):
            summary = rebuilt.to_dict()
            for failure in summary["failed"]:  # on stderr too: a script reading --json sees it
                warn(f"book not rebuilt, its previous version is kept: {failure['path']}: {failure['error']}")
            sink.emit(summary, as_json, lambda c: _render_rebuild(c, summary))
            failed.extend(summary["failed"])

        with EventWriter(events) as sink:
            run_writing(ctx, settings, "rebuild", count, sink, lambda shelf, **hooks: shelf.rebuild(manifest, **hooks),
                        report)
        if failed:
            raise typer.Exit(1)


def _render_rebuild(console: Console, summary: dict) -> None:
    console.print(", ".join(f"{k}: {len(v)}" for k, v in summary.items()))
    for failure in summary["failed"]:
        console.print(f"failed: {escape(failure['path'])}: {escape(failure['error'])}")
