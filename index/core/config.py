"""Settings: flag > CROSSBOOK_* environment variable > crossbook.toml > default.

The CLI builds one :class:`Settings` with :func:`load_settings` and hands it to the library;
library code never reads the environment itself (the mapping is passed in).
"""

from __future__ import annotations

from dataclasses import dataclass, fields, replace
from pathlib import Path
from typing import Any, Mapping

from .errors import ConfigError

DEFAULT_INDEX = ".crossbook"
DEFAULT_WAIT = 30.0       # seconds a writer waits for another one; the CLI's --wait (env CROSSBOOK_WAIT)
CONFIG_FILE = "crossbook.toml"


@dataclass(frozen=True)
class Settings:
    index_dir: Path = Path(DEFAULT_INDEX)
    extractor: str = "rules"
    model: str = "gpt-4o-mini"
    base_url: str | None = None
    api_key: str | None = None
    pack: str | None = None          # None: the index's stored pack, else "generic"
    concurrency: int = 8
    parent_tokens: int = 1500
    child_tokens: int = 250
    link: bool = True
    max_retries: int = 5
    request_timeout: float = 120.0
    allow_partial: bool = False      # store a book whose chunks partly failed extraction
    embedder: str | None = None      # None: the one the index records, else "local"
    embedding_model: str = "text-embedding-3-small"
    model_cache: Path | None = None  # the local embedder's ONNX graphs (the CLI: the user's cache); None: <index>/models
    chroma_url: str | None = None
    relations: str = "auto"          # "auto", "llm", "spacy" or "off"
    ontology: tuple[str, ...] = ()   # extra ontology packs (names or paths)
    batch_poll: float = 30.0         # seconds between two checks of a Batch API batch (ingest --batch)
    price_table: str | None = None   # a TOML of model prices over the shipped one (index/ingest/cost.py)
    max_cost: float | None = None    # USD: an ingest whose estimate is higher stops before any call
    wait: float = DEFAULT_WAIT       # seconds a writer waits for another one (index/storage/lock.py)
    # an EPUB member (a chapter, the package file...) is refused before it is read when it
    # declares more than this many MiB, or (past 1 MiB) inflates more than this many times
    epub_max_member_mb: float = 64.0
    epub_max_ratio: float = 100.0

    @property
    def db_path(self) -> Path:
        return self.index_dir / "crossbook.db"


_INT_FIELDS = {"concurrency", "parent_tokens", "child_tokens", "max_retries"}
_FLOAT_FIELDS = {"request_timeout", "batch_poll", "max_cost", "wait", "epub_max_member_mb", "epub_max_ratio"}
_BOOL_FIELDS = {"link", "allow_partial"}
_PATH_FIELDS = {"pack", "price_table"}  # resolved relative to the toml file when they name a file


def _coerce(name: str, value: Any) -> Any:
    try:
        if name in ("index_dir", "model_cache"):
            return Path(value)
        if name in _INT_FIELDS:
            return int(value)
        if name in _FLOAT_FIELDS:
            return float(value)
        if name in _BOOL_FIELDS:
            if isinstance(value, bool):
                return value
            return str(value).strip().lower() in ("1", "true", "yes", "on")
        if name == "ontology":
            if isinstance(value, str):
                return tuple(v.strip() for v in value.split(",") if v.strip())
            return tuple(value)
        return value
    except (TypeError, ValueError) as exc:
        raise ConfigError(f"setting {name}={value!r} is not valid ({exc})") from None


def read_toml_settings(path: Path) -> dict[str, Any]:
    """Read the settings part of a crossbook.toml (top-level keys; [[books]] is ignored)."""
    import tomllib  # only a command run next to a crossbook.toml reads one

    try:
        data = tomllib.loads(path.read_text(encoding="utf-8"))
    except (OSError, UnicodeDecodeError, tomllib.TOMLDecodeError) as exc:
        raise ConfigError(f"cannot read {path}: {exc}") from None
    known = {f.name for f in fields(Settings)} | {"index"}
    out: dict[str, Any] = {}
    for key, value in data.items():
        if key == "books":
            continue
        if key not in known:
            raise ConfigError(f"{path}: unknown setting '{key}' (known: {', '.join(sorted(known))})")
        name = "index_dir" if key == "index" else key
        if name in _PATH_FIELDS and isinstance(value, str) and value.endswith(".toml"):
            value = str((path.parent / value).resolve())
        if name == "ontology":
            # pack files are relative to this file, like the domain pack; names stay names
            values = [value] if isinstance(value, str) else list(value)
            value = [str((path.parent / v).resolve()) if str(v).endswith((".toml", ".json")) else v
                     for v in values]
        if name == "index_dir":
            value = (path.parent / value).resolve()
        out[name] = value
    return out


def load_settings(
    flags: Mapping[str, Any],
    environ: Mapping[str, str],
    config_path: Path | None = None,
    *,
    config_required: bool = False,
) -> Settings:
    """Merge flags (None = not given), CROSSBOOK_* variables and a crossbook.toml.

    ``OPENAI_API_KEY`` is read from ``environ`` for the key; ``OPENAI_BASE_URL`` for the URL.
    A missing ``config_path`` is skipped, unless ``config_required`` (the user named it).
    Raises ConfigError on a malformed value or a required file that is not there.
    """
    merged: dict[str, Any] = {}
    if config_path is not None and config_required and not config_path.is_file():
        what = "is a directory" if config_path.is_dir() else "does not exist"
        raise ConfigError(f"settings file '{config_path}' (--config) {what}")
    if config_path is not None and config_path.is_file():
        merged.update(read_toml_settings(config_path))
    for f in fields(Settings):
        env_value = environ.get(f"CROSSBOOK_{f.name.upper()}")
        if f.name == "index_dir":
            env_value = environ.get("CROSSBOOK_INDEX", env_value)
        if env_value not in (None, ""):
            merged[f.name] = env_value
    if "api_key" not in merged and environ.get("OPENAI_API_KEY"):
        merged["api_key"] = environ["OPENAI_API_KEY"]
    if "base_url" not in merged and environ.get("OPENAI_BASE_URL"):
        merged["base_url"] = environ["OPENAI_BASE_URL"]
    for name, value in flags.items():
        if value is not None:
            merged[name] = value
    settings = Settings()
    return replace(settings, **{k: _coerce(k, v) for k, v in merged.items()})


def require_model_endpoint(settings: Settings, what: str, instead: str) -> None:
    """Raise ConfigError unless a model endpoint is configured (an API key, or a base URL
    such as a local server). ``what`` names the option that needs it ("--extractor openai"),
    ``instead`` the way out ("use --extractor rules")."""
    if not settings.api_key and not settings.base_url:
        raise ConfigError(f"{what} needs OPENAI_API_KEY (export it, give --base-url, or {instead})")


RELATION_MODES = ("auto", "llm", "spacy", "refine", "off")


def effective_mode(relations: str, extractor_name: str) -> str:
    """'llm', 'spacy', 'refine' (spacy candidates confirmed by a model) or 'off' (auto: llm
    with a model extractor, spacy with rules)."""
    if relations not in RELATION_MODES:
        raise ConfigError(f"unknown relations mode '{relations}' (choose one of: {', '.join(RELATION_MODES)})")
    if relations == "auto":
        return "spacy" if extractor_name == "rules" else "llm"
    return relations
