"""Troyes plays exactly as it did before its speed-ups of issue 34: seeded uniform-random games
at 2, 3 and 4 players (half of them with the bonus cards), each decision's legal actions (in
order), the action chosen, the bots' estimates and score breakdown at every decision, and at
the end the event log and the final scores, hashed per player count and compared with the
digests recorded from the code before those speed-ups (main at 4533ce5).

The digests were made by running this file as a script on that tree::

    PYTHONPATH=/work/main/src python tests/troyes/test_fingerprint.py   # main at 4533ce5

Any change of a rule, of the order of the legal actions, of a random draw, of the event log
or of a score changes a digest. To record new digests after an intended change of the rules,
run the same command on the changed tree and replace ``DIGESTS``.
"""

from __future__ import annotations

import hashlib
import random

import pytest

import palio
from palio.games.troyes import scoring

GAMES = 100  # per player count
SEED = 3400

DIGESTS = {
    2: "1fc5f1a0a686a8c21260817cf1d26d9156d48f679cfe0332164804cab479bacb",
    3: "5f58108089799dc99fea265c202f61306f8bac7714ccb42bbc7b022f9f553dcb",
    4: "f2d82aee8ea41a10f6e8cb3b9a0e23cc5f5ea1436d2fcffecdc499aa3c395361",
}


def fingerprint(players: int, games: int = GAMES, seed: int = SEED) -> str:
    """The sha256 of ``games`` seeded uniform-random games at ``players`` players."""
    digest = hashlib.sha256()
    for g in range(games):
        game_seed = seed + 100 * players + g
        state = palio.new_game("troyes", players=players, seed=game_seed,
                               options={"bonus_cards": g % 2 == 1})
        rng = random.Random(game_seed)
        while not state.is_over:
            legal = state.legal_actions()
            action = rng.choice(legal)
            digest.update(repr((state.to_move, [str(a) for a in legal], str(action),
                                scoring.estimates(state), scoring.breakdown(state))).encode())
            state.apply_unchecked(action)
        for event in state.events:
            digest.update(repr((event.kind, event.seat, sorted(event.public.items()),
                                sorted((event.secret or {}).items()),
                                sorted(event.audience))).encode())
        digest.update(repr((state.scores(), scoring.breakdown(state), state.ranks())).encode())
    return digest.hexdigest()


@pytest.mark.parametrize("players", [2, 3, 4])
def test_random_games_play_as_before_the_speed_ups(players):
    assert fingerprint(players) == DIGESTS[players]


if __name__ == "__main__":
    for n in (2, 3, 4):
        print(f"    {n}: \"{fingerprint(n)}\",")
