"""Applying one legal decision, dispatched by action type.

Handlers first update the frame they consume (AP spent, step used, frame popped) and only
then push the frames of any effect, so that effects resolve before the frame continues.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from palio.core.game import Action
from palio.core.rng import derive
from palio.games.tiletum import actions as A
from palio.games.tiletum.components import ACTIONS, ANY, GOLD, JOKER, RES_LETTERS, STONE
from palio.games.tiletum.rules.common import (
    building_full,
    check_completion,
    gain_vp,
    king_step,
    place_house,
    place_pillar,
)
from palio.games.tiletum.rules.effects import (
    character_bonus,
    contract_extra,
    crest_bonus,
    use_helper,
)
from palio.games.tiletum.rules.round import end_turn, finish_king_phase
from palio.games.tiletum.state import (
    F_ACT,
    F_AREA,
    F_DIE,
    F_HOUSE_ANY,
    F_JOKER,
    F_PILLAR_ANY,
    F_RES,
    F_ROOMS,
    F_STEPS,
    F_SWAP,
)

if TYPE_CHECKING:
    from palio.games.tiletum.state import TiletumState

_RES = {x: i for i, x in enumerate(RES_LETTERS)}


def apply_action(s: TiletumState, action: Action) -> None:
    _HANDLERS[type(action)](s, action)
    if s.holds:
        release_helpers(s)


def release_helpers(s: TiletumState) -> None:
    """Remove from the game the helpers whose ability is resolved: those whose frames are
    gone from the stack (a helper leaves the storehouse only after its ability)."""
    holds = s.holds
    while holds and len(s.stack) <= holds[-2]:
        s.store[_player(s)].remove(holds[-1])
        del holds[-2:]


def _player(s: TiletumState) -> int:
    return s.order[s.pos]


def _spend(s: TiletumState, ap: int, exch: int | None = None) -> None:
    """Spend AP of the top action; an extra (non-die) action with nothing left is finished."""
    top = s.stack[-1]
    left = top[2] - ap
    if left <= 0 and not top[4]:
        s.stack.pop()
    else:
        s.stack[-1] = (F_ACT, top[1], left, top[3] if exch is None else exch, top[4])


def _steps_left(s: TiletumState, piece: int, steps: int, place: int) -> None:
    if steps or place:
        s.stack[-1] = (F_STEPS, piece, steps, place, s.stack[-1][4])
    else:
        s.stack.pop()


def _take_die(s: TiletumState, a: A.TakeDie) -> None:
    p = _player(s)
    col = _RES[a.colour]
    shift = min(abs(a.to - a.value), 6 - abs(a.to - a.value))
    s.res[p][GOLD] -= 2 * shift
    s.wheel[(a.value - 1) * 5 + col] -= 1
    s.dice_used[p].append((a.to, col))
    area = (a.to - 1 + s.rotation) % 6
    kind = s.area_action[area]
    ap = 7 - a.to
    s.emit("die", p, value=a.value, colour=a.colour, to=a.to, action=ACTIONS[kind], ap=ap)
    s.stack = [(F_JOKER, ap, 1) if kind == JOKER else (F_ACT, kind, ap + s.bonus_ap[p][kind], 0, 1)]
    tile = s.area_bonus[area]
    from palio.games.tiletum.rules.common import could_take

    # offered even with a full storehouse: a duty done first may free a space
    if tile != -1 and could_take(s, p, tile):
        s.stack.append((F_AREA, area))
    if s.swap:
        s.swap = 0
        s.stack.append((F_SWAP, a.to))
    else:
        s.res[p][col] += a.to


def _area_bonus(s: TiletumState, a: A.AreaBonus) -> None:
    p = _player(s)
    area = s.stack.pop()[1]
    if a.take:
        s.store[p].append(s.area_bonus[area])
        s.area_bonus[area] = -1
        s.emit("area_bonus", p, tile=s.store[p][-1])


def _joker(s: TiletumState, a: A.Joker) -> None:
    p = _player(s)
    _, ap, main = s.stack[-1]
    kind = ACTIONS.index(a.kind)
    s.stack[-1] = (F_ACT, kind, ap + (s.bonus_ap[p][kind] if main else 0), 0, main)
    s.emit("joker", p, action=a.kind)


def _consume_place_step(s: TiletumState, frame_kind: int) -> None:
    """A placement (house/pillar) ends a 'here' frame, spends 1 AP, or uses the step's option."""
    top = s.stack[-1]
    if top[0] == F_ACT:
        _spend(s, 1)
    elif top[0] == F_STEPS:
        _steps_left(s, top[1], top[2], 0)
    elif top[0] == frame_kind:
        s.stack.pop()


