"""How often Palio's score-group Swiss at two seats pairs a round differently from FIDE Dutch
(py4swiss), given the same history (the Dutch pairing's own tournament, random results).

    PYTHONPATH=src python benchmarks/tournament_dutch_agreement.py FIRST_SEED [COUNT]

Each seed is one tournament of 6-16 entrants and 3 to half that many rounds; every round is
paired by both and compared: as sets of pairs, and as sets of pairs with colours (seat order).
"""

from __future__ import annotations

import random
import sys

from palio.tournament import pair_round
from palio.tournament.simulate import simulate


def main(first: int, count: int) -> None:
    rounds = pairs_differ = seats_differ = 0
    for seed in range(first, first + count):
        rng = random.Random(seed)
        players = rng.randint(6, 16)
        planned = rng.randint(3, players // 2)
        sim = simulate("swiss", players, 2, planned, seed)
        for number in range(1, planned + 1):
            before = [r for r in sim.results if r.round < number]
            dutch = pair_round("swiss", sim.entrants, before, seats=2, engine="dutch")
            ours = pair_round("swiss", sim.entrants, before, seats=2, engine="groups")
            rounds += 1
            pairs_differ += ({frozenset(t) for t in dutch.tables}
                             != {frozenset(t) for t in ours.tables})
            seats_differ += set(dutch.tables) != set(ours.tables)
    print(f"seeds {first}-{first + count - 1}: {rounds} rounds; pairs differ in "
          f"{pairs_differ / rounds:.1%}, pairs or seats differ in {seats_differ / rounds:.1%}")


if __name__ == "__main__":
    main(int(sys.argv[1]), int(sys.argv[2]) if len(sys.argv) > 2 else 100)
