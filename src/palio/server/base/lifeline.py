"""Worker processes die with their supervisor.

``palio serve --workers N`` runs N uvicorn worker processes under one supervisor. If the
supervisor is killed outright (``kill -9``, the OOM killer) nothing tells its workers, which
then go on serving the port, so a restart fails with "address already in use". Each worker
therefore asks the kernel for SIGTERM when its parent dies (Linux ``prctl(PR_SET_PDEATHSIG)``),
and watches its parent's pid from a thread as well (other systems, and a parent that died
before the request): on either, uvicorn shuts down gracefully, and if that takes longer than
:data:`GRACE_SECONDS` the process exits anyway.
"""

from __future__ import annotations

import contextlib
import logging
import os
import signal
import sys
import threading
import time

log = logging.getLogger("palio.server")

PR_SET_PDEATHSIG = 1  # from <linux/prctl.h>
GRACE_SECONDS = 5.0
POLL_SECONDS = 0.5


def die_with_parent() -> None:
    """Make this process stop when its parent does (call once, early in a worker)."""
    parent = os.getppid()
    if sys.platform.startswith("linux"):
        # without libc (an unusual build) the watching thread below still does the job
        # lazy, for start-up cost (issue 34): only a worker process calls this
        import ctypes
        import ctypes.util

        with contextlib.suppress(OSError, AttributeError):
            libc = ctypes.CDLL(ctypes.util.find_library("c") or "libc.so.6", use_errno=True)
            libc.prctl(PR_SET_PDEATHSIG, signal.SIGTERM, 0, 0, 0)
    threading.Thread(target=_watch, args=(parent,), name="palio-lifeline", daemon=True).start()


def _watch(parent: int) -> None:
    while os.getppid() == parent:
        time.sleep(POLL_SECONDS)
    log.warning("the supervisor (pid %d) is gone: this worker stops", parent)
    os.kill(os.getpid(), signal.SIGTERM)  # uvicorn's graceful shutdown closes the port first
    time.sleep(GRACE_SECONDS)
    os._exit(1)
