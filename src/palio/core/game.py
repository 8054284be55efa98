"""The engine contract every Palio game implements.

A game is a :class:`Game` object (metadata, set-up, notation, action space) and a
:class:`State` subclass (one position). Everything above the games (bots, simulation, CLI,
server, adapters) speaks only this contract:

* ``Game.setup(players, seed, options)`` returns the opening :class:`State`;
* ``state.to_move`` is the seat that decides now (not always the turn player);
* ``state.legal_actions()`` lists every legal atomic decision, as small immutable values;
* ``state.apply(action)`` plays one of them or raises :class:`IllegalAction` and changes nothing;
* ``str(action)`` is the canonical notation, ``game.parse_action(text)`` reads it back;
* ``game.action_index(action)`` / ``game.action_from_index(i)`` map to a fixed integer space;
* ``state.copy()``, ``state.observe(seat)``, ``state.determinize(seat, rng)``,
  ``state.scores()``, ``state.ranking()``, ``state.events``;
* ``game.words`` (:class:`~palio.core.words.GameWords`): every action, prompt, log event,
  component and score category as messages, which :class:`~palio.core.i18n.Translator`
  renders in English or Japanese (see :mod:`palio.core.describe` for a whole position);
* optionally, a fixed-size numeric encoding of observations: ``game.observation_layout(players)``
  (``None`` when the game has none), ``game.observation_tensor_shape(players)``,
  ``game.observation_tensor(state, seat)`` and its nonzero entries
  ``game.observation_entries(state, seat)``, built from ``state.observe(seat)`` only.
"""

from __future__ import annotations

import random
from abc import ABC, abstractmethod
from collections.abc import Hashable, Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any, ClassVar, Self, TypeVar

from palio.core.components import ComponentTables, components_json
from palio.core.encoding import Encoded, Layout
from palio.core.errors import IllegalAction, NotationError, OptionError
from palio.core.events import Chain, Event
from palio.core.i18n import Translator
from palio.core.rng import new_seed
from palio.core.words import GameWords, Msg


@dataclass(frozen=True)
class OptionSpec:
    """One named variant or setting of a game."""

    name: str
    description: str
    default: Any = False
    choices: tuple[Any, ...] = (False, True)


@dataclass(frozen=True)
class GameInfo:
    """What the layers above need to know about a game before they play it."""

    id: str
    name: str
    version: str
    min_players: int
    max_players: int
    options: tuple[OptionSpec, ...] = ()
    chance: bool = True
    hidden_information: bool = True
    score_range: tuple[int, int] = (0, 200)
    max_length: int = 1000  # decisions; a bound that random play never reaches
    action_space_size: int = 0
    rules: str = ""  # the rulebook this engine follows


@dataclass(frozen=True, slots=True)
class Action:
    """Base class for actions: frozen, slotted, hashable; ``str()`` gives the notation."""


