"""Small rules helpers shared by the phases: scoring, taking tiles, pieces, buildings."""

from __future__ import annotations

from typing import TYPE_CHECKING

from palio.games.tiletum.components import CHAR_TILE, CONTRACT_TILE, CREST, JOKER

if TYPE_CHECKING:
    from palio.games.tiletum.state import TiletumState


def gain_vp(s: TiletumState, p: int, n: int) -> None:
    """Score ``n`` VP (negative to lose); the score marker never goes below 0."""
    s.vp[p] = max(0, s.vp[p] + n)


def owns_crest(s: TiletumState, p: int, family: int) -> bool:
    if family in s.crests[p]:
        return True
    tiles = s.comp.tiles
    return any(tiles[t][0] == CREST and tiles[t][1] == family for t in s.store[p])


def free_contract_space(s: TiletumState, p: int) -> bool:
    return len(s.done[p]) < s.comp.contract_spaces


def can_take(s: TiletumState, p: int, tile: int) -> bool:
    """May seat ``p`` put ``tile`` into its storehouse now?

    A contract may be taken only while a contract space on the player board is free (the
    rulebook's words; contracts waiting in the storehouse do not use a space). Reading: a crest
    may not be taken if the seat owns that family anywhere (board or storehouse).
    """
    c = s.comp
    if len(s.store[p]) >= c.storehouse:
        return False
    return could_take(s, p, tile)


def could_take(s: TiletumState, p: int, tile: int) -> bool:
    """Would ``tile`` fit but for a full storehouse? (A duty may free a space; nothing a
    player can do unowns a crest or uncovers a contract space.)"""
    c = s.comp
    info = c.tiles[tile]
    if info[0] == CREST:
        return not owns_crest(s, p, info[1])
    if info[0] == CONTRACT_TILE:
        return free_contract_space(s, p)
    return True


def king_step(s: TiletumState, p: int) -> bool:
    """One step up the King track, landing on top of any stack; False at the top."""
    if s.king_pos[p] >= len(s.comp.king_vp) - 1:
        return False
    s.king_pos[p] += 1
    s.stamp += 1
    s.king_stamp[p] = s.stamp
    return True


def free_house_spaces(s: TiletumState, p: int, town: int) -> list[int]:
    """House spaces of ``town`` where ``p`` may build now (none if p already has a house there)."""
    c = s.comp
    if town >= c.n_towns or s.houses[p] <= 0:
        return []
    spaces = c.town_house_spaces[town]
    owner = s.house_owner
    if any(owner[i] == p for i in spaces):
        return []
    return [i for i in spaces if owner[i] == -1 and c.house_spaces[i][1] <= s.players]


def can_place_pillar(s: TiletumState, p: int, cath: int) -> bool:
    if cath < 0 or s.pillars[p] <= 0 or s.comp.cost_tiles[s.cost[cath]] is None:
        return False
    owners = s.pillar_owner[cath]
    if p in owners:
        return False
    room = sum(1 for m in s.comp.pillar_space_min if m <= s.players)
    return len(owners) < room


def place_pillar(s: TiletumState, p: int, cath: int) -> None:
    s.pillars[p] -= 1
    s.pillar_owner[cath].append(p)
    s.emit("pillar", p, town=s.comp.spots[s.comp.cathedral_towns[cath]])


def place_house(s: TiletumState, p: int, space: int) -> None:
    """Build on ``space`` and take its printed building bonus at once."""
    from palio.games.tiletum.state import F_BLDG

    c = s.comp
    s.houses[p] -= 1
    s.house_owner[space] = p
    _town, _min, vp, building = c.house_spaces[space]
    s.emit("house", p, space=c.house_label[space], vp=vp, building_bonus=building)
    if vp:
        gain_vp(s, p, vp)
    if building and buildings_with_characters(s, p):
        s.stack.append((F_BLDG, 0))  # the player may ignore any of the bonuses


def buildings_with_characters(s: TiletumState, p: int) -> list[int]:
    rooms = s.rooms[p]
    return [b for b, idx in enumerate(s.comp.room_index) if any(rooms[i] != -1 for i in idx)]


def building_illustration(s: TiletumState, p: int, b: int) -> int:
    rooms = s.rooms[p]
    for i in s.comp.room_index[b]:
        if rooms[i] != -1:
            return s.comp.tiles[rooms[i]][1]
    return -1


def can_put_character(s: TiletumState, p: int, tile: int, b: int) -> bool:
    """Same illustration only in one building, and one illustration per building."""
    illus = s.comp.tiles[tile][1]
    here = building_illustration(s, p, b)
    if here != -1:
        return here == illus
    return all(building_illustration(s, p, o) != illus for o in range(len(s.comp.rooms)) if o != b)


def building_full(s: TiletumState, p: int, b: int) -> bool:
    rooms = s.rooms[p]
    return all(rooms[i] != -1 for i in s.comp.room_index[b])


def check_completion(s: TiletumState, p: int, b: int) -> None:
    """Mark building ``b`` completed (all rooms filled and its crest placed) and pay bonus AP."""
    from palio.games.tiletum.state import F_ACT

    bit = 1 << b
    if s.completed[p] & bit or s.crests[p][b] == -1 or not building_full(s, p, b):
        return
    s.completed[p] |= bit
    rooms = s.comp.rooms[b]
    action = JOKER
    if rooms:
        action = s.comp.illustrations[building_illustration(s, p, b)][1]
        s.bonus_ap[p][action] += rooms
        # the bonus applies to the current die action too, when it is that action
        base = s.stack[0] if s.stack else None
        if base and base[0] == F_ACT and base[4] and base[1] == action:
            s.stack[0] = (F_ACT, action, base[2] + rooms, base[3], 1)
    s.emit("completed", p, building=b + 1, bonus_ap=rooms, action=action)


def roof_houses(s: TiletumState, p: int) -> int:
    c = s.comp
    return sum(1 for b, n in enumerate(c.rooms) if n and not building_full(s, p, b))


def houses_on_map(s: TiletumState, p: int) -> int:
    return s.comp.n_houses - s.houses[p] - roof_houses(s, p)


def pillars_on_map(s: TiletumState, p: int) -> int:
    c = s.comp
    on_spaces = max(0, c.pillars_on_spaces - len(s.done[p]))
    return c.n_pillars - s.pillars[p] - on_spaces


def crest_count(s: TiletumState, p: int) -> int:
    return sum(1 for f in s.crests[p] if f != -1)


def upper_characters(s: TiletumState, p: int) -> int:
    rooms = s.rooms[p]
    return sum(1 for idx in s.comp.room_index for i in idx[1:] if rooms[i] != -1)


def full_buildings(s: TiletumState, p: int) -> int:
    return sum(1 for b, n in enumerate(s.comp.rooms) if n and building_full(s, p, b))


def is_character(s: TiletumState, tile: int) -> bool:
    return s.comp.tiles[tile][0] == CHAR_TILE
