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

from palio.core.encoding import Encoded, Layout, Writer, one_hot, one_hots
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
        self._layouts: dict[int, Layout] = {}

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
        lay.add(p + "initiative", len(c.init_vp), 1, "initiative slot, one-hot")
        lay.add(p + "initiative_below", 1, players - 1, "other discs on its slot above it")
        lay.add(p + "dice", 5 * 7, 1, "per column: die value one-hot, 0 = none")
        lay.add(p + "dice_sum", 1, 30, "sum of the dice on the board")
        lay.add(p + "passed", 1, 1, "passed this round")
        lay.add(p + "helpers", 5 * c.helper_slots, 1, "helper slots taken, per column")
        lay.add(p + "tracks", 3 * c.max_track_len, MEN_TOTAL, "men per career track slot")
        lay.add(p + "rows", 4 * 8, UNBOUNDED, "per plan row: face-up per family, their VP, face-down")

    # -- encoding -----------------------------------------------------------------------
    def encode(self, view: dict[str, Any], players: int) -> Encoded:
        """One seat's ``observe`` dict as floats in ``layout(players)`` order."""
        c, P = self.comp, players
        seat = view["seat"]
        me = 0 if seat is None else seat

        def rel(x: int | None) -> int | None:
            return None if x is None else (x - me) % P

        w = Writer(self.layout(P))
        w.put("spectator", [float(seat is None)])
        w.put("round", one_hot(view["round"] - 1, c.rounds))
        w.put("phase", one_hot(PHASES.index(view["phase"]), 3))
        w.put("to_move", one_hot(P if view["to_move"] is None else rel(view["to_move"]), P + 1))
        w.put("order", one_hots([rel(x) for x in view["order"]], P, P))
        turn = view["turn_player"]
        w.put("turn_player", one_hot(P if turn is None else rel(turn), P + 1))
        queue = [0.0] * P
        for x in view["reward_queue"]:
            queue[rel(x)] = 1.0
        w.put("reward_queue", queue)
        self._pending(w, view["pending"])
        w.put("pool", [float(n) for area in view["pool"] for n in area])
        n_assign = len(c.assignments)
        w.put("assignments", one_hots([t for pair in view["assignments"] for t in pair], n_assign, 10))
        rewards = view["rewards"]
        w.put("rewards.bonus", one_hots(rewards[:c.bonus_rounds], len(c.bonus_tiles), c.bonus_rounds))
        w.put("rewards.vp", one_hots(rewards[c.bonus_rounds:], len(c.vp_tiles), c.rounds - c.bonus_rounds))
        S = c.max_city_slots
        for i, city in enumerate(view["cities"]):
            w.put(f"c{i}.used", [float(city["used"])])
            slots: list[float] = []
            for k in range(S):
                block = [0.0] * (1 + 4 * P)
                if k < len(city["slots"]):
                    block[0] = float(c.city_slots[i][k])
                    taken = city["slots"][k]
                    if taken is not None:
                        block[1 + rel(taken["seat"]) * 4 + taken["kind"]] = 1.0
                slots += block
            w.put(f"c{i}.slots", slots)
            w.put(f"c{i}.marriage_tile", self._tile(city["marriage_tile"]))
            w.put(f"c{i}.mission_tile", self._tile(city["mission_tile"]))
        w.put("alliance_stack", [float(view["alliance_stack"])])
        w.put("removed", [float(view["removed"])])
        players_view = view["players"]
        for k in range(P):
            self._player(w, f"p{k}.", players_view, (me + k) % P)
        return w.done()

    def _tile(self, tile: int) -> list[float]:
        if tile == -1:
            return [0.0] * TILE_WIDTH
        return one_hot(self.comp.tile_family[tile], 6) + [float(self.comp.tile_value[tile])]

    def _pending(self, w: Writer, frames: list[list[Any]]) -> None:
        w.put("pending_depth", [float(len(frames))])
        width = FRAME_KINDS + FRAME_PARAMS
        out: list[float] = []
        for frame in reversed(frames[-PENDING_SLOTS:]):
            params = [float(x) for x in frame[2:2 + FRAME_PARAMS]]
            out += one_hot(self.frame_index[frame[0]], FRAME_KINDS) + params + [0.0] * (FRAME_PARAMS - len(params))
        out += [0.0] * (PENDING_SLOTS * width - len(out))
        w.put("pending", out)

    def _player(self, w: Writer, p: str, players: list[dict[str, Any]], seat: int) -> None:
        c = self.comp
        me = players[seat]
        w.put(p + "florins", [float(me["florins"])])
        w.put(p + "vp", [float(me["vp"])])
        w.put(p + "vp_by", [float(x) for x in me["vp_by"]])
        w.put(p + "supply", [float(me["men"]), float(me["women"])])
        w.put(p + "stock", [float(me["stock_men"]), float(me["stock_women"])])
        w.put(p + "brides", [float(me["brides"])])
        w.put(p + "threshold", [float(me["threshold"])])
        w.put(p + "parked", [float(me["parked_men"]), float(me["parked_women"])])
        w.put(p + "initiative", one_hot(me["initiative"], len(c.init_vp)))
        above = sum(1 for other in players if other is not me and other["initiative"] == me["initiative"]
                    and other["initiative_stamp"] > me["initiative_stamp"])
        w.put(p + "initiative_below", [float(above)])
        w.put(p + "dice", one_hots(me["dice"], 7, 5))
        w.put(p + "dice_sum", [float(me["dice_sum"])])
        w.put(p + "passed", [float(me["passed"])])
        helpers: list[float] = []
        for col in range(5):
            bits = [0.0] * c.helper_slots
            for i in me["helpers"][col]:
                bits[i] = 1.0
            helpers += bits
        w.put(p + "helpers", helpers)
        tracks: list[float] = []
        for t in range(3):
            row = [float(n) for n in me["tracks"][t]]
            tracks += row + [0.0] * (c.max_track_len - len(row))
        w.put(p + "tracks", tracks)
        rows: list[float] = []
        for r in me["rows"]:
            fams = [0.0] * 6
            vp = 0.0
            for t in r["up"]:
                fams[c.tile_family[t]] += 1.0
                vp += c.tile_value[t]
            rows += fams + [vp, float(r["down"])]
        w.put(p + "rows", rows)
