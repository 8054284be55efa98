"""San Gimignano's hook for the generic progress policy (``tests/contract.py``).

Noble cards are what lead to the deepest positions (an ordinance jousted and jousted back, a
luxury stone jousted in a build), so half the time a noble card that may be played is played.
"""

from __future__ import annotations

from palio.games.san_gimignano.actions import Play


def prefer(state, legal, rng):
    plays = [a for a in legal if isinstance(a, Play)]
    if plays and rng.random() < 0.5:
        return plays
    return None
