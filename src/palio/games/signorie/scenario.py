"""Build Signorie positions from a compact description (tests, examples, tutorials).

A position starts from a real set-up and is changed as described, keeping every component
somewhere (an alliance tile placed on a city or a plan is taken out of the stack; meeples put
on a track or in a city come out of the general stock), so the invariants still hold.

>>> s = position(4, to_move=1, florins={1: 9}, pool="b1 b1 r3", men={1: "mil 13"})
>>> s.florins[1], s.pool[4 * 6], s.men_on_track(1, 2)[8]
(9, 2, 1)
>>> str(s.legal_actions()[0])
'die r3'
"""

from __future__ import annotations

from typing import Any

from palio.games.signorie.actions import TRACK_INDEX
from palio.games.signorie.components import DIE_LETTERS, ROW_CODES
from palio.games.signorie.state import EMPTY, F_TURN, PLAY, SignorieState


def parse_pool(text: str) -> list[int]:
    """``"b1 b1 r3"`` -> dice counts per colour and value (two light blue 1s, a red 3)."""
    pool = [0] * 30
    for part in text.split():
        pool[DIE_LETTERS.index(part[0]) * 6 + int(part[1:]) - 1] += 1
    return pool


def take_tile(s: SignorieState, family: int, vp: int) -> int:
    """A tile of this family and value, taken out of the alliance stack (or the set-aside
    tiles): the caller puts it somewhere."""
    c = s.comp
    for pile in (s.alliance, list(s.removed)):
        for t in pile:
            if c.tile_family[t] == family and c.tile_value[t] == vp:
                if pile is s.alliance:
                    s.alliance.remove(t)
                else:
                    s.removed = tuple(x for x in s.removed if x != t)
                return t
    raise ValueError(f"no {family}/{vp} alliance tile left to place")


def _return_tile(s: SignorieState, t: int) -> None:
    if t != EMPTY:
        s.alliance.insert(0, t)


def set_city_tile(s: SignorieState, city: int, kind: str, family: int | None, vp: int = 0) -> None:
    """Put a tile of ``family`` / ``vp`` (None: no tile) on a city's ``marriage`` or ``mission`` slot."""
    tiles = s.marriage_tile if kind == "marriage" else s.mission_tile
    _return_tile(s, tiles[city])
    tiles[city] = EMPTY if family is None else take_tile(s, family, vp)


def fill_city(s: SignorieState, city: int, empty: list[int], seat: int) -> None:
    """Occupy the slots of ``city`` so that exactly the values in ``empty`` stay empty; the
    occupants are women of ``seat`` (taken from its general stock)."""
    c = s.comp
    S = c.max_city_slots
    left = list(empty)
    for i, value in enumerate(c.city_slots[city]):
        if s.city_slot[city * S + i] >= 0:
            continue
        if value in left:
            left.remove(value)
        else:
            s.city_slot[city * S + i] = seat * 4
            s.stock_w[seat] -= 1
    if left:
        raise ValueError(f"city {c.city_names[city]} has no empty slot(s) {left}")


def place_man(s: SignorieState, seat: int, track: str, vp: int, n: int = 1) -> None:
    """Put ``n`` men of ``seat`` (from its general stock) on the slot of ``track`` worth ``vp``."""
    c = s.comp
    t = TRACK_INDEX[track]
    slot = c.track_vp[t].index(vp)
    s.tracks[(seat * 3 + t) * c.max_track_len + slot] += n
    s.stock_m[seat] -= n


def set_helpers(s: SignorieState, seat: int, col: int, mask: int) -> None:
    """Helpers of ``seat`` on the slots of column ``col`` (bit i = slot i), from the supply."""
    old = s.helpers[seat * 5 + col]
    s.helpers[seat * 5 + col] = mask
    s.hired += bin(mask).count("1") - bin(old).count("1")
    s._legal = None


def put_row(s: SignorieState, seat: int, row: str, up: list[tuple[int, int]], down: int = 0) -> None:
    """Tiles in a row of a plan: ``up`` face up as (family, vp) pairs, ``down`` face down."""
    r = ROW_CODES.index(row)
    s.rows_up[seat * 4 + r] = s.rows_up[seat * 4 + r] + tuple(take_tile(s, f, v) for f, v in up)
    s.rows_down[seat * 4 + r] = s.rows_down[seat * 4 + r] + tuple(s.alliance.pop() for _ in range(down))


def position(players: int = 4, seed: int = 1, *, to_move: int | None = None,
             florins: dict[int, int] | None = None, pool: str | None = None,
             men: dict[int, str] | None = None, clear: bool = True, **fields: Any) -> SignorieState:
    """A fresh game in Phase 2 of round 1, changed as described, at a turn of ``to_move``.

    ``florins`` sets seats' florins; ``pool`` replaces the dice in the areas (``"b1 r3"``);
    ``men`` puts men on career tracks (``{1: "mil 13, pol 9 9"}``: a man on the military slot
    worth 13 and two on the politician slot worth 9); ``clear`` empties the cities' alliance
    slots (back into the stack) so nothing is taken unless asked for; other keyword arguments
    set state fields directly (``vp=[..]``, ``init_pos=[..]``...).
    """
    from palio.games.signorie import GAME

    s = GAME.setup(players, seed)
    assert isinstance(s, SignorieState)
    if clear:
        for city in range(5):
            set_city_tile(s, city, "marriage", None)
            set_city_tile(s, city, "mission", None)
    for seat, n in (florins or {}).items():
        s.florins[seat] = n
    if pool is not None:
        s.pool = parse_pool(pool)
    for seat, text in (men or {}).items():
        for part in text.split(","):
            name, *vps = part.split()
            for vp in vps:
                place_man(s, seat, name, int(vp))
    for name, value in fields.items():
        setattr(s, name, value)
    if to_move is not None:
        s.phase = PLAY
        s.pos = s.order.index(to_move)
        s.stack = [(F_TURN, to_move)]
    s._legal = None
    return s


def place_in_order(s: SignorieState, order: list[int]) -> None:
    """Set the turn order (and the initiative stack, first player on top)."""
    s.order = list(order)
    for place, seat in enumerate(order):
        s.init_stamp[seat] = s.stamp + len(order) - place
    s.stamp += len(order)
    s.pos = 0
    s._legal = None
