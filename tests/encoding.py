"""Checks shared by every game's observation-tensor tests (``Game.observation_tensor``)."""

from __future__ import annotations

import math
import random
from collections.abc import Iterator
from typing import Any

from palio.core.game import Game, State


def random_positions(game: Game, players: int, games: int, options: dict[str, Any] | None = None,
                     seed: int = 0) -> Iterator[State]:
    """Every position of ``games`` random games (the final one included)."""
    rng = random.Random(seed)
    for number in range(games):
        state = game.setup(players, seed * 1000 + number, options)
        yield state
        while not state.is_over:
            state.apply_unchecked(rng.choice(state.legal_actions()))
            yield state


def check_in_layout(game: Game, state: State, seat: int | None) -> list[float]:
    """The tensor of ``seat``: the declared size, every value finite and within its block."""
    layout = game.observation_layout(state.players)
    tensor = game.observation_tensor(state, seat)
    assert len(tensor) == layout.size
    # what a network reads: the nonzero entries, each once, in order
    entries = game.observation_entries(state, seat)
    assert entries.index == [i for i, v in enumerate(tensor) if v]
    assert entries.value == [v for v in tensor if v]
    start = 0
    for block in layout.blocks:
        for value in tensor[start:start + block.size]:
            assert math.isfinite(value), block.name
            assert block.low <= value <= block.high, (block.name, value, block.high)
        start += block.size
    return tensor


def check_blind_to_hidden(game: Game, state: State, seat: int, rng: random.Random) -> State:
    """A world ``seat`` cannot tell apart gives it the same tensor; returns that world (for
    the caller to check that it really differs in what is hidden)."""
    other = state.determinize(seat, rng)
    assert other.observe(seat) == state.observe(seat)
    assert game.observation_tensor(other, seat) == game.observation_tensor(state, seat)
    return other
