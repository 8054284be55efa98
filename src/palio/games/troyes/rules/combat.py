"""Combat against the black dice, and spending influence on one's own dice (both in combat and
before an action).

Rulebook: ■戦闘ルール and ■影響力; [RB] "Phase 3: Events" (the black dice) and "Influence".

Rules and readings (docs/coverage/troyes.md, "Combat"): a player must beat the black die facing
them whenever the dice of their district can (「迎撃しなければならない」); conceding (2 VP lost) is
offered only when they cannot. Reading: when conceding is all that is left (no die in the
district, or too little and no influence to reroll), it is done at once. Influence may be spent before the first die is set against a
black die, in all three ways (recruiting a citizen too: at 20 influence it keeps the point the
black die brings).
"""

from __future__ import annotations

from itertools import compress
from operator import mul
from typing import TYPE_CHECKING

from palio.core.game import Action
from palio.games.troyes.rules.board import gain_influence, lose_vp, roll
from palio.games.troyes.state import F_COMBAT, F_FLIP

if TYPE_CHECKING:
    from palio.games.troyes.state import TroyesState


def strength(face: int) -> int:
    """What a die counts against a black die: red dice count double."""
    v = face % 6 + 1
    return 2 * v if face < 6 else v


_STRENGTHS = tuple(strength(face) for face in range(18))


def _own_total(s: TroyesState, p: int) -> int:
    return sum(map(mul, s.dice[p * 18:p * 18 + 18], _STRENGTHS))  # count times strength, per face


def next_black(s: TroyesState) -> None:
    """The next seat faces the highest black die left (conceding at once when nothing else
    can be done); the action phase begins when none is left."""
    from palio.games.troyes.rules.round import start_actions

    c = s.comp
    while s.black:
        p = s.fighter
        total = _own_total(s, p)
        if total >= s.black[0] or (total and s.influence[p] >= c.reroll_cost):
            s.stack.append((F_COMBAT, p, (), ()))
            return
        _concede(s, p)
    start_actions(s)


def _concede(s: TroyesState, p: int) -> None:
    value = s.black.pop(0)
    lost = lose_vp(s, p, s.comp.penalty_vp)
    s.emit("black_lost", p, value=value, vp=lost)
    s.fighter = s.next_seat(p)


# -- legal ---------------------------------------------------------------------------------
def influence_options(s: TroyesState, p: int, out: list[Action]) -> None:
    """Reroll one own die (1 influence) and turn 1-3 own dice over (4 influence)."""
    c = s.comp
    t = s.tables
    faces = s.dice[p * 18:p * 18 + 18]
    if not any(faces):
        return
    if s.influence[p] >= c.reroll_cost:
        out.extend(compress(t.reroll, faces))  # the faces p has a die of, in order
    if s.influence[p] >= c.flip_cost:
        out.append(t.flip)


def combat_legal(s: TroyesState, top: tuple) -> list[Action]:
    _kind, p, chosen, extras = top
    t = s.tables
    out: list[Action] = []
    target = s.black[0]
    needed = target + sum(extras)
    have = 0
    for f in chosen:
        have += _STRENGTHS[f]
    faces = s.dice[p * 18:p * 18 + 18]
    total = have + sum(map(mul, faces, _STRENGTHS))  # _own_total, inline
    if not chosen and not extras:
        influence_options(s, p, out)
        if s.influence[p] >= s.comp.citizen_cost and s.reserve[p] > 0:
            out.append(t.recruit)
        if total < target:
            out.append(t.concede)
    if have < needed:
        if total < needed:
            return out  # only influence or conceding: the dice cannot reach
        out.extend(compress(t.defend, faces))
    else:
        out.append(t.counter)
    if len(s.black) > 1 + len(extras):  # black dice left to counter with the same dice
        left = s.black[1:]
        for v in extras:
            left.remove(v)
        for v in sorted(set(left), reverse=True):
            if total >= needed + v:
                out.append(t.also[v - 1])
    return out


def flip_legal(s: TroyesState, top: tuple) -> list[Action]:
    _kind, p, _back, flipped = top
    t = s.tables
    out: list[Action] = []
    if len(flipped) < s.comp.flip_max:
        faces = s.dice[p * 18:p * 18 + 18]
        out.extend(compress(t.flip_die, faces))
    if flipped:
        out.append(t.done)
    return out


# -- apply ---------------------------------------------------------------------------------
def apply_reroll(s: TroyesState, p: int, face: int) -> None:
    s.influence[p] -= s.comp.reroll_cost
    s.dice[p * 18 + face] -= 1
    value = roll(s)
    new = face - face % 6 + value - 1
    s.dice[p * 18 + new] += 1
    s.emit("reroll", p, face=face, new=new)


def apply_flip_start(s: TroyesState, p: int) -> None:
    s.influence[p] -= s.comp.flip_cost
    s.emit("flip_paid", p, cost=s.comp.flip_cost)
    s.stack.append((F_FLIP, p, 0, ()))


def apply_flip_die(s: TroyesState, face: int) -> None:
    _kind, p, back, flipped = s.stack[-1]
    s.dice[p * 18 + face] -= 1
    new = face - face % 6 + 6 - face % 6 - 1  # value v shows 7 - v
    s.emit("flip", p, face=face, new=new)
    flipped = (*flipped, new)
    if len(flipped) >= s.comp.flip_max or not any(s.dice[p * 18:p * 18 + 18]):
        _flip_done(s, p, flipped)
    else:
        s.stack[-1] = (F_FLIP, p, back, flipped)


def apply_flip_done(s: TroyesState) -> None:
    _kind, p, _back, flipped = s.stack[-1]
    _flip_done(s, p, flipped)


def _flip_done(s: TroyesState, p: int, flipped: tuple[int, ...]) -> None:
    for face in flipped:
        s.dice[p * 18 + face] += 1
    s.stack.pop()


def apply_defend(s: TroyesState, face: int) -> None:
    _kind, p, chosen, extras = s.stack[-1]
    s.dice[p * 18 + face] -= 1
    s.stack[-1] = (F_COMBAT, p, (*chosen, face), extras)


def apply_also(s: TroyesState, value: int) -> None:
    _kind, p, chosen, extras = s.stack[-1]
    s.stack[-1] = (F_COMBAT, p, chosen, (*extras, value))


def apply_counter(s: TroyesState) -> None:
    _kind, p, chosen, extras = s.stack.pop()
    beaten = [s.black.pop(0)]
    for v in extras:
        s.black.remove(v)
        beaten.append(v)
    gained = gain_influence(s, p, s.comp.per_black_die * len(beaten))
    s.emit("black_beaten", p, black=beaten, faces=list(chosen), influence=gained)
    s.fighter = s.next_seat(p)


def apply_concede(s: TroyesState) -> None:
    _kind, p, _chosen, _extras = s.stack.pop()
    _concede(s, p)
