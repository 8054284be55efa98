"""Thread CPU (``time.thread_time``) spent in a few of the server's functions, in every server
process started with this folder on ``PYTHONPATH`` and ``PALIO_CPU_COUNT=DIR`` set: each second
the totals so far (seconds, calls) are appended as one JSON line to ``DIR/cpu-PID.jsonl``, with
the event loop's thread and the whole process. How docs/performance.md split a move's CPU
between the move's transaction, the views and the event loop, on SQLite and PostgreSQL:

    PALIO_CPU_COUNT=/tmp/cpu PYTHONPATH=src:benchmarks/cpu_count python \\
        benchmarks/load_server.py --db postgres --servers 1 --games 8 --seconds 20
    python benchmarks/cpu_count/summary.py /tmp/cpu

Each function's figure is inclusive (a call inside another wrapped one counts in both) and
thread CPU, so a thread waiting for the database or the GIL adds nothing; the wrappers' own
cost (two clock reads a call) is in them. Every worker-thread task is counted by its function
(``thread:...``). A measuring aid, not part of Palio: Python imports ``sitecustomize`` by
itself at start-up; only the server processes (``app_from_env`` on their command line) count.
"""

from __future__ import annotations

import collections
import functools
import json
import os
import sys
import threading
import time
from typing import Any

_DIR = os.environ.get("PALIO_CPU_COUNT")

if _DIR and any("app_from_env" in arg for arg in sys.orig_argv):
    _seconds: collections.Counter[str] = collections.Counter()
    _calls: collections.Counter[str] = collections.Counter()
    _lock = threading.Lock()
    _depth = threading.local()

    def _add(key: str, seconds: float) -> None:
        with _lock:
            _seconds[key] += seconds
            _calls[key] += 1

    def _wrap(owner: Any, name: str, key: str) -> None:
        original = getattr(owner, name)

        @functools.wraps(original)
        def timed(*args: Any, **kwargs: Any) -> Any:
            depth = getattr(_depth, key, 0)  # a recursive call counts once
            setattr(_depth, key, depth + 1)
            started = time.thread_time()
            try:
                return original(*args, **kwargs)
            finally:
                setattr(_depth, key, depth)
                if depth == 0:
                    _add(key, time.thread_time() - started)

        setattr(owner, name, timed)

    def _install() -> None:
        import anyio.to_thread
        import psycopg
        from sqlalchemy.engine import Connection
        from sqlalchemy.orm import Session
        from sqlalchemy.orm.session import SessionTransaction
        from sqlalchemy.pool import base as pool

        from palio.server.base import cluster
        from palio.server.play import push, service

        run_sync = anyio.to_thread.run_sync

        async def counted_run_sync(func: Any, *args: Any, **kwargs: Any) -> Any:
            inner = getattr(func, "func", func)  # starlette's functools.partial
            key = "thread:" + getattr(inner, "__qualname__", repr(inner))

            def timed(*inner_args: Any) -> Any:
                started = time.thread_time()
                try:
                    return func(*inner_args)
                finally:
                    _add(key, time.thread_time() - started)

            return await run_sync(timed, *args, **kwargs)

        anyio.to_thread.run_sync = counted_run_sync
        for owner, names in [
            (service.GameService, ["act_as", "_decide", "_write_move", "_act_in_transaction",
                                   "_lock_row", "get", "_cached"]),
            (Session, ["execute", "scalar", "scalars", "get", "commit", "close"]),
            (SessionTransaction, ["__exit__"]),
            (Connection, ["_execute_context"]),
            (pool._ConnectionFairy, ["_checkout", "_checkin"]),
            (push.Hub, ["changed", "build_cached"]),
            (cluster.Listener, ["_handle"]),
            (psycopg.Cursor, ["execute"]),
            (psycopg.Connection, ["commit"]),
        ]:
            for name in names:
                if hasattr(owner, name):  # an older tree may lack some (pg34's _decide...)
                    _wrap(owner, name, f"{owner.__name__}.{name}")
        _wrap(push, "texts_for", "texts_for (views of a move)")

    def _dump() -> None:
        # the application's modules are imported by uvicorn after this file runs
        while "palio.server.app" not in sys.modules or "uvicorn" not in sys.modules:
            time.sleep(0.05)
        time.sleep(0.5)
        _install()
        loop = time.pthread_getcpuclockid(threading.main_thread().ident or 0)
        while True:
            time.sleep(1)
            with _lock:
                data = {key: [_seconds[key], _calls[key]] for key in _seconds}
            data["event loop thread"] = [time.clock_gettime(loop), 0]
            data["process"] = [time.process_time(), 0]
            with open(os.path.join(_DIR, f"cpu-{os.getpid()}.jsonl"), "a") as out:
                out.write(json.dumps({"t": time.time(), "counts": data}) + "\n")

    os.makedirs(_DIR, exist_ok=True)
    threading.Thread(target=_dump, daemon=True).start()
