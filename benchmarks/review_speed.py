"""How long a whole-game review takes, how much two seeds disagree, and what the budget buys.

    PYTHONPATH=src python benchmarks/review_speed.py [--games san-gimignano:2,tiletum:4]
        [--iterations 400] [--ten-sample 12] [--seed 1]

For each game (``id:players``): one game played by ``--bot`` (``mcts:iterations=200``), then
reviewed twice at the budget (seeds ``seed`` and ``seed + 1``), timed in CPU seconds (this
process and its finished ``--workers`` processes together, so a shared machine does not
inflate them; ``wall`` is the wall clock as well); the spread between the two reviews (mean and largest difference of a decision's
loss, how often the preferred choice and the class agree); then ``--ten-sample`` decisions
reviewed at ten times the budget, and how often the budget's review agrees with it (same
preferred choice, same class, mean loss difference). One JSON line per game, then a table.
"""

from __future__ import annotations

import argparse
import json
import random
import resource
import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "src"))

import palio  # noqa: E402
from palio import bots  # noqa: E402
from palio.core.record import GameRecord  # noqa: E402
from palio.review import Budget, iterations_for, review  # noqa: E402


def played_game(game_id: str, players: int, seed: int, bot: str) -> GameRecord:
    state = palio.new_game(game_id, players=players, seed=seed)
    seats = [bots.get(bot, seed=seed + i) for i in range(players)]
    while not state.is_over:
        state.apply(seats[state.to_move].choose(state, state.to_move))
    return GameRecord.of(state)


def cpu_seconds() -> float:
    """CPU seconds of this process and of its children that have finished."""
    children = resource.getrusage(resource.RUSAGE_CHILDREN)
    return time.process_time() + children.ru_utime + children.ru_stime


def searched(result: dict) -> dict[int, dict]:
    return {d["move"]: d for d in result["decisions"] if not d["forced"]}


def two_reviews(record: GameRecord, budget: Budget, seed: int, workers: int = 1,
                moves: list[int] | None = None) -> tuple[list[dict], list[float], list[float]]:
    """The game reviewed with seeds ``seed`` and ``seed + 1`` (only ``moves`` where given):
    the reviews, their CPU seconds and wall seconds."""
    runs, seconds, wall = [], [], []
    for k in range(2):
        started, clock = cpu_seconds(), time.perf_counter()
        runs.append(review(record, budget=budget, seed=seed + k, workers=workers, moves=moves))
        seconds.append(round(cpu_seconds() - started, 1))
        wall.append(round(time.perf_counter() - clock, 1))
    return runs, seconds, wall


def compare(a: dict, b: dict) -> dict:
    """Agreement of two reviews over the decisions both searched."""
    left, right = searched(a), searched(b)
    common = sorted(set(left) & set(right))
    if not common:
        return {"decisions": 0}
    diffs = [abs(left[m]["loss"] - right[m]["loss"]) for m in common]
    return {
        "decisions": len(common),
        "mean_loss_difference": round(statistics.fmean(diffs), 4),
        "max_loss_difference": round(max(diffs), 4),
        "same_best": round(sum(left[m]["best"]["notation"] == right[m]["best"]["notation"]
                               for m in common) / len(common), 3),
        "same_class": round(sum(left[m]["class"] == right[m]["class"] for m in common)
                            / len(common), 3),
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", default="san-gimignano:2,tiletum:4,aquileia:3,signorie:2,"
                        "troyes:2")
    parser.add_argument("--iterations", type=int, default=None,
                        help="a decision's budget (default: the review's for the game, "
                        "palio.review.iterations_for)")
    parser.add_argument("--ten-sample", type=int, default=12,
                        help="decisions reviewed at ten times the budget (0: none)")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--workers", type=int, default=1,
                        help="processes per review (2: the two-core figure)")
    parser.add_argument("--bot", default="mcts:iterations=200",
                        help="the bot that plays the reviewed games (greedy: more mistakes)")
    args = parser.parse_args()
    rows = []
    for spec in args.games.split(","):
        game_id, _, players = spec.partition(":")
        record = played_game(game_id, int(players or 2), args.seed, args.bot)
        budget = Budget(iterations=args.iterations
                        or iterations_for(game_id, record.players))
        runs, seconds, wall = two_reviews(record, budget, args.seed, args.workers)
        row = {"game": game_id, "players": record.players, "decisions": len(record.actions),
               "engine": runs[0]["engine"]["bot"], "played_by": args.bot,
               "workers": args.workers,
               "flagged": [sum(1 for d in r["decisions"] if d["class"]) for r in runs], "iterations": budget.iterations,
               "cpu_seconds": seconds, "wall_seconds": wall,
               "checked_again": [sum(1 for d in r["decisions"] if d.get("checked")) for r in runs],
               "two_seeds": compare(runs[0], runs[1])}
        if args.ten_sample:
            moves = sorted(searched(runs[0]))
            sample = sorted(random.Random(args.seed).sample(moves, min(args.ten_sample,
                                                                       len(moves))))
            started = cpu_seconds()
            ten = review(record, budget=budget.times(10),
                         seed=args.seed + 7, moves=sample, workers=args.workers)
            row["ten_times"] = {**compare(runs[0], ten),
                                "cpu_seconds": round(cpu_seconds() - started, 1)}
        rows.append(row)
        print(json.dumps(row), flush=True)
    print(f"\n{'game':16} {'p':>2} {'moves':>5} {'engine':8} {'CPU s (two runs)':>18} "
          f"{'wall s':>14} {'2-seed mean|max loss diff':>26} {'10x: same best / class':>23}")
    for row in rows:
        two = row["two_seeds"]
        ten = row.get("ten_times", {})
        print(f"{row['game']:16} {row['players']:>2} {row['decisions']:>5} {row['engine']:8} "
              f"{str(row['cpu_seconds']):>18} {str(row['wall_seconds']):>14} "
              f"{two.get('mean_loss_difference', '-')!s:>12} | {two.get('max_loss_difference', '-')!s:<11} "
              f"{ten.get('same_best', '-')!s:>11} / {ten.get('same_class', '-')!s:<8}")


if __name__ == "__main__":
    main()
