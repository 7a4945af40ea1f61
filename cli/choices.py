"""Option values checked while the command line is parsed: a bad one is a usage error.

``--pack gurpz`` or ``--status bogus`` is a mistake on the command line, so it exits 2
like any other usage error (Click's rule), before anything is opened. The library stays
the judge of what is valid: each check calls it and turns its CrossbookError into a
typer.BadParameter. The same value read from crossbook.toml or the environment is a
settings error instead (exit 1), raised by the library when it is used.
"""

from __future__ import annotations

from typing import Any, Callable

import typer

from index.errors import CrossbookError


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
    from index.packs import load_pack

    load_pack(value)


def _relations(value: str) -> None:
    from index.relations.derive import effective_mode

    effective_mode(value, "rules")


def _ontology(values: list[str]) -> None:
    from index.relations.ontology import load_ontology

    load_ontology(tuple(values))


def _one_of(values: tuple[str, ...], what: str) -> Callable[[str], None]:
    def check(value: str) -> None:
        if value not in values:
            from index.errors import BadInput

            raise BadInput(f"unknown {what} '{value}' (choose one of: {', '.join(values)})")

    return check


check_pack = checked(_pack)
check_relations = checked(_relations)
check_ontology = checked(_ontology)


def check_status(value: str | None) -> str | None:
    from index.relations.query import STATUSES

    return checked(_one_of(STATUSES, "status"))(value)


def check_export_format(value: str) -> str:
    from index.relations.query import EXPORT_FORMATS

    return checked(_one_of(EXPORT_FORMATS, "export format"))(value)


def check_extractor(value: str | None) -> str | None:
    from index.extract import EXTRACTORS

    return checked(_one_of(EXTRACTORS, "extractor"))(value)


def check_embedder(value: str | None) -> str | None:
    from index.embed import EMBEDDERS

    return checked(_one_of(tuple(EMBEDDERS), "embedder"))(value)
