"""Two two-player ``versus.py`` runs on the same deals, compared deal by deal.

    PYTHONPATH=src python benchmarks/paired.py new.jsonl old.jsonl

Each file is the ``--out`` of a two-player ``versus.py`` run. Runs with the same ``--seed`` play
the same deals (``palio.sim.plan.arena_jobs``), each dealt twice, once from each seat. For every
deal both runs finished, A's share of its two games (a tie for first a half) in the first run
minus that in the second: the mean of those differences and its 95% interval (normal
approximation). A is the bot in the first seat of a run's first game (``versus.py``'s ``--a``).
Several seeds' files may be joined first (``cat``): deals are told apart by their own seeds.
"""

from __future__ import annotations

import argparse
import json
import math
import statistics
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "src"))

from palio.sim.stats import Z95, win_shares  # noqa: E402


def deal_shares(path: Path) -> dict[int, float]:
    """Deal seed -> A's share of that deal's two games, for the deals played from both seats."""
    rows = [json.loads(line) for line in path.read_text().splitlines() if line.strip()]
    if not rows or any(row["players"] != 2 for row in rows):
        raise SystemExit(f"{path}: not a two-player versus.py --out file")
    a = next(row["bots"][0] for row in rows if row["index"] == 0)
    points: dict[int, list[float]] = {}
    for row in rows:  # two seats: a win 1, a tie for first 0.5, a loss 0
        points.setdefault(row["seed"], []).append(win_shares(row["ranks"])[row["bots"].index(a)])
    return {seed: sum(won) / 2 for seed, won in points.items() if len(won) == 2}


def main(argv: list[str] | None = None) -> dict:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("first", type=Path)
    parser.add_argument("second", type=Path)
    args = parser.parse_args(argv)
    first, second = deal_shares(args.first), deal_shares(args.second)
    common = sorted(set(first) & set(second))
    if len(common) < 2:
        raise SystemExit("fewer than two deals finished in both runs: run them with one --seed")
    differences = [first[seed] - second[seed] for seed in common]
    mean = statistics.fmean(differences)
    half = Z95 * statistics.stdev(differences) / math.sqrt(len(common))
    figures = {"deals": len(common), "first": statistics.fmean(first[s] for s in common),
               "second": statistics.fmean(second[s] for s in common),
               "difference": mean, "interval_95": [mean - half, mean + half]}
    print(f"{len(common)} deals: A's share {figures['first']:.3f} in the first run, "
          f"{figures['second']:.3f} in the second; difference {mean:+.3f} ± {half:.3f} (95%)")
    return figures


if __name__ == "__main__":
    main()
