"""Text view of a Tiletum position, the event log in words, and the legend clients draw with."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from palio.games.tiletum.components import (
    ACTIONS,
    CHAR_BONUSES,
    CHAR_TILE,
    CONTRACT_TILE,
    CREST,
    HELPER,
    HELPER_EFFECTS,
    RES_LETTERS,
    RESOURCES,
    Components,
)
from palio.games.tiletum.rules.common import houses_on_map, pillars_on_map

if TYPE_CHECKING:
    from palio.games.tiletum.state import TiletumState


def tile_name(c: Components, tile: int) -> str:
    if tile == -1:
        return "-"
    info = c.tiles[tile]
    if info[0] == CREST:
        return f"crest:{c.crest_names[info[1]]}"
    if info[0] == CONTRACT_TILE:
        cost = "+".join(f"{n}{'?' if r == 5 else RES_LETTERS[r]}" for r, n in info[1])
        extra = ("", "+king", "+merch", "+char")[info[3]]
        return f"contract[{cost}={info[2]}vp{extra}]"
    if info[0] == CHAR_TILE:
        return f"{c.illustrations[info[1]][0]}({CHAR_BONUSES[info[3]]})"
    name = HELPER_EFFECTS[info[1]]
    if name in ("action", "joker"):
        return f"helper:{ACTIONS[info[2]]}{info[3]}ap"
    if name == "add_ap":
        return f"helper:+{info[3]}ap"
    if name == "gain":
        return f"helper:{info[2]}g{info[3]}vp"
    if name == "any":
        return f"helper:any{info[2]}"
    return f"helper:{name}"


def render(s: TiletumState, seat: int | None) -> str:
    c = s.comp
    lines = [f"Tiletum  round {s.round}/4  turn {s.turn + 1}/3  "
             f"{'game over' if s.is_over else f'seat {s.to_move} to move'}"]
    lines.append("Wheel:")
    for area in range(6):
        value = (area - s.rotation) % 6 + 1
        dice = " ".join(f"{RES_LETTERS[col]}x{s.wheel[(value - 1) * 5 + col]}" for col in range(5)
                        if s.wheel[(value - 1) * 5 + col])
        lines.append(f"  {ACTIONS[s.area_action[area]]:<9} die {value} ({7 - value} AP)  "
                     f"dice: {dice or '-'}  bonus: {tile_name(c, s.area_bonus[area])}")
    lines.append(f"King bonus tile: {tile_name(c, s.king_bonus)}")
    lines.append("King track: " + ", ".join(
        f"seat {p} at {c.king_vp[s.king_pos[p]]:+d}" for p in s.king_ranking()))
    lines.append("Corruption: " + " ".join(
        str(v) if i < s.corr_shown else "?" for i, v in enumerate(s.corr)))
    lines.append("Contracts: " + " | ".join(
        f"{c.contract_slot_ap[i]}AP {tile_name(c, t)}" for i, t in enumerate(s.contract_disp)))
    lines.append("Characters: " + " | ".join(tile_name(c, t) for t in s.char_disp))
    fairs = [f"{c.spots[t]}:{c.fair_conditions[c.fair_tiles[f][0]]}"
             for t, f in zip(s.fair_towns, s.fair_tiles, strict=True)]
    lines.append("Fairs: " + ", ".join(fairs))
    lines.append("Map:")
    for town in range(c.n_towns):
        lines.append("  " + _town(s, town))
    for p in range(s.players):
        lines.extend(_player(s, p))
    return "\n".join(lines)


def _town(s: TiletumState, town: int) -> str:
    c = s.comp
    houses = " ".join("." if s.house_owner[i] == -1 else str(s.house_owner[i])
                      for i in c.town_house_spaces[town] if c.house_spaces[i][1] <= s.players)
    text = f"{c.spots[town]:<10} houses [{houses}]"
    cath = c.town_cathedral[town]
    if cath != -1:
        cost = c.cost_tiles[s.cost[cath]]
        text += (" cathedral unavailable" if cost is None else
                 f" cathedral {cost[0]}s/{cost[1]}vp pillars {s.pillar_owner[cath]} tiles {s.cath_stack[cath]}")
    if s.map_bonus[town] != -1:
        text += f" bonus {tile_name(c, s.map_bonus[town])}"
    pieces = [f"A{p}" for p in range(s.players) if s.architect[p] == town]
    pieces += [f"M{p}" for p in range(s.players) if s.merchant[p] == town]
    return text + (" " + " ".join(pieces) if pieces else "")


def _player(s: TiletumState, p: int) -> list[str]:
    c = s.comp
    res = " ".join(f"{RESOURCES[r]} {s.res[p][r]}" for r in range(5))
    rooms = []
    for b, idx in enumerate(c.room_index):
        names = [tile_name(c, s.rooms[p][i]) for i in idx] or ["printed"]
        crest = s.crests[p][b]
        rooms.append(f"b{b + 1}[{', '.join(names)}; crest {c.crest_names[crest] if crest != -1 else '-'}]")
    return [
        f"Seat {p}: {s.vp[p]} VP | {res}",
        f"  supply: {s.houses[p]} houses, {s.pillars[p]} pillars; on map: "
        f"{houses_on_map(s, p)} houses, {pillars_on_map(s, p)} pillars; "
        f"architect {c.spots[s.architect[p]]}, merchant {c.spots[s.merchant[p]]}",
        "  storehouse: " + (", ".join(tile_name(c, t) for t in s.store[p]) or "-"),
        "  buildings: " + " ".join(rooms),
        f"  contracts done: {len(s.done[p])}; cathedral tiles: {s.cath_tiles[p]}",
    ]


def describe_event(event: dict[str, Any]) -> str:
    kind = event["kind"]
    who = "" if event.get("seat") is None else f"Seat {event['seat']} "
    rest = {k: v for k, v in event.items() if k not in ("kind", "seat")}
    words = {
        "die": "takes die {value}{colour}" + (" shifted to {to}" if rest.get("to") != rest.get("value") else "")
        + " for {action} ({ap} AP)",
        "move": "moves the {piece} to {spot}", "pillar": "places a pillar in {town}",
        "house": "builds a house on {space}", "corruption": "corruption token {value} is revealed",
        "fulfil": "fulfils a contract for {vp} VP", "cathedral": "contributes to {town} for {vp} VP",
        "fair": "fair in {town} ({condition}): {vp}", "final_scoring": "final scoring: {parts}",
        "king_step": "advances on the King track", "end_turn": "ends the turn",
        "turn_order": "new turn order {order}", "king_vp": "King track VP {vp}",
        "completed": "completes building {building}", "exchange": "exchanges {give} for {get}",
        "take_character": "takes character tile {tile}", "take_contract": "takes contract tile {tile}",
        "crest": "places crest tile {tile} on crest space {space}", "helper": "uses helper tile {tile}",
        "map_bonus": "takes the bonus tile in {town}", "area_bonus": "takes the area's bonus tile",
        "joker": "uses the joker as {action}", "buy": "pays 2 gold for {res}",
        "resource": "gains {n} {res}", "king_tile": "King tile: {choice}",
        "roof_house": "frees the roof house of building {building}", "dice": "dice rolled for round {round}",
        "setup": "game set up for {players} players", "refresh_characters": "refreshes the characters",
        "character": "puts character tile {tile} in building {building}, floor {floor}",
    }
    text = words.get(kind)
    if text is None:
        details = ", ".join(f"{k}={v}" for k, v in rest.items())
        return f"{who}{kind}{': ' + details if details else ''}"
    try:
        return who + text.format(**rest)
    except (KeyError, IndexError):
        return f"{who}{kind}: {rest}"


__all__ = ["render", "describe_event", "tile_name", "HELPER"]


def legend(c: Components) -> dict[str, Any]:
    """The printed tables a client needs to draw an observation (see ``Game.legend``)."""
    links = sorted({tuple(sorted((a, b))) for a, ends in enumerate(c.adj) for b in ends})
    return {
        "spots": list(c.spots),
        "towns": c.n_towns,
        "links": [list(pair) for pair in links],
        "house_spaces": [{"town": town, "min_players": least, "label": c.house_label[i]}
                         for i, (town, least, _vp, _building) in enumerate(c.house_spaces)],
        "cathedral_towns": list(c.cathedral_towns),
        "cost_tiles": [None if t is None else list(t) for t in c.cost_tiles],
        "tiles": [tile_name(c, t) for t in range(len(c.tiles))],
        "king_vp": list(c.king_vp),
        "contract_slot_ap": list(c.contract_slot_ap),
        "rooms": [list(floors) for floors in c.room_index],
        "crest_names": list(c.crest_names),
        "fair_conditions": list(c.fair_conditions),
        "fair_tiles": [list(t) for t in c.fair_tiles],
    }
