"""Troyes: the observation as a fixed vector of floats (learning code).

Built from ``observe(seat)`` only (``Game.observation_tensor``), so it holds nothing the seat
may not see. Seats are relative to the viewer: seat ``(viewer + k) % players`` is "player k",
so player 0 is always the viewer (a spectator, ``seat=None``, views as seat 0 and sees no
character). Owner one-hots have ``players + 1`` entries: the players in that order, then the
neutral (gray) owner; an empty place is all zeros. Values are plain counts, not scaled; money
and VP have no printed cap, so their upper bound is ``inf``.

The size depends on the player count and the components (building spaces, activity and event
cards, tradesman spaces); with the built-in components it is 1079 floats for 2 players, 1236
for 3 and 1393 for 4 (``TroyesGame.observation_tensor_shape(players)``). Blocks in order
(``layout(...).table()`` prints offsets and bounds):

* ``spectator`` [1]; ``round`` [rounds] one-hot; ``phase`` [4] draft / combat / actions /
  over; ``start`` [P]; ``turn`` [P]; ``to_move`` [P+1] (last: nobody); ``fighter`` [P+1];
* ``spaces`` [building spaces x (P+1)]: the owner of each space (``legend.space_labels``);
  ``lying`` [3 x (P+1)]: owners lying expelled on the Palace, Bishopric, City Hall;
  ``neutral_reserve`` [1];
* ``cards`` [9 x activity cards]: the card face up in each slot R1..Y3 (zeros while face
  down); ``tradesmen`` [9 x tradesman spaces x P]; ``illustration`` [9 x P];
  ``card_cubes`` [9 x P]: delayed cubes;
* ``cathedral`` [18 x (P+1)]: owner per space, level by level, columns 1-6;
* ``events`` [queue places x (event cards + 2 x (P+1))]: per place of the queue the card
  one-hot, the cubes of each owner, and the owner of the first cube (who takes the card on
  a tie); ``decks`` [3] red, white, yellow cards left;
* ``dice`` [(P+1) x 18]: dice per district (players, then neutral) by colour*6 + value-1;
  ``black`` [6]: black dice left to beat by value;
* per player k (``pk.``): ``money``, ``influence``, ``vp``, ``purse``, ``passed``, ``supply``,
  ``reserve``, ``events_won``, ``character_count``, ``characters`` [characters] (own, or
  everyone's once the game is over);
* ``pending`` : the top decision frame: ``kind`` [9] (``state.FRAME_NAMES``), ``action`` [5]
  (the group's action), ``mod`` [11] (cube still to choose, no cube, slot R1..Y3),
  ``faces`` [18] (dice already chosen or turned over, by face), ``extras`` [6] (black dice
  countered along, by value), ``numbers`` [6] (target, left, used, cubes, Archer rolls,
  die value of a placement).
"""

from __future__ import annotations

import math
from typing import Any

from palio.core.encoding import Encoded, Layout, Writer
from palio.games.troyes.components import Components
from palio.games.troyes.state import FRAME_NAMES, GROUP_KINDS, PHASES

UNBOUNDED = math.inf
PLAYER_COUNTS = ("money", "influence", "vp", "purse", "passed", "supply", "reserve", "events_won",
                 "character_count")


