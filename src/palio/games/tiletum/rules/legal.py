"""Legal decisions: the only place where Tiletum legality is decided.

The top frame of the pending stack picks a generator. Duties are offered at turn start, while
an action is being spent (one AP-step at a time) and in the pending choices where doing one
first can change what the choice allows (the area's bonus tile, steps that may place a house or
pillar, floor bonuses); in the other choices a duty done first or right after comes to the same
(``docs/coverage/tiletum.md``, "Duties").
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from palio.core.game import Action
from palio.games.tiletum.components import (
    ANY,
    ARCHITECT,
    CHAR_TILE,
    CHARACTER,
    CONTRACT,
    CONTRACT_TILE,
    CREST,
    GOLD,
    HELPER,
    KING,
    MERCHANT,
    STONE,
)
from palio.games.tiletum.rules.common import (
    buildings_with_characters,
    can_place_pillar,
    can_put_character,
    can_take,
    free_contract_space,
    free_house_spaces,
)
from palio.games.tiletum.rules.effects import helper_usable
from palio.games.tiletum.state import (
    F_ACT,
    F_AREA,
    F_BLDG,
    F_DIE,
    F_HOUSE_ANY,
    F_JOKER,
    F_MOVE_ANY,
    F_PILLAR_ANY,
    F_RES,
    F_ROOMS,
    F_STEPS,
    F_SWAP,
    KINGTILE,
)

if TYPE_CHECKING:
    from palio.games.tiletum.state import TiletumState

_SHIFT = tuple(tuple(min(abs(a - b), 6 - abs(a - b)) for b in range(6)) for a in range(6))


def legal_actions(s: TiletumState) -> list[Action]:
    if s.phase == KINGTILE:
        return _king_tile(s)
    p = s.order[s.pos]
    top = s.stack[-1]
    return _BY_FRAME[top[0]](s, p, top)


def _king_tile(s: TiletumState) -> list[Action]:
    t = s.tables.kingtile
    out: list[Action] = []
    if can_take(s, s.leader(), s.king_bonus):
        out.append(t[0])
    out.append(t[1])
    if s.round == 4:
        out.append(t[2])
    return out


def _die(s: TiletumState, p: int, top: tuple) -> list[Action]:
    out: list[Action] = []
    gold = s.res[p][GOLD]
    wheel = s.wheel
    table = s.tables.die
    for v in range(6):
        for col in range(5):
            if wheel[v * 5 + col]:
                row = table[v][col]
                shifts = _SHIFT[v]
                out.extend(row[t] for t in range(6) if 2 * shifts[t] <= gold)
    _duties(s, p, top, out)
    return out


def _act(s: TiletumState, p: int, top: tuple) -> list[Action]:
    out: list[Action] = []
    if top[2] > 0:
        _AP_OPTIONS[top[1]](s, p, top, out)
    _duties(s, p, top, out)
    if not _steps_owed(s, p, top):
        out.append(s.tables.end if top[4] else s.tables.done)
    return out


def _steps_owed(s: TiletumState, p: int, top: tuple) -> bool:
    """A King action moves the marker one step per AP: it cannot stop while AP are left and
    the marker is below the top space. The steps are one decision (``king``, all AP at once);
    AP added later in the turn (a helper, a completed building) are owed the same way."""
    return top[1] == KING and top[2] > 0 and s.king_pos[p] < len(s.comp.king_vp) - 1


def _piece_options(s: TiletumState, p: int, out: list[Action], piece: int) -> None:
    t = s.tables
    spot = s.architect[p] if piece == 0 else s.merchant[p]
    moves = t.move[piece]
    out.extend(moves[n] for n in s.comp.adj[spot])
    if spot < s.comp.n_towns:
        _place_here(s, p, out, piece, spot)
        tile = s.map_bonus[spot]
        if tile != -1 and can_take(s, p, tile):
            out.append(t.mapbonus)


def _place_here(s: TiletumState, p: int, out: list[Action], piece: int, spot: int) -> None:
    if piece == 0:
        cath = s.comp.town_cathedral[spot]
        if can_place_pillar(s, p, cath):
            out.append(s.tables.pillar[cath])
    else:
        houses = s.tables.house
        out.extend(houses[i] for i in free_house_spaces(s, p, spot))


def _architect(s: TiletumState, p: int, top: tuple, out: list[Action]) -> None:
    _piece_options(s, p, out, 0)


def _merchant(s: TiletumState, p: int, top: tuple, out: list[Action]) -> None:
    _piece_options(s, p, out, 1)


def _character(s: TiletumState, p: int, top: tuple, out: list[Action]) -> None:
    t = s.tables
    c = s.comp
    store = s.store[p]
    if len(store) < c.storehouse:
        out.extend(t.take_char[i] for i, tile in enumerate(s.char_disp) if tile != -1)
    if any(tile != -1 for tile in s.char_disp):
        out.append(t.refresh)
    ap = top[2]
    rooms = s.rooms[p]
    for slot, tile in enumerate(store):
        if c.tiles[tile][0] != CHAR_TILE:
            continue
        for b, idx in enumerate(c.room_index):
            if not idx or not can_put_character(s, p, tile, b):
                continue
            for f, i in enumerate(idx):
                if rooms[i] == -1 and f + 1 <= ap:
                    out.append(t.room[slot][b][f])


def _contract(s: TiletumState, p: int, top: tuple, out: list[Action]) -> None:
    t = s.tables
    ap = top[2]
    cost = s.comp.contract_slot_ap
    for i, tile in enumerate(s.contract_disp):
        if tile != -1 and cost[i] <= ap and can_take(s, p, tile):
            out.append(t.take_contract[i])
    res = s.res[p]
    for g in range(5):
        if res[g]:
            row = t.exchange[g]
            out.extend(row[x] for x in range(5) if x != g)


def _king(s: TiletumState, p: int, top: tuple, out: list[Action]) -> None:
    if s.king_pos[p] < len(s.comp.king_vp) - 1:
        out.append(s.tables.king)


_AP_OPTIONS = {ARCHITECT: _architect, MERCHANT: _merchant, CHARACTER: _character,
               CONTRACT: _contract, KING: _king}


def _duties(s: TiletumState, p: int, top: tuple, out: list[Action]) -> None:
    """The five duties, allowed at any point of the turn between AP-steps."""
    t = s.tables
    c = s.comp
    res = s.res[p]
    if res[GOLD] >= 2:
        out.extend(t.buy[1:])
    free_crest = [k for k, f in enumerate(s.crests[p]) if f == -1]
    can_fulfil = free_contract_space(s, p)
    for slot, tile in enumerate(s.store[p]):
        info = c.tiles[tile]
        kind = info[0]
        if kind == CONTRACT_TILE and can_fulfil:
            _fulfil_options(s, res, slot, info[1], out)
        elif kind == CREST:
            food = res[1]
            out.extend(t.crest[slot][k] for k in free_crest if c.crest_food[k] <= food)
        elif kind == HELPER and tile not in s.holds[1::2] and helper_usable(s, p, tile, top):
            out.append(t.helper[slot])
    bit = 1
    for cath, owners in enumerate(s.pillar_owner):
        if p in owners and not s.contributed[p] & bit:
            cost = c.cost_tiles[s.cost[cath]]
            if cost is not None and res[STONE] >= cost[0]:
                out.append(t.contribute[cath])
        bit <<= 1


def _fulfil_options(s: TiletumState, res: list[int], slot: int, cost: tuple, out: list[Action]) -> None:
    fixed = [0] * 5
    any_n = 0
    for r, n in cost:
        if r == ANY:
            any_n = n
        else:
            fixed[r] += n
    if any(res[r] < fixed[r] for r in range(5)):
        return
    row = s.tables.fulfil[slot]
    if not any_n:
        out.append(row[5])
        return
    out.extend(row[r] for r in range(5) if res[r] - fixed[r] >= any_n)


def _joker(s: TiletumState, p: int, top: tuple) -> list[Action]:
    return list(s.tables.joker)


def _area(s: TiletumState, p: int, top: tuple) -> list[Action]:
    """Take or leave the area's bonus tile; take only while it fits, and duties meanwhile
    (one may free a storehouse space)."""
    skip, take = s.tables.area
    out: list[Action] = [skip]
    if can_take(s, p, s.area_bonus[top[1]]):
        out.append(take)
    _duties(s, p, top, out)
    return out


def _res(s: TiletumState, p: int, top: tuple) -> list[Action]:
    return list(s.tables.res)


def _house_any(s: TiletumState, p: int, top: tuple) -> list[Action]:
    """Crest bonus: the house goes to any town that can take it; ``done`` only if none can."""
    houses = s.tables.house
    out: list[Action] = []
    for town in range(s.comp.n_towns):
        out.extend(houses[i] for i in free_house_spaces(s, p, town))
    return out or [s.tables.done]


def _pillar_any(s: TiletumState, p: int, top: tuple) -> list[Action]:
    """Crest bonus: the pillar goes to any cathedral that can take it; ``done`` only if none can."""
    out: list[Action] = [s.tables.pillar[k] for k in range(len(s.cost)) if can_place_pillar(s, p, k)]
    return out or [s.tables.done]


def _move_any(s: TiletumState, p: int, top: tuple) -> list[Action]:
    """Crest bonus: the piece moves to any space of the map; its own space is one of them, so
    ``done`` leaves it where it is."""
    piece = top[1]
    here = s.architect[p] if piece == 0 else s.merchant[p]
    moves = s.tables.move[piece]
    return [m for i, m in enumerate(moves) if i != here] + [s.tables.done]


def _steps(s: TiletumState, p: int, top: tuple) -> list[Action]:
    """Single steps and a placement in the piece's town; a forced frame offers no ``done``
    while it has something to do."""
    _, piece, steps, place, forced = top
    spot = s.architect[p] if piece == 0 else s.merchant[p]
    out: list[Action] = []
    if steps:
        moves = s.tables.move[piece]
        out.extend(moves[n] for n in s.comp.adj[spot])
    if place and spot < s.comp.n_towns:
        _place_here(s, p, out, piece, spot)
    if not (forced and out):
        out.append(s.tables.done)
    if place:
        _duties(s, p, top, out)  # a fulfilled contract may supply the pillar to place
    return out


def _bldg(s: TiletumState, p: int, top: tuple) -> list[Action]:
    """Pick a building with a character; the house-space bonus (top[1] 0) may be declined."""
    out: list[Action] = [s.tables.building[b] for b in buildings_with_characters(s, p)]
    if not (top[1] and out):
        out.append(s.tables.done)
    return out


def _rooms(s: TiletumState, p: int, top: tuple) -> list[Action]:
    """The floors' bonuses in any order; all of them when top[3] is 1 (the helper)."""
    mask = top[2]
    out: list[Action] = [s.tables.floor[f] for f in range(3) if mask >> f & 1]
    if not top[3]:
        out.append(s.tables.done)
    _duties(s, p, top, out)  # a bonus placing a pillar here needs one in the supply first
    return out


_BY_FRAME = {F_DIE: _die, F_ACT: _act, F_JOKER: _joker, F_AREA: _area, F_RES: _res, F_SWAP: _res,
             F_HOUSE_ANY: _house_any, F_PILLAR_ANY: _pillar_any, F_MOVE_ANY: _move_any,
             F_STEPS: _steps, F_BLDG: _bldg, F_ROOMS: _rooms}