class Game(ABC):
    """A game's metadata, set-up, notation and action space."""

    info: GameInfo
    words: GameWords = GameWords()  # each game sets its own (its ``words.py``)
    # options of the ``mcts`` search measured best for this game (docs/bots.md); options given
    # to the bot win over these, these over the bot's own defaults
    search_defaults: ClassVar[Mapping[str, Any]] = {}
    # where one player count measured better with other options: players -> those options
    search_defaults_by_players: ClassVar[Mapping[int, Mapping[str, Any]]] = {}
    # where a long search (``mcts.LONG_ITERATIONS`` or ``LONG_SECONDS`` and more) measured
    # better with other options than a short one: players -> those options
    search_defaults_long: ClassVar[Mapping[int, Mapping[str, Any]]] = {}

    def search_options(self, players: int, long: bool = False) -> dict[str, Any]:
        """The ``mcts`` options measured best for this game at ``players`` players (for a
        long search with ``long``)."""
        options = {**self.search_defaults, **self.search_defaults_by_players.get(players, {})}
        if long:
            options.update(self.search_defaults_long.get(players, {}))
        return options

    # -- set-up -------------------------------------------------------------------------
    def validate_options(self, players: int, options: Mapping[str, Any] | None) -> dict[str, Any]:
        """Checked options with defaults filled in; a clear error for anything else."""
        info = self.info
        if not isinstance(players, int) or not info.min_players <= players <= info.max_players:
            span = (
                str(info.min_players)
                if info.min_players == info.max_players
                else f"{info.min_players}-{info.max_players}"
            )
            raise OptionError(f"{info.name} is played by {span} players, not {players!r}")
        specs = {spec.name: spec for spec in info.options}
        given = dict(options or {})
        unknown = sorted(set(given) - set(specs))
        if unknown:
            known = ", ".join(specs) or "none"
            raise OptionError(f"unknown option(s) {', '.join(unknown)} for {info.id}; known: {known}")
        checked = {}
        for name, spec in specs.items():
            value = given.get(name, spec.default)
            if value not in spec.choices:
                raise OptionError(
                    f"option {name} of {info.id} takes one of {list(spec.choices)}, not {value!r}"
                )
            checked[name] = value
        return checked

    def options_of_version(self, version: str, options: Mapping[str, Any]) -> dict[str, Any]:
        """The options that replay a game stored under an earlier ``version`` of this game's
        rules as it was played (a default that changed becomes an explicit option); the
        options as given for the current version. Games whose rules changed override it."""
        return dict(options)

    def setup(
        self, players: int, seed: int | None = None, options: Mapping[str, Any] | None = None
    ) -> State:
        checked = self.validate_options(players, options)
        return self._setup(players, new_seed() if seed is None else int(seed), checked)

    @abstractmethod
    def _setup(self, players: int, seed: int, options: dict[str, Any]) -> State: ...

    # -- notation and action space ------------------------------------------------------
    @abstractmethod
    def parse_action(self, text: str) -> Action:
        """The action written as ``text``; :class:`NotationError` if it is not one."""

    @abstractmethod
    def all_actions(self) -> Sequence[Action]:
        """The fixed action space, in index order. Built once per game."""

    def action_index(self, action: Action) -> int:
        index = self._index_table().get(action)
        if index is None:
            raise IllegalAction(f"{action} is outside the action space of {self.info.id}")
        return index

    def action_from_index(self, index: int) -> Action:
        actions = self.all_actions()
        if not 0 <= index < len(actions):
            raise IllegalAction(f"action index {index} is outside 0..{len(actions) - 1}")
        return actions[index]

    def _index_table(self) -> dict[Action, int]:
        table = self.__dict__.get("_index")
        if table is None:
            table = {action: i for i, action in enumerate(self.all_actions())}
            self.__dict__["_index"] = table
        return table

    # -- numeric encoding of observations ------------------------------------------------
    def observation_layout(self, players: int) -> Layout | None:
        """The blocks of this game's observation tensor for ``players`` seats; ``None``
        (the default) when the game has no encoding."""
        return None

    def observation_tensor_shape(self, players: int) -> tuple[int, ...] | None:
        """The shape of :meth:`observation_tensor` with ``players`` seats, or ``None``."""
        layout = self.observation_layout(players)
        return None if layout is None else layout.shape

    def observation_tensor(self, state: State, seat: int | None) -> list[float]:
        """What ``seat`` (``None``: a spectator) sees, as floats in the layout's order.

        Built from ``state.observe(seat)`` alone, so it can never hold hidden information.
        """
        return self.observation_entries(state, seat).dense()

    def observation_entries(self, state: State, seat: int | None) -> Encoded:
        """The same encoding as :meth:`observation_tensor`, kept as its nonzero entries
        (what a network reads: a few hundred of several thousand floats)."""
        layout = self.observation_layout(state.players)
        if layout is None:
            raise NotImplementedError(f"{self.info.name} has no observation tensor encoding")
        return self.encode_observation(state.observe(seat), layout)

    def encode_observation(self, view: dict[str, Any], layout: Layout) -> Encoded:
        """An ``observe`` dict encoded in ``layout``'s order (games with a layout)."""
        raise NotImplementedError(f"{self.info.name} has no observation tensor encoding")

    # -- presentation ----------------------------------------------------------------------
    def describe_event(self, event: dict[str, Any], tr: Translator | None = None) -> str:
        """An event view (see :meth:`Event.view`) as a log line (English by default); empty
        for events the log leaves out."""
        return (tr or Translator())(self.words.event(event))

    def legend(self) -> dict[str, Any]:
        """Fixed printed tables that observations refer to by index (names, map shape).

        The same for every seat and game, so it can never carry hidden information; clients
        use it to draw observations. Empty for games whose observations describe themselves.
        """
        return {}

    def render(self, state: State, seat: int | None, tr: Translator | None = None) -> str:
        """A text picture of the position as ``seat`` sees it (terminal client)."""
        return (tr or Translator()).lines(self.words.board(state, seat))

    def turn_key(self, state: State) -> Hashable:
        """A value that changes whenever a new turn begins (the web server's undo never takes
        back a decision that changed it). ``None``, the default: no turns beyond decisions."""
        return None

    def worths(self, state: State) -> list[float]:
        """Per seat, a quick heuristic worth of the position in points (the default: the
        scores). Games override this with what is held and likely to score."""
        return [float(x) for x in state.scores()]

    def evaluate_all(self, state: State) -> tuple[float, ...]:
        """Every seat's :meth:`evaluate` at once, from one :meth:`worths` (search leaves)."""
        return leads(self.worths(state))

    def evaluate(self, state: State, seat: int) -> float:
        """A quick heuristic value of the position for ``seat`` (greedy bots): its worth minus
        the best other seat's. The same as ``evaluate_all(state)[seat]``."""
        return self.evaluate_all(state)[seat]


