"""``derive_bits`` draws exactly what ``derive`` draws (Troyes rolls its dice from it, and
replays and recorded games depend on those draws)."""

from __future__ import annotations

import pytest

from palio.core.rng import derive, derive_bits


@pytest.mark.parametrize("stream", [(0, "roll", 1), (2**63 - 1, "workforce", 6),
                                    (123456789, "black", 3), (5,)])
def test_derive_bits_draws_what_derive_draws(stream):
    slow, fast = derive(*stream), derive_bits(*stream)
    assert [slow.getrandbits(k % 40 + 1) for k in range(200)] == \
        [fast.getrandbits(k % 40 + 1) for k in range(200)]
    assert [slow.random() for _ in range(20)] == [fast.random() for _ in range(20)]


def test_streams_differ():
    assert derive_bits(1, "roll", 1).getrandbits(32) != derive_bits(1, "roll", 2).getrandbits(32)
