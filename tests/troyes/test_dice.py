"""``board.d6`` draws a die's value exactly as ``random.Random.randint(1, 6)`` does (the rolls
of every seeded game depend on it), from the same generator state."""

import random

from hypothesis import given
from hypothesis import strategies as st

from palio.games.troyes.rules.board import d6


@given(st.integers(min_value=0, max_value=2**64 - 1), st.integers(min_value=1, max_value=30))
def test_d6_draws_what_randint_draws(seed, rolls):
    ours, theirs = random.Random(seed), random.Random(seed)
    assert [d6(ours) for _ in range(rolls)] == [theirs.randint(1, 6) for _ in range(rolls)]
    assert ours.getstate() == theirs.getstate()  # the same bits used: later draws agree too
