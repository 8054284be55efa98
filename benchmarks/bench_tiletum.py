"""Random playouts of Tiletum: decisions per second and games per second on one core.

Usage: PYTHONPATH=src python benchmarks/bench_tiletum.py [games] [players]
"""

from __future__ import annotations

import random
import sys
import time

from palio.games.tiletum import GAME


def playout(players: int, seed: int) -> int:
    state = GAME.setup(players, seed)
    rng = random.Random(seed)
    steps = 0
    while not state.is_over:
        state.apply_unchecked(rng.choice(state.legal_actions()))
        steps += 1
    return steps


def main() -> None:
    games = int(sys.argv[1]) if len(sys.argv) > 1 else 50
    players = int(sys.argv[2]) if len(sys.argv) > 2 else 4
    start = time.perf_counter()
    steps = sum(playout(players, seed) for seed in range(games))
    elapsed = time.perf_counter() - start
    print(f"{games} {players}-player games, {steps} decisions in {elapsed:.2f}s: "
          f"{steps / elapsed:.0f} decisions/s, {games / elapsed:.1f} games/s")


if __name__ == "__main__":
    main()
