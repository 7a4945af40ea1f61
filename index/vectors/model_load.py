"""A model's load as a progress phase: a local embedder loads its model at the first
embed() (it can take 15 s), which a progress display should show instead of a frozen bar."""

from __future__ import annotations

from typing import Any, Callable

LOADING_MODEL = "loading model"


class ModelLoadReporter:
    """Wraps an embedder so the first embed() reports ``progress(LOADING_MODEL, 0, 1)``,
    loads the model, then ``progress(LOADING_MODEL, 1, 1)``; embedders without a model to
    load (hash, OpenAI) report nothing."""

    def __init__(self, embedder: Any, progress: Callable[[str, int, int], None]):
        self._embedder = embedder
        self._progress = progress
        self._loaded = False

    def __getattr__(self, name: str) -> Any:
        return getattr(self._embedder, name)

    def embed(self, texts: list[str]) -> list[list[float]]:
        if not self._loaded:
            self._loaded = True
            load = getattr(self._embedder, "load_model", None)  # local models have one
            if load is not None:
                self._progress(LOADING_MODEL, 0, 1)
                load()
                self._progress(LOADING_MODEL, 1, 1)
        return self._embedder.embed(texts)
