"""What the ``palio`` command line costs before a command does anything, and how long
``palio serve`` takes to answer (issue 34).

Each figure is a fresh interpreter, ``PYTHONPATH`` set to each ``--src`` folder in turn (runs
alternate between them, so that a change of load hits both alike):

- ``palio --help``, ``palio play --help``, ``palio users --help``, ``palio serve --help``: the process's CPU time
  (user + system, from ``os.wait4``);
- import: ``import palio.cli; import palio.cli.serve`` timed with ``time.process_time()``
  inside the process: what ``palio serve`` imports before its own code runs;
- ``--serve``: ``python -m palio serve`` on a new SQLite file in a temporary folder, from the
  start of the process to its first 200 answer to ``GET /api/bots`` (the URL that
  ``palio.server.base.process.wait_until_ready`` polls; polled every 20 ms): wall time, and the
  CPU time of the server and its child processes read from ``/proc`` at that moment.

    python benchmarks/cli_start.py --src src --src /tmp/before/src --runs 3 --serve
"""

from __future__ import annotations

import argparse
import os
import socket
import subprocess
import sys
import tempfile
import time
import urllib.error
import urllib.request
from pathlib import Path

RUN_PALIO = "import sys; from palio.cli import app; sys.argv[0] = 'palio'; app()"
IMPORT_SERVE = ("import time; t = time.process_time(); import palio.cli; import palio.cli.serve; "
                "print(time.process_time() - t)")
TICKS = os.sysconf("SC_CLK_TCK")


def environment(src: str) -> dict[str, str]:
    return {**os.environ, "PYTHONPATH": str(Path(src).resolve()), "COLUMNS": "100"}


def child_cpu(args: list[str], env: dict[str, str]) -> float:
    """CPU seconds (user + system) of one run of ``args``, its output discarded."""
    process = subprocess.Popen(args, env=env, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    _, status, usage = os.wait4(process.pid, 0)
    process.returncode = os.waitstatus_to_exitcode(status)
    if process.returncode != 0:
        raise RuntimeError(f"{args} exited with {process.returncode}")
    return usage.ru_utime + usage.ru_stime


def import_cpu(env: dict[str, str]) -> float:
    done = subprocess.run([sys.executable, "-c", IMPORT_SERVE], env=env, capture_output=True,
                          text=True, check=True)
    return float(done.stdout.strip())


def tree_cpu(pid: int) -> float:
    """CPU seconds of a process and its living descendants, from /proc."""
    total = 0.0
    try:
        fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
        total += (int(fields[11]) + int(fields[12]) + int(fields[13]) + int(fields[14])) / TICKS
        children = Path(f"/proc/{pid}/task/{pid}/children").read_text().split()
    except OSError:
        return total
    return total + sum(tree_cpu(int(child)) for child in children)


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]


def serve_until_ready(env: dict[str, str]) -> tuple[float, float]:
    """Wall and CPU seconds from the start of ``python -m palio serve`` to its first answer."""
    port = free_port()
    with tempfile.TemporaryDirectory() as folder:
        start = time.monotonic()
        process = subprocess.Popen(
            [sys.executable, "-m", "palio", "serve", "--db", f"{folder}/palio.db",
             "--host", "127.0.0.1", "--port", str(port), "--log-level", "warning"],
            env=env, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        try:
            while True:
                if process.poll() is not None:
                    raise RuntimeError("palio serve exited before answering")
                try:
                    with urllib.request.urlopen(f"http://127.0.0.1:{port}/api/bots", timeout=1) as reply:
                        if reply.status == 200:
                            return time.monotonic() - start, tree_cpu(process.pid)
                except (urllib.error.URLError, ConnectionError, TimeoutError):
                    pass
                if time.monotonic() - start > 120:
                    raise RuntimeError("palio serve did not answer in 120 s")
                time.sleep(0.02)
        finally:
            process.terminate()
            process.wait(30)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--src", action="append", required=True, help="a palio source folder")
    parser.add_argument("--runs", type=int, default=3)
    parser.add_argument("--serve", action="store_true", help="also time palio serve to its answer")
    args = parser.parse_args()
    cases = {f"palio {words} --help".replace("  ", " "): [sys.executable, "-c", RUN_PALIO,
                                                        *words.split(), "--help"]
             for words in ("", "play", "users", "serve")}
    figures: dict[tuple[str, str], list[str]] = {}
    for _ in range(args.runs):
        for src in args.src:
            env = environment(src)
            for name, command in cases.items():
                figures.setdefault((src, name), []).append(f"{child_cpu(command, env):.2f}")
            figures.setdefault((src, "import (CPU-s)"), []).append(f"{import_cpu(env):.2f}")
            if args.serve:
                wall, cpu = serve_until_ready(env)
                figures.setdefault((src, "serve to answer (wall s / CPU-s)"), []).append(
                    f"{wall:.2f}/{cpu:.2f}")
    print(f"load average {os.getloadavg()[0]:.2f} {os.getloadavg()[1]:.2f}")
    for (src, name), values in figures.items():
        print(f"{src:24} {name:34} {', '.join(values)}")


if __name__ == "__main__":
    main()
