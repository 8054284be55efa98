"""Statements and commands per accepted move of each server process that
``benchmarks/sql_count/sitecustomize.py`` counted: the counts' growth over the run (its first
two and last two seconds left out) divided by the actions inserted meanwhile.

Usage: python benchmarks/sql_count/summary.py DIR
"""

from __future__ import annotations

import json
import sys
from pathlib import Path


def moves(counts: dict[str, int]) -> int:
    """Actions inserted: on their own, or (PostgreSQL since pg34) in a move's one statement,
    ``WITH bumped AS (UPDATE games ...) INSERT INTO actions ...``."""
    return sum(v for k, v in counts.items()
               if k.startswith(("sql INSERT INTO actions", "sql WITH bumped AS")))


def main() -> None:
    for path in sorted(Path(sys.argv[1]).glob("sql-*.jsonl")):
        lines = [json.loads(line) for line in path.read_text().splitlines()]
        made = [moves(line["counts"]) for line in lines]
        if not made or made[-1] == 0:
            continue  # not a server (the conductor, the client)
        first = next(i for i, m in enumerate(made) if m > 0) + 2
        last = max(i for i in range(1, len(made)) if made[i] > made[i - 1]) - 1
        a, b = lines[first]["counts"], lines[last]["counts"]
        n = moves(b) - moves(a)
        print(f"{path.name}: {n} moves")
        for key in sorted(b, key=lambda k: -(b[k] - a.get(k, 0))):
            if b[key] - a.get(key, 0):
                print(f"{(b[key] - a.get(key, 0)) / n:7.3f}  {key}")


if __name__ == "__main__":
    main()
