"""Random games of one Palio game, for counting the CPU instructions a decision takes, which
unlike CPU time does not move with the machine's load. Run it under valgrind twice, with and
without measured games, and divide the difference by the decisions it prints:

    for n in 16 0; do PYTHONHASHSEED=0 PYTHONPATH=src valgrind --tool=cachegrind \\
        --cache-sim=no --cachegrind-out-file=/dev/null \\
        python benchmarks/random_instructions.py troyes:4 --games $n --warm 20; done

(``I refs`` is the count; PYTHONHASHSEED=0 makes it the same from run to run.) The warm-up
games, played in both runs, fill the per-components caches as a few seconds of play do.
"""

from __future__ import annotations

import argparse
import random
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "src"))

import palio.games as registry  # noqa: E402


def play(game, players: int, seed: int) -> int:
    rng = random.Random(seed)
    state = game.setup(players, seed)
    decisions = 0
    while not state.is_over:
        state.apply_unchecked(rng.choice(state.legal_actions()))
        decisions += 1
    return decisions


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("spec", help="game:players, e.g. troyes:4")
    parser.add_argument("--games", type=int, default=16, help="measured games")
    parser.add_argument("--warm", type=int, default=20, help="warm-up games, not measured")
    args = parser.parse_args()
    game_id, players = args.spec.split(":")
    game = registry.get(game_id)
    for g in range(args.warm):
        play(game, int(players), 900_000 + g)
    print(sum(play(game, int(players), 200_000 + g) for g in range(args.games)), "decisions")


if __name__ == "__main__":
    main()
