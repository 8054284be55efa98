"""Build Tiletum positions from a compact description (for tests, examples and tutorials).

>>> s = position(3, to_move=1, res={1: "g5 f2 i3"}, merchant={1: "Arles"})
>>> s.res[1], s.comp.spots[s.merchant[1]]
([5, 2, 0, 0, 3], 'Arles')
"""

from __future__ import annotations

from typing import Any

from palio.games.tiletum.components import ACTIONS, RES_LETTERS
from palio.games.tiletum.state import F_DIE, TiletumState


def parse_res(text: str) -> list[int]:
    """``"g5 f2 i3"`` -> [5, 2, 0, 0, 3]."""
    res = [0] * 5
    for part in text.split():
        res[RES_LETTERS.index(part[0])] = int(part[1:])
    return res


def position(players: int = 2, seed: int = 1, *, to_move: int | None = None,
             res: dict[int, str] | None = None, merchant: dict[int, str] | None = None,
             architect: dict[int, str] | None = None, dice: list[tuple[int, str]] | None = None,
             rotation: int | None = None, clear: bool = True, **fields: Any) -> TiletumState:
    """A fresh game changed as described, at the start of a turn of ``to_move``.

    ``dice`` replaces the wheel's dice; ``clear`` empties the wheel's bonus tiles, the map
    bonus tiles and the King bonus tile (so nothing is offered unless asked for); other keyword
    arguments set state fields directly (``vp=[..]``, ``king_pos=[..]`` ...).
    """
    from palio.games.tiletum import GAME

    s = GAME.setup(players, seed)
    assert isinstance(s, TiletumState)
    if clear:
        s.area_bonus = [-1] * 6
        s.map_bonus = [-1] * len(s.map_bonus)
        s.king_bonus = -1
    if to_move is not None:
        s.pos = s.order.index(to_move)
    for seat, text in (res or {}).items():
        s.res[seat] = parse_res(text)
    for seat, name in (merchant or {}).items():
        s.merchant[seat] = s.comp.spot_id[name]
    for seat, name in (architect or {}).items():
        s.architect[seat] = s.comp.spot_id[name]
    if rotation is not None:
        s.rotation = rotation
    if dice is not None:
        s.wheel = [0] * 30
        for value, colour in dice:
            s.wheel[(value - 1) * 5 + RES_LETTERS.index(colour)] += 1
    for name, value in fields.items():
        setattr(s, name, value)
    s.stack = [(F_DIE,)] if not fields.get("stack") else s.stack
    s._legal = None
    return s


def rotation_for(s: TiletumState, value: int, action: str) -> int:
    """The wheel rotation that puts dice of ``value`` on the area of ``action``."""
    area = s.area_action.index(ACTIONS.index(action))
    return (area - (value - 1)) % 6


def tiles_where(s: TiletumState, pred: Any) -> list[int]:
    """Ids of tiles whose compiled record satisfies ``pred``."""
    return [i for i, t in enumerate(s.comp.tiles) if pred(t)]