def leads(worths: Sequence[float]) -> tuple[float, ...]:
    """Per seat, its worth minus the best other seat's (0 for a seat alone)."""
    if len(worths) == 1:
        return (worths[0] - 0.0,)
    best = max(worths)
    top = worths.index(best)  # the first of the best
    runner_up = max(worths[:top] + worths[top + 1:])
    out = [w - best for w in worths]
    out[top] = best - runner_up
    return tuple(out)


StateT = TypeVar("StateT", bound="State")


class ComponentsGame(Game):
    """A game whose printed values are component data (:mod:`palio.core.components`): a
    person may list its provisional values, export the data and play on a corrected file
    (``palio games GAME --components``, ``--export-components``, ``--components-file``)."""

    default_components: ClassVar[ComponentTables]  # the built-in data, compiled
    tables: Any  # the game's action tables for these components (``tables.all``: the space)
    encoder: Any  # the game's observation encoder (``layout(players)``, ``encode(view, n)``)
    # the game's notation parser (``staticmethod(actions.parse_action)``), and what a
    # well-formed action may name that these components lack, for the error
    read_notation: ClassVar[Any]
    notation_names: ClassVar[str] = "a place or slot"

    def __init__(self, components: ComponentTables) -> None:
        self.components = components

    def parse_action(self, text: str) -> Action:
        action = self.read_notation(text)
        if action not in self._index_table():
            raise NotationError(f"{text!r} names {self.notation_names} this game does not have")
        return action

    def all_actions(self) -> Sequence[Action]:
        return self.tables.all

    def observation_layout(self, players: int) -> Layout:
        """The observation tensor's blocks (see the game's ``encode.py``)."""
        return self.encoder.layout(players)

    def encode_observation(self, view: dict[str, Any], layout: Layout) -> Encoded:
        return self.encoder.encode(view, len(view["players"]))

    @classmethod
    def with_components(cls, path: str | Path) -> Self:
        """A game on a corrected components file, merged over the built-in data and checked."""
        return cls(cls.default_components.corrected(path))

    def export_components(self) -> str:
        """This game's component data as JSON: a starting point for a corrected file."""
        return components_json(self.components.data)

    def provisional_components(self) -> list[str]:
        """The provisional values of this game's component data, one line each."""
        return self.components.provisional()

    def make_state_class(self, base: type[StateT], **fields: Any) -> type[StateT]:
        """The subclass of ``base`` whose states play this game: the game, its components and
        action tables (and ``fields``) as class attributes. The one for the built-in components
        is named ``Default<base>`` in the game's module, which exports it by that name, so its
        states pickle."""
        prefix = "Default" if self.components is self.default_components else "Custom"
        attributes = {"game": self, "comp": self.components, "tables": self.tables,
                      "__module__": type(self).__module__, **fields}
        return type(prefix + base.__name__, (base,), attributes)


_NOBODY: frozenset[int] = frozenset()  # the audience of an event without a secret
_bare = object.__new__  # an instance with no field set yet (``emit``)


