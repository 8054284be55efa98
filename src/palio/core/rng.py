"""Seeded randomness that lives in the state.

A state holds an integer seed; each random draw takes a generator derived from that seed and a
stream key (such as the round number), so ``seed + actions`` replays a game exactly, copies
cost nothing, and :meth:`State.determinize` hides the future by replacing the seed.
"""

from __future__ import annotations

import hashlib
import random
import secrets


def new_seed() -> int:
    """A fresh seed for a game whose caller gave none."""
    return secrets.randbits(63)


def derive(seed: int, *stream: object) -> random.Random:
    """A generator for one named stream of a game's randomness."""
    key = repr((seed, *stream)).encode()
    digest = hashlib.blake2b(key, digest_size=8).digest()
    return random.Random(int.from_bytes(digest, "big"))
