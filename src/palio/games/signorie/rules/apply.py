"""Applying one legal decision, dispatched by action type, then settling the position.

A handler first replaces or pops the frame it answers, then pushes the frames of what follows
(the column's helpers below, the action's own decisions on top), so the action resolves
before its column's helpers act. :func:`settle` then runs every frame that needs no
decision, advances the turn when a player's turn is over, and plays Phase 3 and the next
round's Phase 1 up to the next decision.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from palio.core.game import Action
from palio.games.signorie import actions as A
from palio.games.signorie.actions import TRACK_INDEX
from palio.games.signorie.components import (
    DIE_LETTERS,
    E_THRESHOLD,
    MEN,
    ROW_CODES,
    SEXES,
)
from palio.games.signorie.rules.common import (
    arrive,
    can_step,
    do_marriage,
    do_mission,
    do_offspring,
    gain_vp,
    init_steps,
)
from palio.games.signorie.rules.effects import FIRST, apply_effect, fire_helper
from palio.games.signorie.rules.round import (
    end_round,
    next_turn,
    start_phase3,
    start_reward,
    wedding,
)
from palio.games.signorie.state import (
    CAT_ASSIGNMENTS,
    CAT_REWARDS,
    F_ACTION,
    F_ADVANCE,
    F_HELPERS,
    F_WEDDING,
    OVER,
    PLAY,
    REWARDS,
)

if TYPE_CHECKING:
    from palio.games.signorie.state import SignorieState

_COLOUR = {x: i for i, x in enumerate(DIE_LETTERS)}
_SEX = {x: i for i, x in enumerate(SEXES)}
_ROW = {x: i for i, x in enumerate(ROW_CODES)}


def apply_action(s: SignorieState, action: Action) -> None:
    _HANDLERS[type(action)](s, action)
    settle(s)


def settle(s: SignorieState) -> None:
    """Run the frames that need no decision until one does (or the game is over)."""
    stack = s.stack
    while True:
        if stack:
            top = stack[-1]
            kind = top[0]
            if kind == F_HELPERS:
                p, col, i = top[1], top[2], top[3]
                helpers = s.comp.helpers[col]
                mask = s.helpers[p * 5 + col]
                if len(top) > 4:  # a helper hired into this column by this die waits
                    mask &= ~(1 << top[4])
                while i < len(helpers) and not mask >> i & 1:
                    i += 1
                if i >= len(helpers):
                    stack.pop()
                    continue
                stack[-1] = (F_HELPERS, p, col, i + 1, *top[4:])
                fire_helper(s, p, col, i)
                continue
            if kind == F_WEDDING:
                stack.pop()
                wedding(s, top[1])
                continue
            if kind == F_ADVANCE and (top[2] <= 0 or not can_step(s, top[1])):
                if top[2] > 0:
                    s.emit("points_lost", top[1], points=top[2])
                stack.pop()
                continue
            return
        if s.phase == PLAY:
            if next_turn(s):
                return
            start_phase3(s)
        elif s.phase == REWARDS:
            if s.reward_queue:
                start_reward(s, s.reward_queue.pop(0))
            else:
                end_round(s)
                if s.phase == OVER:
                    return
        else:
            return


def _seat(s: SignorieState) -> int:
    return s.stack[-1][1]


def _after_action(s: SignorieState, p: int, col: int) -> None:
    """The die's action is chosen: the column's helpers act once it is done (reading: after
    any of the three actions, as 注 in ダイスの取得 says)."""
    s.stack[-1] = (F_HELPERS, p, col, 0)


# -- Phase 2 ---------------------------------------------------------------------------------
def _take_die(s: SignorieState, a: A.TakeDie) -> None:
    p = _seat(s)
    col = _COLOUR[a.colour]
    cost = s.comp.col_cost[col]
    pay = cost - a.value if cost > a.value else 0
    s.florins[p] -= pay
    s.pool[col * 6 + a.value - 1] -= 1
    s.dice[p * 5 + col] = a.value
    s.ndice[p] += 1
    s.stack[-1] = (F_ACTION, p, col)
    s.emit("die", p, col=col, value=a.value, paid=pay)


def _pass(s: SignorieState, a: A.Pass) -> None:
    p = _seat(s)
    s.passed[p] = 1
    s.stack.pop()
    s.emit("pass", p, dice=s.ndice[p])


def _hire(s: SignorieState, a: A.Hire) -> None:
    _, p, col = s.stack[-1]
    c = s.comp
    target = c.hire_to[col]
    slot = a.slot - 1
    cost = c.helpers[target][slot][0]
    s.florins[p] -= cost
    s.helpers[p * 5 + target] |= 1 << slot
    s.hired += 1
    _after_action(s, p, col)
    if target == col:
        # a column whose hire ring is its own colour (possible in a components file): the new
        # helper has no immediate effect (助手の雇用), so it does not act with this die
        s.stack[-1] = (F_HELPERS, p, col, 0, slot)
    s.emit("hire", p, col=target, slot=slot, cost=cost)


def _assign(s: SignorieState, a: A.Assign) -> None:
    _, p, col = s.stack[-1]
    c = s.comp
    sex = _SEX[a.sex]
    tile = s.assign[col * 2 + sex]
    effect, amount, _meeples, repeat = c.assignments[tile]
    k = a.meeples
    # paid meeples go back to the general stock, or onto the threshold space (業務)
    if sex == MEN:
        s.men[p] -= k
        if effect == E_THRESHOLD:
            s.parked_m[p] += k
        else:
            s.stock_m[p] += k
    else:
        s.women[p] -= k
        if effect == E_THRESHOLD:
            s.parked_w[p] += k
        else:
            s.stock_w[p] += k
    _after_action(s, p, col)
    reps = k if repeat else 1
    s.emit("assign", p, col=col, sex=sex, tile=tile, meeples=k, effect=effect, amount=amount * reps)
    apply_effect(s, p, effect, amount, reps, CAT_ASSIGNMENTS)


def _florins(s: SignorieState, a: A.Florins) -> None:
    _, p, col = s.stack[-1]
    n = s.comp.signoria_florins
    s.florins[p] += n
    _after_action(s, p, col)
    s.emit("florins", p, florins=n)


def _offspring(s: SignorieState, a: A.Offspring) -> None:
    _, p, col = s.stack[-1]
    _after_action(s, p, col)
    do_offspring(s, p)


def _advance(s: SignorieState, a: A.Advance) -> None:
    _, p, col = s.stack[-1]
    _after_action(s, p, col)
    points = s.comp.advancement_points
    s.stack.append((F_ADVANCE, p, points, FIRST))
    s.emit("advance", p, points=points)


def _marry(s: SignorieState, a: A.Marry) -> None:
    top = s.stack[-1]
    p = top[1]
    if top[0] == F_ACTION:
        _after_action(s, p, top[2])
    else:
        s.stack.pop()
    do_marriage(s, p, s.tables.city_id[a.city], a.dowry)


def _mission(s: SignorieState, a: A.Mission) -> None:
    top = s.stack[-1]
    p = top[1]
    if top[0] == F_ACTION:
        _after_action(s, p, top[2])
    else:
        s.stack.pop()
    do_mission(s, p, TRACK_INDEX[a.track], a.slot - 1, s.tables.city_id[a.city])


# -- advancement points ----------------------------------------------------------------------
def _spend_point(s: SignorieState) -> int:
    _, p, left, mode = s.stack[-1]
    s.stack[-1] = (F_ADVANCE, p, left - 1, 1 if mode == FIRST else mode)
    return p


def _new(s: SignorieState, a: A.NewMan) -> None:
    p = _spend_point(s)
    t = TRACK_INDEX[a.track]
    s.men[p] -= 1
    s.tracks[(p * 3 + t) * s.comp.max_track_len] += 1
    s.emit("new_man", p, track=t)
    arrive(s, p, t, 0)


def _up(s: SignorieState, a: A.StepUp) -> None:
    p = _spend_point(s)
    t = TRACK_INDEX[a.track]
    i = (p * 3 + t) * s.comp.max_track_len + a.slot - 1
    s.tracks[i] -= 1
    s.tracks[i + 1] += 1
    s.emit("step_up", p, track=t, to=a.slot)
    arrive(s, p, t, a.slot)


def _init(s: SignorieState, a: A.InitStep) -> None:
    p = _spend_point(s)
    init_steps(s, p, 1)
    s.emit("init_step", p, to=s.init_pos[p])


def _done(s: SignorieState, a: A.Done) -> None:
    top = s.stack.pop()
    if top[0] == F_ADVANCE:
        s.emit("points_unused", top[1], points=top[2])
    else:
        s.emit("no_buy", top[1])


# -- face-down tiles and Phase 3 ---------------------------------------------------------------
def _row(s: SignorieState, a: A.Row) -> None:
    p = _seat(s)
    s.stack.pop()
    r = _ROW[a.row]
    tile = s.alliance.pop()
    s.rows_down[p * 4 + r] = s.rows_down[p * 4 + r] + (tile,)
    s.emit("face_down", p, row=r)  # the tile's face is seen by nobody


def _reward(s: SignorieState, a: A.Reward) -> None:
    p = _seat(s)
    s.stack.pop()
    c = s.comp
    tile = s.rewards[s.round - 1]
    if a.choice == "florins":
        s.florins[p] += c.florins_instead
        s.emit("reward", p, tile=tile, bonus=False, florins=c.florins_instead)
        return
    effect, amount = c.bonus_tiles[tile]
    s.emit("reward", p, tile=tile, bonus=True, florins=0)
    apply_effect(s, p, effect, amount, 1, CAT_REWARDS)


def _buy(s: SignorieState, a: A.BuyVp) -> None:
    p = _seat(s)
    s.stack.pop()
    c = s.comp
    s.florins[p] -= c.buy_vp_cost
    gain_vp(s, p, c.buy_vp, CAT_REWARDS)
    s.emit("buy", p, florins=c.buy_vp_cost, vp=c.buy_vp)


_HANDLERS = {
    A.TakeDie: _take_die, A.Pass: _pass, A.Hire: _hire, A.Assign: _assign,
    A.Florins: _florins, A.Offspring: _offspring, A.Advance: _advance, A.Marry: _marry,
    A.Mission: _mission, A.NewMan: _new, A.StepUp: _up, A.InitStep: _init, A.Done: _done,
    A.Row: _row, A.Reward: _reward, A.BuyVp: _buy,
}
