"""Where crossbook keeps per-user files, by the platform's convention (no dependency).

The local embedder's ONNX graph (87 MB) is built once per user in the cache directory and
shared by every index, not copied into each one. index/ never reads the
environment: the directory is resolved here and handed over in Settings.model_cache.
"""

from __future__ import annotations

import sys
from pathlib import Path
from typing import Mapping


def user_cache_dir(environ: Mapping[str, str], platform: str = sys.platform) -> Path:
    """crossbook's cache directory: ``$XDG_CACHE_HOME/crossbook`` (else ``~/.cache/crossbook``)
    on Linux and other Unixes, ``~/Library/Caches/crossbook`` on macOS,
    ``%LOCALAPPDATA%\\crossbook\\Cache`` on Windows (platformdirs' choices)."""
    home = Path(environ.get("HOME") or Path.home())
    if platform == "win32":
        base = environ.get("LOCALAPPDATA") or str(home / "AppData" / "Local")
        return Path(base) / "crossbook" / "Cache"
    if platform == "darwin":
        return home / "Library" / "Caches" / "crossbook"
    xdg = environ.get("XDG_CACHE_HOME")
    # the XDG spec: a relative path is invalid and is ignored
    return (Path(xdg) if xdg and Path(xdg).is_absolute() else home / ".cache") / "crossbook"


def model_cache_dir(environ: Mapping[str, str]) -> Path:
    """The default of Settings.model_cache: the models directory of the user's cache."""
    return user_cache_dir(environ) / "models"
