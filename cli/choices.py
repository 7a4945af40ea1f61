"""Option values checked while the command line is parsed: a bad one is a usage error.

``--pack gurpz`` or ``--status bogus`` is a mistake on the command line, so it exits 2
like any other usage error (Click's rule), before anything is opened. The library stays
the judge of what is valid: each check calls it and turns its CrossbookError into a
typer.BadParameter. The same value read from crossbook.toml or the environment is a
settings error instead (exit 1), raised by the library when it is used.
"""

from __future__ import annotations

import importlib
from typing import Any, Callable

import typer

from crossbook.core.errors import CrossbookError


def checked(check: Callable[[Any], object]) -> Callable[[Any], Any]:
    """A Typer option callback that runs ``check(value)`` on a given value."""

    def callback(value: Any) -> Any:
        if value is None or value == [] or value == ():
            return value
        try:
            check(value)
        except CrossbookError as exc:
            raise typer.BadParameter(str(exc)) from None
        return value

    return callback


def _pack(value: str) -> None:
    from crossbook.core.pack_option import check_pack_option

    check_pack_option(value)


def _relations(value: str) -> None:
    from crossbook.core.config import effective_mode

    effective_mode(value, "rules")


def _ontology(values: list[str]) -> None:
    from crossbook.relations.ontology import load_ontology

    load_ontology(tuple(values))


def _one_of(values: Callable[[], tuple[str, ...]], what: str) -> Callable[[str], None]:
    """A check that ``value`` is one of ``values()`` (called only when a value is given: the
    modules that know the values are not imported by a command line without the option)."""

    def check(value: str) -> None:
        if value not in values():
            from crossbook.core.errors import BadInput

            raise BadInput(f"unknown {what} '{value}' (choose one of: {', '.join(values())})")

    return check


check_pack = checked(_pack)
check_relations = checked(_relations)
check_ontology = checked(_ontology)


def _listed(module: str, name: str) -> Callable[[], tuple[str, ...]]:
    """The values of ``module.name``, the module imported when they are first needed."""
    return lambda: tuple(getattr(importlib.import_module(module), name))


check_status = checked(_one_of(_listed("crossbook.query.review", "STATUSES"), "status"))
check_export_format = checked(_one_of(_listed("crossbook.query.review", "EXPORT_FORMATS"), "export format"))
check_extractor = checked(_one_of(_listed("crossbook.extract", "EXTRACTORS"), "extractor"))
check_embedder = checked(_one_of(_listed("crossbook.vectors.embed", "EMBEDDERS"), "embedder"))
