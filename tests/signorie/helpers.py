"""Shared helpers of the Signorie tests: playing notation, reading legal moves, finding tiles."""

from __future__ import annotations

from palio.games.signorie.components import DEFAULT, EFFECTS, SIGNORIA
from palio.games.signorie.state import SignorieState

YELLOW, RED, PURPLE, BLUE = range(4)  # seats by player colour
Y, R, P, G, B = range(5)  # die colours / columns
MILANO, VENEZIA, FIRENZE, ROMA, NAPOLI = range(5)


def legal(s: SignorieState) -> list[str]:
    return [str(a) for a in s.legal_actions()]


def play(s: SignorieState, *notations: str) -> None:
    for text in notations:
        s.apply(text)


def assignment_tile(effect: str, amount: int | None = None) -> int:
    """Index of the assignment tile with this effect (and amount)."""
    for i, (e, a, _m, _r) in enumerate(DEFAULT.assignments):
        if EFFECTS[e] == effect and (amount is None or a == amount):
            return i
    raise AssertionError(effect)


def deal(s: SignorieState, col: int, sex: int, tile: int) -> None:
    """Put assignment ``tile`` on colour ``col``'s man (0) or woman (1) slot, swapping it
    with the tile lying there."""
    where = s.assign.index(tile)
    s.assign[where], s.assign[col * 2 + sex] = s.assign[col * 2 + sex], tile
    s._legal = None


def bonus_tile(effect: str, amount: int | None = None) -> int:
    for i, (e, a) in enumerate(DEFAULT.bonus_tiles):
        if EFFECTS[e] == effect and (amount is None or a == amount):
            return i
    raise AssertionError(effect)


def column_of(action: str) -> int:
    return DEFAULT.action_col[SIGNORIA.index(action)]


def slot_of(track_vp: int) -> int:
    """1-based career slot worth ``track_vp`` (the tracks share their values)."""
    return DEFAULT.track_vp[0].index(track_vp) + 1
