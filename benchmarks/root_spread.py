"""How far apart `mcts` values the choices at its root: a diagnostic of whether more time can
change a decision. For positions of a seeded random game (every seventh decision with more than
four choices, six of them spread over the game), it searches each at two CPU budgets and prints
the spread of the root's values (the best child's mean win share minus the worst tried one's)
and of its visits, then the means over the positions:

    PYTHONPATH=src python benchmarks/root_spread.py troyes -p 2 --seed 5
    PYTHONPATH=src python benchmarks/root_spread.py san-gimignano -p 2 --seed 5 --budgets 0.1 0.4

A search whose root values lie within a few hundredths of each other plays close to at random
among its choices, however long it runs.
"""

from __future__ import annotations

import argparse
import random
import statistics
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "src"))

import palio.games as registry  # noqa: E402
from palio.bots.mcts import MctsBot  # noqa: E402


def positions(game, players: int, seed: int, count: int = 6) -> list:
    rng = random.Random(seed)
    state = game.setup(players, seed)
    found = []
    while not state.is_over:
        legal = state.legal_actions()
        if len(legal) > 4 and state.move_number % 7 == 0:
            found.append(state.copy())
        state.apply_unchecked(rng.choice(legal))
    return found[::max(1, len(found) // count)][:count]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("game")
    parser.add_argument("--players", "-p", type=int, default=2)
    parser.add_argument("--seed", type=int, default=5)
    parser.add_argument("--budgets", type=float, nargs="+", default=[0.1, 0.4],
                        help="CPU seconds per search")
    args = parser.parse_args()
    game = registry.get(args.game)
    spreads: dict[float, list[float]] = {b: [] for b in args.budgets}
    for state in positions(game, args.players, args.seed):
        seat = state.to_move
        for budget in args.budgets:
            bot = MctsBot(time_budget=budget, cpu_time=True, seed=1)
            root = bot.search(state, seat)
            tried = [(c.visits, c.total[seat] / c.visits) for c in root.children.values()
                     if c.visits]
            values = [v for _, v in tried]
            spread = max(values) - min(values)
            spreads[budget].append(spread)
            visits = sorted(n for n, _ in tried)
            print(f"decision {state.move_number:4d}: {len(state.legal_actions()):3d} choices, "
                  f"{budget:g} s, {bot.last_stats['iterations']:5d} iterations: values "
                  f"{min(values):.3f}-{max(values):.3f} (spread {spread:.3f}), visits "
                  f"{visits[0]}-{visits[-1]}")
    for budget, found in spreads.items():
        print(f"{args.game} {args.players}p, {budget:g} s: mean spread of root values "
              f"{statistics.mean(found):.3f} over {len(found)} positions")


if __name__ == "__main__":
    main()
