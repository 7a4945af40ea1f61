"""Vectors computed ahead: a book's child chunks embedded in a thread while its rows are written.

A whole manual's embedding takes minutes on two cores, and so does its write transaction
(linking, then the relationships spaCy finds: Python, one core). onnxruntime computes outside
the GIL, so the two overlap: before the transaction the door (index/changes/door.py) starts
``EmbeddedAhead`` with the texts the book's new children will be embedded from, on the
embedder's ``beside()`` (the same model on one thread: the write keeps the other core, and
where-else answers no later for it). Once SQLite has committed, the sync
(``chroma.VectorStore.write``) stops the thread after its batch, takes the vectors computed
by then and embeds the others on every core. Each distinct text is embedded once, longest
first (batches of texts of like length pad little).

The vectors are held in memory only, keyed by the exact text embedded: nothing reaches Chroma
before SQLite commits, so a crash loses the work done ahead and nothing else; a text the sync
asks for that differs from the one embedded ahead is simply embedded then.
"""

from __future__ import annotations

import threading
from typing import Iterable

from .embed import Embedder

# texts per run of the thread: small, so that it stops soon after the commit
AHEAD_BATCH = 32


def longest_first(texts: Iterable[str]) -> list[str]:
    """The distinct ``texts``, longest first (ties in their order)."""
    return sorted(dict.fromkeys(texts), key=len, reverse=True)


def beside(embedder: Embedder | None) -> Embedder | None:
    """The embedder to compute ahead with, or None: only a model that computes outside the GIL
    has one (the local MiniLM); a pure-Python embedder (hash) would only take turns with the write."""
    make = getattr(embedder, "beside", None)
    return make() if make is not None else None


class EmbeddedAhead:
    """The vectors of ``texts``, computed by ``embedder`` in a daemon thread, a small batch at a
    time, until all are done or ``stop()`` is called (which waits for the batch under way)."""

    def __init__(self, embedder: Embedder, texts: Iterable[str]):
        self.embedder = embedder
        self.order = longest_first(texts)
        self.error: Exception | None = None
        self._vectors: dict[str, list[float]] = {}
        self._stopping = threading.Event()
        self._thread = threading.Thread(target=self._run, name="crossbook-embed-ahead", daemon=True)

    def start(self) -> "EmbeddedAhead":
        if self.order:
            # the model loads here, in the caller's thread (a load there can report progress)
            self._vectors.update(zip(self.order[:1], self.embedder.embed(self.order[:1])))
        self._thread.start()
        return self

    def _run(self) -> None:
        try:
            for start in range(1, len(self.order), AHEAD_BATCH):
                if self._stopping.is_set():
                    break
                batch = self.order[start:start + AHEAD_BATCH]
                self._vectors.update(zip(batch, self.embedder.embed(batch)))
        except Exception as exc:  # noqa: BLE001 - the sync embeds what is missing, and meets the error there
            self.error = exc

    def stop(self) -> None:
        """End the thread after its current batch, and wait for it."""
        self._stopping.set()
        if self._thread.is_alive():
            self._thread.join()

    def take(self, texts: list[str]) -> dict[str, list[float]]:
        """Text -> vector for each of ``texts`` embedded so far (call after ``stop``); a text
        taken is forgotten (each is written once)."""
        return {t: self._vectors.pop(t) for t in set(texts) if t in self._vectors}
