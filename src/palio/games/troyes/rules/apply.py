"""Applying one legal decision, dispatched by action type; when the pending stack runs empty
the flow goes on by phase (next drafter, next black die, next action turn)."""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING

from palio.core.game import Action
from palio.games.troyes import actions as A
from palio.games.troyes.components import BUILDING_LETTERS
from palio.games.troyes.rules import cards, combat, setup, turn
from palio.games.troyes.rules.combat import next_black
from palio.games.troyes.rules.round import next_turn
from palio.games.troyes.state import (
    ACTIONS,
    COMBAT,
    DRAFT,
    G_CATHEDRAL,
    G_EVENT,
    G_FARM,
    G_PLACE,
    OVER,
)

if TYPE_CHECKING:
    from palio.games.troyes.state import TroyesState

_COLOUR = {col: i for i, col in enumerate(A.DIE_COLOURS)}
_SLOT = {name: i for i, name in enumerate(A.SLOTS)}
_DISTRICT = {name: i for i, name in enumerate(A.DISTRICTS)}


def apply_action(s: TroyesState, action: Action) -> None:
    _HANDLERS[type(action)](s, action)
    if not s.stack and s.phase != OVER:
        _CONTINUE[s.phase](s)


# the flow when the pending stack runs empty, by phase
_CONTINUE = {DRAFT: setup.finish_draft, COMBAT: next_black, ACTIONS: next_turn}


def _face(colour: str, value: int) -> int:
    return _COLOUR[colour] * 6 + value - 1


def _owner(s: TroyesState) -> int:
    return s.stack[-1][1]


def _reroll(s: TroyesState, a: A.Reroll) -> None:
    combat.apply_reroll(s, _owner(s), _face(a.colour, a.value))


def _flip(s: TroyesState, a: A.Flip) -> None:
    combat.apply_flip_start(s, _owner(s))


def _flip_die(s: TroyesState, a: A.FlipDie) -> None:
    combat.apply_flip_die(s, _face(a.colour, a.value))


def _draft(s: TroyesState, a: A.Draft) -> None:
    setup.apply_draft(s, s.comp.space_id[a.space])


def _card(s: TroyesState, a: A.ActivateCard) -> None:
    turn.apply_card(s, _SLOT[a.slot])


def _event(s: TroyesState, a: A.FightEvent) -> None:
    turn.apply_main(s, G_EVENT, s.queue[a.position - 1])


def _place(s: TroyesState, a: A.PlaceCitizen) -> None:
    turn.apply_main(s, G_PLACE, BUILDING_LETTERS.index(a.building))


def _die(s: TroyesState, a: A.TakeDie) -> None:
    turn.apply_die(s, _DISTRICT[a.district] * 18 + _face(a.colour, a.value))


def _source(s: TroyesState, a: A.Source) -> None:
    turn.apply_source(s, *turn.decode_source(s, s.tables.source_index[a]))


def _mill(s: TroyesState, a: A.Mill) -> None:
    cards.apply_mill(s, cards.MILL_BUILDINGS["PB".index(a.building)])


_HANDLERS: dict[type, Callable[..., None]] = {
    A.Draft: _draft,
    A.Reroll: _reroll,
    A.Flip: _flip,
    A.FlipDie: _flip_die,
    A.Done: lambda s, a: combat.apply_flip_done(s),
    A.Recruit: lambda s, a: turn.apply_recruit(s),
    A.Pass: lambda s, a: turn.apply_pass(s),
    A.ActivateCard: _card,
    A.Cathedral: lambda s, a: turn.apply_main(s, G_CATHEDRAL, 0),
    A.FightEvent: _event,
    A.PlaceCitizen: _place,
    A.Farm: lambda s, a: turn.apply_main(s, G_FARM, 0),
    A.UseCube: lambda s, a: turn.apply_cube(s, _SLOT[a.slot]),
    A.NoCube: lambda s, a: turn.apply_nocube(s),
    A.TakeDie: _die,
    A.Go: lambda s, a: turn.resolve_group(s),
    A.Source: _source,
    A.Use: lambda s, a: cards.apply_use(s),
    A.Stop: lambda s, a: cards.apply_stop(s),
    A.Mill: _mill,
    A.Target: lambda s, a: cards.apply_target(s, a.position - 1),
    A.Defend: lambda s, a: combat.apply_defend(s, _face(a.colour, a.value)),
    A.Also: lambda s, a: combat.apply_also(s, a.value),
    A.Counter: lambda s, a: combat.apply_counter(s),
    A.Concede: lambda s, a: combat.apply_concede(s),
}
