"""crossbook: offline corpus ingestion and cross-book entity indexing.

The installed package maps the repository's two folders: ``crossbook`` is ``index/`` (the
library, one package per pipeline stage: core, readers, storage, extract, linking,
relations, vectors, shelf, query, ingest, api) and ``crossbook.cli`` is ``cli/`` (the Typer
commands). Library code never prints, reads the environment or imports typer/rich; the CLI
builds a :class:`crossbook.core.config.Settings` and calls in here.

The public Python API (docs/api.md) is ``crossbook.api``; its names are importable from
``crossbook`` itself (``from crossbook import Shelf``), loaded at first use so that
``import crossbook`` stays cheap; so is ``crossbook.__version__``.
"""

_API_NAMES = frozenset({
    "BadInput", "BookInfo", "BookNotFound", "CrossbookError", "Deleted", "EntityDetail", "EntityList", "EntityNotFound",
    "Explanation", "IndexBusy", "IndexMissing", "IndexReadOnly", "IngestResult", "Passages", "Rebuilt", "Reembedded", "Relationships",
    "Result", "Reviewed", "SectionNotFound", "Sections", "Settings", "Shelf", "VectorsMissing", "WhereElse", "open_shelf",
})

__all__ = sorted(_API_NAMES)


def _version() -> str:
    """The installed distribution's version (pyproject.toml's), or "0+unknown" for a
    checkout that was never installed."""
    from importlib.metadata import PackageNotFoundError, version

    try:
        return version("crossbook")
    except PackageNotFoundError:
        return "0+unknown"


def __getattr__(name: str):
    if name == "__version__":
        globals()["__version__"] = found = _version()
        return found
    if name in _API_NAMES:
        from . import api

        return getattr(api, name)
    raise AttributeError(f"module 'crossbook' has no attribute {name!r}")
