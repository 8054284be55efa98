"""Tiletum: the observation as a fixed vector of floats (learning code).

Built from ``observe(seat)`` only (``Game.observation_tensor``); Tiletum's view is the same
for every seat apart from its ``seat``, so the seats differ only in the point of view. Every
seat reference is relative to the viewer: seat ``(viewer + k) % players`` is "player k", so
player 0 is always the viewer (a spectator, ``seat=None``, views as seat 0). One-hots over
seats have ``players`` entries, plus one for "nobody" where a field may be empty.

The shape depends on the player count and on the components (tile, spot and space counts);
with the built-in components it is 3660 floats for 2 players, 4627 for 3, 5596 for 4
(``TiletumGame.observation_tensor_shape(players)``). Tiles are one-hot over their own deck's
range (bonus tiles 0-53, contracts 54-79, characters 80-124, in ``components.tiles`` order);
storehouses count every tile id. An empty display slot, area or space is all zeros. Values
are plain counts and numbers, not scaled; VP and resources have no printed cap, so their
upper bound is ``inf``. Blocks in order (``layout(...).table()`` prints offsets and bounds):

* ``spectator`` [1]; ``round`` [4] one-hot 1-4; ``turn`` [1] (1-3, 4 once over);
  ``phase`` [3] play / king tile / over; ``to_move`` [P+1]; ``order`` [P x P]: the seat at
  each place of the turn order;
* ``wheel.rotation`` [6]; ``wheel.areas`` [6 x 6]: the action of each area;
  ``wheel.bonus`` [6 x bonus tiles]; ``wheel.dice`` [30]: dice per (value-1)*5+colour;
  ``king_bonus`` [bonus tiles];
* ``contracts`` [5 x contract tiles], ``characters`` [5 x character tiles]: the displays;
  ``decks`` [3]: bonus, contract, character deck sizes;
* ``corruption.revealed`` [3 x 3]: value one-hot (0, 1, 2) per revealed token;
  ``corruption.hidden`` [1];
* ``map.houses`` [house spaces x P]: owner; ``map.pillars`` [cathedrals x P]: pillars per
  seat; ``map.bonus`` [bonus towns x bonus tiles]: the tile on each town's bonus space;
  ``map.cathedral_stacks`` [cathedrals x 3]: VP of the tiles left, bottom up;
  ``map.cost_tiles`` [cathedrals x 3]: the cost tile's stone, VP, and "unavailable";
* ``fairs.towns`` [4 x towns], ``fairs.tiles`` [4 x fair tiles], ``fairs.scored`` [1];
* per player k (``pk.``): ``vp``, ``resources`` [5] (g f w s i), ``king_step``,
  ``king_ahead`` (others on the same step ahead of it: lower in the stack), ``supply`` [2]
  houses, pillars; ``storehouse`` [tiles]: counts; ``rooms`` [rooms x character tiles];
  ``crests`` [crest spaces x families]; ``contracts_done`` [contract spaces x contract
  kinds]: the contract (bonus contracts then contracts) on each space, left to right;
  ``cathedral_tiles`` [9]: tiles won per VP value 1-9; ``contributed`` [cathedrals] and
  ``completed`` [buildings] bits; ``bonus_ap`` [6] per action; ``merchant`` / ``architect``
  [spots]; ``dice`` [3 x 11]: each die used this round, value one-hot and colour one-hot;
* ``pending_depth`` [1]; ``pending`` [4 x 16]: the top four frames of the decision stack,
  top first: frame kind one-hot (12, ``state.F_*`` order) and its up-to-four numbers raw
  (kind, AP, flags, counts, building, room mask; see ``state``). A deeper stack shows in
  ``pending_depth`` only.
"""

from __future__ import annotations

import math
from typing import Any

from palio.core.encoding import Encoded, Layout, Writer
from palio.games.tiletum.components import (
    ACTIONS,
    CONTRACT_TILE,
    HELPER,
    HELPER_EFFECTS,
    RES_LETTERS,
    Components,
)

FRAME_KINDS = 12
FRAME_PARAMS = 4
PENDING_SLOTS = 4
MAX_DEPTH = 32  # far above any stack the rules build (random play reaches 4)
DIE_VALUES = 6
COLOURS = len(RES_LETTERS)
CATHEDRAL_VP = 9
UNBOUNDED = math.inf


