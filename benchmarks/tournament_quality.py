"""Seat balance and repeat meetings of simulated tournaments (random results), 30 seeds from
FIRST for a few formats and sizes; docs/tournaments.md quotes two runs.

    PYTHONPATH=src python benchmarks/tournament_quality.py FIRST
"""

from __future__ import annotations

import sys

from palio.tournament.simulate import simulate

CASES = [("swiss", 12, 3, 4), ("swiss", 20, 4, 5), ("swiss", 10, 2, 5),
         ("swiss", 10, 3, 5), ("roundrobin", 9, 3, 4), ("arena", 12, 3, 4)]


def main(first: int) -> None:
    for fmt, players, seats, rounds in CASES:
        balanced = repeats = 0
        for seed in range(first, first + 30):
            sim = simulate(fmt, players, seats, rounds, seed)
            repeats += sim.repeats()
            balanced += sim.seat_spread() <= 1
        print(f"{fmt} {players} entrants, {seats} seats, {rounds} rounds, seeds {first}-"
              f"{first + 29}: seats within one in {balanced}/30, repeat meetings {repeats}")


if __name__ == "__main__":
    main(int(sys.argv[1]))
