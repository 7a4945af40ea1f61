"""Typer commands only: parse arguments, call index/, render. No SQL, no prompts."""

import os
from dataclasses import dataclass, replace
from pathlib import Path
from typing import TYPE_CHECKING, Callable, Optional

import typer
from rich.console import Console
from rich.markup import escape

from crossbook.cli.choices import check_embedder, check_extractor, check_ontology, check_pack, check_relations
from crossbook.cli.cost_output import DRY_RUN_OPT, MAX_COST_OPT, PRICE_TABLE_OPT, dry_run_or_budget
from crossbook.cli.group import GlobalOptionsGroup, examples
from crossbook.cli.output import (
    EventWriter,
    cli_errors,
    emit,
    location,
    plain_table,
    relation_label,
    report_retries,
    section_in_book,
    warn,
)
from crossbook.core.config import CONFIG_FILE, Settings, load_settings

if TYPE_CHECKING:
    from crossbook.api import Shelf
    from crossbook.cli.progress import ProgressReporter
from crossbook.cli.writing import lock_options

app = typer.Typer(
    cls=GlobalOptionsGroup,
    no_args_is_help=True,
    pretty_exceptions_show_locals=False,
    context_settings={"help_option_names": ["-h", "--help"]},  # every command inherits it
    add_completion=True,  # --install-completion / --show-completion for bash, zsh, fish, PowerShell
    help="Cross-book entity index: where else does this rule, spell or term appear?",
)

JSON_OPT = typer.Option(False, "--json", help="Print one JSON document instead of text.")
RELATIONS_OPT = typer.Option(
    None, "--relations", callback=check_relations, help="Relationship extraction: auto (llm with openai, spacy with rules), llm, spacy,"
    " refine (spacy candidates confirmed by the model: one extra call per chunk with candidates) or off."
)
ONTOLOGY_OPT = typer.Option(
    [], "--ontology", callback=check_ontology, help="Extra ontology pack: ttrpg, story, rulebook or a .toml/.json path (repeatable)."
)
BOOK_HELP = "a title, any case; a unique prefix of one; or its id (see: crossbook books)"
BOOKS_OPT = typer.Option([], "--book", help=f"Only this book: {BOOK_HELP} (repeatable).")
EXCLUDE_BOOKS_OPT = typer.Option([], "--exclude-book", help=f"Leave this book out: {BOOK_HELP} (repeatable).")
EVENTS_OPT = typer.Option(
    None, "--events", help="Write NDJSON progress events to FILE, or '-' for stdout (the result is the last event)."
)


@dataclass
class State:
    index: Optional[Path]
    debug: bool
    config: Optional[Path]
    embedder: Optional[str] = None
    chroma_url: Optional[str] = None
    quiet: bool = False
    wait: Optional[float] = None

    def progress(self, label: str, books: Optional[int] = None, transient: bool = False) -> "ProgressReporter":
        """The progress display on stderr (nothing with --quiet)."""
        from crossbook.cli.progress import ProgressReporter  # rich's live display: not for a query

        return ProgressReporter(label, books=books, quiet=self.quiet, transient=transient)

    def settings(self, config: Optional[Path] = None, **flags) -> Settings:
        path = config or self.config or Path(CONFIG_FILE)
        flags = {"index_dir": self.index, "embedder": self.embedder, "chroma_url": self.chroma_url,
                 "wait": self.wait, **flags}
        settings = load_settings(flags, os.environ, path, config_required=path == self.config)
        if settings.model_cache is None:  # one ONNX graph per user, shared by every index
            from crossbook.cli.paths import model_cache_dir

            settings = replace(settings, model_cache=model_cache_dir(os.environ))
        return settings

    def shelf(self) -> "Shelf":
        """The index as the Python API opens it, for a command that reads: the read commands
        are clients of crossbook.api, so the CLI's --json and the API's to_dict() are one
        schema. SQLite is opened as open_db() opens it (an index from an older crossbook is
        migrated once; one whose files cannot be written is opened read-only)."""
        from crossbook.api.shelf import Shelf

        return Shelf(settings=self.settings())


def _print_version(value: bool) -> None:
    if value:
        from importlib.metadata import PackageNotFoundError, version

        try:
            typer.echo(f"crossbook {version('crossbook')}")
        except PackageNotFoundError:  # running from a checkout that was never installed
            typer.echo("crossbook (not installed)")
        raise typer.Exit()


