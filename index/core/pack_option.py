"""The ``--pack`` option: one domain pack (``generic``, ``gurps``, a .toml path) and any
genre packs (``rulebook``, ``documentation``: core/genres.py), comma-separated
(``--pack gurps,rulebook``). Genre packs named there apply to every book ingested, instead
of the genres chosen from what each book shows (index/extract/genre_choice.py)."""

from __future__ import annotations

from dataclasses import dataclass

from .errors import ConfigError
from .packs import load_pack, shipped_genres


@dataclass(frozen=True)
class PackOption:
    domain: str | None             # None: the index's pack, else generic
    genres: tuple[str, ...] | None  # None: chosen per book from what it shows


def parse_pack_option(value: str | None) -> PackOption:
    """Split ``--pack``'s value; raises ConfigError for two domain packs or an empty name."""
    if value is None:
        return PackOption(None, None)
    genre_names = {g.name for g in shipped_genres()}
    domain, genres = None, []
    for item in (part.strip() for part in value.split(",")):
        if not item:
            raise ConfigError(f"--pack '{value}' has an empty name (give names separated by commas)")
        if item in genre_names:
            genres.append(item)
        elif domain is None:
            domain = item
        else:
            raise ConfigError(f"--pack '{value}' names two domain packs ('{domain}', '{item}'): give one, "
                              f"with any genre packs ({', '.join(sorted(genre_names))})")
    return PackOption(domain, tuple(dict.fromkeys(genres)) or None)


def check_pack_option(value: str) -> PackOption:
    """Parse ``--pack`` and load its domain pack: raises ConfigError for a mistake in it."""
    option = parse_pack_option(value)
    if option.domain is not None:
        load_pack(option.domain)
    return option
