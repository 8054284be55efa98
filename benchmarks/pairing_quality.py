"""Repeat meetings and seat balance of Swiss pairing over seeded random tournaments
(random results, no withdrawals unless asked), per configuration, with the CPU time spent.

    PYTHONPATH=src python benchmarks/pairing_quality.py [SEEDS] [FIRST] [--churn] [--only=P,K,R,L]

SEEDS tournaments per configuration (default 100) from seed FIRST (default 1); ``--churn``
adds one withdrawal and one late entry at random to each tournament; ``--only`` (repeatable)
runs only the configurations named (players, seats, rounds, least at a table), all by
default. A "seat violation" is a tournament that ends with some entrant's seat counts two or
more apart; "entrants off" counts such entrants over all tournaments (13 at 3 seats over 4
rounds needs at least one a tournament: its 12 sittings in the third seat cannot give each of
13 entrants one). "avoidable" counts the rounds whose repeats had an alternative under issue
38's criterion (``palio.tournament.audit``: each place within one score group of its player,
fewer repeats, seats as well kept), found by an exhaustive search, with "+N?" for N
tournaments it gave up on some round of (past ``AUDIT_STEPS``; since its set-partition
search, none at 20 entrants at 5 seats in seeds 1-40); its time is not in the CPU columns,
which are the pairing's only.
"""

from __future__ import annotations

import sys
import time

from palio.tournament.simulate import avoidable_rounds, simulate

AUDIT_STEPS = 100_000  # the exact check's limit a round

# (players, seats, rounds, min_players): 13 at 3 seats (least 2) mixes tables of 3 and 2; at
# least 3, one sits out each round; 14 at 4 seats (least 4): two sit out
CONFIGS = [(12, 3, 4, 2), (10, 2, 5, 2), (15, 3, 5, 2), (16, 4, 4, 2), (20, 5, 4, 2),
           (13, 3, 4, 2), (10, 3, 5, 2), (13, 3, 4, 3), (14, 4, 4, 4)]


def main(argv: list[str]) -> None:
    args = [a for a in argv if not a.startswith("--")]
    churn = "--churn" in argv
    only = [tuple(int(x) for x in a.removeprefix("--only=").split(","))
            for a in argv if a.startswith("--only=")]
    unknown = [c for c in only if c not in CONFIGS]
    if unknown:
        sys.exit(f"not a configuration of this benchmark: {unknown}; its own: {CONFIGS}")
    seeds = int(args[0]) if args else 100
    first = int(args[1]) if len(args) > 1 else 1
    print(f"seeds {first}-{first + seeds - 1}{', churn' if churn else ''}")
    print(f"{'config (p, k, r, least)':<25}{'w/ repeat':>10}{'repeats':>9}{'avoidable':>10}"
          f"{'seat viol.':>11}{'entrants off':>13}{'CPU s':>8}{'CPU s/round':>12}")
    for players, seats, rounds, least in only or CONFIGS:
        with_repeat = total = violations = off = avoidable = unknown = 0
        cpu = 0.0
        for seed in range(first, first + seeds):
            start = time.process_time()
            sim = simulate("swiss", players, seats, rounds, seed, min_players=least,
                           withdrawals=int(churn), late=int(churn))
            cpu += time.process_time() - start
            total += sim.repeats()
            with_repeat += sim.repeats() > 0
            violations += sim.seat_spread() > 1
            off += sum(max(c) - min(c) > 1 for c in sim.history().seat_counts.values())
            if sim.repeats():
                gave_up: list[int] = []  # its other rounds are still checked
                avoidable += len(avoidable_rounds(sim, rounds, limit=AUDIT_STEPS, gave_up=gave_up))
                unknown += bool(gave_up)
        config = f"({players}, {seats}, {rounds}, {least})"
        found = f"{avoidable}" + (f"+{unknown}?" if unknown else "")
        print(f"{config:<25}{with_repeat:>10}{total:>9}{found:>10}{violations:>11}{off:>13}"
              f"{cpu:>8.1f}{cpu / (seeds * rounds):>12.4f}", flush=True)


if __name__ == "__main__":
    main(sys.argv[1:])
