"""How strong is a bot? Play many games against other bots, seats rotated, and print figures.

    PYTHONPATH=src python benchmarks/strength.py --game san-gimignano --players 2 \
        --bots mcts,greedy --games 200 --seed 1 --workers 2

The first bot named is the one measured; the others fill the remaining seats in order (the
last one repeated when fewer bots than seats are named). In game ``i`` the measured bot sits
at seat ``i % players``. A tie for first counts as a share of a win. Prints the measured bot's
win rate with a 95% Wilson interval, every role's mean score, and the seconds taken.
"""

from __future__ import annotations

import argparse
import math
import multiprocessing
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "src"))

import palio  # noqa: E402
from palio import bots  # noqa: E402


def wilson(wins: float, n: int, z: float = 1.96) -> tuple[float, float]:
    if n == 0:
        return 0.0, 1.0
    p = wins / n
    centre = (p + z * z / (2 * n)) / (1 + z * z / n)
    half = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / (1 + z * z / n)
    return max(0.0, centre - half), min(1.0, centre + half)


def play(job: tuple[str, int, list[str], int, int]) -> dict:
    """One game; returns per role (index into the bots list) its share of the win and score."""
    game, players, specs, seed, index = job
    roles = [min(r, len(specs) - 1) for r in range(players)]  # role of each relative seat
    offset = index % players
    # seat -> role: the measured bot (role 0) at seat `offset`, the others after it
    seat_role = {(offset + r) % players: r for r in range(players)}
    agents = {seat: bots.get(specs[roles[role]], seed=seed * 7919 + seat)
              for seat, role in seat_role.items()}
    state = palio.new_game(game, players=players, seed=seed)
    search_iterations = 0
    search_seconds = 0.0
    while not state.is_over:
        seat = state.to_move
        agent = agents[seat]
        state.apply_unchecked(agent.choose(state, seat))
        stats = getattr(agent, "last_stats", None)
        if stats is not None and seat_role[seat] == 0:
            search_iterations += stats["iterations"]
            search_seconds += stats["seconds"]
    returns = state.returns()
    scores = state.scores()
    return {
        "share": returns[offset],
        "scores": {seat_role[s]: scores[s] for s in range(players)},
        "iterations": search_iterations,
        "search_seconds": search_seconds,
        "moves": state.move_number,
    }


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
    specs = [s.strip().replace(";", ",") for s in args.bots.split(",") if s.strip()]
    for spec in specs:
        bots.get(spec)  # a bad name fails here, before any process starts
    jobs = [(args.game, args.players, specs, args.seed * 1_000_003 + i, i) for i in range(args.games)]
    started = time.perf_counter()
    if args.workers > 1:
        with multiprocessing.Pool(args.workers) as pool:
            results = list(pool.imap_unordered(play, jobs))
    else:
        results = [play(job) for job in jobs]
    seconds = time.perf_counter() - started
    n = len(results)
    wins = sum(r["share"] for r in results)
    low, high = wilson(wins, n)
    roles = [f"{specs[min(r, len(specs) - 1)]}" for r in range(args.players)]
    print(f"{args.game} {args.players}p, {n} games, seats rotated, seed {args.seed}")
    print(f"{specs[0]} wins {wins:g}/{n} = {wins / n:.1%} (95% Wilson {low:.1%}-{high:.1%})")
    for role in range(args.players):
        mean = sum(r["scores"][role] for r in results) / n
        print(f"  role {role} ({roles[role]}): mean score {mean:.1f}")
    iterations = sum(r["iterations"] for r in results)
    search = sum(r["search_seconds"] for r in results)
    if iterations:
        print(f"  {specs[0]} search: {iterations / search:.0f} iterations/s")
    print(f"  mean decisions per game {sum(r['moves'] for r in results) / n:.0f}")
    print(f"  {seconds:.0f} s with {args.workers} worker(s)")


if __name__ == "__main__":
    main()
