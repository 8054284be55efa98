"""CPU per accepted move of each server process that ``benchmarks/cpu_count/sitecustomize.py``
measured: each wrapped function's thread CPU (and calls) over the run, its first three and last
two seconds left out, divided by the moves accepted meanwhile (``GameService.act_as`` calls
that returned). Also the event loop's thread and the whole process.

Usage: python benchmarks/cpu_count/summary.py DIR
"""

from __future__ import annotations

import json
import sys
from pathlib import Path


def main() -> None:
    for path in sorted(Path(sys.argv[1]).glob("cpu-*.jsonl")):
        lines = [json.loads(line) for line in path.read_text().splitlines()]
        made = [line["counts"].get("GameService.act_as", [0, 0])[1] for line in lines]
        if not made or made[-1] == 0:
            continue
        first = next(i for i, m in enumerate(made) if m > 0) + 3
        last = max(i for i in range(1, len(made)) if made[i] > made[i - 1]) - 1
        if last <= first:
            continue
        a, b = lines[first]["counts"], lines[last]["counts"]
        n = made[last] - made[first]
        print(f"{path.name}: {n} moves in {lines[last]['t'] - lines[first]['t']:.0f} s")
        rows = sorted(((b[k][0] - a.get(k, [0, 0])[0], b[k][1] - a.get(k, [0, 0])[1], k)
                       for k in b), reverse=True)
        for seconds, calls, key in rows:
            print(f"{1000 * seconds / n:7.3f} ms {calls / n:6.2f} calls  {key}")


if __name__ == "__main__":
    main()
