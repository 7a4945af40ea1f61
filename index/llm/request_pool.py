"""One pool of LLM requests for every book of a run, so small books share the concurrency instead of each waiting on its own slowest request.

Worker threads (``concurrency`` of them, and a few spare) are shared by all books, so the requests of later
books run while an earlier book waits for its last answer or is being written, and one
stalled request holds up one thread, not the shelf. Finished requests are handed back to
the caller's thread in the order they finish (``next_done``): only that thread touches
SQLite.

The number of requests actually in flight adapts to the server: a 429 halves it (never
below 1) and each run of successes as long as the current limit adds one back, up to
``concurrency`` (additive increase, multiplicative decrease). The thread that was told to
wait sleeps its Retry-After outside the limit.
"""

from __future__ import annotations

import queue
import threading
from concurrent.futures import Future, ThreadPoolExecutor
from contextlib import contextmanager
from typing import Callable, Iterator

SPARE_THREADS = 4


class PoolClosed(Exception):
    """The run is over (finished, failed or interrupted): a request not yet sent is not sent."""


class RequestPool:
    def __init__(self, concurrency: int):
        self.concurrency = max(1, concurrency)
        self.limit = self.concurrency
        self.in_flight = 0
        self.max_in_flight = 0  # the most requests seen in flight at once (bench/bench_llm_pool.py)
        self._successes = 0
        self.closed = False
        self.answered = False  # the endpoint has answered at least once (an error status counts)
        self.unreachable: Exception | None = None  # set when it never answered and requests gave up
        self._tickets = self._serving = 0
        self._cond = threading.Condition()
        self._done: queue.SimpleQueue[Future] = queue.SimpleQueue()
        # a few more threads than places: a thread parsing its answer leaves its place to another
        self._executor = ThreadPoolExecutor(max_workers=self.concurrency + SPARE_THREADS,
                                            thread_name_prefix="crossbook-llm")

    def submit(self, fn: Callable, *args) -> Future:
        """Run ``fn(*args)`` on a worker; the future comes back from ``next_done`` when finished."""
        future = self._executor.submit(fn, *args)
        future.add_done_callback(self._done.put)
        return future

    def next_done(self, timeout: float | None = None) -> Future | None:
        """The next finished request (blocks until one finishes, or ``timeout`` seconds: None)."""
        try:
            return self._done.get(timeout=timeout)
        except queue.Empty:
            return None

    @contextmanager
    def slot(self) -> Iterator[None]:
        """Hold one of the ``limit`` in-flight places for the length of one HTTP request.
        Raises PoolClosed once the pool is closed: a retry after the run must not reach a
        server (in tests, another test's server on the same port)."""
        with self._cond:
            # places go in the order asked: a thread that just finished a request must not
            # jump ahead of one waiting (the spare threads' requests, an earlier book's, starved)
            ticket = self._tickets
            self._tickets += 1
            while (self.in_flight >= self.limit or ticket != self._serving) and not self.closed:
                self._cond.wait()
            if self.closed:
                raise PoolClosed()
            self._serving += 1
            self.in_flight += 1
            self.max_in_flight = max(self.max_in_flight, self.in_flight)
            self._cond.notify_all()   # the next ticket may fit too
        try:
            yield
        finally:
            with self._cond:
                self.in_flight -= 1
                self._cond.notify_all()

    @property
    def waiting(self) -> int:
        """Requests waiting for a place."""
        with self._cond:
            return self._tickets - self._serving

    def rate_limited(self) -> None:
        """The server answered 429: fewer requests at once."""
        with self._cond:
            self.limit = max(1, self.limit // 2)
            self._successes = 0

    def succeeded(self) -> None:
        """A request got an answer: after ``limit`` of them in a row, one more at once."""
        with self._cond:
            self.answered = True
            if self.limit >= self.concurrency:
                return
            self._successes += 1
            if self._successes >= self.limit:
                self.limit += 1
                self._successes = 0
                self._cond.notify_all()

    def close(self) -> None:
        """Drop the requests that have not started and any retry; do not wait for those in flight."""
        with self._cond:
            self.closed = True
            self._cond.notify_all()
        self._executor.shutdown(wait=False, cancel_futures=True)
