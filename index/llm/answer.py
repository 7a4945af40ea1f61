"""What a caller of the LLM transport raises when a model's answer cannot be used: the
completion loop (completion.py) asks again, and never caches it."""


class ParseError(ValueError):
    """The answer is not usable (no choice, refused, truncated, empty, not JSON, wrong shape)."""
