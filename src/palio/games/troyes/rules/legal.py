"""Legal decisions: the only place where Troyes legality is decided. The top frame of the
pending stack picks the generator (see ``state.py`` for the frames)."""

from __future__ import annotations

from typing import TYPE_CHECKING

from palio.core.game import Action
from palio.games.troyes.rules.combat import combat_legal, flip_legal
from palio.games.troyes.rules.setup import draft_legal
from palio.games.troyes.rules.turn import (
    group_legal,
    mill_legal,
    source_legal,
    target_legal,
    turn_legal,
    uses_legal,
)
from palio.games.troyes.state import OVER

if TYPE_CHECKING:
    from palio.games.troyes.state import TroyesState

# indexed by frame kind: F_DRAFT, F_COMBAT, F_FLIP, F_TURN, F_SOURCE, F_GROUP, F_USES, F_MILL, F_TARGET
_BY_FRAME = (draft_legal, combat_legal, flip_legal, turn_legal, source_legal, group_legal,
             uses_legal, mill_legal, target_legal)


def legal_actions(s: TroyesState) -> list[Action]:
    top = s.stack[-1]
    return _BY_FRAME[top[0]](s, top)


def cached_legal_actions(s: TroyesState) -> tuple[Action, ...]:
    """``State.legal_actions`` for Troyes (the state class's own, ``TroyesGame``): the same
    cache and answer, without its two Python calls (``is_over``, ``_legal_actions``), once
    per decision."""
    legal = s._legal
    if legal is None:
        if s.phase == OVER:
            legal = s._legal = ()
        else:
            top = s.stack[-1]
            legal = s._legal = tuple(_BY_FRAME[top[0]](s, top))
    return legal
