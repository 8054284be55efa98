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

if TYPE_CHECKING:
    from palio.games.troyes.state import TroyesState

# indexed by frame kind: F_DRAFT, F_COMBAT, F_FLIP, F_TURN, F_SOURCE, F_GROUP, F_USES, F_MILL, F_TARGET
_BY_FRAME = (draft_legal, combat_legal, flip_legal, turn_legal, source_legal, group_legal,
             uses_legal, mill_legal, target_legal)


def legal_actions(s: TroyesState) -> list[Action]:
    top = s.stack[-1]
    return _BY_FRAME[top[0]](s, top)

