"""Aquileia: the observation as a fixed vector of floats (learning code).

Built from ``observe(seat)`` only (``Game.observation_tensor``), so it holds exactly what the
seat may see: its own hand in full, of the others' hands the cards it knows and how many it
does not. Every seat reference is relative to the viewer: seat ``(viewer + k) % players`` is
"player k", so player 0 is always the viewer (a spectator, ``seat=None``, views as seat 0).
One-hots over seats have ``players`` entries, plus one for "nobody" where a place may be empty.
Card types are one-hot over their own class (horse/weapon, stadium, theatre), in the order of
the components data; counts of cards per type run over every type.

The shape depends on the player count and on the components (fields, plots, card types): with
the built-in components it is 490 floats for 3 players, 591 for 4, 692 for 5
(``AquileiaGame.observation_tensor_shape(players)``). Values are plain counts, not scaled; VP
and strength have no printed cap, so their upper bound is ``inf``. Blocks in order
(``layout(...).table()`` prints offsets and bounds):

* ``spectator`` [1]; ``round`` [rounds] one-hot; ``phase`` [3] placement / action / over;
  ``step`` [13] the action-phase step being resolved (none, dolus ... end), one-hot;
  ``to_move`` [P+1]; ``start`` [P];
* ``pending.kind`` [11] frame kind one-hot (none first); ``pending.seat`` [P+1];
  ``pending.second`` [P+1] (arena prize, laurel); ``pending.index`` [8] display slot, servi
  row, contest or forum field, one-hot; ``pending.left`` [1] buildings left on the field;
* ``fields`` [fields x (P+1)] the owner of each action field (last: free); ``port_coins``
  [port fields]; ``tiebreaker`` [spaces x (P+1)]; ``plots`` [plots x (P+1)];
* ``bank`` [3]; ``display`` [slots x (horse/weapon types + 1)] (last: empty);
  ``stadium_card`` [stadium types + 1]; ``theatre_card`` [theatre types + 1] (on auction);
  ``peek`` [stadium types + 1] (the top stadium card, for the race winner choosing);
  ``decks`` [4] sizes; ``discards`` [types] counts;
* ``blue.holder`` [P+1]; ``blue.left`` [1]; ``contest.kind`` [3] none / arena / stadium;
  ``contest.strength`` [P];
* ``auction.bid`` [3]; ``auction.high`` [P+1]; ``auction.out`` [P];
* per player k (``pk.``): ``coins`` [3], ``vp``, ``henchmen``, ``passed``, ``tiebreaker``
  [spaces + 1] (last: not placed), ``houses``, ``hand_size``, ``cards`` [types] the cards the
  viewer knows, ``hidden`` [3] slave, horse/weapon and stadium cards it does not.
"""

from __future__ import annotations

import math
from typing import Any

from palio.core.encoding import Encoded, Layout, Writer
from palio.games.aquileia.components import CLASSES, HW, METALS, STADIUM, THEATRE, Components
from palio.games.aquileia.state import FRAME_NAMES, PHASES

STEPS = (None, "dolus", "pecunia", "arma", "servi", "potentia", "arena", "stadium", "theatrum",
         "forum", "latro", "portus", "end")
UNBOUNDED = math.inf


