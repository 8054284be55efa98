"""The generic engine tester: checks any game against the engine contract.

Every registered game and player count runs through the same checks, so a new game is tested
the moment it is registered (see ``test_contract.py``). Games are played by two policies:

* :func:`uniform_policy`, uniform random play, which passes whenever it may and so rarely goes
  deep into a game;
* :class:`ProgressPolicy`, seeded play that prefers progress (build, extend, take, play cards)
  to passing, and often picks what raises ``game.evaluate``. A game may narrow its choices
  further with a hook: a function ``prefer(state, legal, rng)`` in ``tests/<package>/progress.py``
  (``<package>`` is the game's package name, e.g. ``san_gimignano``) returning the actions
  worth choosing among, or ``None`` to leave the choice to the generic policy.

A live position without a legal action, an exception or a broken check fails with the game,
options, seed, policy and every move played, so the failure replays with ``replay_moves``.
"""

from __future__ import annotations

import importlib
import importlib.util
import pickle
import random
from collections.abc import Callable, Sequence
from dataclasses import fields, is_dataclass
from typing import Any

import pytest

from palio.core.errors import IllegalAction, NotationError
from palio.core.events import Chain, Event
from palio.core.game import Action, Game, State
from palio.core.record import GameRecord

Policy = Callable[[State], Action]
OnStep = Callable[[State, Action, random.Random], None]

# notation words of actions that stop, wait or give something up rather than move a game on
PASSIVE_WORDS = frozenset({"pass", "done", "end", "allow", "skip", "decline", "takeback", "stop"})


def is_passive(action: Action) -> bool:
    return not PASSIVE_WORDS.isdisjoint(str(action).split())


def uniform_policy(seed: int) -> Policy:
    rng = random.Random(seed)

    def choose(state: State) -> Action:
        return rng.choice(state.legal_actions())

    choose.rng = rng  # type: ignore[attr-defined]
    choose.name = "uniform"  # type: ignore[attr-defined]
    return choose


def progress_hook(game: Game) -> Callable[..., Sequence[Action] | None] | None:
    """The game's own ``prefer`` hook (``tests/<package>/progress.py``), if it has one."""
    package = type(game).__module__.split(".")[2] if type(game).__module__.startswith(
        "palio.games.") else None
    if package is None or importlib.util.find_spec(f"tests.{package}") is None:
        return None
    name = f"tests.{package}.progress"
    if importlib.util.find_spec(name) is None:
        return None
    return getattr(importlib.import_module(name), "prefer", None)


class ProgressPolicy:
    """Seeded play that prefers progress to passing.

    At each decision: the game's hook may narrow the legal actions; passive ones (pass, done,
    allow, ...) are dropped while others remain, except in an ``idle`` share of decisions; then,
    in a ``lookahead`` share, a few candidates are tried on copies and the one that raises
    ``game.evaluate`` for the mover most is played, otherwise a uniform choice.
    """

    name = "progress"

    def __init__(self, game: Game, seed: int, lookahead: float = 0.15, sample: int = 2,
                 idle: float = 0.02, hook: Callable[..., Sequence[Action] | None] | None = None):
        self.game = game
        self.rng = random.Random(seed)
        self.lookahead = lookahead
        self.sample = sample
        self.idle = idle
        self.hook = hook if hook is not None else progress_hook(game)

    def __call__(self, state: State) -> Action:
        rng = self.rng
        legal = state.legal_actions()
        if len(legal) == 1:
            return legal[0]
        if rng.random() < self.idle:
            return rng.choice(legal)
        candidates: Sequence[Action] = legal
        if self.hook is not None:
            candidates = self.hook(state, legal, rng) or legal
        active = [a for a in candidates if not is_passive(a)] or list(candidates)
        if len(active) > 1 and rng.random() < self.lookahead:
            tried = rng.sample(active, min(self.sample, len(active)))
            return max(tried, key=lambda a: self._value_after(state, a))
        return rng.choice(active)

    def _value_after(self, state: State, action: Action) -> float:
        seat = state.to_move
        after = state.copy()
        after.apply_unchecked(action)
        return self.game.evaluate(after, seat)


def _context(game: Game, players: int, seed: int, options, policy: Policy, state: State) -> str:
    moves = "; ".join(state.notation_history())
    return (f"{game.info.id} {players}p options={dict(options or {})} seed={seed} "
            f"policy={getattr(policy, 'name', policy)} at move {state.move_number}; "
            f"moves: {moves}")


