"""Legal decisions: the only place where Signorie legality is decided.

The top frame of the pending stack picks a generator. The rulebook's test for taking a die
(ダイスの取得, 重要) is applied in full: a die may be taken only if its column's slot is
empty, its cost can be paid, and at least one of the column's three actions can then be
carried out in full; the action frame offers exactly those actions.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from palio.core.game import Action
from palio.games.signorie.components import (
    ADVANCEMENT,
    E_MARRIAGE,
    FLORINS,
    MARRIAGE,
    MEN,
    MISSION,
    OFFSPRING,
)
from palio.games.signorie.rules.common import (
    can_step,
    effect_possible,
    min_dowry,
    mission_possible,
    open_cities,
)
from palio.games.signorie.state import (
    F_ACTION,
    F_ADVANCE,
    F_BUY,
    F_MARRY,
    F_MISSION,
    F_REWARD,
    F_ROW,
    F_TURN,
)

if TYPE_CHECKING:
    from palio.games.signorie.state import SignorieState

MAX_DICE = 4  # 重要: at most four dice (actions) a round


def legal_actions(s: SignorieState) -> list[Action]:
    top = s.stack[-1]
    return _GENERATORS[top[0]](s, top)


# -- Phase 2: a turn -------------------------------------------------------------------------
def _turn(s: SignorieState, top: tuple) -> list[Action]:
    p = top[1]
    T = s.tables
    out: list[Action] = []
    if s.ndice[p] < MAX_DICE:
        florins = s.florins[p]
        c = s.comp
        pool = s.pool
        for col in range(5):
            if s.dice[p * 5 + col]:
                continue  # one die per colour
            cost = c.col_cost[col]
            need = -1
            for v in range(6):
                if not pool[col * 6 + v]:
                    continue
                pay = cost - v - 1 if cost > v + 1 else 0
                if pay > florins:
                    continue
                if need == -1:
                    need = florins_needed(s, p, col)
                if need is not None and florins - pay >= need:
                    out.append(T.die[col][v])
    out.append(T.pass_)
    return out


def florins_needed(s: SignorieState, p: int, col: int) -> int | None:
    """The fewest florins seat ``p`` must hold, once the die is paid for, so that one of the
    column's three actions can be carried out in full; None if none can at any price."""
    c = s.comp
    best: int | None = None
    # hire a helper: the cheapest free slot of the ring colour's column
    target = c.hire_to[col]
    mask = s.helpers[p * 5 + target]
    if helpers_left(s):
        for i, (cost, _e, _a) in enumerate(c.helpers[target]):
            if not mask >> i & 1 and (best is None or cost < best):
                best = cost
    if best == 0:
        return 0
    # an assignment tile: only a marriage costs florins (its dowry)
    for sex in (0, 1):
        tile = s.assign[col * 2 + sex]
        effect, amount, meeples, repeat = c.assignments[tile]
        k = 1 if repeat else meeples
        have = s.men[p] if sex == MEN else s.women[p]
        if have < k:
            continue
        men = s.men[p] - (k if sex == MEN else 0)
        women = s.women[p] - (0 if sex == MEN else k)
        if effect == E_MARRIAGE:
            least = min_dowry(s)
            if women >= 1 and least is not None and (best is None or least < best):
                best = least
        elif effect_possible(s, p, effect, amount, 1, men, women, 1 << 30):
            return 0
    # the Signoria action
    action = c.col_action[col]
    if action == FLORINS:
        return 0
    if action == MARRIAGE:
        least = min_dowry(s) if s.women[p] else None
        if least is not None and (best is None or least < best):
            best = least
    elif action == OFFSPRING:
        if s.stock_m[p] + s.stock_w[p]:
            return 0
    elif action == ADVANCEMENT:
        if can_step(s, p):
            return 0
    elif action == MISSION and mission_possible(s, p):
        return 0
    return best


def helpers_left(s: SignorieState) -> bool:
    """Is a helper disc left in the common supply (48 in the box)?"""
    return s.hired < s.comp.helper_discs


