"""The Typer app: its global options, the ``State`` every command reads, and the options
commands share. Typer commands only: parse arguments, call index/, render. No SQL, no prompts.

The commands register themselves on ``app`` when cli/main.py imports their modules: the
writing ones (``write_commands.py``: ingest, delete-book, rebuild), the query ones
(``query_commands.py``: where-else, entity, books, entities, stats) and the groups.
"""

import os
from dataclasses import dataclass, replace
from pathlib import Path
from typing import TYPE_CHECKING, Optional

import typer

from crossbook.cli.choices import check_embedder, check_ontology, check_relations
from crossbook.cli.group import GlobalOptionsGroup
from crossbook.cli.output import report_retries
from crossbook.core.config import CONFIG_FILE, Settings, load_settings

if TYPE_CHECKING:
    from crossbook.api import Shelf
    from crossbook.cli.progress import ProgressReporter

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
    debug: bool = typer.Option(False, "--debug", help="Show tracebacks on errors, a rule's that raised on a section"
                               " included (env CROSSBOOK_STRICT_RULES=1 for that alone)."),
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
    if debug or os.environ.get("CROSSBOOK_STRICT_RULES") == "1":
        from crossbook.core.rule_guard import raise_failures

        raise_failures(True)  # a rule that raises stops the command with its traceback
    report_retries()


def open_index(settings: Settings, create: bool = False):
    from crossbook.storage.db import open_db

    return open_db(settings.index_dir, create=create)
