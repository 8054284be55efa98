"""Where games run: local worker processes, or Ray remote tasks.

Both backends take the same :class:`~palio.sim.jobs.GameJob` list, call the same
:func:`~palio.sim.jobs.play_job`, and yield each result as soon as its game finishes (so in
finishing order, not index order). A ``stop`` event ends a run early: no further result is
yielded, pending games are cancelled and running ones killed.
"""

from __future__ import annotations

import multiprocessing
import signal
import threading
from collections.abc import Callable, Iterator, Sequence
from typing import Any

from palio.core.errors import OptionError
from palio.sim.jobs import play_job

BACKENDS = ("process", "ray")
POLL_SECONDS = 0.1  # how often a waiting run looks at its stop event
RAY_MISSING = "the ray backend needs Ray: pip install 'palio[ray]'"


def check_backend(backend: str, address: str | None) -> None:
    """A clear error for an unknown backend, a missing Ray, or an address without Ray."""
    if backend not in BACKENDS:
        raise OptionError(f"unknown backend {backend!r}; choose one of {', '.join(BACKENDS)}")
    if address is not None and backend != "ray":
        raise OptionError("--address names a Ray cluster; use it with --backend ray")
    if backend == "ray":
        import_ray()


def import_ray() -> Any:
    try:
        import ray
    except ImportError:
        raise OptionError(RAY_MISSING) from None
    return ray


def run_jobs(jobs: Sequence[Any], workers: int = 1, backend: str = "process",
             address: str | None = None, stop: threading.Event | None = None,
             function: Callable[[Any], dict[str, Any]] = play_job) -> Iterator[dict[str, Any]]:
    """Play ``jobs`` on ``backend``; yield each result as its game finishes.

    ``function`` plays one job (by default a :class:`GameJob` with :func:`play_job`; self-play
    training passes its own); it must be a module-level function, so workers can import it."""
    check_backend(backend, address)
    if workers < 1:
        raise OptionError(f"workers must be at least 1, not {workers}")
    stop = stop or threading.Event()
    if not jobs:
        return iter(())
    if backend == "ray":
        return _run_on_ray(jobs, workers, address, stop, function)
    return _run_in_processes(jobs, workers, stop, function)


def _ignore_sigint() -> None:
    # Ctrl-C reaches the whole process group; only the parent decides what it means
    signal.signal(signal.SIGINT, signal.SIG_IGN)


def _run_in_processes(jobs: Sequence[Any], workers: int, stop: threading.Event,
                      function: Callable[[Any], dict[str, Any]]) -> Iterator[dict[str, Any]]:
    # forkserver: workers never inherit the threads of the parent (progress bar, pool handlers)
    context = multiprocessing.get_context("forkserver")
    pool = context.Pool(min(workers, len(jobs)), initializer=_ignore_sigint)
    try:
        results = pool.imap_unordered(function, jobs, chunksize=1)
        for _ in range(len(jobs)):
            result = _next_or_stop(results, stop)
            if result is None:
                return
            yield result
    finally:
        pool.terminate()  # kills games still running after a stop; a no-op once all are done
        pool.join()


def _next_or_stop(results: Any, stop: threading.Event) -> dict[str, Any] | None:
    """The next finished result, or ``None`` once ``stop`` is set."""
    while not stop.is_set():
        try:
            return results.next(timeout=POLL_SECONDS)
        except multiprocessing.TimeoutError:
            continue
    return None


def _run_on_ray(jobs: Sequence[Any], workers: int, address: str | None,
                stop: threading.Event, function: Callable[[Any], dict[str, Any]]
                ) -> Iterator[dict[str, Any]]:
    ray = import_ray()
    started_here = not ray.is_initialized()
    if started_here:
        if address is None:  # a local cluster sized like the process pool
            ray.init(num_cpus=workers, include_dashboard=False, log_to_driver=False)
        else:
            ray.init(address=address, log_to_driver=False)
    remote_play = ray.remote(num_cpus=1)(function)
    pending = [remote_play.remote(job) for job in jobs]
    try:
        while pending and not stop.is_set():
            done, pending = ray.wait(pending, num_returns=1, timeout=POLL_SECONDS)
            for ref in done:
                yield ray.get(ref)
    finally:
        for ref in pending:
            ray.cancel(ref, force=True)
        if started_here:
            ray.shutdown()
