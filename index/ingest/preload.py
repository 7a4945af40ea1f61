"""Imports made on the main thread before any worker thread starts .

Python imports a module in two steps: it is put in ``sys.modules`` first, then its body
runs. A thread that finds it there meanwhile sees it partially initialized: the openai
client looks ``httpx`` up in ``sys.modules`` on every request (``http_response_types()``),
so a request thread crashed with "partially initialized module 'httpx' has no attribute
'Response'" while the main thread was importing chromadb (which imports httpx). The rule
that makes this impossible rather than rare: every module a run will import is imported
before its request threads start, by the thread that starts them, and the threads
themselves import nothing for the first time (``OpenAIExtractor`` loads what its requests
use when it is made). Whatever the main thread imports later is then already complete.
"""

from __future__ import annotations

from ..core.imports import import_optional


def before_requests(vectors: object | None, relations_mode: str) -> None:
    """Everything an ingest's write phase imports, done now, before its request threads
    start: chromadb and the opened store (Chroma imports its components when a client is
    made), the embedder's runtime and model, and spaCy when the relations mode parses.
    Raises what opening the store or loading the model raises (VectorStoreError,
    ConfigError): the same errors the first book's write would raise."""
    from ..relations import offline

    import_optional("httpx")  # chromadb's: the module the openai client looks up per request
    if vectors is not None:
        vectors.open()
        load = getattr(vectors.embedder, "load_model", None)  # local models (onnxruntime, torch)
        if load is not None:
            load()
    offline.load_parser(relations_mode)
