"""San Gimignano tower game: the observation as a fixed vector of floats (learning code).

Built from ``observe(seat)`` only (``Game.observation_tensor``), so it holds exactly what the
seat may see. Everything is written from the viewer's side: "me" is the viewing seat and
"opp" its opponent (a spectator, ``seat=None``, sees seat 0 as "me" and no hand). Seat
references are one-hots over (me, opp) or (me, opp, nobody). Card kinds, in every
12-long count block: tower numbers 5 6 7 8 9 10, then the nobles L P J O F W (luxury
stone, pilgrimage, jousting, height ordinance, Santa Fina, city walls). A luxury stone
standing for a number counts as L. Values are plain counts and numbers (not scaled); each
block's bounds are in the layout. 453 floats, one shape for every game (two players).

Blocks, in order (sizes in brackets; ``GAME.observation_layout(2).table()`` prints offsets):

* ``flags`` [4]: spectator view, noble variant on, game over, end phase;
* ``passes`` [1]; ``turn`` [2]: whose turn; ``to_move`` [3]: who decides now;
  ``declared_by`` [3]; ``token`` [3]: who holds the tallest-tower token;
* ``deck_size`` [1], ``noble_deck_size`` [1]; ``deck_face_up`` [6]: tower cards lying face up
  on the deck, by number; ``deck_top`` [6]: the number of the top card when it is face up;
* ``market`` [12], ``removed`` [6] (nobles out of the game) card counts;
* ``me.hand`` [12]: the viewer's own hand by kind (zeros for a spectator);
* per player, ``me.`` then ``opp.``: ``hand_size``, ``nobles_in_hand``, ``known_hand`` [12]
  (the cards of this hand its opponent knows, by kind), ``front`` [6] (nobles in front),
  ``nobles_used``, ``hand_limit``, ``towers`` (how many), ``completed`` (how many), and
  ``tower_slots`` [16 x 7]: the towers in building order, one slot each (16 is the most a
  seat can own: 48 tower cards and luxury stones, 3 a tower), each (present, same-number,
  top number, bottom number, height, completed, luxury stones); a luxury stone above a 5 or
  below a 10 reads 4 or 11; empty slots are zeros;
* ``pending_depth`` [1]: frames on the decision stack; ``pending`` [4 x 30]: the top four
  frames, top first, each (present, step one-hot over the 13 steps of ``STEPS``, decided by
  me, ``left`` (cards still to draw, take, give or return), ``number`` (the 8, 9 or 10 of a
  donation to use or decline, the 9 or 10 a defence answers), ``chain`` (cards in a jousting
  chain), then the frame's cards by kind: excluded
  market cards of a draw, cards put in an exchange, cards of a build or salvage, the
  jousting chain). A deeper stack shows in ``pending_depth`` only.
"""

from __future__ import annotations

from typing import Any

from palio.core.encoding import Encoded, Layout, Writer, counts, one_hot
from palio.games.san_gimignano import components as C

KINDS = tuple(str(v) for v in C.TOWER_VALUES) + tuple(C.NOBLE_CODES[n] for n in C.NOBLES)
KIND_INDEX = {code: i for i, code in enumerate(KINDS)}
NOBLE_INDEX = {C.NOBLE_CODES[n]: i for i, n in enumerate(C.NOBLES)}
TOWER_INDEX = {str(v): i for i, v in enumerate(C.TOWER_VALUES)}
STEPS = ("draw", "put", "extend", "complete", "build", "salvage", "effect", "defend", "collapse",
         "give", "play", "window", "return")
STEP_INDEX = {step: i for i, step in enumerate(STEPS)}
# a 9's taking of cards continues that tower's donation: encoded as its "effect" step (with
# ``left`` > 0), so the layout did not change when taking became a decision
STEP_INDEX["take"] = STEP_INDEX["effect"]

ALL_CARDS = sum(C.TOWER_COUNTS.values()) + sum(C.NOBLE_COUNTS.values())
MOST_COPIES = max(max(C.TOWER_COUNTS.values()), max(C.NOBLE_COUNTS.values()))
TOWER_SLOTS = C.MAX_TOWERS_PER_SEAT
TOWER_FEATURES = 7
# tallest possible tower: all ten 10s and the three luxury stones
MAX_HEIGHT = max(C.TOWER_VALUES) + C.NOBLE_COUNTS[C.LUXURY]
PENDING_SLOTS = 4
FRAME_FEATURES = 1 + len(STEPS) + 4 + len(KINDS)
MAX_DEPTH = 32  # far above any stack the rules build (random play reaches 2)


