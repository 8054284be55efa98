"""Count the SQL statements, psycopg commands (BEGIN, COMMIT, ROLLBACK...) and pool checkouts
of every Python process started with this folder on ``PYTHONPATH`` and ``PALIO_SQL_COUNT=DIR``
set: each second the counts so far are appended as one JSON line to ``DIR/sql-PID.jsonl``.
How docs/performance.md counted a move's round trips on SQLite and PostgreSQL:

    PALIO_SQL_COUNT=/tmp/sql PYTHONPATH=src:benchmarks/sql_count python \\
        benchmarks/load_server.py --db postgres --servers 1 --games 8 --seconds 15
    python benchmarks/sql_count/summary.py /tmp/sql

A measuring aid, not part of Palio: Python imports ``sitecustomize`` by itself at start-up.
"""

from __future__ import annotations

import collections
import json
import os
import sys
import threading
import time
from typing import Any

_DIR = os.environ.get("PALIO_SQL_COUNT")

if _DIR:
    _counts: collections.Counter[str] = collections.Counter()
    _lock = threading.Lock()

    def _bump(key: str) -> None:
        with _lock:
            _counts[key] += 1

    def _install() -> None:
        from sqlalchemy import event
        from sqlalchemy.engine import Engine
        from sqlalchemy.pool import Pool

        @event.listens_for(Engine, "before_cursor_execute")
        def _statement(_conn: Any, _cursor: Any, statement: str, *_args: Any) -> None:
            _bump("sql " + " ".join(statement.split())[:110])

        @event.listens_for(Pool, "checkout")
        def _checkout(*_args: Any) -> None:
            _bump("pool checkout")

        try:
            from psycopg import BaseConnection
        except ImportError:
            return
        exec_command = BaseConnection._exec_command

        def _command(self: Any, command: Any, *args: Any, **kwargs: Any) -> Any:
            text = command.decode() if isinstance(command, bytes) else str(command)
            _bump("psycopg " + text[:40])
            return exec_command(self, command, *args, **kwargs)

        BaseConnection._exec_command = _command  # type: ignore[method-assign]

    def _dump() -> None:
        while True:
            time.sleep(1)
            with _lock:
                data = dict(_counts)
            with open(os.path.join(_DIR, f"sql-{os.getpid()}.jsonl"), "a") as out:
                out.write(json.dumps({"t": time.time(), "argv": sys.argv[:3],
                                      "counts": data}) + "\n")

    os.makedirs(_DIR, exist_ok=True)
    _install()
    threading.Thread(target=_dump, daemon=True).start()
