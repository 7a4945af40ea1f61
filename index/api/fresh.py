"""What a long-running shelf caches, kept fresh: the vector store, reopened when the index
moved, and shared by the threads that query it at once.

The index moved when its generation (``storage.index_state.generation``: every change through the
door bumps it, in the change's transaction) or its vector sync notes (written once Chroma
has followed SQLite, after that transaction) differ from what the store was opened at: a
Chroma client does not see vectors another process wrote after it opened the store. A store
that is replaced is closed once the last query using it ends (its temporary copy with it).
"""

from __future__ import annotations

import contextlib
import hashlib
import threading
from typing import Callable, Iterator

from sqlite_utils import Database

from ..storage.index_state import generation

SYNC_NOTES = "vectors_synced"   # index/vectors/chroma.py's META_SYNCED


def state(db: Database) -> tuple[int, str]:
    """What the cached vector store must match: the generation and a digest of the sync notes."""
    digest = hashlib.sha256()
    for key, value in db.execute("SELECT key, value FROM crossbook_meta WHERE key >= ? AND key < ? ORDER BY key",
                                 [f"{SYNC_NOTES}:", f"{SYNC_NOTES};"]):
        digest.update(f"{key}\x1f{value}\x1e".encode())
    return generation(db), digest.hexdigest()


class VectorCache:
    """One open vector store per index state; :meth:`use` lends it to one query."""

    def __init__(self) -> None:
        self._lock = threading.Lock()
        self._store = None
        self._state: tuple | None = None
        self._users: dict[int, int] = {}   # id(store) -> queries using it
        self._retired: dict[int, object] = {}

    @contextlib.contextmanager
    def use(self, current: tuple, open_store: Callable[[], object]) -> Iterator[object]:
        """The store for the index ``current`` state (``state(db)``), opened by ``open_store``
        when there is none for it yet."""
        with self._lock:
            if self._store is not None and self._state != current:
                self._retire()
            if self._store is None:
                self._store, self._state = open_store(), current
            store = self._store
            self._users[id(store)] = self._users.get(id(store), 0) + 1
        try:
            yield store
        finally:
            with self._lock:
                self._users[id(store)] -= 1
                done = not self._users[id(store)] and id(store) in self._retired
                if done:
                    del self._users[id(store)], self._retired[id(store)]
            if done:
                store.close()

    def invalidate(self) -> None:
        """The next query opens the store again (after this process wrote the index)."""
        with self._lock:
            if self._store is not None:
                self._retire()

    def _retire(self) -> None:
        store, self._store, self._state = self._store, None, None
        if self._users.get(id(store)):
            self._retired[id(store)] = store
        else:
            self._users.pop(id(store), None)
            store.close()

    def close(self) -> None:
        """Close every store (those still lent out too: the shelf is closing)."""
        with self._lock:
            stores = [self._store] if self._store is not None else []
            stores += list(self._retired.values())
            self._store, self._state, self._retired, self._users = None, None, {}, {}
        for store in stores:
            store.close()


class ThreadConnections:
    """One SQLite connection per thread. A worker thread that ended (a server's thread pool
    retires idle ones) has its connection closed when the next thread opens one, so a shelf
    open for days holds no more connections than it has live threads."""

    def __init__(self) -> None:
        self._lock = threading.Lock()
        self._by_thread: dict[threading.Thread, Database] = {}

    def get(self, open_db: Callable[[], Database]) -> Database:
        """This thread's connection, opened by ``open_db`` the first time."""
        thread = threading.current_thread()
        with self._lock:
            db = self._by_thread.get(thread)
        if db is not None:
            return db
        db = open_db()
        with self._lock:
            ended = [t for t in self._by_thread if not t.is_alive()]
            stale = [self._by_thread.pop(t) for t in ended]
            self._by_thread[thread] = db
        for old in stale:
            old.conn.close()
        return db

    def count(self) -> int:
        with self._lock:
            return len(self._by_thread)

    def close(self) -> None:
        with self._lock:
            connections, self._by_thread = list(self._by_thread.values()), {}
        for db in connections:
            db.conn.close()
