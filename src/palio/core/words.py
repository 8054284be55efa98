"""The words layer: what a game says to people, as messages that catalogs turn into text.

A game never builds an English sentence. It says *what* it means as a :class:`Msg` (a message
id plus parameters); the catalogs of :mod:`palio.core.i18n` say *how* in each language. The
terminal, the server and the browser all render through the same catalogs, so no sentence is
translated in two places.

Parameter values of a message:

* ``int`` (a whole-number ``float`` is taken as one): a number, written as a whole number;
* ``str``: text inserted as it is. Only for text that is not in any language (a player's own
  name); never notation or an internal id;
* :class:`Msg`: another message, rendered in the same language (a card's name in a log line);
* :class:`Player`: a seat, rendered as the name the client gives it (never "Seat 0");
* ``list`` or ``tuple`` of the above: rendered one by one and joined the language's way.

Message ids are dotted and start with the catalog's domain: ``core.``, ``ui.`` or the game's
package name (``san_gimignano.log.buy``). A message with a count to agree with uses the
parameter ``n`` and a plural entry in the catalog.

Each game puts all of this in one module, ``words.py``, as a :class:`GameWords` subclass that
its :class:`~palio.core.game.Game` exposes as ``game.words``.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from palio.core.game import Action, State


@dataclass(frozen=True, slots=True)
class Msg:
    """A message: a catalog id and its parameters."""

    id: str
    params: Mapping[str, Any] = field(default_factory=dict)

    def to_json(self) -> dict[str, Any]:
        """The message for programs: ``{"id": ..., "params": {...}}`` with nested values."""
        return {"id": self.id, "params": {k: _json(v) for k, v in self.params.items()}}


def msg(message_id: str, **params: Any) -> Msg:
    """``msg("tiletum.log.take_die", player=Player(0), value=3)``."""
    return Msg(message_id, params)


@dataclass(frozen=True, slots=True)
class Player:
    """A seat, rendered by the name the client gives it."""

    seat: int


def _json(value: Any) -> Any:
    if isinstance(value, Msg):
        return value.to_json()
    if isinstance(value, Player):
        return {"seat": value.seat}
    if isinstance(value, list | tuple):
        return [_json(v) for v in value]
    return value


@dataclass(frozen=True, slots=True)
class ActionWords:
    """A legal action in words: a short label, what it does now, and the group it is shown in
    (actions of one group sit together in a client's list of choices)."""

    label: Msg
    explain: Msg
    group: Msg


@dataclass(frozen=True, slots=True)
class Prompt:
    """The decision now: said to the seat that makes it, and to everyone else.

    ``section`` is the anchor of the rules document's section about this decision (a client
    links the rules page there), or ``None``.
    """

    to_mover: Msg
    to_others: Msg
    section: str | None = None

    def for_viewer(self, viewer: int | None, mover: int | None) -> Msg:
        return self.to_mover if viewer is not None and viewer == mover else self.to_others


@dataclass(frozen=True, slots=True)
class ScoreRow:
    """One category of the score breakdown: its name and each seat's points in it."""

    category: Msg
    points: tuple[int, ...]


@dataclass(frozen=True, slots=True)
class GlossaryEntry:
    """A component a client can show (card, tile, space, track step): its name and what it
    does. ``key`` is what the game's observations and renderers call it."""

    key: str
    name: Msg
    text: Msg


class GameWords:
    """What one game says to people. Each game subclasses this in its ``words.py``.

    Every method returns messages, never text. The default of each method says nothing
    specific; the words tests fail for a game that leaves any of them to the default, except
    ``why_illegal`` and ``outcomes``, which a game may leave to it.
    """

    domain: str = "core"  # the catalog domain: the game package's name

    def action(self, state: State, action: Action) -> ActionWords:
        """The label, explanation and group of ``action``, legal in ``state``."""
        raise NotImplementedError

    def prompt(self, state: State) -> Prompt:
        """The decision ``state.to_move`` faces now (only called while the game runs)."""
        raise NotImplementedError

    def event(self, event: Mapping[str, Any]) -> Msg | None:
        """A log line for an event view (:meth:`palio.core.events.Event.view`); ``None``
        keeps the event out of the log (bookkeeping nobody needs to read)."""
        raise NotImplementedError

    def glossary(self) -> Sequence[GlossaryEntry]:
        """Every component a client can show, by the key its renderer uses."""
        return ()

    def scores(self, state: State) -> list[ScoreRow]:
        """The score breakdown, category by category (the rows add up to ``state.scores()``).
        Shown at the end, and during play where the game shows scores openly."""
        raise NotImplementedError

    def outcomes(self, state: State, seat: int) -> list[Msg]:
        """The named outcomes ``seat`` has achieved in ``state`` that a player cares about (a
        contest won, towers completed), each said once, as of now (at a finished game, how it
        went). Said only from what ``seat`` may see: never a hidden card. Reviews and hints
        count them in the worlds a choice leads to (``palio.review.outlook``). Optional: the
        default names none."""
        return []

    def why_illegal(self, state: State, action: Action) -> Msg | None:
        """Why ``action`` cannot be played now, where the game can say so; ``None`` lets the
        caller say it is not one of the legal choices."""
        return None

    def board(self, state: State, seat: int | None) -> list[Msg]:
        """The position as ``seat`` sees it, as lines for the terminal client."""
        raise NotImplementedError