class State(ABC):
    """One position of a game. Subclasses hold the game's own fields.

    The base class keeps what every game shares: the seed, the player count, the applied
    actions and the event log (both persistent chains, so copies are cheap), and the cache of
    legal actions for the current position.
    """

    game: ClassVar[Game]

    players: int
    seed: int
    options: dict[str, Any]

    def _init_base(self, players: int, seed: int, options: dict[str, Any]) -> None:
        self.players = players
        self.seed = seed
        self.options = options
        self.history = Chain()
        self.log = Chain()
        self._legal: tuple[Action, ...] | None = None

    # -- the contract -------------------------------------------------------------------
    @property
    @abstractmethod
    def to_move(self) -> int | None:
        """The seat that must decide now, or ``None`` once the game is over."""

    @property
    @abstractmethod
    def is_over(self) -> bool: ...

    @abstractmethod
    def _legal_actions(self) -> list[Action]: ...

    @abstractmethod
    def _apply(self, action: Action) -> None:
        """Apply an action already known to be legal."""

    @abstractmethod
    def _copy_fields(self, other: State) -> None:
        """Copy the game's own fields from ``self`` into the blank ``other``."""

    @abstractmethod
    def scores(self) -> list[float]: ...

    @abstractmethod
    def observe(self, seat: int | None) -> dict[str, Any]: ...

    @abstractmethod
    def determinize(self, seat: int, rng: random.Random) -> State: ...

    def legal_actions(self) -> tuple[Action, ...]:
        if self._legal is None:
            self._legal = () if self.is_over else tuple(self._legal_actions())
        return self._legal

    def apply(self, action: Action | str) -> None:
        """Apply a legal action (or its notation). A rejected one raises, changing nothing;
        the error's ``words`` say why in the reader's language (the game's ``why_illegal``,
        which speaks to the seat to move, or a plain "not one of the choices")."""
        if isinstance(action, str):
            try:
                action = self.game.parse_action(action)
            except NotationError as exc:
                if exc.words is None:
                    exc.words = Msg("core.not_a_move")
                raise
        if self.is_over:
            raise IllegalAction(f"the game is over; {action} cannot be played",
                                words=Msg("core.game_over"))
        if action not in self.legal_actions():
            reason = self.game.words.why_illegal(self, action) or Msg("core.not_legal_now")
            raise IllegalAction(self._illegal_message(action), words=reason)
        self.apply_unchecked(action)

    def apply_unchecked(self, action: Action) -> None:
        """The fast path for search: ``action`` must come from ``legal_actions()``."""
        self._legal = None
        self.history.append(action)
        self._apply(action)

    def _illegal_message(self, action: Action) -> str:
        legal = self.legal_actions()
        shown = ", ".join(str(a) for a in legal[:12])
        more = f" and {len(legal) - 12} more" if len(legal) > 12 else ""
        return f"{action} is not legal now; seat {self.to_move} may play: {shown}{more}"

    def parse(self, text: str) -> Action:
        """Parse notation in the context of this position (see also ``legal_by_text``)."""
        return self.game.parse_action(text)

    def copy(self) -> State:
        other = self.__class__.__new__(self.__class__)
        other.players = self.players
        other.seed = self.seed
        other.options = self.options  # never mutated after set-up
        other.history = self.history.copy()
        other.log = self.log.copy()
        other._legal = self._legal
        self._copy_fields(other)
        return other

    def ranking(self) -> list[int]:
        """Seats from winner to last, the game's tie-breaks applied."""
        scores = self.scores()
        keys = self.tiebreak_keys()
        return sorted(range(self.players), key=lambda s: (-scores[s], tuple(-k for k in keys[s]), s))

    def tiebreak_keys(self) -> list[tuple[float, ...]]:
        """Per seat, the values compared after the score (larger is better)."""
        return [() for _ in range(self.players)]

    def ranks(self) -> list[int]:
        """1-based place of each seat; seats still equal after the tie-breaks share a place."""
        scores = self.scores()
        keys = self.tiebreak_keys()
        value = [(scores[s], tuple(keys[s])) for s in range(self.players)]
        return [1 + sum(1 for o in range(self.players) if value[o] > value[s]) for s in range(self.players)]

    def returns(self) -> list[float]:
        """Per seat: 1 for a sole winner, shares for tied winners, 0 otherwise (for search)."""
        ranks = self.ranks()
        winners = [s for s in range(self.players) if ranks[s] == 1]
        return [1.0 / len(winners) if s in winners else 0.0 for s in range(self.players)]

    @property
    def move_number(self) -> int:
        """How many decisions have been applied since set-up."""
        return len(self.history)

    @property
    def events(self) -> list[Event]:
        return self.log.to_list()

    def events_for(self, seat: int | None, start: int = 0) -> list[dict[str, Any]]:
        """The event log from index ``start`` as ``seat`` may see it."""
        return [event.view(seat) for event in self.log.to_list()[start:]]

    def emit(self, kind: str, seat: int | None = None, /,
             secret: Mapping[str, Any] | None = None,
             audience: frozenset[int] | set[int] | None = None, **public: Any) -> None:
        """Log an event: ``public`` (the keywords) for everyone, ``secret`` for ``audience``.
        ``kind`` and ``seat`` are positional only: CPython then matches each keyword against
        the two keyword parameters alone before it goes to ``public``, which made a call a
        third cheaper (valgrind instruction counts; engines log an event every other
        decision or more). The event is made without calling its class, which runs
        ``Event.__init__`` as a further Python call: the same fields, a quarter cheaper."""
        event = _bare(Event)
        event.kind = kind
        event.seat = seat
        event.public = public
        event.secret = secret
        event.audience = frozenset(audience) if audience else _NOBODY
        self.log.append(event)

    def notation_history(self) -> list[str]:
        return [str(a) for a in self.history.to_list()]

    def legal_by_text(self) -> dict[str, Action]:
        return {str(a): a for a in self.legal_actions()}

    def __repr__(self) -> str:
        status = "over" if self.is_over else f"seat {self.to_move} to move"
        return f"<{self.game.info.id} {self.players}p move {self.move_number}, {status}>"


def parse_int(text: str, what: str, lo: int, hi: int) -> int:
    """A bounded integer from notation, with an error that names the field."""
    try:
        value = int(text)
    except ValueError:
        raise NotationError(f"expected {what} as a number {lo}-{hi}, got {text!r}") from None
    if not lo <= value <= hi:
        raise NotationError(f"{what} must be {lo}-{hi}, got {value}")
    return value
