"""crossbook: offline corpus ingestion and cross-book entity indexing.

The installed package maps the repository's two folders: ``crossbook`` is ``index/`` (the
library, one package per pipeline stage: core, readers, storage, extract, linking,
relations, vectors, shelf, query, ingest) and ``crossbook.cli`` is ``cli/`` (the Typer
commands). Library code never prints, reads the environment or imports typer/rich; the CLI
builds a :class:`crossbook.core.config.Settings` and calls in here.
"""
