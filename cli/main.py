"""The crossbook entry point: the Typer app with every command registered.

``cli/app.py`` defines the app and its core commands; the command groups kept in their own
modules register themselves on it when imported here, so no module imports the module that
imports it.
"""

from __future__ import annotations

from . import batch_commands, cache_commands, pack_commands, relations_commands, vector_commands  # noqa: F401
from .app import app

__all__ = ["app", "run"]


def run() -> None:
    app(prog_name="crossbook")


if __name__ == "__main__":
    run()
