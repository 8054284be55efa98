"""Effects of helpers, assignment tiles and bonus reward tiles.

助手の雇用 / 業務アクションの実行 / フェイズ3 報酬: an effect either happens at once (florins,
VP, initiative, threshold, offspring, a man and a woman from the stock) or pushes the frames of
the decisions it needs (advancement points, a face-down alliance tile's row, a marriage, a
diplomatic mission).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from palio.games.signorie.components import (
    E_ADVANCE,
    E_ALLIANCE,
    E_FAMILY,
    E_FLORINS,
    E_INITIATIVE,
    E_MARRIAGE,
    E_MISSION,
    E_OFFSPRING,
    E_THRESHOLD,
    E_VP,
)
from palio.games.signorie.rules.common import (
    can_step,
    do_offspring,
    gain_vp,
    init_steps,
    take_family,
)
from palio.games.signorie.state import CAT_HELPERS, F_ADVANCE, F_MARRY, F_MISSION, F_ROW

if TYPE_CHECKING:
    from palio.games.signorie.state import SignorieState

FORCED, MAY_STOP, FIRST = 2, 1, 0  # the modes of an F_ADVANCE frame (see state.py)


def apply_effect(s: SignorieState, p: int, effect: int, amount: int, reps: int, category: int) -> None:
    """Carry out ``reps`` repetitions of an effect already known to be possible in full."""
    n = amount * reps
    if effect == E_FLORINS:
        s.florins[p] += n
    elif effect == E_VP:
        gain_vp(s, p, n, category)
    elif effect == E_INITIATIVE:
        init_steps(s, p, n)
    elif effect == E_THRESHOLD:
        s.threshold[p] += n
    elif effect == E_ADVANCE:
        s.stack.append((F_ADVANCE, p, n, FORCED))
    elif effect == E_ALLIANCE:
        for _ in range(reps):
            s.stack.append((F_ROW, p))
    elif effect == E_MARRIAGE:
        s.stack.append((F_MARRY, p))
    elif effect == E_MISSION:
        s.stack.append((F_MISSION, p))
    elif effect == E_OFFSPRING:
        for _ in range(reps):
            do_offspring(s, p)
    elif effect == E_FAMILY:
        take_family(s, p)


def fire_helper(s: SignorieState, p: int, col: int, slot: int) -> None:
    """One helper of column ``col`` acts (助手の活性化). A helper's gift is optional and never
    harmful, so it acts as far as the board allows: the disc stops at the top of the
    initiative track, its advancement points may be left unused, and with the alliance stack
    empty there is no tile to take."""
    _cost, effect, amount = s.comp.helpers[col][slot]
    if effect == E_FLORINS:
        s.florins[p] += amount
        s.emit("helper", p, col=col, slot=slot, effect=effect, amount=amount)
    elif effect == E_VP:
        gain_vp(s, p, amount, CAT_HELPERS)
        s.emit("helper", p, col=col, slot=slot, effect=effect, amount=amount)
    elif effect == E_INITIATIVE:
        moved = init_steps(s, p, amount)
        s.emit("helper", p, col=col, slot=slot, effect=effect, amount=moved)
    elif effect == E_ADVANCE:
        if can_step(s, p):
            s.stack.append((F_ADVANCE, p, amount, MAY_STOP))
            s.emit("helper", p, col=col, slot=slot, effect=effect, amount=amount)
    elif effect == E_ALLIANCE and s.alliance:
        s.stack.append((F_ROW, p))
        s.emit("helper", p, col=col, slot=slot, effect=effect, amount=1)
    elif effect == E_ALLIANCE:
        # the stack ran out (rare: 1 of 450 four-player progress games): no tile to give
        s.emit("helper_empty", p, col=col, slot=slot)
