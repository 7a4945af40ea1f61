"""Opening Chroma: the only module that imports chromadb.

``chroma_client`` gives an HttpClient for ``--chroma-url``, else a PersistentClient under
the index; a read-only store is opened as a temporary writable copy (store_copy.py).
``import_chromadb`` imports chromadb about a quarter faster. A Chroma that cannot be
reached or refuses raises VectorStoreError.
"""

from __future__ import annotations

import sys
from pathlib import Path
from urllib.parse import urlsplit

from ..core.config import Settings
from ..core.errors import ConfigError, CrossbookError
from .store_copy import make_copy


class VectorStoreError(CrossbookError):
    """Chroma could not be reached or refused an operation."""


def import_chromadb():
    """``import chromadb``, about a quarter faster: its 200 ``@override`` decorators each
    disassemble the class body and compare signatures with the base class at import time
    (the ``overrides`` package), a check for chromadb's developers. While chromadb imports,
    they only mark the method as an override (what ``EnforceOverrides`` looks for)."""
    if "chromadb" in sys.modules:
        return sys.modules["chromadb"]
    import overrides

    def mark_override(method=None, **options):
        if method is None:
            return mark_override
        method.__override__ = True
        return method

    saved = overrides.override, overrides.overrides
    overrides.override = overrides.overrides = mark_override
    try:
        import chromadb
    finally:
        overrides.override, overrides.overrides = saved
    return chromadb


def chroma_location(settings: Settings) -> str:
    """Where the vectors live: the server URL, else the store's directory under the index."""
    return settings.chroma_url or str(settings.index_dir / "chroma")


def chroma_client(settings: Settings, copies: list[Path] | None = None, *, copy: bool = False):
    """An HttpClient for ``settings.chroma_url``, else a PersistentClient under the index.

    Returns (client, location). A read-only store, or any store with ``copy=True`` (a
    read-only shelf: Chroma writes to a store it queries), is opened as a temporary copy
    (index/vectors/store_copy.py), whose directory is appended to ``copies`` (the caller
    removes it with remove_copy). Raises ConfigError for a malformed URL and
    VectorStoreError when the server cannot be reached.
    """
    chromadb = import_chromadb()
    from chromadb.config import Settings as ChromaSettings

    # telemetry would try the network from a background thread
    chroma_settings = ChromaSettings(anonymized_telemetry=False)
    if not settings.chroma_url:
        path = settings.index_dir / "chroma"
        try:
            if not copy:  # a read-only shelf never opens the store itself, nor makes one
                return chromadb.PersistentClient(path=str(path), settings=chroma_settings), str(path)
        except Exception as exc:
            if not (_refused_as_read_only(exc) and path.is_dir()):
                raise VectorStoreError(f"cannot open the Chroma store at {path}: {exc}") from None
        # a read-only index (a shared or archived copy): Chroma writes to its store when it
        # opens it, so queries read a temporary copy (removed at exit); SQLite is opened
        # read-only (index/storage/db.py) and a command that writes fails there first
        try:
            copied = make_copy(path)
            if copies is not None:
                copies.append(copied.parent)
            return chromadb.PersistentClient(path=str(copied), settings=chroma_settings), str(path)
        except Exception as exc:
            raise VectorStoreError(f"cannot open the read-only Chroma store at {path}: {exc}") from None
    url = settings.chroma_url if "://" in settings.chroma_url else f"http://{settings.chroma_url}"
    parts = urlsplit(url)
    try:
        port = parts.port
    except ValueError:
        port = -1
    if parts.scheme not in ("http", "https") or not parts.hostname or port == -1:
        raise ConfigError(f"--chroma-url '{settings.chroma_url}' is not an http(s)://host:port URL")
    ssl = parts.scheme == "https"
    try:
        client = chromadb.HttpClient(
            host=parts.hostname, port=port or (443 if ssl else 8000), ssl=ssl, settings=chroma_settings
        )
        client.heartbeat()
    except Exception as exc:
        raise VectorStoreError(
            f"cannot reach Chroma at {settings.chroma_url} ({type(exc).__name__}); start it"
            " (chroma run --path DIR) or drop --chroma-url to use the embedded store"
        ) from None
    return client, settings.chroma_url


def _refused_as_read_only(exc: Exception) -> bool:
    text = str(exc).lower()
    return "readonly" in text or "read-only" in text or "read only" in text or isinstance(exc, PermissionError)


def check_chroma_server(settings: Settings) -> None:
    """With ``--chroma-url``: check the URL and that the server answers, so a command can
    fail before it creates or touches the index. Nothing to check for the embedded store."""
    if settings.chroma_url:
        client, _ = chroma_client(settings)
        close = getattr(client, "close", None)
        if close is not None:
            close()