class Encoder:
    """Index tables and layouts of one components set; ``encode`` turns a view into floats."""

    def __init__(self, comp: Components) -> None:
        self.comp = comp
        self.types = {key: t for t, key in enumerate(comp.type_key)}
        self.class_index = [{comp.type_key[t]: i for i, t in enumerate(comp.class_types[k])}
                            for k in range(4)]
        self.n_class = [len(comp.class_types[k]) for k in range(4)]
        self.index_size = max(comp.display_size, len(comp.servi), len(comp.forum_fields), 3)
        self.max_coins = max(comp.supply)
        self._layouts: dict[int, Layout] = {}
        self._names: dict[int, Any] = {}

    # -- layout -------------------------------------------------------------------------
    def layout(self, players: int) -> Layout:
        if players not in self._layouts:
            self._layouts[players] = self._build(players)
        return self._layouts[players]

    def _build(self, players: int) -> Layout:
        c, P = self.comp, players
        lay = Layout()
        lay.add("spectator", 1, 1, "spectator view")
        lay.add("round", c.rounds, 1, "round, one-hot")
        lay.add("phase", 3, 1, "placement, action, over")
        lay.add("step", len(STEPS), 1, "action-phase step being resolved (none first)")
        lay.add("to_move", P + 1, 1, "deciding player (relative), or nobody")
        lay.add("start", P, 1, "start player (relative)")
        lay.add("pending.kind", len(FRAME_NAMES) + 1, 1, "pending decision kind (none first)")
        lay.add("pending.seat", P + 1, 1, "its deciding player, or nobody")
        lay.add("pending.second", P + 1, 1, "the second place of an arena prize or laurel choice")
        lay.add("pending.index", self.index_size, 1, "its display slot, servi row, contest or forum field")
        lay.add("pending.left", 1, max(b for b, _ in c.forum_fields), "buildings left on the field")
        lay.add("fields", c.n_fields * (P + 1), 1, "per action field: owner, or free")
        lay.add("port_coins", len(c.port_metals), 1, "per port field: its coin still lies there")
        lay.add("tiebreaker", c.tiebreaker_spaces * (P + 1), 1, "per track space: owner, or free")
        lay.add("plots", len(c.plots) * (P + 1), 1, "per forum plot: owner, or free")
        lay.add("bank", 3, self.max_coins, "coins left in the bank: gold, silver, bronze")
        lay.add("display", c.display_size * (self.n_class[HW] + 1), 1,
                "per horse/weapon slot: its card type, or empty")
        lay.add("stadium_card", self.n_class[STADIUM] + 1, 1, "face-up stadium card, or none")
        lay.add("theatre_card", self.n_class[THEATRE] + 1, 1, "theatre card on auction, or none")
        lay.add("peek", self.n_class[STADIUM] + 1, 1, "top stadium card the viewer is looking at")
        lay.add("decks", 4, c.n_cards, "deck sizes: slave, horse/weapon, stadium, theatre")
        lay.add("discards", c.n_types, max(c.type_count), "discarded cards per type")
        lay.add("blue.holder", P + 1, 1, "holder of the blue dice, or nobody")
        lay.add("blue.left", 1, c.blue_dice, "blue dice not yet rolled")
        lay.add("contest.kind", 3, 1, "none, arena, stadium")
        lay.add("contest.strength", P, UNBOUNDED, "strength of each player in it")
        lay.add("auction.bid", 3, self.max_coins, "coins of the standing bid")
        lay.add("auction.high", P + 1, 1, "high bidder, or nobody")
        lay.add("auction.out", P, 1, "players out of the auction")
        for k in range(P):
            p = f"p{k}."
            lay.add(p + "coins", 3, self.max_coins, "gold, silver, bronze")
            lay.add(p + "vp", 1, UNBOUNDED, "victory points")
            lay.add(p + "henchmen", 1, c.henchmen, "henchmen left to place")
            lay.add(p + "passed", 1, 1, "passed this round")
            lay.add(p + "tiebreaker", c.tiebreaker_spaces + 1, 1, "tiebreaker space, or not placed")
            lay.add(p + "houses", 1, c.houses, "houses left")
            lay.add(p + "hand_size", 1, c.n_cards, "cards in hand")
            lay.add(p + "cards", c.n_types, max(c.type_count), "cards the viewer knows, per type")
            lay.add(p + "hidden", 3, c.n_cards, "unseen slave, horse/weapon, stadium cards")
        return lay

    # -- encoding -----------------------------------------------------------------------
    def encode(self, view: dict[str, Any], players: int) -> Encoded:
        """One seat's ``observe`` dict as floats in ``layout(players)`` order. Each block
        names only what is not zero (``Writer.hot``, ``hots``, ``tally``, ``value``): an
        encoding runs at every leaf of the learned judge's search."""
        c, P = self.comp, players
        seat = view["seat"]
        me = 0 if seat is None else seat

        def rel(s: int | None) -> int:
            return P if s is None or s == -1 else (s - me) % P

        w = Writer(self.layout(P))
        w.value("spectator", float(seat is None))
        w.hot("round", min(view["round"], c.rounds) - 1)
        w.hot("phase", PHASES.index(view["phase"]))
        w.hot("step", STEPS.index(view["step"]))
        w.hot("to_move", rel(view["to_move"]))
        w.hot("start", rel(view["start"]))
        pending = view["pending"] or {}
        kind = pending.get("kind")
        w.hot("pending.kind", 0 if kind is None else FRAME_NAMES.index(kind) + 1)
        w.hot("pending.seat", rel(pending.get("seat")))
        w.hot("pending.second", rel(pending.get("second")))
        w.hot("pending.index",
              next((pending[k] for k in ("slot", "row", "contest", "field") if k in pending), None))
        w.value("pending.left", float(pending.get("left", 0)))
        w.hots("fields", [rel(o) for o in view["fields"]], P + 1)
        w.put("port_coins", view["port_coins"])
        w.hots("tiebreaker", [rel(o) for o in view["tiebreaker"]], P + 1)
        w.hots("plots", [rel(o) for o in view["plots"]], P + 1)
        bank = view["bank"]
        w.put("bank", [bank[m] for m in METALS])
        hw = self.class_index[HW]
        w.hots("display", [self.n_class[HW] if key is None else hw[key] for key in view["display"]],
               self.n_class[HW] + 1)
        w.hot("stadium_card", self._in_class(STADIUM, view["stadium_card"]))
        w.hot("theatre_card", self._in_class(THEATRE, view["theatre_card"]))
        w.hot("peek", self._in_class(STADIUM, view.get("peek")))
        decks = view["decks"]
        w.put("decks", [decks[name] for name in CLASSES])
        types = self.types
        discards = view["discards"]
        w.tally("discards", [types[k] for name in CLASSES for k in discards[name]])
        blue = view["blue"]
        w.hot("blue.holder", rel(blue["holder"]))
        w.value("blue.left", float(blue["left"]))
        contest = view["contest"]
        w.hot("contest.kind", (None, "arena", "stadium").index(contest["kind"]))
        strength = contest["strength"]
        w.put("contest.strength", [strength[(me + k) % P] for k in range(P)])
        auction = view["auction"] or {"bid": {m: 0 for m in METALS}, "high": -1, "out": []}
        bid = auction["bid"]
        w.put("auction.bid", [bid[m] for m in METALS])
        w.hot("auction.high", rel(auction["high"]))
        w.tally("auction.out", [rel(s) for s in auction["out"]])
        names = self._player_names(P)
        for k in range(P):
            self._player(w, names[k], view["players"][(me + k) % P])
        return w.done()

    def _player_names(self, players: int) -> list[tuple[tuple[str, ...], str, tuple[str, str],
                                                         str, str]]:
        """Per player k, the names of its blocks as ``_player`` writes them."""
        if players not in self._names:
            self._names[players] = [
                ((f"p{k}.coins", f"p{k}.vp", f"p{k}.henchmen", f"p{k}.passed"),
                 f"p{k}.tiebreaker", (f"p{k}.houses", f"p{k}.hand_size"), f"p{k}.cards",
                 f"p{k}.hidden") for k in range(players)]
        return self._names[players]

    def _in_class(self, cls: int, key: str | None) -> int:
        """A card type's place within its class; the class size (the "none" slot) for none."""
        return self.n_class[cls] if key is None else self.class_index[cls][key]

    def _player(self, w: Writer, names: tuple[tuple[str, ...], str, tuple[str, str], str, str],
                info: dict[str, Any]) -> None:
        counts, tiebreaker, sizes, cards, hidden = names
        coins = info["coins"]
        w.puts(counts, [coins["gold"], coins["silver"], coins["bronze"], info["vp"],
                        info["henchmen"], info["passed"]])
        tb = info["tiebreaker"]
        w.hot(tiebreaker, self.comp.tiebreaker_spaces if tb == -1 else tb)
        w.puts(sizes, [info["houses"], info["hand_size"]])
        types = self.types
        w.tally(cards, [types[k] for k in info["cards"]])
        unseen = info["hidden"]
        w.put(hidden, [unseen["slave"], unseen["hw"], unseen["stadium"]])