def layout() -> Layout:
    lay = Layout()
    lay.add("flags", 4, 1, "spectator view, noble variant, game over, end phase")
    lay.add("passes", 1, 2, "consecutive passes (two end the game)")
    lay.add("turn", 2, 1, "turn player: me, opp")
    lay.add("to_move", 3, 1, "deciding seat: me, opp, nobody (over)")
    lay.add("declared_by", 3, 1, "seat that declared the end: me, opp, nobody")
    lay.add("token", 3, 1, "tallest-tower token: me, opp, nobody")
    lay.add("deck_size", 1, sum(C.TOWER_COUNTS.values()), "cards in the tower deck")
    lay.add("noble_deck_size", 1, sum(C.NOBLE_COUNTS.values()), "cards in the noble deck")
    lay.add("deck_face_up", 6, MOST_COPIES, "face-up cards on the deck, by number 5-10")
    lay.add("deck_top", 6, 1, "number of the top card when face up, one-hot 5-10")
    lay.add("market", 12, MOST_COPIES, "market cards by kind")
    lay.add("removed", 6, MOST_COPIES, "nobles out of the game, by kind")
    lay.add("me.hand", 12, MOST_COPIES, "own hand by kind (zeros for a spectator)")
    for who in ("me", "opp"):
        lay.add(f"{who}.hand_size", 1, ALL_CARDS, "cards in hand")
        lay.add(f"{who}.nobles_in_hand", 1, sum(C.NOBLE_COUNTS.values()), "noble cards in hand")
        lay.add(f"{who}.known_hand", 12, MOST_COPIES, "cards of this hand its opponent knows")
        lay.add(f"{who}.front", 6, MOST_COPIES, "nobles in front, by kind")
        lay.add(f"{who}.nobles_used", 1, sum(C.NOBLE_COUNTS.values()), "nobles used")
        lay.add(f"{who}.hand_limit", 1, C.HAND_LIMIT_WALLS, "hand limit")
        lay.add(f"{who}.towers", 1, TOWER_SLOTS, "towers owned")
        lay.add(f"{who}.completed", 1, TOWER_SLOTS, "completed towers owned")
        lay.add(f"{who}.tower_slots", TOWER_SLOTS * TOWER_FEATURES, MAX_HEIGHT,
                "per tower: present, same, top, bottom, height, completed, luxury stones")
    lay.add("pending_depth", 1, MAX_DEPTH, "frames on the decision stack")
    lay.add("pending", PENDING_SLOTS * FRAME_FEATURES, MAX_HEIGHT,
            "top frames: present, step one-hot, mine, left, number, chain, cards by kind")
    return lay


LAYOUT = layout()


def encode(view: dict[str, Any]) -> Encoded:
    """The ``observe`` dict of one seat (or a spectator) as floats in ``LAYOUT`` order."""
    seat = view["seat"]
    me = 0 if seat is None else seat
    rel = {me: 0, 1 - me: 1, None: 2}
    w = Writer(LAYOUT)
    w.put("flags", [float(seat is None), float(view["nobles"]), float(view["over"]),
                    float(view["end_phase"])])
    w.put("passes", [float(view["passes"])])
    w.hot("turn", rel[view["turn"]])
    w.hot("to_move", rel[view["to_move"]])
    w.hot("declared_by", rel[view["declared_by"]])
    w.hot("token", rel[view["token"]])
    w.put("deck_size", [float(view["deck_size"])])
    w.put("noble_deck_size", [float(view["noble_deck_size"])])
    face_up = view["deck_face_up"]
    w.tally("deck_face_up", [TOWER_INDEX[card] for card in face_up])
    w.hot("deck_top", TOWER_INDEX[face_up[0]] if face_up else None)
    w.tally("market", [KIND_INDEX[card] for card in view["market"]])
    w.tally("removed", [NOBLE_INDEX[noble] for noble in view["removed"]])
    mine = view["players"][me]
    w.tally("me.hand", [KIND_INDEX[card] for card in mine.get("hand", ())])
    for who, p in (("me", me), ("opp", 1 - me)):
        _player(w, who, view["players"][p])
    _pending(w, view["pending"], me)
    return w.done()


def _player(w: Writer, who: str, player: dict[str, Any]) -> None:
    towers = player["towers"]
    w.put(f"{who}.hand_size", [float(player["hand_size"])])
    w.put(f"{who}.nobles_in_hand", [float(player["nobles_in_hand"])])
    w.tally(f"{who}.known_hand", [KIND_INDEX[card] for card in player["known_hand"]])
    w.tally(f"{who}.front", [NOBLE_INDEX[noble] for noble in player["front"]])
    w.put(f"{who}.nobles_used", [float(player["nobles_used"])])
    w.put(f"{who}.hand_limit", [float(player["hand_limit"])])
    w.put(f"{who}.towers", [float(len(towers))])
    w.put(f"{who}.completed", [float(sum(1 for t in towers if t["completed"]))])
    slots: list[float] = []
    for tower in towers:  # never more than TOWER_SLOTS: see the docstring
        slots += _tower(tower)
    w.put(f"{who}.tower_slots", slots, padded=True)


def _tower(tower: dict[str, Any]) -> list[float]:
    cards = tower["cards"]  # top to bottom; "L4" is a luxury stone standing for 4
    return [1.0, float(tower["kind"] == "same"), float(_number(cards[0])),
            float(_number(cards[-1])), float(tower["height"]), float(tower["completed"]),
            float(sum(1 for c in cards if c[0] == "L"))]


def _number(code: str) -> int:
    return int(code.lstrip("L"))


def _pending(w: Writer, frames: list[dict[str, Any]], me: int) -> None:
    w.put("pending_depth", [float(len(frames))])
    out: list[float] = []
    for frame in reversed(frames[-PENDING_SLOTS:]):
        out += _frame(frame, me)
    w.put("pending", out, padded=True)


def _frame(frame: dict[str, Any], me: int) -> list[float]:
    cards = frame.get("excluded") or frame.get("put") or frame.get("cards") or frame.get("chain") or ()
    return ([1.0] + one_hot(STEP_INDEX[frame["step"]], len(STEPS))
            + [float(frame["seat"] == me), float(frame.get("left", 0)),
               float(frame.get("number", 0)), float(len(frame.get("chain", ())))]
            + counts(("L" if c[0] == "L" else c for c in cards), KIND_INDEX, len(KINDS)))