@app.callback()
def main(
    ctx: typer.Context,
    index: Optional[Path] = typer.Option(
        None, "--index", help="Index directory (env CROSSBOOK_INDEX; default ./.crossbook)."
    ),
    debug: bool = typer.Option(False, "--debug", help="Show tracebacks on errors."),
    config: Optional[Path] = typer.Option(
        None, "--config", help="Settings file; it must exist (default: ./crossbook.toml when present)."
    ),
    embedder: Optional[str] = typer.Option(
        None, "--embedder", callback=check_embedder, help="local (default, offline MiniLM on onnxruntime), local-int8 (faster), local-torch"
        " (same vectors via sentence-transformers), openai, or hash (tests)."
    ),
    chroma_url: Optional[str] = typer.Option(
        None, "--chroma-url", help="Chroma server URL (env CROSSBOOK_CHROMA_URL; default: embedded)."
    ),
    quiet: bool = typer.Option(False, "--quiet", "-q", help="No progress display (warnings and errors still show)."),
    wait: Optional[float] = typer.Option(
        None, "--wait", min=0, help="Seconds a command that writes waits for another one writing to the index, then fails"
        " (env CROSSBOOK_WAIT; default 30)."
    ),
    version: bool = typer.Option(
        False, "--version", is_eager=True, callback=_print_version, help="Print crossbook's version and exit."
    ),
) -> None:
    """crossbook: ingest books, then ask where else an entity appears."""
    ctx.obj = State(index, debug, config, embedder, chroma_url, quiet, wait)
    report_retries()


def open_index(settings: Settings, create: bool = False):
    from crossbook.storage.db import open_db

    return open_db(settings.index_dir, create=create)


# -- ingest -----------------------------------------------------------------------------------

