"""Log the cyclic garbage collector's slower passes of every Python process started with this
folder on ``PYTHONPATH`` and ``PALIO_GC_LOG=DIR`` set: one line per pass of the older
generations (or any pass over 5 ms of wall time) to ``DIR/gc-PID.log``: when, which
generation, wall and CPU milliseconds, objects collected and, for a full pass, the objects the
oldest generation then held. How the tail of docs/performance.md's realistic load was traced:

    PALIO_GC_LOG=/tmp/gc PYTHONPATH=src:benchmarks/gc_log python benchmarks/load_server.py \\
        --db sqlite --games 100 --think 5 --live 0.5 --seconds 60

(The server, the client and the conductor each write their own file.) A measuring aid, not
part of Palio: Python imports ``sitecustomize`` by itself at start-up when it is on the path.
"""

from __future__ import annotations

import gc
import os
import time
from pathlib import Path
from typing import Any

_DIR = os.environ.get("PALIO_GC_LOG")

if _DIR:
    Path(_DIR).mkdir(parents=True, exist_ok=True)
    _log = open(Path(_DIR) / f"gc-{os.getpid()}.log", "w", buffering=1)  # noqa: SIM115
    _started: dict[str, float] = {}

    def _pass(phase: str, info: dict[str, Any]) -> None:
        if phase == "start":
            _started["wall"], _started["cpu"] = time.perf_counter(), time.process_time()
            return
        wall = time.perf_counter() - _started["wall"]
        generation = info["generation"]
        if generation >= 1 or wall > 0.005:
            held = len(gc.get_objects(generation=2)) if generation == 2 else ""
            _log.write(f"{time.time():.3f} gen{generation} wall {wall * 1e3:.1f} ms cpu "
                       f"{(time.process_time() - _started['cpu']) * 1e3:.1f} ms collected "
                       f"{info['collected']} held {held}\n")

    gc.callbacks.append(_pass)
