"""Random decisions per CPU-second of Palio games next to OpenSpiel's pure-Python tic-tac-toe,
each measurement stopped after a fixed amount of this process's CPU time (not wall time), so a
loaded machine changes the figures little and the ratio less.

    PYTHONPATH=src python benchmarks/random_speed.py troyes:2 troyes:3 troyes:4 --cpu 3 --seed 1

Tic-tac-toe is measured before and after the games; each ratio is against their mean.
"""

from __future__ import annotations

import argparse
import random
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "src"))

import palio.games as registry  # noqa: E402


def palio_rate(game_id: str, players: int, cpu: float, seed: int) -> tuple[float, int]:
    game = registry.get(game_id)
    rng = random.Random(seed)
    decisions = games = 0
    started = time.process_time()
    while time.process_time() - started < cpu:
        state = game.setup(players, seed + games)
        while not state.is_over:
            state.apply_unchecked(rng.choice(state.legal_actions()))
            decisions += 1
        games += 1
    return decisions / (time.process_time() - started), games


def tic_tac_toe_rate(cpu: float, seed: int) -> float:
    import open_spiel.python.games  # noqa: F401  (registers the python_* games)
    import pyspiel

    game = pyspiel.load_game("python_tic_tac_toe")
    rng = random.Random(seed)
    decisions = 0
    started = time.process_time()
    while time.process_time() - started < cpu:
        state = game.new_initial_state()
        while not state.is_terminal():
            state.apply_action(rng.choice(state.legal_actions()))
            decisions += 1
    return decisions / (time.process_time() - started)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("games", nargs="+", help="game:players, e.g. troyes:4")
    parser.add_argument("--cpu", type=float, default=3.0, help="CPU seconds per measurement")
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args()
    for spec in args.games:  # warm up: imports and per-game caches are not measured
        game_id, players = spec.split(":")
        palio_rate(game_id, int(players), 0.2, args.seed)
    before = tic_tac_toe_rate(args.cpu, args.seed)
    rates = {}
    for spec in args.games:
        game_id, players = spec.split(":")
        rates[spec] = palio_rate(game_id, int(players), args.cpu, args.seed)
    after = tic_tac_toe_rate(args.cpu, args.seed)
    yardstick = (before + after) / 2
    print(f"tic-tac-toe: {before:,.0f} and {after:,.0f} decisions per CPU-s (before, after)")
    for spec, (rate, games) in rates.items():
        print(f"{spec}: {rate:,.0f} decisions per CPU-s ({games} games), "
              f"{rate / yardstick:.2f}x tic-tac-toe")


if __name__ == "__main__":
    main()
