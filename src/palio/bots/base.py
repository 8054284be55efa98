"""What every bot is: ``choose(state, seat)`` returns a legal action for ``seat``.

A bot must decide only from what its seat may know. Bots that look ahead do so on
``state.determinize(seat, rng)`` samples, never on the real state's hidden parts.
"""

from __future__ import annotations

import random
from abc import ABC, abstractmethod

from palio.core.game import Action, State


class Bot(ABC):
    name: str = "bot"

    def __init__(self, seed: int | None = None) -> None:
        self.rng = random.Random(seed)

    @abstractmethod
    def choose(self, state: State, seat: int) -> Action: ...

    def __repr__(self) -> str:
        return f"<{type(self).__name__} {self.name}>"
