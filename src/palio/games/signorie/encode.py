"""Signorie: the observation as a fixed vector of floats (learning code).

Built from ``observe(seat)`` only (``Game.observation_tensor``); Signorie's view is the same for
every seat apart from its ``seat``. Every seat reference is relative to the viewer: seat
``(viewer + k) % players`` is "player k", so player 0 is always the viewer (a spectator,
``seat=None``, views as seat 0). One-hots over seats have ``players`` entries, plus one for
"nobody" where a field may be empty.

An alliance tile is written as its family (one-hot of 6) and its VP; an empty place is all
zeros. Values are plain counts and numbers, not scaled; florins and VP have no printed cap,
so their upper bound is ``inf``. The shape depends on the player count and on the components
(city slots, track lengths, tile counts); with the built-in components it is 892 floats for 2
players, 1162 for 3 and 1434 for 4. Blocks in order (``layout(...).table()`` prints offsets
and bounds):

* ``spectator`` [1]; ``round`` [rounds] one-hot; ``phase`` [3] play / rewards / over;
  ``to_move`` [P+1]; ``order`` [P x P]: the player at each place of the turn order;
  ``turn_player`` [P+1]: whose Phase 2 turn it is (nobody in Phase 3); ``reward_queue`` [P]:
  players still to be rewarded this Phase 3;
* ``pending_depth`` [1]; ``pending`` [4 x 13]: the top four frames of the decision stack, top
  first: the frame kind one-hot (10, ``state.F_*`` order) and its up-to-three numbers after
  the seat (column, points left, mode, next helper);
* ``pool`` [5 x 6]: dice of each colour showing 1-6 in the dice areas;
  ``assignments`` [5 x 2 x tiles]: the assignment tile on each colour's man and woman slot;
* ``rewards.bonus`` [bonus rounds x bonus tiles], ``rewards.vp`` [VP rounds x VP tiles]: the
  reward tile of each round;
* per city ``cN.``: ``used`` [1]; ``slots`` [S x (1 + 4P)]: each city slot's value (the
  first number), then its occupant one-hot (player x woman / politician / cleric / military);
  ``marriage_tile`` [7] and ``mission_tile`` [7];
* ``alliance_stack`` [1], ``removed`` [1]: face-down tiles left, tiles set aside;
* per player k (``pk.``): ``florins``, ``vp``, ``vp_by`` [9] (score categories), ``supply``
  [2] men, women; ``stock`` [2]; ``brides``; ``threshold``; ``parked`` [2]; ``initiative``
  [slots] one-hot; ``initiative_below`` (discs on the same slot above it); ``dice`` [5 x 7]:
  per column the die's value one-hot, 0 = none; ``dice_sum``; ``passed``; ``helpers``
  [5 x helper slots] bits; ``tracks`` [3 x L]: men per career slot; ``rows`` [4 x 8]: per row
  of the plan, face-up tiles per family (6), their VP, and face-down tiles.
"""

from __future__ import annotations

import math
from typing import Any

from palio.core.encoding import Encoded, Layout, Writer
from palio.games.signorie.components import E_ADVANCE, Components
from palio.games.signorie.state import FRAME_NAMES, PHASES

FRAME_KINDS = len(FRAME_NAMES)
FRAME_PARAMS = 3
PENDING_SLOTS = 4
MAX_DEPTH = 32  # far above any stack the rules build
TILE_WIDTH = 7  # family one-hot and VP
UNBOUNDED = math.inf
MEN_TOTAL, WOMEN_TOTAL = 12, 11


