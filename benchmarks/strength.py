"""How strong is a bot? Play many games against other bots, seats rotated, and print figures.

    PYTHONPATH=src python benchmarks/strength.py --game san-gimignano --players 2 \
        --bots mcts,greedy --games 200 --seed 1 --workers 2

A thin use of :mod:`palio.sim` (``palio simulate`` prints the same figures as a table). The
first bot named is the one measured; the others fill the remaining seats in order (the last
one repeated when fewer bots than seats are named). In game ``i`` the measured bot sits at seat
``i % players``. A tie for first counts as a share of a win. Prints each bot's win rate with a
95% Wilson interval and mean score, the mean game length, and the seconds taken.
"""

from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "src"))

from palio import sim  # noqa: E402
from palio.core.errors import PalioError  # noqa: E402


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--game", default="san-gimignano")
    parser.add_argument("--players", type=int, default=2)
    parser.add_argument("--bots", default="mcts,greedy",
                        help="comma-separated; the first is measured (use ';' inside a spec "
                             "for several options, e.g. mcts:iterations=100;c=1)")
    parser.add_argument("--games", type=int, default=200)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--workers", type=int, default=2)
    args = parser.parse_args()
    specs = [s.strip() for s in args.bots.split(",") if s.strip()]
    started = time.perf_counter()
    try:  # everything is checked before any process starts
        results = list(sim.simulate(args.game, args.players, args.games, specs, args.seed,
                                    args.workers))
    except PalioError as exc:
        parser.error(str(exc))
    seconds = time.perf_counter() - started
    summary = sim.summarize(results, order=specs)
    print(f"{args.game} {args.players}p, {summary.games} games, seats rotated, seed {args.seed}")
    for row in summary.bots:
        low, high = row.interval
        print(f"  {row.bot}: wins {row.wins:g}/{row.games} = {row.win_rate:.1%} "
              f"(95% Wilson {low:.1%}-{high:.1%}), mean score {row.mean_score:.1f}")
    print(f"  mean decisions per game {summary.mean_decisions:.0f}")
    print(f"  {seconds:.0f} s with {args.workers} worker(s)")


if __name__ == "__main__":
    main()
