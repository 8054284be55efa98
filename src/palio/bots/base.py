"""What every bot is: ``choose(state, seat)`` returns a legal action for ``seat``.

A bot must decide only from what its seat may know. Bots that look ahead do so on
``state.determinize(seat, rng)`` samples, never on the real state's hidden parts.
"""

from __future__ import annotations

import random
from abc import ABC, abstractmethod

from palio.core.errors import IllegalAction
from palio.core.game import Action, State


class Bot(ABC):
    name: str = "bot"

    def __init__(self, seed: int | None = None) -> None:
        if seed is not None and (isinstance(seed, bool) or not isinstance(seed, int)):
            # raised as TypeError so that ``get`` reports it as a bad option
            raise TypeError(f"seed must be a whole number, not {seed!r}")
        self.rng = random.Random(seed)

    @abstractmethod
    def choose(self, state: State, seat: int) -> Action: ...

    @staticmethod
    def check_turn(state: State, seat: int) -> None:
        """A clear error when ``seat`` has nothing to decide in ``state``."""
        if state.is_over:
            raise IllegalAction("the game is over; there is nothing to choose")
        if state.to_move != seat:
            raise IllegalAction(f"seat {seat} is not to move (seat {state.to_move} is)")

    def __repr__(self) -> str:
        return f"<{type(self).__name__} {self.name}>"