def _action(s: SignorieState, top: tuple) -> list[Action]:
    """The die is placed: each of the column's actions that can be carried out in full."""
    _kind, p, col = top
    c = s.comp
    T = s.tables
    florins = s.florins[p]
    out: list[Action] = []
    target = c.hire_to[col]
    mask = s.helpers[p * 5 + target]
    if helpers_left(s):
        for i, (cost, _e, _a) in enumerate(c.helpers[target]):
            if not mask >> i & 1 and cost <= florins:
                out.append(T.hire[i])
    for sex in (0, 1):
        tile = s.assign[col * 2 + sex]
        effect, amount, meeples, repeat = c.assignments[tile]
        have = s.men[p] if sex == MEN else s.women[p]
        for k in (range(1, meeples + 1) if repeat else (meeples,)):
            if have < k:
                break
            men = s.men[p] - (k if sex == MEN else 0)
            women = s.women[p] - (0 if sex == MEN else k)
            if effect_possible(s, p, effect, amount, k if repeat else 1, men, women, florins):
                out.append(T.assign[sex][k - 1])
    action = c.col_action[col]
    if action == FLORINS:
        out.append(T.florins)
    elif action == MARRIAGE:
        out += marriage_options(s, p)
    elif action == OFFSPRING:
        if s.stock_m[p] + s.stock_w[p]:
            out.append(T.offspring)
    elif action == ADVANCEMENT:
        if can_step(s, p):
            out.append(T.advance)
    elif action == MISSION:
        out += mission_options(s, p)
    return out


def marriage_options(s: SignorieState, p: int) -> list[Action]:
    """Every city with room, and every dowry from its lowest empty slot's value up to 4."""
    if not s.women[p]:
        return []
    T = s.tables
    florins = s.florins[p]
    top = min(s.comp.dowry_max, florins)
    out: list[Action] = []
    for city, value in open_cities(s):
        row = T.marry[city]
        for dowry in range(value, top + 1):
            out.append(row[dowry - 1])
    return out


def mission_options(s: SignorieState, p: int) -> list[Action]:
    """Every man on a career track (by track and slot) and every city whose lowest empty slot
    his rank reaches."""
    cities = open_cities(s)
    if not cities:
        return []
    c = s.comp
    T = s.tables
    L = c.max_track_len
    out: list[Action] = []
    for t in range(3):
        base = (p * 3 + t) * L
        ranks = c.track_rank[t]
        table = T.mission[t]
        for i in range(c.track_len[t]):
            if s.tracks[base + i]:
                rank = ranks[i]
                for city, value in cities:
                    if value <= rank:
                        out.append(table[i][city])
    return out


# -- advancement points and other sub-decisions ---------------------------------------------
def _advance(s: SignorieState, top: tuple) -> list[Action]:
    _kind, p, _left, mode = top
    c = s.comp
    T = s.tables
    out: list[Action] = []
    if s.men[p]:
        out += T.new
    L = c.max_track_len
    for t in range(3):
        base = (p * 3 + t) * L
        ups = T.up[t]
        for i in range(c.track_len[t] - 1):
            if s.tracks[base + i]:
                out.append(ups[i])
    if s.init_pos[p] < c.init_top:
        out.append(T.init)
    if mode == 1:
        out.append(T.done)
    return out


def _marry(s: SignorieState, top: tuple) -> list[Action]:
    return marriage_options(s, top[1])


def _mission(s: SignorieState, top: tuple) -> list[Action]:
    return mission_options(s, top[1])


def _row(s: SignorieState, top: tuple) -> list[Action]:
    return list(s.tables.row)


def _reward(s: SignorieState, top: tuple) -> list[Action]:
    p = top[1]
    c = s.comp
    T = s.tables
    effect, amount = c.bonus_tiles[s.rewards[s.round - 1]]
    out: list[Action] = []
    if effect_possible(s, p, effect, amount, 1, s.men[p], s.women[p], s.florins[p]):
        out.append(T.reward[0])
    out.append(T.reward[1])
    return out


def _buy(s: SignorieState, top: tuple) -> list[Action]:
    return [s.tables.buy, s.tables.done]


_GENERATORS = {
    F_TURN: _turn, F_ACTION: _action, F_ADVANCE: _advance, F_MARRY: _marry,
    F_MISSION: _mission, F_ROW: _row, F_REWARD: _reward, F_BUY: _buy,
}