def play_game(game: Game, players: int, seed: int, options=None, policy: Policy | None = None,
              on_step: OnStep | None = None) -> State:
    """One whole game; any failure names the game, seed, policy and every move played."""
    state = game.setup(players, seed, options)
    choose = policy or uniform_policy(seed)
    rng = getattr(choose, "rng", None) or random.Random(seed)
    try:
        while not state.is_over:
            if not state.legal_actions():
                raise AssertionError("the game is not over but no action is legal")
            if state.move_number > game.info.max_length:
                raise AssertionError(f"the game exceeds its declared max_length "
                                     f"{game.info.max_length}")
            action = choose(state)
            if on_step:
                on_step(state, action, rng)
            state.apply(action)
    except Exception as error:
        raise AssertionError(f"{error!r}\n  in {_context(game, players, seed, options, choose, state)}"
                             ) from error
    return state


def random_game(game: Game, players: int, seed: int, options=None, on_step=None) -> State:
    """A game of uniform random play (see :func:`play_game`)."""
    return play_game(game, players, seed, options, uniform_policy(seed), on_step)


def progress_game(game: Game, players: int, seed: int, options=None, on_step=None) -> State:
    """A game of :class:`ProgressPolicy` play (see :func:`play_game`)."""
    return play_game(game, players, seed, options, ProgressPolicy(game, seed), on_step)


def replay_moves(game: Game, players: int, seed: int, options, moves: str) -> State:
    """The position after ``moves`` as a failure message writes them (``a; b; c``)."""
    state = game.setup(players, seed, options)
    for text in filter(None, (m.strip() for m in moves.split(";"))):
        state.apply(text)
    return state


def views(state: State) -> list:
    return [state.observe(seat) for seat in [None, *range(state.players)]]


def fingerprint(value: Any) -> Any:
    """A value inside a state as plain comparable data: objects by their fields, never by
    identity."""
    if isinstance(value, State):
        return state_fingerprint(value)
    if isinstance(value, Chain):
        return ("Chain", [fingerprint(item) for item in value.to_list()])
    if isinstance(value, Event):
        return ("Event", fingerprint(value.full()), sorted(value.audience))
    if isinstance(value, dict):
        return {k: fingerprint(v) for k, v in value.items()}
    if isinstance(value, list | tuple):
        return (type(value).__name__, [fingerprint(v) for v in value])
    if isinstance(value, set | frozenset):
        return (type(value).__name__, sorted(map(repr, value)))
    if is_dataclass(value) and not isinstance(value, type):
        return (type(value).__name__, [fingerprint(getattr(value, f.name)) for f in fields(value)])
    if isinstance(value, random.Random):
        return ("Random", value.getstate())
    return value


def state_fingerprint(state: State, since: State | None = None) -> Any:
    """Every field of a state, to check that two states are identical, not merely alike in
    their views. The legal-action cache is left out; with ``since`` (a position both states
    were played on from), their history and log are compared from that point on."""
    out = {}
    for name, value in sorted(vars(state).items()):
        if name == "_legal":
            continue
        if isinstance(value, Chain) and since is not None:
            start = len(getattr(since, name))
            value = ("Chain", len(value), [fingerprint(v) for v in value.to_list()[start:]])
        out[name] = fingerprint(value)
    return (type(state).__name__, out)


def check_equal_actions(state: State) -> None:
    """Every legal action read back from its notation or unpickled is equal to it, legal, and
    gives an identical state: actions are values, never compared by identity."""
    game = state.game
    legal = state.legal_actions()
    for action in legal:
        parsed = game.parse_action(str(action))
        unpickled = pickle.loads(pickle.dumps(action))
        reference = state.copy()
        reference.apply(action)
        expected = state_fingerprint(reference, since=state)
        for twin, how in ((parsed, "parse_action(str(a))"), (unpickled, "a pickle round trip")):
            assert twin == action and hash(twin) == hash(action), f"{how} of {action} is not equal"
            assert twin in legal, f"{action} from {how} is not legal"
            other = state.copy()
            other.apply(twin)
            assert state_fingerprint(other, since=state) == expected, f"{action} from {how} gives another state"


def check_step(state: State, action, rng: random.Random) -> None:
    """Checks run before ``action`` is applied at one position of a game."""
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
    # a finished position too: a world a seat cannot tell apart looks the same to it (hands
    # shown at the end stay as they are)
    for seat in range(state.players):
        world = state.determinize(seat, random.Random(seat))
        assert world.observe(seat) == state.observe(seat), f"determinize({seat}) at the end"
        assert world.is_over