class Encoder:
    """Index tables and layouts of one components set; ``encode`` turns a view into floats."""

    def __init__(self, comp: Components) -> None:
        self.comp = comp
        self.rounds = max(comp.red_events.values())
        self.n_cards = len(comp.cards)
        self.n_events = len(comp.events)
        self.queue = comp.max_queue
        self.n_chars = len(comp.characters)
        self._layouts: dict[int, Layout] = {}
        self.count_blocks: dict[int, tuple[str, ...]] = {}  # per player k: money..character_count

    def layout(self, players: int) -> Layout:
        if players not in self._layouts:
            self._layouts[players] = self._layout(players)
        return self._layouts[players]

    def _layout(self, n: int) -> Layout:
        c = self.comp
        o = n + 1
        lay = Layout()
        lay.add("spectator", 1, 1, "1 for a spectator's view")
        lay.add("round", self.rounds, 1, "round one-hot")
        lay.add("phase", 4, 1, "draft, combat, actions, over")
        lay.add("start", n, 1, "start player")
        lay.add("turn", n, 1, "seat whose action turn it is")
        lay.add("to_move", o, 1, "seat deciding now; last: nobody")
        lay.add("fighter", o, 1, "seat facing the next black die; last: none")
        lay.add("spaces", c.n_spaces * o, 1, "owner of each building space")
        lay.add("lying", 3 * o, 1, "owners lying expelled on each building")
        lay.add("neutral_reserve", 1, c.neutral_citizens, "gray citizens in the general supply")
        lay.add("cards", 9 * self.n_cards, 1, "activity card face up in each slot")
        lay.add("tradesmen", 9 * c.max_trade_spaces * n, 1, "owner of each tradesman space")
        lay.add("illustration", 9 * n, 1, "tradesmen on each card's illustration")
        lay.add("card_cubes", 9 * n, UNBOUNDED, "delayed cubes per card and player")
        lay.add("cathedral", c.levels * c.columns * o, 1, "owner of each cathedral space")
        lay.add("events", self.queue * (self.n_events + 2 * o), max(e[6] for e in c.events),
                "per queue place: card, cubes per owner, owner of the first cube")
        lay.add("decks", 3, len(c.events), "red, white, yellow event cards left")
        lay.add("dice", o * 18, 6, "dice per district and face")
        lay.add("black", 6, c.black_dice, "black dice left by value")
        for k in range(n):
            lay.add(f"p{k}.money", 1, UNBOUNDED, "deniers in hand")
            lay.add(f"p{k}.influence", 1, c.influence_max, "influence")
            lay.add(f"p{k}.vp", 1, UNBOUNDED, "VP tokens")
            lay.add(f"p{k}.purse", 1, UNBOUNDED, "deniers in the district after passing")
            lay.add(f"p{k}.passed", 1, 1, "passed this round")
            lay.add(f"p{k}.supply", 1, c.citizens_per_player, "citizens in the personal supply")
            lay.add(f"p{k}.reserve", 1, c.citizens_per_player, "citizens in the general supply")
            lay.add(f"p{k}.events_won", 1, len(c.events), "event cards taken")
            lay.add(f"p{k}.character_count", 1, self.n_chars, "character cards held")
            self.count_blocks[k] = tuple(f"p{k}.{name}" for name in PLAYER_COUNTS)
            lay.add(f"p{k}.characters", self.n_chars, 1, "characters held, when visible")
        lay.add("pending.kind", len(FRAME_NAMES), 1, "kind of the top decision frame")
        lay.add("pending.action", len(GROUP_KINDS), 1, "action of a group being formed")
        lay.add("pending.mod", 11, 1, "cube to choose, no cube, or the slot of the cube used")
        lay.add("pending.faces", 18, 6, "dice chosen or turned over, by face")
        lay.add("pending.extras", 6, 6, "black dice countered along, by value")
        lay.add("pending.numbers", 6, UNBOUNDED, "target, left, used, cubes, Archer rolls, value")
        return lay

    # Every search leaf of the ``learned`` bot runs ``encode``, so it names only the nonzero
    # entries (``Writer.hot``, ``sparse``...) instead of building each block in full.
    def encode(self, view: dict[str, Any], n: int) -> Encoded:
        c = self.comp
        o = n + 1
        seat = view["seat"]
        me = 0 if seat is None else seat
        rel = [(me + k) % n for k in range(n)]  # relative place -> seat
        # owner (0-3 a seat, 4 neutral) -> one-hot index: relative seat, or n for neutral;
        # who.get(owner) is None for an empty place (None or negative)
        who = {x: n if x >= 4 else (x - me) % n for x in range(5)}

        w = Writer(self.layout(n))
        w.value("spectator", seat is None)
        w.hot("round", min(view["round"], self.rounds) - 1)
        w.hot("phase", PHASES.index(view["phase"]))
        w.hot("start", who.get(view["start"]))
        w.hot("turn", who.get(view["turn"]))
        w.hot("to_move", n if view["to_move"] is None else who[view["to_move"]])
        w.hot("fighter", n if view["fighter"] is None else who[view["fighter"]])
        w.hots("spaces", [who.get(x) for x in view["spaces"]], o)
        w.bits("lying", [b * o + who[x] for b, owners in enumerate(view["lying"]) for x in owners])
        w.value("neutral_reserve", view["neutral_reserve"])
        w.hots("cards", view["cards"], self.n_cards)
        width = c.max_trade_spaces
        w.sparse("tradesmen", [((k * width + i) * n + who[x], 1) for k, owners in enumerate(view["tradesmen"])
                               for i, x in enumerate(owners) if x >= 0])
        w.bits("illustration", [k * n + who[x] for k, owners in enumerate(view["illustration"]) for x in owners])
        w.sparse("card_cubes", sorted((k * n + who[p], count) for k, per in enumerate(view["cubes"])
                                      for p, count in enumerate(per) if count))
        w.hots("cathedral", [who.get(x) for x in view["cathedral"]], o)
        per = self.n_events + 2 * o
        events: list[tuple[int, float]] = []
        for i, ev in enumerate(view["events"][:self.queue]):
            base = i * per
            events.append((base + ev["card"], 1))
            cubes = ev["cubes"]
            if cubes:
                counts = [0] * o
                for x in cubes:
                    counts[who[x]] += 1
                events += ((base + self.n_events + k, count) for k, count in enumerate(counts))
                events.append((base + self.n_events + o + who[cubes[0]], 1))
        w.sparse("events", events)
        decks = view["decks"]
        w.put("decks", (decks["red"], decks["white"], decks["yellow"]))
        dice = view["dice"]
        w.sparse("dice", [(k * 18 + face, count) for k, d in enumerate((*rel, 4))
                          for face, count in enumerate(dice[d]) if count])
        w.tally("black", [v - 1 for v in view["black"]])
        players = view["players"]
        for k in range(n):
            p = players[rel[k]]
            w.puts(self.count_blocks[k], (p["money"], p["influence"], p["vp"], p["purse"], p["passed"], p["supply"],
                                          p["reserve"], len(p["events_won"]), p["character_count"]))
            w.bits(f"p{k}.characters", p["characters"] or ())
        self._pending(w, view)
        return w.done()

    def _pending(self, w: Writer, view: dict[str, Any]) -> None:
        f = view["pending"][-1] if view["pending"] else {}
        w.hot("pending.kind", FRAME_NAMES.index(f["kind"]) if f else None)
        w.hot("pending.action", GROUP_KINDS.index(f["action"]) if "action" in f else None)
        mod = f.get("mod")
        w.hot("pending.mod", None if mod is None else 0 if mod == -1 else 1 if mod == -2 else 2 + mod)
        w.tally("pending.faces", [*f.get("faces", ()), *f.get("flipped", ()), *(d % 18 for d in f.get("dice", ()))])
        w.tally("pending.extras", [v - 1 for v in f.get("extras", ())])
        w.put("pending.numbers", (f.get("target", f.get("slot", f.get("a", 0))), f.get("left", 0),
                                  f.get("used", 0), f.get("cubes", 0), f.get("archer", 0), f.get("b", 0)))