def _move(s: TiletumState, a: A.Move) -> None:
    p = _player(s)
    spot = s.comp.spot_id[a.spot]
    top = s.stack[-1]
    if top[0] == F_ACT:
        _spend(s, 1)
    elif top[0] == F_STEPS:
        _steps_left(s, top[1], top[2] - 1, top[3])
    else:
        s.stack.pop()
    (s.architect if a.piece == "arch" else s.merchant)[p] = spot
    s.emit("move", p, piece=a.piece, spot=a.spot)


def _pillar(s: TiletumState, a: A.PlacePillar) -> None:
    p = _player(s)
    cath = s.comp.town_cathedral[s.comp.spot_id[a.town]]
    _consume_place_step(s, F_PILLAR_ANY)
    place_pillar(s, p, cath)


def _house(s: TiletumState, a: A.PlaceHouse) -> None:
    p = _player(s)
    _consume_place_step(s, F_HOUSE_ANY)
    place_house(s, p, s.comp.house_id[a.space])


def _map_bonus(s: TiletumState, a: A.MapBonus) -> None:
    p = _player(s)
    kind = s.stack[-1][1]
    _spend(s, 1)
    town = s.architect[p] if kind == 0 else s.merchant[p]
    tile = s.map_bonus[town]
    s.map_bonus[town] = -1
    s.store[p].append(tile)
    s.emit("map_bonus", p, town=s.comp.spots[town], tile=tile)


def _draw(s: TiletumState, deck: list[int]) -> int:
    return deck.pop() if deck else -1


def _take_char(s: TiletumState, a: A.TakeCharacter) -> None:
    p = _player(s)
    _spend(s, 1)
    i = a.slot - 1
    tile = s.char_disp[i]
    s.store[p].append(tile)
    s.char_disp[i] = _draw(s, s.char_deck)
    s.emit("take_character", p, tile=tile)


def _refresh(s: TiletumState, a: A.RefreshCharacters) -> None:
    p = _player(s)
    _spend(s, 1)
    old = [t for t in s.char_disp if t != -1]
    s.char_disp = [_draw(s, s.char_deck) for _ in s.char_disp]
    s.char_deck.extend(old)
    s.shuffles += 1
    derive(s.seed, "characters", s.shuffles).shuffle(s.char_deck)
    s.emit("refresh_characters", p)


def _room(s: TiletumState, a: A.PlaceCharacter) -> None:
    p = _player(s)
    _spend(s, a.floor)
    b = a.building - 1
    tile = s.store[p].pop(a.slot - 1)
    s.rooms[p][s.comp.room_index[b][a.floor - 1]] = tile
    s.emit("character", p, tile=tile, building=a.building, floor=a.floor)
    character_bonus(s, p, tile)
    if building_full(s, p, b):
        s.houses[p] += 1  # the roof house goes to the personal supply
        s.emit("roof_house", p, building=a.building)
        check_completion(s, p, b)


def _take_contract(s: TiletumState, a: A.TakeContract) -> None:
    p = _player(s)
    i = a.slot - 1
    _spend(s, s.comp.contract_slot_ap[i])
    tile = s.contract_disp[i]
    s.contract_disp[i] = -1  # the display is closed up at the end of the turn
    s.store[p].append(tile)
    s.emit("take_contract", p, tile=tile)


def _exchange(s: TiletumState, a: A.Exchange) -> None:
    p = _player(s)
    top = s.stack[-1]
    _spend(s, 1, exch=1)
    res = s.res[p]
    res[_RES[a.give]] -= 1
    res[_RES[a.get]] += 1
    s.emit("exchange", p, give=a.give, get=a.get, first=not top[3])
    if not top[3]:
        s.stack.append((F_RES, 1))  # the first exchange of a contract action adds one resource


def _king(s: TiletumState, a: A.KingStep) -> None:
    """The King action spends all its AP at once: one step per AP, stopping at the top space
    (the rulebook gives the marker one step per AP; nothing a player may do between steps
    changes where it ends, so the steps are one decision, see docs/coverage/tiletum.md)."""
    p = _player(s)
    ap = s.stack[-1][2]
    _spend(s, ap)
    steps = 0
    while steps < ap and king_step(s, p):
        steps += 1
    s.emit("king_step", p, step=s.king_pos[p], steps=steps)


def _choose_res(s: TiletumState, a: A.ChooseResource) -> None:
    p = _player(s)
    kind, n = s.stack.pop()
    if kind == F_SWAP:
        s.res[p][_RES[a.res]] += n
    else:
        s.res[p][_RES[a.res]] += 1
        if n > 1:
            s.stack.append((F_RES, n - 1))
    s.emit("resource", p, res=a.res, n=n if kind == F_SWAP else 1)


def _end(s: TiletumState, a: A.End) -> None:
    s.emit("end_turn", _player(s))
    end_turn(s)


