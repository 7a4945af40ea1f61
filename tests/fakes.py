"""Scripted backends for tests: an OpenAI-compatible HTTP server on 127.0.0.1.

``ScriptedOpenAI`` serves /v1/chat/completions (and /v1/embeddings) to the real ``openai``
client. Either enqueue exact replies (``enqueue``) or set ``responder`` to compute one from
the request; every request body is kept in ``history``.
"""

from __future__ import annotations

import json
import re
import threading
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Callable


def completion_body(content: str, finish_reason: str = "stop", model: str = "scripted") -> dict:
    return {
        "id": "chatcmpl-scripted",
        "object": "chat.completion",
        "created": 0,
        "model": model,
        "choices": [
            {"index": 0, "message": {"role": "assistant", "content": content}, "finish_reason": finish_reason}
        ],
        "usage": {"prompt_tokens": 1, "completion_tokens": 1, "total_tokens": 2},
    }


def passage_of(request: dict) -> str:
    """The <passage> text of an extraction request."""
    user = request["messages"][-1]["content"]
    match = re.search(r"<passage>\n(.*)\n</passage>", user, re.DOTALL)
    return match.group(1) if match else ""


class ScriptedOpenAI:
    def __init__(self):
        self.history: list[dict] = []
        self.queue: list[tuple[int, dict, dict]] = []
        self.responder: Callable[[dict], tuple[int, dict, dict]] | None = None
        self.lock = threading.Lock()
        outer = self

        class Handler(BaseHTTPRequestHandler):
            def log_message(self, *args):  # keep test output clean
                pass

            def do_POST(self):
                length = int(self.headers.get("content-length", 0))
                body = json.loads(self.rfile.read(length) or b"{}")
                with outer.lock:
                    outer.history.append({"path": self.path, **body})
                    if outer.queue:
                        status, headers, reply = outer.queue.pop(0)
                    elif outer.responder is not None:
                        status, headers, reply = outer.responder(body)
                    else:
                        status, headers, reply = 500, {}, {"error": {"message": "nothing scripted"}}
                data = json.dumps(reply).encode()
                self.send_response(status)
                self.send_header("content-type", "application/json")
                self.send_header("content-length", str(len(data)))
                for k, v in headers.items():
                    self.send_header(k, v)
                self.end_headers()
                self.wfile.write(data)

        self.server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        self.thread = threading.Thread(target=self.server.serve_forever, daemon=True)

    @property
    def base_url(self) -> str:
        return f"http://127.0.0.1:{self.server.server_address[1]}/v1"

    def enqueue(self, reply: dict, status: int = 200, headers: dict | None = None) -> None:
        self.queue.append((status, headers or {}, reply))

    def enqueue_content(self, content: str, finish_reason: str = "stop") -> None:
        self.enqueue(completion_body(content, finish_reason))

    @property
    def chat_calls(self) -> list[dict]:
        return [h for h in self.history if h["path"].endswith("/chat/completions")]

    def __enter__(self):
        self.thread.start()
        return self

    def __exit__(self, *exc):
        self.server.shutdown()
        self.server.server_close()
