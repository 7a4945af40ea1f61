"""crossbook's library: chunking, extraction, the SQLite entity index and its lookups.

Nothing in this package prints, reads the environment or imports typer/rich; the CLI in
``cli/`` builds a :class:`index.config.Settings` and calls in here.
"""