class Encoder:
    """Index tables and layouts of one components set; ``encode`` turns a view into floats."""

    def __init__(self, comp: Components) -> None:
        self.comp = comp
        self.frame_index = {name: i for i, name in enumerate(FRAME_NAMES)}
        self.max_value = max(comp.tile_value)
        self.param_high = self._param_high()
        self.city_blocks = [(f"c{i}.used", f"c{i}.slots", f"c{i}.marriage_tile", f"c{i}.mission_tile")
                            for i in range(5)]
        # an alliance tile's entries: its family, then its VP; none for an empty place (-1)
        self.tile_entries = {-1: (), **{t: ((family, 1), (6, value)) for t, (family, value)
                                        in enumerate(zip(comp.tile_family, comp.tile_value, strict=True))}}
        self.slot_values: dict[int, list[list[tuple[int, float]]]] = {}  # per player count, per city
        self._layouts: dict[int, Layout] = {}
        self.count_blocks: dict[str, tuple[str, ...]] = {}  # per player prefix: florins..parked

    def _param_high(self) -> int:
        """Largest number a frame holds after its seat: a column (4), a helper slot index, an
        advance mode (2), or advancement points (the Signoria action's, an assignment's times
        its meeples, a bonus tile's, a helper's)."""
        c = self.comp
        points = [c.advancement_points]
        points += [a * m for e, a, m, _r in c.assignments if e == E_ADVANCE]
        points += [a for e, a in c.bonus_tiles if e == E_ADVANCE]
        points += [a for col in c.helpers for _cost, e, a in col if e == E_ADVANCE]
        return max(4, c.helper_slots, *points)

    def layout(self, players: int) -> Layout:
        if players not in self._layouts:
            self._layouts[players] = self._build(players)
        return self._layouts[players]

    def _build(self, players: int) -> Layout:
        c, P = self.comp, players
        width = 1 + 4 * P  # per city slot: its value, then the occupant one-hot
        self.slot_values[P] = [[(k * width, value) for k, value in enumerate(values)] for values in c.city_slots]
        lay = Layout()
        lay.add("spectator", 1, 1, "spectator view")
        lay.add("round", c.rounds, 1, "round, one-hot")
        lay.add("phase", 3, 1, "play, rewards, over")
        lay.add("to_move", P + 1, 1, "deciding player (relative), or nobody")
        lay.add("order", P * P, 1, "per place in the turn order: the player there")
        lay.add("turn_player", P + 1, 1, "whose Phase 2 turn (relative), or nobody")
        lay.add("reward_queue", P, 1, "players still to be rewarded this Phase 3")
        lay.add("pending_depth", 1, MAX_DEPTH, "frames on the decision stack")
        lay.add("pending", PENDING_SLOTS * (FRAME_KINDS + FRAME_PARAMS), self.param_high,
                "top frames: kind one-hot, then its numbers")
        lay.add("pool", 30, c.dice_per_colour[P], "dice per colour and value in the dice areas")
        lay.add("assignments", 10 * len(c.assignments), 1, "per colour and slot (man, woman): its tile")
        lay.add("rewards.bonus", c.bonus_rounds * len(c.bonus_tiles), 1, "bonus tile of rounds 1-5")
        lay.add("rewards.vp", (c.rounds - c.bonus_rounds) * len(c.vp_tiles), 1, "VP tile of rounds 6-7")
        S = c.max_city_slots
        for i in range(5):
            lay.add(f"c{i}.used", 1, 1, "city in use")
            lay.add(f"c{i}.slots", S * (1 + 4 * P), 4, "per city slot: value, then occupant one-hot")
            lay.add(f"c{i}.marriage_tile", TILE_WIDTH, self.max_value, "marriage slot tile: family, VP")
            lay.add(f"c{i}.mission_tile", TILE_WIDTH, self.max_value, "mission slot tile: family, VP")
        lay.add("alliance_stack", 1, c.n_tiles, "face-down alliance tiles in the stack")
        lay.add("removed", 1, c.n_tiles, "alliance tiles set aside")
        for k in range(P):
            self._player_blocks(lay, f"p{k}.", P)
        return lay

    def _player_blocks(self, lay: Layout, p: str, players: int) -> None:
        c = self.comp
        lay.add(p + "florins", 1, UNBOUNDED, "florins")
        lay.add(p + "vp", 1, UNBOUNDED, "victory points")
        lay.add(p + "vp_by", 9, UNBOUNDED, "VP per score category")
        lay.add(p + "supply", 2, MEN_TOTAL, "men, women in the supply")
        lay.add(p + "stock", 2, MEN_TOTAL, "men, women in the general stock")
        lay.add(p + "brides", 1, len(c.son_vp), "sons married")
        lay.add(p + "threshold", 1, c.threshold_max, "dice-sum threshold")
        lay.add(p + "parked", 2, MEN_TOTAL, "men, women on the threshold space")
        self.count_blocks[p] = tuple(p + name for name in
                                     ("florins", "vp", "vp_by", "supply", "stock", "brides", "threshold", "parked"))
        lay.add(p + "initiative", len(c.init_vp), 1, "initiative slot, one-hot")
        lay.add(p + "initiative_below", 1, players - 1, "other discs on its slot above it")
        lay.add(p + "dice", 5 * 7, 1, "per column: die value one-hot, 0 = none")
        lay.add(p + "dice_sum", 1, 30, "sum of the dice on the board")
        lay.add(p + "passed", 1, 1, "passed this round")
        lay.add(p + "helpers", 5 * c.helper_slots, 1, "helper slots taken, per column")
        lay.add(p + "tracks", 3 * c.max_track_len, MEN_TOTAL, "men per career track slot")
        lay.add(p + "rows", 4 * 8, UNBOUNDED, "per plan row: face-up per family, their VP, face-down")

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
        w.hot("phase", PHASES.index(view["phase"]))
        to_move, turn = view["to_move"], view["turn_player"]
        w.hot("to_move", P if to_move is None else (to_move - me) % P)
        w.hots("order", [(x - me) % P for x in view["order"]], P)
        w.hot("turn_player", P if turn is None else (turn - me) % P)
        w.bits("reward_queue", [(x - me) % P for x in view["reward_queue"]])
        self._pending(w, view["pending"])
        w.put("pool", [n for area in view["pool"] for n in area])
        w.hots("assignments", [t for pair in view["assignments"] for t in pair], len(c.assignments))
        rewards = view["rewards"]
        w.hots("rewards.bonus", rewards[:c.bonus_rounds], len(c.bonus_tiles))
        w.hots("rewards.vp", rewards[c.bonus_rounds:], len(c.vp_tiles))
        width = 1 + 4 * P  # per city slot: its value, then the occupant one-hot
        tiles = self.tile_entries
        for i, city in enumerate(view["cities"]):
            used, slots, marriage, mission = self.city_blocks[i]
            w.value(used, city["used"])
            values = self.slot_values[P][i]  # the printed slot values, the same in every game
            taken = [(k * width + 1 + (x["seat"] - me) % P * 4 + x["kind"], 1)
                     for k, x in enumerate(city["slots"]) if x is not None]
            w.sparse(slots, sorted(values + taken) if taken else values)
            w.sparse(marriage, tiles[city["marriage_tile"]])
            w.sparse(mission, tiles[city["mission_tile"]])
        w.value("alliance_stack", view["alliance_stack"])
        w.value("removed", view["removed"])
        players_view = view["players"]
        for k in range(P):
            self._player(w, f"p{k}.", players_view, (me + k) % P)
        return w.done()

    def _pending(self, w: Writer, frames: list[list[Any]]) -> None:
        w.value("pending_depth", len(frames))
        entries: list[tuple[int, float]] = []
        start = 0
        for frame in reversed(frames[-PENDING_SLOTS:]):
            entries.append((start + self.frame_index[frame[0]], 1))
            entries += enumerate(frame[2:2 + FRAME_PARAMS], start + FRAME_KINDS)
            start += FRAME_KINDS + FRAME_PARAMS
        w.sparse("pending", entries)

    def _player(self, w: Writer, p: str, players: list[dict[str, Any]], seat: int) -> None:
        c = self.comp
        me = players[seat]
        w.puts(self.count_blocks[p], (me["florins"], me["vp"], *me["vp_by"], me["men"], me["women"],
                                      me["stock_men"], me["stock_women"], me["brides"], me["threshold"],
                                      me["parked_men"], me["parked_women"]))
        w.hot(p + "initiative", me["initiative"])
        above = sum(1 for other in players if other is not me and other["initiative"] == me["initiative"]
                    and other["initiative_stamp"] > me["initiative_stamp"])
        w.value(p + "initiative_below", above)
        w.hots(p + "dice", me["dice"], 7)
        w.value(p + "dice_sum", me["dice_sum"])
        w.value(p + "passed", me["passed"])
        slots = c.helper_slots
        w.sparse(p + "helpers", [(col * slots + i, 1) for col, taken in enumerate(me["helpers"]) for i in taken])
        L = c.max_track_len
        w.sparse(p + "tracks", [(t * L + i, n) for t, track in enumerate(me["tracks"]) for i, n in enumerate(track) if n])
        entries: list[tuple[int, float]] = []
        for r, row in enumerate(me["rows"]):
            if row["up"]:  # face-up tiles per family, then their VP
                families = [0] * 6
                vp = 0.0
                for t in row["up"]:
                    families[c.tile_family[t]] += 1
                    vp += c.tile_value[t]
                entries += ((r * 8 + f, n) for f, n in enumerate(families) if n)
                entries.append((r * 8 + 6, vp))
            entries.append((r * 8 + 7, row["down"]))
        w.sparse(p + "rows", entries)
