"""Run by tests/ingest/test_concurrency_import_race.py in a fresh interpreter (a module imports only once per
process): one ``crossbook ingest --extractor openai`` while a first import is made slow.

    python tests/import_race_child.py MODULE DELAY BOOK INDEX_DIR [FAULT_RATE]

MODULE's import sleeps DELAY seconds after it is placed in ``sys.modules`` and before its
body runs, so for DELAY seconds any thread that looks it up finds it partially
initialized: the window in which request threads once crashed (httpx, imported by
chromadb, read by the openai client's ``http_response_types()``). The server answers after
a latency, so requests are in flight during that window; with FAULT_RATE, that share of
the answers are faults (5xx, dropped connections, truncated, malformed), so the retry
paths run too. Prints one JSON line (the last): the exit code, stderr's last line, and
the modules first imported by a request thread.
"""

from __future__ import annotations

import importlib.abc
import importlib.machinery
import io
import json
import sys
import threading
import time
from contextlib import redirect_stderr
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))


# faults whose retries cost no long wait (a 429's Retry-After is 2 s, a stall the timeout)
FAULTS = ("server_error", "dropped_connection", "truncated", "non_json", "schema_violation",
          "all_items_malformed", "refusal", "empty_choices")


class SlowImport(importlib.abc.MetaPathFinder):
    """Finds ``module`` as usual but sleeps before executing it; and notes every module
    whose first import a request thread (``crossbook-llm-*``) makes."""

    def __init__(self, module: str, delay: float):
        self.module, self.delay = module, delay
        self.thread_imports: list[str] = []

    def find_spec(self, name, path=None, target=None):
        if threading.current_thread().name.startswith("crossbook-llm"):
            self.thread_imports.append(name)
        if name != self.module:
            return None
        spec = importlib.machinery.PathFinder.find_spec(name, path)
        if spec is None or spec.loader is None:
            return spec
        run = spec.loader.exec_module
        delay = self.delay

        def exec_module(module):
            time.sleep(delay)  # in sys.modules already, with none of its attributes yet
            run(module)

        spec.loader.exec_module = exec_module
        return spec


def main() -> None:
    module, delay, book, index_dir = sys.argv[1], float(sys.argv[2]), sys.argv[3], sys.argv[4]
    fault_rate = float(sys.argv[5]) if len(sys.argv) > 5 else 0.0
    finder = SlowImport(module, delay)
    sys.meta_path.insert(0, finder)
    from crossbook.cli.main import app
    from tests.fakes import FaultInjector, ScriptedOpenAI
    from tests.helpers import heading_responder

    with ScriptedOpenAI() as server:
        server.responder = heading_responder()
        if fault_rate:
            server.responder = FaultInjector(server.responder, rate=fault_rate, kinds=FAULTS)
        server.latency = 0.02
        stderr = io.StringIO()
        with redirect_stderr(stderr):
            try:
                app(["--index", index_dir, "--embedder", "hash", "-q", "ingest", book, "--extractor", "openai",
                     "--base-url", server.base_url, "--model", "scripted", "--concurrency", "4",
                     "--allow-partial"],
                    prog_name="crossbook")
                code = 0
            except SystemExit as exc:
                code = exc.code if isinstance(exc.code, int) else 1
    lines = [line for line in stderr.getvalue().splitlines() if line.strip()]
    print(json.dumps({"exit_code": code, "error": lines[-1] if lines else "",
                      "requests": len(server.chat_calls), "module_loaded": module in sys.modules,
                      "thread_imports": sorted(set(finder.thread_imports))}))


if __name__ == "__main__":
    main()
