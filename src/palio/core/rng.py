"""Seeded randomness that lives in the state.

A state holds an integer seed; each random draw takes a generator derived from that seed and a
stream key (such as the round number), so ``seed + actions`` replays a game exactly, copies
cost nothing, and :meth:`State.determinize` hides the future by replacing the seed.
"""

from __future__ import annotations

import hashlib
import random
import secrets
from _random import Random as _CRandom


def new_seed() -> int:
    """A fresh seed for a game whose caller gave none."""
    return secrets.randbits(63)


def derive(seed: int, *stream: object) -> random.Random:
    """A generator for one named stream of a game's randomness."""
    return random.Random(_stream_seed(seed, stream))


def derive_bits(seed: int, *stream: object) -> _CRandom:
    """``derive``'s generator for callers that only draw ``getrandbits`` or ``random``: the
    same Mersenne Twister seeded the same way, hence the same draws, made by the C type
    itself (``random.Random`` seeds it through two Python calls, about a quarter of the
    cost of a fresh stream; ``tests/test_rng.py`` checks the draws agree)."""
    return _CRandom(_stream_seed(seed, stream))


def _stream_seed(seed: int, stream: tuple[object, ...]) -> int:
    key = repr((seed, *stream)).encode()
    return int.from_bytes(hashlib.blake2b(key, digest_size=8).digest(), "big")