def _done(s: TiletumState, a: A.Done) -> None:
    s.stack.pop()


def _buy(s: TiletumState, a: A.Buy) -> None:
    p = _player(s)
    s.res[p][GOLD] -= 2
    s.res[p][_RES[a.res]] += 1
    s.emit("buy", p, res=a.res)


def _fulfil(s: TiletumState, a: A.Fulfil) -> None:
    p = _player(s)
    c = s.comp
    tile = s.store[p].pop(a.slot - 1)
    _kind, cost, vp, extra = c.tiles[tile]
    res = s.res[p]
    for r, n in cost:
        res[_RES[a.res] if r == ANY else r] -= n
    space = len(s.done[p])
    s.done[p].append(tile)
    if space < c.pillars_on_spaces:
        s.pillars[p] += 1  # the pillar on that contract space goes to the supply
    gain_vp(s, p, vp + c.contract_space_vp[space])
    s.emit("fulfil", p, tile=tile, vp=vp + c.contract_space_vp[space])
    contract_extra(s, p, extra)


def _crest(s: TiletumState, a: A.PlaceCrest) -> None:
    p = _player(s)
    k = a.space - 1
    tile = s.store[p].pop(a.slot - 1)
    s.res[p][1] -= s.comp.crest_food[k]
    s.crests[p][k] = s.comp.tiles[tile][1]
    s.emit("crest", p, tile=tile, space=a.space)
    crest_bonus(s, p, k)
    check_completion(s, p, k)


def _contribute(s: TiletumState, a: A.Contribute) -> None:
    p = _player(s)
    cath = s.comp.town_cathedral[s.comp.spot_id[a.town]]
    stone, vp = s.comp.cost_tiles[s.cost[cath]]
    s.res[p][STONE] -= stone
    s.contributed[p] |= 1 << cath
    # reading: once the stack is empty a contribution still scores the cost tile's VP
    tile_vp = s.cath_stack[cath].pop() if s.cath_stack[cath] else 0
    if tile_vp:
        s.cath_tiles[p].append(tile_vp)
    gain_vp(s, p, vp + tile_vp)
    s.emit("cathedral", p, town=a.town, vp=vp + tile_vp)


def _helper(s: TiletumState, a: A.UseHelper) -> None:
    """Use a helper; it stays in the storehouse until its ability is resolved, then leaves
    the game (at once for an instant ability, else when the frames it pushed are done)."""
    p = _player(s)
    tile = s.store[p][a.slot - 1]
    s.emit("helper", p, tile=tile)
    depth = len(s.stack)
    use_helper(s, p, tile)
    s.holds += [depth, tile]


def _king_tile(s: TiletumState, a: A.KingTile) -> None:
    p = s.leader()
    tile = s.king_bonus
    s.king_bonus = -1
    if a.choice == "take":
        s.store[p].append(tile)
    elif a.choice == "vp":
        gain_vp(s, p, s.comp.king_final_vp)
    s.emit("king_tile", p, choice=a.choice, tile=tile)
    finish_king_phase(s)


def _building(s: TiletumState, a: A.ChooseBuilding) -> None:
    b = a.building - 1
    rooms = s.rooms[_player(s)]
    mask = sum(1 << f for f, i in enumerate(s.comp.room_index[b]) if rooms[i] != -1)
    s.stack[-1] = (F_ROOMS, b, mask, s.stack[-1][1])


def _room_bonus(s: TiletumState, a: A.RoomBonus) -> None:
    p = _player(s)
    _, b, mask, every = s.stack.pop()
    f = a.floor - 1
    mask &= ~(1 << f)
    if mask:
        s.stack.append((F_ROOMS, b, mask, every))
    tile = s.rooms[p][s.comp.room_index[b][f]]
    s.emit("room_bonus", p, tile=tile, building=b + 1, floor=a.floor)
    character_bonus(s, p, tile)


_HANDLERS = {
    A.TakeDie: _take_die, A.AreaBonus: _area_bonus, A.Joker: _joker, A.Move: _move,
    A.PlacePillar: _pillar, A.PlaceHouse: _house, A.MapBonus: _map_bonus,
    A.TakeCharacter: _take_char, A.RefreshCharacters: _refresh, A.PlaceCharacter: _room,
    A.TakeContract: _take_contract, A.Exchange: _exchange, A.KingStep: _king,
    A.ChooseResource: _choose_res, A.End: _end, A.Done: _done, A.Buy: _buy, A.Fulfil: _fulfil,
    A.PlaceCrest: _crest, A.Contribute: _contribute, A.UseHelper: _helper,
    A.KingTile: _king_tile, A.ChooseBuilding: _building, A.RoomBonus: _room_bonus,
}

__all__ = ["apply_action", "F_DIE"]
