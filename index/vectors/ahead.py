"""Vectors computed ahead: a book's child chunks embedded in a thread while its rows are written.

A whole manual's embedding takes minutes on two cores, and so does its write transaction
(linking, then the relations spaCy finds, in Python). onnxruntime releases the GIL while it
runs, so the two overlap: the door (index/shelf/door.py) starts ``EmbeddedAhead`` with the
texts its book's children will be embedded from, before the transaction, and the sync that
follows the commit (``chroma.VectorStore.write``) takes the vectors computed by then and
embeds only the others. Each distinct text is embedded once, longest first (batches of
texts of like length pad little).

The vectors are held in memory only, keyed by the exact text embedded: nothing reaches Chroma
before SQLite commits, so a crash loses the work done ahead and nothing else, and a text
the sync asks for that differs from the one embedded ahead is simply embedded again.
"""

from __future__ import annotations

import threading
from typing import Iterable

from .embed import Embedder


def longest_first(texts: Iterable[str]) -> list[str]:
    """The distinct ``texts``, longest first (ties in their order)."""
    return sorted(dict.fromkeys(texts), key=len, reverse=True)


def embeds_ahead(embedder: Embedder | None) -> bool:
    """Whether ``embedder`` gains from running beside the write: its model computes outside
    the GIL (the local MiniLM); a pure-Python embedder (hash) would only take turns with it."""
    return bool(getattr(embedder, "embeds_ahead", False))


class EmbeddedAhead:
    """The vectors of ``texts``, computed by ``embedder`` in a daemon thread, batch by batch.

    ``take(texts)`` waits until each of ``texts`` is embedded or the thread has stopped, and
    returns the vectors it has (a text it has not is missing from the answer: the caller
    embeds it). ``stop()`` ends the thread after its current batch (the write failed)."""

    def __init__(self, embedder: Embedder, texts: Iterable[str]):
        self.embedder = embedder
        self.order = longest_first(texts)
        self.error: Exception | None = None
        self._vectors: dict[str, list[float]] = {}
        self._done = False
        self._stopping = False
        self._changed = threading.Condition()
        self._thread = threading.Thread(target=self._run, name="crossbook-embed-ahead", daemon=True)

    def start(self) -> "EmbeddedAhead":
        if self.order:
            # the model loads here, in the caller's thread (a load reports progress there)
            self._store(self.order[:1], self.embedder.embed(self.order[:1]))
        self._thread.start()
        return self

    def _store(self, texts: list[str], vectors: list[list[float]]) -> None:
        with self._changed:
            self._vectors.update(zip(texts, vectors))
            self._changed.notify_all()

    def _run(self) -> None:
        try:
            size = self.embedder.batch_size
            for start in range(1, len(self.order), size):
                if self._stopping:
                    break
                batch = self.order[start:start + size]
                self._store(batch, self.embedder.embed(batch))
        except Exception as exc:  # noqa: BLE001 - the sync embeds what is missing, and meets the error there
            self.error = exc
        finally:
            with self._changed:
                self._done = True
                self._changed.notify_all()

    def take(self, texts: list[str]) -> dict[str, list[float]]:
        """Text -> vector for each of ``texts`` embedded ahead, once each is in or the thread has
        stopped; a text taken is forgotten (each is written once)."""
        with self._changed:
            self._changed.wait_for(lambda: self._done or all(t in self._vectors for t in texts))
            return {t: self._vectors.pop(t) for t in set(texts) if t in self._vectors}

    def stop(self) -> None:
        with self._changed:
            self._stopping = True