class Encoder:
    """Index tables and layouts of one components set; ``encode`` turns a view into floats."""

    def __init__(self, comp: Components) -> None:
        self.comp = comp
        self.n_bonus = comp.n_bonus
        self.n_contracts = comp.n_contract_end - comp.n_bonus
        self.n_chars = len(comp.tiles) - comp.n_contract_end
        self.bonus_towns = [comp.spots[t] for t in range(comp.n_towns) if comp.bonus_space_min[t]]
        self.bonus_town_index = {name: i for i, name in enumerate(self.bonus_towns)}
        self.contract_ids = [i for i, t in enumerate(comp.tiles) if t[0] == CONTRACT_TILE]
        self.contract_index = {tile: i for i, tile in enumerate(self.contract_ids)}
        self.spot_index = comp.spot_id
        self.action_index = {name: i for i, name in enumerate(ACTIONS)}
        self.max_stack = max(len(tiles) for tiles in comp.cathedral_tiles)
        self.max_cost = max(max(t) for t in comp.cost_tiles if t is not None)
        self.param_high = self._param_high()
        self._layouts: dict[int, Layout] = {}
        self.count_blocks: dict[str, tuple[str, ...]] = {}  # per player prefix: vp..supply

    def _param_high(self) -> int:
        """Largest number a frame holds: AP is at most a die (6), every room's bonus AP and
        every helper's AP together; a room mask is below 2**rooms of the largest building."""
        helper_ap = sum(t[3] for t in self.comp.tiles
                        if t[0] == HELPER and HELPER_EFFECTS[t[1]] in ("joker", "action", "add_ap"))
        return max(DIE_VALUES + self.comp.n_rooms + helper_ap, 2 ** max(self.comp.rooms) - 1)

    # -- layout -------------------------------------------------------------------------
    def layout(self, players: int) -> Layout:
        if players not in self._layouts:
            self._layouts[players] = self._build(players)
        return self._layouts[players]

    def _build(self, players: int) -> Layout:
        c, P = self.comp, players
        lay = Layout()
        lay.add("spectator", 1, 1, "spectator view")
        lay.add("round", 4, 1, "round 1-4, one-hot")
        lay.add("turn", 1, 4, "turn of the round 1-3 (4 once over)")
        lay.add("phase", 3, 1, "play, king tile, over")
        lay.add("to_move", P + 1, 1, "deciding player (relative), or nobody")
        lay.add("order", P * P, 1, "per place in the turn order: the player there")
        lay.add("wheel.rotation", 6, 1, "wheel rotation, one-hot")
        lay.add("wheel.areas", 36, 1, "per area: its action, one-hot")
        lay.add("wheel.bonus", 6 * self.n_bonus, 1, "per area: its bonus tile")
        lay.add("wheel.dice", 30, max(c.dice_per_round.values()), "dice per (value-1)*5+colour")
        lay.add("king_bonus", self.n_bonus, 1, "bonus tile beside the King track")
        lay.add("contracts", c.display_size * self.n_contracts, 1, "contract display, per slot")
        lay.add("characters", c.display_size * self.n_chars, 1, "character display, per slot")
        lay.add("decks", 3, len(c.tiles), "bonus, contract, character deck sizes")
        lay.add("corruption.revealed", c.corruption_per_round * 3, 1, "per revealed token: value")
        lay.add("corruption.hidden", 1, c.corruption_per_round, "tokens not yet revealed")
        lay.add("map.houses", len(c.house_spaces) * P, 1, "per house space: owner")
        lay.add("map.pillars", len(c.cathedral_towns) * P, len(c.pillar_space_min),
                "per cathedral: pillars of each player")
        lay.add("map.bonus", len(self.bonus_towns) * self.n_bonus, 1, "per bonus town: its tile")
        lay.add("map.cathedral_stacks", len(c.cathedral_towns) * self.max_stack, CATHEDRAL_VP,
                "per cathedral: VP of its tiles left, bottom up")
        lay.add("map.cost_tiles", len(c.cathedral_towns) * 3, self.max_cost,
                "per cathedral: cost tile stone, VP, unavailable")
        fairs = len(c.fair_board_vp)
        lay.add("fairs.towns", fairs * c.n_towns, 1, "per fair: its town")
        lay.add("fairs.tiles", fairs * len(c.fair_tiles), 1, "per fair: its tile")
        lay.add("fairs.scored", 1, fairs, "fairs scored")
        for k in range(P):
            self._player_blocks(lay, f"p{k}.", P)
        lay.add("pending_depth", 1, MAX_DEPTH, "frames on the decision stack")
        lay.add("pending", PENDING_SLOTS * (FRAME_KINDS + FRAME_PARAMS), self.param_high,
                "top frames: kind one-hot, then its numbers")
        return lay

    def _player_blocks(self, lay: Layout, p: str, players: int) -> None:
        c = self.comp
        lay.add(p + "vp", 1, UNBOUNDED, "victory points")
        lay.add(p + "resources", 5, UNBOUNDED, "gold, food, wool, stone, iron")
        lay.add(p + "king_step", 1, len(c.king_vp) - 1, "step on the King track")
        lay.add(p + "king_ahead", 1, players - 1, "others on the same step, ahead of it")
        lay.add(p + "supply", 2, max(c.n_houses, c.n_pillars), "houses, pillars in supply")
        self.count_blocks[p] = tuple(p + name for name in ("vp", "resources", "king_step", "king_ahead", "supply"))
        lay.add(p + "storehouse", len(c.tiles), c.storehouse, "tiles in the storehouse")
        lay.add(p + "rooms", c.n_rooms * self.n_chars, 1, "per room: its character")
        lay.add(p + "crests", len(c.crest_food) * len(c.crest_names), 1, "per crest space: family")
        lay.add(p + "contracts_done", c.contract_spaces * len(self.contract_ids), 1,
                "per contract space: its contract")
        lay.add(p + "cathedral_tiles", CATHEDRAL_VP, len(c.cathedral_towns),
                "cathedral tiles won per VP value 1-9")
        lay.add(p + "contributed", len(c.cathedral_towns), 1, "cathedrals contributed to")
        lay.add(p + "completed", len(c.rooms), 1, "buildings completed")
        lay.add(p + "bonus_ap", 6, c.n_rooms, "bonus AP per action")
        lay.add(p + "merchant", len(c.spots), 1, "merchant's spot")
        lay.add(p + "architect", len(c.spots), 1, "architect's spot")
        lay.add(p + "dice", c.die_spaces * (DIE_VALUES + COLOURS), 1,
                "per die used this round: value, colour")

    # -- encoding -----------------------------------------------------------------------
    # Every search leaf of the ``learned`` bot runs ``encode``, so it names only the nonzero
    # entries (``Writer.hot``, ``sparse``...) instead of building each block in full.
    def encode(self, view: dict[str, Any], players: int) -> Encoded:
        """One seat's ``observe`` dict as floats in ``layout(players)`` order."""
        c, P = self.comp, players
        seat = view["seat"]
        me = 0 if seat is None else seat
        w = Writer(self.layout(P))
        w.value("spectator", seat is None)
        w.hot("round", view["round"] - 1)
        w.value("turn", view["turn"])
        w.hot("phase", ("play", "king_tile", "over").index(view["phase"]))
        w.hot("to_move", P if view["to_move"] is None else (view["to_move"] - me) % P)
        w.hots("order", [(s - me) % P for s in view["order"]], P)
        wheel = view["wheel"]
        w.hot("wheel.rotation", wheel["rotation"])
        w.hots("wheel.areas", [self.action_index[a] for a in wheel["areas"]], 6)
        w.hots("wheel.bonus", wheel["bonus"], self.n_bonus, empty=-1)
        w.put("wheel.dice", wheel["dice"])
        w.hots("king_bonus", [view["king_bonus"]], self.n_bonus, empty=-1)
        w.hots("contracts", view["contracts"], self.n_contracts, first=c.n_bonus, empty=-1)
        w.hots("characters", view["characters"], self.n_chars, first=c.n_contract_end, empty=-1)
        decks = view["decks"]
        w.put("decks", (decks["bonus"], decks["contract"], decks["character"]))
        self._corruption(w, view["corruption"])
        self._map(w, view["map"], me, P)
        fairs = view["fairs"]
        w.hots("fairs.towns", [self.spot_index[t] for t in fairs["towns"]], c.n_towns)
        w.hots("fairs.tiles", fairs["tiles"], len(c.fair_tiles))
        w.value("fairs.scored", fairs["scored"])
        players_view = view["players"]
        for k in range(P):
            self._player(w, f"p{k}.", players_view, (me + k) % P)
        self._pending(w, view["pending"])
        return w.done()

    def _corruption(self, w: Writer, corruption: dict[str, Any]) -> None:
        w.hots("corruption.revealed", corruption["revealed"], 3)
        w.value("corruption.hidden", corruption["hidden"])

    def _map(self, w: Writer, m: dict[str, Any], me: int, P: int) -> None:
        c = self.comp
        houses = m["houses"]
        w.sparse("map.houses", [(i * P + (o - me) % P, 1) for i, o in enumerate(houses) if o != -1])
        w.tally("map.pillars", [i * P + (s - me) % P for i, seats in enumerate(m["pillars"]) for s in seats])
        bonus = [-1] * len(self.bonus_towns)
        for town, tile in m["bonus"].items():
            bonus[self.bonus_town_index[town]] = tile
        w.hots("map.bonus", bonus, self.n_bonus, empty=-1)
        height = self.max_stack
        w.sparse("map.cathedral_stacks", [(i * height + j, v) for i, stack in enumerate(m["cathedral_stacks"])
                                          for j, v in enumerate(stack)])
        costs: list[tuple[int, float]] = []
        for i, tile in enumerate(m["cost_tiles"]):
            cost = c.cost_tiles[tile]  # stone, VP; or "unavailable"
            costs += [(i * 3 + 2, 1)] if cost is None else [(i * 3, cost[0]), (i * 3 + 1, cost[1])]
        w.sparse("map.cost_tiles", costs)

    def _player(self, w: Writer, p: str, players: list[dict[str, Any]], seat: int) -> None:
        c = self.comp
        me = players[seat]
        resources = me["resources"]
        ahead = sum(1 for other in players if other is not me and other["king_step"] == me["king_step"]
                    and other["king_stamp"] < me["king_stamp"])
        w.puts(self.count_blocks[p], (me["vp"], *[resources[r] for r in RES_LETTERS], me["king_step"], ahead,
                                      me["houses_supply"], me["pillars_supply"]))
        w.tally(p + "storehouse", me["storehouse"])
        w.hots(p + "rooms", me["rooms"], self.n_chars, first=c.n_contract_end, empty=-1)
        w.hots(p + "crests", me["crests"], len(c.crest_names), empty=-1)
        done = [self.contract_index[t] for t in me["contracts_done"]]
        w.hots(p + "contracts_done", done, len(self.contract_ids))
        w.tally(p + "cathedral_tiles", (v - 1 for v in me["cathedral_tiles"]))
        w.mask(p + "contributed", me["contributed"])
        w.mask(p + "completed", me["completed"])
        bonus_ap = me["bonus_ap"]  # the actions with bonus AP only
        w.sparse(p + "bonus_ap", sorted([(self.action_index[a], n) for a, n in bonus_ap.items()]) if bonus_ap else ())
        w.hot(p + "merchant", self.spot_index[me["merchant"]])
        w.hot(p + "architect", self.spot_index[me["architect"]])
        width = DIE_VALUES + COLOURS
        dice: list[tuple[int, float]] = []
        for k, (value, colour) in enumerate(me["dice"]):  # value one-hot, then colour one-hot
            dice += ((k * width + value - 1, 1), (k * width + DIE_VALUES + colour, 1))
        w.sparse(p + "dice", dice)

    def _pending(self, w: Writer, frames: list[list[int]]) -> None:
        w.value("pending_depth", len(frames))
        entries: list[tuple[int, float]] = []
        start = 0
        for frame in reversed(frames[-PENDING_SLOTS:]):
            entries.append((start + frame[0], 1))
            entries += enumerate(frame[1:1 + FRAME_PARAMS], start + FRAME_KINDS)
            start += FRAME_KINDS + FRAME_PARAMS
        w.sparse("pending", entries)


