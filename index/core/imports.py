"""Optional imports made ahead of time: a module imported by the thread that will start
request threads is complete before any of them looks it up (index/ingest/preload.py says why)."""

from __future__ import annotations

import importlib


def import_optional(*names: str) -> None:
    """Import each of ``names`` now if it is installed (one that is not cannot be imported
    half-way by anyone either)."""
    for name in names:
        try:
            importlib.import_module(name)
        except ImportError:
            pass
