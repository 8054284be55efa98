"""The two simple bots: uniformly random, and greedy on the game's own evaluation."""

from __future__ import annotations

from palio.bots.base import Bot
from palio.core.game import Action, State


class RandomBot(Bot):
    name = "random"

    def choose(self, state: State, seat: int) -> Action:
        self.check_turn(state, seat)
        return self.rng.choice(state.legal_actions())


class GreedyBot(Bot):
    """Plays the action whose immediate result the game's ``evaluate`` likes best.

    It looks one decision ahead on a determinized copy, so the card a draw would reveal is a
    guess, never the real one. Ties are broken at random.
    """

    name = "greedy"

    def choose(self, state: State, seat: int) -> Action:
        self.check_turn(state, seat)
        legal = state.legal_actions()
        if len(legal) == 1:
            return legal[0]
        world = state.determinize(seat, self.rng)
        evaluate = state.game.evaluate
        best: list[Action] = []
        best_value = float("-inf")
        for action in legal:
            after = world.copy()
            after.apply_unchecked(action)
            value = evaluate(after, seat)
            if value > best_value:
                best, best_value = [action], value
            elif value == best_value:
                best.append(action)
        return self.rng.choice(best)
