"""Troyes' legal actions are unchanged by the faster dice-group feasibility: every decision of
seeded games (uniformly random play, and a "progress" policy that prefers acting and adding
dice over passing, so groups, cubes and fights are formed often) has the same list of legal
actions, in the same order, as recorded before the change (``golden_legal.json``).

Regenerate only on purpose (a rules change): ``python tests/troyes/test_legal_golden.py``.
"""

from __future__ import annotations

import json
import random
import zlib
from pathlib import Path

import pytest

import palio

GOLDEN = Path(__file__).parent / "golden_legal.json"
CASES = [(players, seed, policy) for players in (2, 3, 4) for seed in range(10)
         for policy in ("random", "progress")]


def pick(state, rng: random.Random, policy: str):
    legal = state.legal_actions()
    if policy == "progress" and len(legal) > 1:
        keen = [a for a in legal if str(a) not in ("pass", "stop", "go", "nocube")]
        if keen:
            return rng.choice(keen)
    return rng.choice(legal)


def play(players: int, seed: int, policy: str) -> list[int]:
    """One checksum of the legal actions' notation per decision, to the end of the game."""
    state = palio.new_game("troyes", players=players, seed=seed)
    rng = random.Random(1000 * players + seed)
    sums = []
    while not state.is_over:
        legal = state.legal_actions()
        sums.append(zlib.crc32("|".join(str(a) for a in legal).encode()))
        state.apply_unchecked(pick(state, rng, policy))
    return sums


@pytest.mark.parametrize(("players", "seed", "policy"), CASES)
def test_legal_actions_match_the_recorded_games(players, seed, policy):
    recorded = json.loads(GOLDEN.read_text())[f"{players}-{seed}-{policy}"]
    played = play(players, seed, policy)
    for i, (mine, theirs) in enumerate(zip(played, recorded, strict=False)):
        assert mine == theirs, f"decision {i} differs"
    assert len(played) == len(recorded)


if __name__ == "__main__":
    GOLDEN.write_text(json.dumps({f"{n}-{s}-{p}": play(n, s, p) for n, s, p in CASES}) + "\n")
