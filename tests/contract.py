"""The generic engine tester: checks any game against the engine contract.

Every registered game and player count runs through the same checks, so a new game is tested
the moment it is registered (see ``test_contract.py``).
"""

from __future__ import annotations

import random

import pytest

from palio.core.errors import IllegalAction, NotationError
from palio.core.game import Game, State
from palio.core.record import GameRecord


def random_game(game: Game, players: int, seed: int, options=None, on_step=None) -> State:
    state = game.setup(players, seed, options)
    rng = random.Random(seed)
    while not state.is_over:
        legal = state.legal_actions()
        assert legal, f"no legal action at move {state.move_number} though the game is not over"
        assert state.move_number <= game.info.max_length, "game exceeds its declared max_length"
        action = rng.choice(legal)
        if on_step:
            on_step(state, action, rng)
        state.apply(action)
    return state


def views(state: State) -> list:
    return [state.observe(seat) for seat in [None, *range(state.players)]]


def check_step(state: State, action, rng: random.Random) -> None:
    """Checks run before ``action`` is applied at one position of a random game."""
    game = state.game
    legal = state.legal_actions()
    # notation and action index round-trip
    for a in legal:
        assert game.parse_action(str(a)) == a, f"notation {a} does not read back"
        assert game.action_from_index(game.action_index(a)) == a
    # a copy never shares mutable state with its original
    before = views(state)
    history = state.notation_history()
    copy = state.copy()
    copy.apply_unchecked(action)
    while not copy.is_over and copy.move_number < state.move_number + 5:
        copy.apply_unchecked(rng.choice(copy.legal_actions()))
    assert views(state) == before and state.notation_history() == history
    assert state.legal_actions() == legal
    # what a seat cannot see does not change its view
    seat = state.to_move
    world = state.determinize(seat, random.Random(rng.random()))
    assert world.observe(seat) == state.observe(seat)
    assert world.legal_actions() == legal


def check_rejects(state: State) -> None:
    """Malformed and illegal actions raise IllegalAction and change nothing."""
    before = views(state)
    number = state.move_number
    for text in ("", "xyzzy 1 2 3", "??"):
        with pytest.raises(NotationError):
            state.apply(text)
    legal = set(state.legal_actions())
    illegal = next((a for a in state.game.all_actions() if a not in legal), None)
    if illegal is not None:
        with pytest.raises(IllegalAction):
            state.apply(illegal)
    assert views(state) == before and state.move_number == number


def check_finished(game: Game, state: State) -> None:
    low, high = game.info.score_range
    scores = state.scores()
    assert all(low <= s <= high for s in scores), scores
    ranking = state.ranking()
    assert sorted(ranking) == list(range(state.players))
    assert all(scores[a] >= scores[b] for a, b in zip(ranking, ranking[1:], strict=False))
    # seed + actions replay to an identical game
    record = GameRecord.of(state)
    again = GameRecord.from_json(record.to_json()).replay(game)
    assert views(again) == views(state)
    assert again.notation_history() == state.notation_history()
