"""Repeat meetings and seat balance of Swiss pairing over seeded random tournaments
(random results, no withdrawals unless asked), per configuration, with the CPU time spent.

    PYTHONPATH=src python benchmarks/pairing_quality.py [SEEDS] [FIRST] [--churn]

SEEDS tournaments per configuration (default 100) from seed FIRST (default 1); ``--churn``
adds one withdrawal and one late entry at random to each tournament. A "seat violation" is a
tournament that ends with some entrant's seat counts two or more apart; "entrants off" counts
such entrants over all tournaments (13 at 3 seats over 4 rounds needs at least one a
tournament: its 12 sittings in the third seat cannot give each of 13 entrants one).
"""

from __future__ import annotations

import sys
import time

from palio.tournament.simulate import simulate

# (players, seats, rounds); 13 at 3 seats mixes tables of 3 and 2
CONFIGS = [(12, 3, 4), (10, 2, 5), (15, 3, 5), (16, 4, 4), (20, 5, 4), (13, 3, 4)]


def main(argv: list[str]) -> None:
    args = [a for a in argv if not a.startswith("--")]
    churn = "--churn" in argv
    seeds = int(args[0]) if args else 100
    first = int(args[1]) if len(args) > 1 else 1
    print(f"seeds {first}-{first + seeds - 1}{', churn' if churn else ''}")
    print(f"{'config (p, k, r)':<18}{'tourn.':>7}{'w/ repeat':>10}{'repeats':>9}"
          f"{'seat viol.':>11}{'entrants off':>13}{'CPU s':>8}{'CPU s/round':>12}")
    for players, seats, rounds in CONFIGS:
        with_repeat = total = violations = off = 0
        start = time.process_time()
        for seed in range(first, first + seeds):
            sim = simulate("swiss", players, seats, rounds, seed,
                           withdrawals=int(churn), late=int(churn))
            total += sim.repeats()
            with_repeat += sim.repeats() > 0
            violations += sim.seat_spread() > 1
            off += sum(max(c) - min(c) > 1 for c in sim.history().seat_counts.values())
        cpu = time.process_time() - start
        print(f"{f'({players}, {seats}, {rounds})':<18}{seeds:>7}{with_repeat:>10}{total:>9}"
              f"{violations:>11}{off:>13}{cpu:>8.1f}{cpu / (seeds * rounds):>12.4f}")


if __name__ == "__main__":
    main(sys.argv[1:])