@app.command(epilog=examples(
    "crossbook ingest book.md rulebook.pdf novel.epub more-books/ --pack gurps",
    "crossbook ingest my-vault/ --as-book",
    "crossbook ingest notes/ --glob '*.md' --glob '*.txt' --exclude 'drafts/*'",
    "crossbook ingest book.md --extractor openai --model gpt-4o-mini",
))
def ingest(
    ctx: typer.Context,
    paths: list[Path] = typer.Argument(..., help="Books (Markdown, PDF, EPUB, HTML, text), note vaults, or directories of them."),
    book: Optional[str] = typer.Option(None, "--book", help="Book title (default: first # heading or file stem)."),
    extractor: Optional[str] = typer.Option(None, "--extractor", callback=check_extractor, help="rules (offline default) or openai."),
    model: Optional[str] = typer.Option(None, "--model", help="Chat model for --extractor openai."),
    base_url: Optional[str] = typer.Option(None, "--base-url", help="OpenAI-compatible endpoint (Ollama, vLLM, llama.cpp...)."),
    pack: Optional[str] = typer.Option(None, "--pack", callback=check_pack, help="Domain pack: generic, gurps, or a .toml path."),
    concurrency: Optional[int] = typer.Option(None, "--concurrency", min=1, help="LLM requests at once (default 8)."),
    link: Optional[bool] = typer.Option(None, "--link/--no-link", help="Add linker references to known entities (default on)."),
    force: bool = typer.Option(False, "--force", help="Re-extract even when the book is unchanged."),
    timeout: Optional[float] = typer.Option(None, "--timeout", min=0.1,
                                            help="Seconds before an LLM request counts as stalled and is asked again (default 120)."),
    allow_partial: bool = typer.Option(False, "--allow-partial", help="Store a book even if some chunks got no valid LLM answer (marked partial)."),
    include: list[str] = typer.Option(
        [], "--glob", help="In directories, take the files matching this glob instead of every supported type (repeatable)."),
    exclude: list[str] = typer.Option(
        [], "--exclude", help="In directories, leave out the files matching this glob, e.g. 'drafts/*' (repeatable)."),
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
        paths = find_books(paths, tuple(include), tuple(exclude), as_book=as_book, warn=warn)
        # --batch plans every chunk: it reads every file, unchanged or not
        stored = None if force or batch else stored_files_at(settings.index_dir)
        books_read, skipped = _read_books(state, settings, paths, book, fmt, as_book, stored)
        from crossbook.ingest.cost import estimate_ingest

        def estimate() -> dict:  # the books that cannot be read are listed as rebuild's are
            return {**estimate_ingest(settings, books_read, force),
                    "failed": [{"path": str(path), "error": reason} for path, reason in skipped]}

        if dry_run_or_budget(estimate, settings.max_cost, dry_run, as_json):
            return
        run_writing(ctx, settings, "ingest", len(books_read), events, lambda shelf, **hooks: shelf.ingest_books(
            books_read, force=force, batch=batch, wait=not no_wait, **hooks), _ingest_report(state, skipped, batch, as_json))


def _read_books(state: State, settings: Settings, paths: list[Path], title: Optional[str], fmt: Optional[str],
                as_book: bool, stored) -> tuple[list, list[tuple[Path, str]]]:
    """Every book read before the index is touched (a bad path fails here): a book that
    cannot be read is skipped with a warning (the others are ingested, and the run ends with
    an error that names it); a file ``stored`` unchanged (its size and time, else its hash)
    is not read. Returns the books read and the (path, reason) of each one skipped."""
    from crossbook.ingest.pipeline import load_books
    from crossbook.readers import ReadLimits

    skipped: list[tuple[Path, str]] = []
    with state.progress("ingest", transient=True) as reading:
        books_read = load_books(paths, title, fmt, as_book, ReadLimits.of(settings), skipped, stored, progress=reading)
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


def run_writing(ctx: typer.Context, settings: Settings, label: str, books: int, events: Optional[str],
                write: Callable, report: Callable) -> None:
    """What every command that ingests shares (ingest, rebuild): the events file and the
    progress display, then ``write(shelf, **hooks)``, the API's Shelf write given the
    display's callbacks, and ``report(sink, result)`` once the display is gone."""
    from crossbook.api.shelf import Shelf

    with EventWriter(events) as sink, Shelf(settings=settings) as shelf:
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


# -- where-else / entity / books --------------------------------------------------------------

@app.command("where-else", epilog=examples(
    "crossbook where-else \"Frost Lance\"",
    "crossbook where-else \"ice lance\" --book grimoire",
    "crossbook where-else Shield --type spell --exclude-book core --json",
))
def where_else_cmd(
    ctx: typer.Context,
    name: str = typer.Argument(..., help="Entity name or alias, any case and accents ('the' and punctuation ignored)."),
    book: list[str] = BOOKS_OPT,
    exclude_book: list[str] = EXCLUDE_BOOKS_OPT,
    entity_type: Optional[str] = typer.Option(None, "--type", help="Only entities of this type."),
    defines_only: bool = typer.Option(False, "--defines-only", help="Only the sections that define it."),
    limit: Optional[int] = typer.Option(
        None, "--limit", "-n", min=1, help="Show the first N mentions (definitions first) and how many there are."),
    as_json: bool = JSON_OPT,
) -> None:
    """Where else does this entity appear? Mentions across books, definitions first."""
    state: State = ctx.obj
    with cli_errors(state.debug, as_json):
        with state.shelf() as shelf:
            found = shelf.where_else(name, books=book, exclude_books=exclude_book, entity_type=entity_type,
                                     defines_only=defines_only, limit=limit)
        result = found.to_dict()
        emit(result, as_json, lambda c: _render_where_else(c, result))


def _render_where_else(console: Console, result: dict) -> None:
    if result.get("matched_by") in ("alias", "accents") and result["entities"]:
        names = ", ".join(e["name"] for e in result["entities"])
        console.print(f"[dim]'{escape(result['query'])}' is {escape(names)} (matched by {result['matched_by']})[/dim]")
    if result.get("sub_entries"):
        owners = [e["owner"] for e in result["sub_entries"]]
        console.print(f"[dim]'{escape(result['query'])}' is a sub-entry of {len(owners)} "
                      f"{'entry' if len(owners) == 1 else 'different entries'} ({escape(', '.join(owners[:8]))}"
                      f"{', ...' if len(owners) > 8 else ''}): each is its owner's own, not one thing[/dim]")
    if not result["entities"]:
        console.print(f"No mention of '{escape(result['query'])}' matches the filters given")
    for entity in result["entities"]:
        console.print(f"[bold]{escape(entity['name'])}[/bold] ({escape(entity['entity_type'])})")
        if "defined_under" in entity:
            under = entity["defined_under"]
            console.print(f"  [dim]defined under {under['owners']} different entries "
                          f"({escape(', '.join(under['examples']))}, ...): each is its entry's own "
                          f"'{escape(entity['name'])}', not one thing[/dim]")
        for group in entity["books"]:
            console.print(f"  [cyan]{escape(group['book'])}[/cyan]")
            for m in group["mentions"]:
                where = location(m.get("pages"), m.get("file"))
                console.print(f"    {m['mention_type']:<10} {escape(section_in_book(group['book'], m['heading_path']))}"
                              + (f"  [dim]({escape(where)})[/dim]" if where else ""))
                console.print(f"               [dim]{escape(m['context'])}[/dim]")
        console.print()
    shown = sum(len(g["mentions"]) for e in result["entities"] for g in e["books"])
    if result.get("limit") is not None and result["entities"]:
        console.print(f"{shown} of {result['total_mentions']} mentions shown (--limit {result['limit']})")


@app.command(epilog=examples("crossbook entity Chilled", "crossbook entity veloute --json"))
def entity(
    ctx: typer.Context,
    name: str = typer.Argument(..., help="Entity name or alias, any case and accents."),
    as_json: bool = JSON_OPT,
) -> None:
    """One entity: its type, where it is defined, and references per book."""
    state: State = ctx.obj
    with cli_errors(state.debug, as_json):
        with state.shelf() as shelf:
            result = shelf.entity(name).to_dict()
        emit(result, as_json, lambda c: _render_entity(c, result))


def _render_entity(console: Console, result: dict) -> None:
    for e in result["entities"]:
        console.print(f"[bold]{escape(e['name'])}[/bold] ({escape(e['entity_type'])})")
        if not e["definitions"]:
            console.print("  defined: nowhere in the index (only referenced)")
        for d in e["definitions"]:
            where = location(d.get("pages"), d.get("file"))
            console.print(f"  defined in [cyan]{escape(d['book'])}[/cyan] — {escape(section_in_book(d['book'], d['section']))}"
                          + (f"  [dim]({escape(where)})[/dim]" if where else ""))
            console.print(f"    [dim]{escape(d['context'])}[/dim]")
        if e["references_by_book"]:
            table = plain_table("book", "sections referencing it")
            for b, n in e["references_by_book"].items():
                table.add_row(escape(b), str(n))
            console.print(table)
        if e.get("related"):
            table = plain_table("related to", "relationship", "direction", "count")
            for r in e["related"]:
                table.add_row(escape(r["entity"]["name"]), escape(relation_label(r["relationship"], r["polarity"])), escape(r["arrow"]), str(r["count"]))
            console.print(table)
        for extra in e.get("extra_tables", []):
            console.print(extra)
        console.print()


@app.command(epilog=examples("crossbook books", "crossbook books --json"))
def books(ctx: typer.Context, as_json: bool = JSON_OPT) -> None:
    """The books in the index, with their counts and how they were ingested."""
    state: State = ctx.obj
    with cli_errors(state.debug, as_json):
        with state.shelf() as shelf:
            rows = shelf.books()
            writer = shelf.writer() if any(b.vectors_complete is False for b in rows) else None
        emit([b.to_dict() for b in rows], as_json, lambda c: _render_books(c, rows, writer))


def _render_books(console: Console, rows, writer: dict | None = None) -> None:
    if not rows:
        console.print("No books in the index yet (run: crossbook ingest BOOK)")
        return
    table = plain_table("id", "title", "format", "sections", "defined", "mentions", "dropped", "extractor",
                        "ingested", "source")
    for b in rows:
        title = escape(b.title) + (f" (partial: {b.partial} without entities)" if b.partial else "")
        if b.pages_without_text:
            title += f" ({len(b.pages_without_text)} scanned {'page' if len(b.pages_without_text) == 1 else 'pages'}" \
                     " without text, left out)"
        title += (" (vectors being written)" if writer else " (vectors missing)") if b.vectors_complete is False else ""
        table.add_row(str(b.id), title, escape(b.format or "-"), str(b.sections), str(b.entities_defined),
                      str(b.mentions), str(b.dropped_mentions), escape(b.extractor), b.ingested_at,
                      escape(_shown_path(b.source or b.path)))
    table.columns[-1].overflow = "fold"  # a path is worth whole, not cut with an ellipsis
    console.print(table)
    unsynced = sum(b.vectors_complete is False for b in rows)
    if unsynced:
        from crossbook.storage.lock import describe

        missing = f"{unsynced} {'book is' if unsynced == 1 else 'books are'} missing vectors"
        console.print(f"{missing}: a writer is at work on the index ({escape(describe(writer))}); they come when it"
                      " has finished" if writer else f"{missing}: run crossbook doctor --repair")


def _shown_path(path: str) -> str:
    """A book's source as a user reads it: relative to the working directory when inside it."""
    try:
        return str(Path(path).relative_to(Path.cwd()))
    except ValueError:
        return path


@app.command(epilog=examples(
    "crossbook entities", "crossbook entities --type spell --book grimoire", "crossbook entities --json",
))
def entities(
    ctx: typer.Context,
    entity_type: Optional[str] = typer.Option(None, "--type", help="Only entities of this type (e.g. spell)."),
    book: list[str] = typer.Option([], "--book", help=f"Only entities mentioned in this book: {BOOK_HELP} (repeatable)."),
    exclude_book: list[str] = typer.Option(
        [], "--exclude-book", help=f"Leave this book's mentions out: {BOOK_HELP} (repeatable)."),
    as_json: bool = JSON_OPT,
) -> None:
    """List entities with their type, where they are defined and how often they are mentioned."""
    state: State = ctx.obj
    with cli_errors(state.debug, as_json):
        with state.shelf() as shelf:
            result = shelf.entities(entity_type=entity_type, books=book, exclude_books=exclude_book).to_dict()
        emit(result, as_json, lambda c: _render_entities(c, result))


def _render_entities(console: Console, result: dict) -> None:
    if not result["entities"]:
        console.print("No entities match")
        return
    table = plain_table("name", "type", "defined in", "books", "mentions")
    for e in result["entities"]:
        table.add_row(escape(e["name"]), escape(e["entity_type"]), escape(", ".join(e["defined_in"]) or "-"),
                      str(e["books"]), str(e["mentions"]))
    console.print(table)
    per_type = ", ".join(f"{n} {escape(t)}" for t, n in result["by_type"].items())
    console.print(f"{result['count']} entities: {per_type}")


@app.command(epilog=examples("crossbook stats", "crossbook stats --json"))
def stats(ctx: typer.Context, as_json: bool = JSON_OPT) -> None:
    """What the index holds: books, sections, entities per type, mentions, relationships, size, embedder."""
    state: State = ctx.obj
    with cli_errors(state.debug, as_json):
        from crossbook.query.lookup import index_stats

        settings = state.settings()
        db = open_index(settings)
        result = index_stats(db, settings.index_dir)
        emit(result, as_json, lambda c: _render_stats(c, result))


def _render_stats(console: Console, s: dict) -> None:
    def listed(parts: dict) -> str:
        return ", ".join(f"{escape(k)} {v}" for k, v in parts.items())

    def line(label: str, value, parts: dict | None = None) -> None:
        console.print(f"{label:<15} {value}" + (f" ({listed(parts)})" if parts else ""))

    line("index", escape(s["index"]))
    line("books", s["books"])
    line("sections", s["sections"], {f"{k} chunks": v for k, v in s["chunks"].items()})
    line("entities", s["entities"], s["entities_by_type"])
    line("mentions", s["mentions"], s["mentions_by_kind"])
    line("  by source", listed(s["mentions_by_source"]) or "-")
    line("relationships", s["relationships"], s["relationships_by_type"])
    line("  by status", listed(s["relationships_by_status"]) or "-")
    line("  by review", listed(s["relationships_by_review"]) or "-")
    line("pending claims", s["pending_claims"])
    if s.get("partial_books"):
        line("partial books", len(s["partial_books"]), {t: f"{n} chunks without entities" for t, n in s["partial_books"].items()})
    line("embedder", escape(s["embedder"] or "none yet"))
    line("size", f"{_megabytes(s['index_bytes'])} (SQLite {_megabytes(s['sqlite_bytes'])})")


def _megabytes(size: int) -> str:
    return f"{size / 1_000_000:.1f} MB"


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

        run_writing(ctx, settings, "rebuild", count, events, lambda shelf, **hooks: shelf.rebuild(manifest, **hooks),
                    report)
        if failed:
            raise typer.Exit(1)


def _render_rebuild(console: Console, summary: dict) -> None:
    console.print(", ".join(f"{k}: {len(v)}" for k, v in summary.items()))
    for failure in summary["failed"]:
        console.print(f"failed: {escape(failure['path'])}: {escape(failure['error'])}")
