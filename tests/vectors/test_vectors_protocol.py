"""The vector-store seam: the Chroma store is a ``Vectors``, what the door and the queries
hold; an object without a store's methods is not."""

from __future__ import annotations

from crossbook.vectors.chroma import VectorStore
from crossbook.vectors.embed import HashEmbedder
from crossbook.vectors.protocol import Vectors


def test_the_chroma_store_is_a_vectors():
    store = VectorStore(lambda: None, HashEmbedder(), "index-id", "nowhere")  # connects only at first use
    assert isinstance(store, Vectors)


def test_an_object_without_the_methods_is_not():
    class Half:
        embedder = HashEmbedder()

        def open(self) -> None: ...

    assert not isinstance(Half(), Vectors)
