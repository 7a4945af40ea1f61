"""The crossbook entry point: the Typer app with every command registered.

``cli/app.py`` defines the app; the commands, kept in their own modules, register
themselves on it when imported here, so no module imports the module that imports it. The
writing and query commands are imported first: ``crossbook --help`` lists commands in the
order they were registered.
"""

from __future__ import annotations

import sys

from crossbook.cli import write_commands  # noqa: F401  (first: ingest leads the list)

# isort: split
from crossbook.cli import query_commands  # noqa: F401

# isort: split
from crossbook.cli import (  # noqa: F401
    batch_commands,
    cache_commands,
    explain_commands,
    mcp_commands,
    pack_commands,
    relations_commands,
    show_commands,
    vector_commands,
)
from crossbook.cli.app import app

__all__ = ["app", "run"]


def run() -> None:
    try:
        app(prog_name="crossbook")
    except BrokenPipeError:  # stdout closed outside a command's error handling (--help | head)
        from crossbook.cli.output import closed_stdout

        closed_stdout()
        sys.exit(0)


if __name__ == "__main__":
    run()
