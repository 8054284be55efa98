"""The ``learned`` bot against ``mcts`` at the same time per move (docs/bots.md, issue 15).

    PYTHONPATH=src python benchmarks/learned_vs_mcts.py san-gimignano --games 200 \
        --time-per-move 0.1 --seed 1 --workers 2 --out sg-0.1.jsonl

One ``learned`` seat, ``mcts`` in every other seat, each with ``time_budget`` T; seats rotate
from game to game (``palio.sim.simulate``), the deal of game ``i`` from the run seed and ``i``.
Prints ``learned``'s win rate (a tie for first counts as a share; with P players an equal bot
wins 1/P) and its pairwise rate against each ``mcts`` seat (finishing ahead of it counts 1, level
0.5; an equal bot scores 50%), each with a 95% Wilson interval. The interval of the pairwise
rate treats pairs as independent, which they are not within one game of three or more players,
so there it is narrower than the truth. The JSON lines of every game go to ``--out``.

Time budgets make results depend on the machine and its load (both bots lose iterations alike
on a busy machine), so the mean search iterations per move of each side are printed too;
``--model`` plays another model file than the shipped one, ``--learned-option mix=0.5`` gives
the ``learned`` bot another option (recorded with the measurement).
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "src"))

from palio import sim  # noqa: E402
from palio.sim.stats import wilson, win_shares  # noqa: E402


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("game")
    parser.add_argument("--players", "-p", type=int, default=None)
    parser.add_argument("--games", "-n", type=int, default=200)
    parser.add_argument("--time-per-move", type=float, default=0.1)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--workers", type=int, default=1)
    parser.add_argument("--model", default=None, help="model file (default: the shipped one)")
    parser.add_argument("--learned-option", action="append", default=[], metavar="KEY=VALUE",
                        help="another option of the learned bot, e.g. mix=0.5 (repeatable)")
    parser.add_argument("--out", type=Path, default=None, help="JSON lines of every game")
    parser.add_argument("--record", action="store_true",
                        help="write the result into the model file's card (--model, else the "
                             "shipped file); the expert level reads it")
    args = parser.parse_args()
    learned = f"learned:time_budget={args.time_per_move}"
    if args.model:
        learned += f",model={args.model}"
    for option in args.learned_option:
        learned += f",{option}"
    mcts = f"mcts:time_budget={args.time_per_move}"
    started = time.perf_counter()
    results = []
    out = args.out.open("w") if args.out else None
    for result in sim.simulate(args.game, args.players, args.games, [learned, mcts], args.seed,
                               args.workers, rotate=True):
        results.append(result)
        if out:
            out.write(json.dumps(result) + "\n")
            out.flush()
        print(f"\r{len(results)}/{args.games} games", end="", file=sys.stderr, flush=True)
    print(file=sys.stderr)
    seconds = time.perf_counter() - started
    measured = report(results, learned, args, seconds)
    if args.record:
        record(args, measured)


def report(results: list[dict], learned: str, args: argparse.Namespace, seconds: float) -> dict:
    wins = pairs = pair_wins = 0.0
    learned_scores, other_scores = [], []
    learned_iterations, other_iterations = [], []
    for r in results:
        shares = win_shares(r["ranks"])
        seat = r["bots"].index(learned)
        wins += shares[seat]
        learned_scores.append(r["scores"][seat])
        searched = r.get("iterations_per_move") or [None] * len(r["bots"])
        if searched[seat] is not None:
            learned_iterations.append(searched[seat])
        for other in range(len(r["bots"])):
            if other == seat:
                continue
            other_scores.append(r["scores"][other])
            if searched[other] is not None:
                other_iterations.append(searched[other])
            pairs += 1
            mine, theirs = r["ranks"][seat], r["ranks"][other]
            pair_wins += 1.0 if mine < theirs else 0.5 if mine == theirs else 0.0
    n = len(results)
    players = results[0]["players"]
    low, high = wilson(wins, n)
    plow, phigh = wilson(pair_wins, int(pairs))
    print(f"{args.game}, {players} players, {n} games, {args.time_per_move:g} s per move, "
          f"seed {args.seed}")
    print(f"learned win rate {wins / n:.1%} (95% {low:.1%}-{high:.1%}; an equal bot: "
          f"{1 / players:.1%})")
    print(f"learned ahead of an mcts seat {pair_wins / pairs:.1%} of {int(pairs)} pairs "
          f"(95% {plow:.1%}-{phigh:.1%}; an equal bot: 50%)")
    print(f"mean score learned {sum(learned_scores) / n:.1f}, mcts "
          f"{sum(other_scores) / len(other_scores):.1f}; mean length "
          f"{sum(r['decisions'] for r in results) / n:.0f} decisions; {seconds:.0f} s wall with "
          f"{args.workers} worker(s)")
    if learned_iterations and other_iterations:
        print(f"search iterations per move (mean over games): learned "
              f"{sum(learned_iterations) / len(learned_iterations):.0f}, mcts "
              f"{sum(other_iterations) / len(other_iterations):.0f}")
    return {"opponent": "mcts", "players": players, "games": n, "seed": args.seed,
            "time_per_move": args.time_per_move, "win_share": round(wins / n, 4),
            "pairwise": round(pair_wins / pairs, 4),
            "pairwise_interval": [round(plow, 4), round(phigh, 4)],
            "iterations_per_move": [
                round(sum(v) / len(v)) if v else None
                for v in (learned_iterations, other_iterations)],
            "command": " ".join(sys.argv[1:])}


def record(args: argparse.Namespace, measured: dict) -> None:
    """Add the measurement to the model card (the file is rewritten in place)."""
    from palio.bots.network import MODELS_PACKAGE, Model, shipped_name
    from palio.games import get

    game = get(args.game)
    players = measured["players"]
    if args.model:
        path = Path(args.model)
    else:
        package = Path(__file__).resolve().parents[1] / "src" / MODELS_PACKAGE.replace(".", "/")
        path = package / shipped_name(game.info.id, players)
    model = Model.load(path)
    model.meta.setdefault("card", {}).setdefault("measured", []).append(measured)
    model.save(path)
    print(f"recorded in the card of {path}")


if __name__ == "__main__":
    main()
