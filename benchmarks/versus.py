"""One bot against another at the same budget: win share with a 95% Wilson interval.

    PYTHONPATH=src python benchmarks/versus.py san-gimignano \
        --a "mcts:time_budget=0.05;cpu_time=true" \
        --b "mcts-2026:time_budget=0.05;cpu_time=true" --games 60 --seed 1 --workers 2

Two players: every deal is played twice, each bot in each seat (``palio.sim.arena``), so the
luck of the deal cancels. More: bot A sits in one seat, bot B in every other; seats rotate
from game to game (``palio.sim.simulate``), the deal of game ``i`` from the run seed and ``i``. With two players
the figure is A's share of the wins (a tie for first counts as a half); with more, A's pairwise
rate against the B seats (ahead of one counts 1, level 0.5), whose interval treats the pairs as
independent (they are not within one game, so it is narrower than the truth). Also printed:
each side's mean search iterations per searched move, and so, with ``time_budget`` on the CPU
clock (``cpu_time=true``), what one iteration costs each side.
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from collections.abc import Iterable, Iterator
from pathlib import Path
from typing import IO

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "src"))

import palio.games as registry  # noqa: E402
from palio import sim  # noqa: E402
from palio.bots import parse_spec  # noqa: E402
from palio.bots.network import Model  # noqa: E402
from palio.sim.stats import wilson  # noqa: E402


def main(argv: list[str] | None = None) -> dict:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("game")
    parser.add_argument("--players", "-p", type=int, default=None)
    parser.add_argument("--a", required=True, help="the measured bot's spec (';' between options)")
    parser.add_argument("--b", required=True, help="the opponent's spec")
    parser.add_argument("--games", "-n", type=int, default=60)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--workers", type=int, default=1)
    parser.add_argument("--out", type=Path, default=None, help="JSON lines of every game")
    parser.add_argument("--record", type=Path, default=None,
                        help="a model file (A's): add this measurement to its card, as "
                             "learned_vs_mcts.py --record does (the lobby's levels read it)")
    parser.add_argument("--from", dest="source", type=Path, default=None,
                        help="read the games from an earlier run's --out file instead of "
                             "playing them (e.g. a run on another machine), with the same "
                             "--a, --b, --seed and --games")
    args = parser.parse_args(argv)
    started = time.perf_counter()
    out = args.out.open("w") if args.out else None
    players = args.players or registry.get(args.game).info.min_players
    if args.source is not None:
        results = [json.loads(line) for line in args.source.read_text().splitlines() if line]
    elif players == 2:  # each deal played from both seats: the luck of the deal cancels
        results = sim.arena(args.game, [args.a, args.b], max(1, args.games // 2), players,
                            args.seed, args.workers)
    else:
        results = sim.simulate(args.game, players, args.games, [args.a, args.b], args.seed,
                               args.workers, rotate=True)
    figures = tally(_written(results, out), args.a)
    figures.update(game=args.game, players=players, seed=args.seed, a=args.a, b=args.b,
                   wall_seconds=time.perf_counter() - started)
    low, high = figures["wilson_95"]
    points, pairs, games = figures["points"], figures["pairs"], figures["games"]
    mean = figures["iterations_per_move"]
    what = "wins" if players == 2 else "pairwise"
    print(f"{args.game} {players}p, {games} games, seed {args.seed}: A={args.a} B={args.b}")
    print(f"  A {what} {points:g}/{pairs:g} = {figures['rate']:.1%} "
          f"(95% Wilson {low:.1%}-{high:.1%}); iterations per move A {mean['a']:.0f}, "
          f"B {mean['b']:.0f}; {figures['wall_seconds']:.0f} s wall", flush=True)
    if args.record is not None:
        record(args.record, figures, argv if argv is not None else sys.argv[1:])
    return figures


def _written(results: Iterable[dict], out: IO[str] | None) -> Iterator[dict]:
    for result in results:
        if out:
            out.write(json.dumps(result) + "\n")
            out.flush()
        yield result


def tally(results: Iterable[dict], a: str) -> dict:
    """A's points against every other seat (ahead 1, level 0.5) over ``results`` (games as
    ``palio.sim`` reports them, A's seat found by its spec), the Wilson interval, and each
    side's mean search iterations per searched move."""
    points = pairs = 0.0
    games = 0
    iterations = {"a": [0.0, 0], "b": [0.0, 0]}
    for result in results:
        games += 1
        if a not in result["bots"]:
            raise ValueError(f"game {games} has no seat played by {a!r} (its bots: "
                             f"{', '.join(result['bots'])}): give the --a of the run that wrote it")
        a_seat = result["bots"].index(a)
        ranks = result["ranks"]
        for seat, rank in enumerate(ranks):
            side = "a" if seat == a_seat else "b"
            per_move = result["iterations_per_move"][seat]
            if per_move is not None:
                iterations[side][0] += per_move
                iterations[side][1] += 1
            if seat != a_seat:
                pairs += 1
                points += 1.0 if ranks[a_seat] < rank else 0.5 if ranks[a_seat] == rank else 0.0
    return {"games": games, "points": points, "pairs": pairs,
            "rate": points / pairs if pairs else 0.0, "wilson_95": list(wilson(points, int(pairs))),
            "iterations_per_move": {k: (v[0] / v[1] if v[1] else 0.0)
                                    for k, v in iterations.items()}}


def record(path: Path, figures: dict, argv: list[str]) -> None:
    """Add the measurement to the card of the model file at ``path`` (rewritten in place)."""
    model = Model.load(path)
    entry = {"opponent": parse_spec(figures["b"].replace(";", ","))[0],
             "players": figures["players"], "games": figures["games"], "seed": figures["seed"],
             "a": figures["a"], "b": figures["b"], "pairwise": round(figures["rate"], 4),
             "pairwise_interval": [round(x, 4) for x in figures["wilson_95"]],
             "iterations_per_move": [round(figures["iterations_per_move"][k]) for k in "ab"],
             "command": "benchmarks/versus.py " + " ".join(argv)}
    model.meta.setdefault("card", {}).setdefault("measured", []).append(entry)
    model.save(path)
    print(f"  recorded in the card of {path}")


if __name__ == "__main__":
    main()
