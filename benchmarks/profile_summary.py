"""Where a server's CPU went: a summary of py-spy's collapsed stacks (``--format raw``, as
``benchmarks/load_server.py --profile DIR`` writes them).

The share of samples in each of a few parts of the work (PARTS), then, for each function, the
share of samples in which it is on the stack (inclusive) and on top (its own time).

Usage: python benchmarks/profile_summary.py DIR/run0-server0.txt [--top 40]
"""

from __future__ import annotations

import argparse
import re
from collections import Counter
from pathlib import Path

# the parts of a server's work, each by a function on the stack; the first part that
# matches a sample takes it (so the order matters: the innermost concerns first)
PARTS = [
    ("handing work to a worker thread (anyio)", ("Queue.put_nowait", "Queue.get ", "Condition.")),
    ("views for each seat (rendering, words)", ("LiveGame._build_view",)),
    ("the move's checks and transaction", ("GameService.act",)),
    ("loading a game or seat (service.get)", ("GameService.get",)),
    ("JSON", ("json/encoder.py", "json/decoder.py", "JSONResponse.render")),
    ("WebSocket send (compression, frames)", ("WebSocket.send",)),
    ("HTTP, routing and middleware (uvicorn, starlette, fastapi, palio's middleware)",
     ("uvicorn/", "starlette/", "fastapi/")),
]


def part_of(frames: list[str]) -> str:
    joined = ";".join(frames)
    for name, markers in PARTS:
        if name.startswith("HTTP") and "(palio/" in frames[-1]:
            return "other palio code"  # palio's own work under a request, in no part above
        if any(marker in joined for marker in markers):
            return name
    return "other"


def frame_name(frame: str) -> str:
    """``fn (path/to/file.py:12)`` -> ``fn (palio/x/y.py)``: lines merged."""
    match = re.match(r"(.*?) \((.*?)(?::\d+)?\)$", frame.strip())
    if not match:
        return frame.strip()
    name, path = match.groups()
    for marker in ("/site-packages/", "/src/", "/lib/python3"):
        if marker in path:
            path = path.split(marker, 1)[1]
            break
    return f"{name} ({path})"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("path", type=Path)
    parser.add_argument("--top", type=int, default=40)
    args = parser.parse_args()
    inclusive: Counter[str] = Counter()
    own: Counter[str] = Counter()
    parts: Counter[str] = Counter()
    total = 0
    for line in args.path.read_text().splitlines():
        stack, _, count_text = line.rpartition(" ")
        if not stack:
            continue
        count = int(count_text)
        frames = [frame_name(f) for f in stack.split(";")]
        total += count
        for name in set(frames):
            inclusive[name] += count
        own[frames[-1]] += count
        parts[part_of(frames)] += count
    print(f"{total} samples")
    print("parts (each sample counted once, in the first part that matches):")
    for name, count in parts.most_common():
        print(f"  {100 * count / total:5.1f}%  {name}")
    print("inclusive (on the stack):")
    for name, count in inclusive.most_common(args.top):
        print(f"  {100 * count / total:5.1f}%  {name}")
    print("own (on top of the stack):")
    for name, count in own.most_common(args.top):
        print(f"  {100 * count / total:5.1f}%  {name}")


if __name__ == "__main__":
    main()
