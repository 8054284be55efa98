"""The Signorie state: one position, as flat lists of ints and tuples (cheap to copy).

Rules live in ``rules/``; this module holds the fields, their meaning, copying and the
dispatch from the engine contract to the rules functions.

Pending decisions are a stack of small tuples (``stack``). Every frame is
``(kind, seat, ...)``: the seat is whoever decides it, so a decision in Phase 3 or any other
seat's decision is just another frame. Decision frames (the top one is asked now):

* ``F_TURN seat``: Phase 2 turn: take a die or pass;
* ``F_ACTION seat col``: the die is placed in column ``col``: hire a helper, use one of the
  column's two assignment tiles, or take the column's Signoria action;
* ``F_ADVANCE seat left stop``: spend one of ``left`` advancement points; ``stop`` 1 when the
  player may stop now (the Signoria action once a point is used, or points from a helper);
  points that no move can use are lost;
* ``F_MARRY seat`` / ``F_MISSION seat``: a marriage / diplomatic mission from an assignment
  or a reward tile;
* ``F_ROW seat``: put a face-down alliance tile in one of the four rows of the plan;
* ``F_REWARD seat``: Phase 3, rounds 1-5: the round's bonus tile or 3 florins;
* ``F_BUY seat``: Phase 3, rounds 6-7: pay 5 florins for 5 VP, or not.

Frames that resolve by themselves (``rules.apply.settle`` runs them between decisions):

* ``F_HELPERS seat col next [new]``: the helpers of column ``col`` act, from slot ``next``
  on; ``new``, when present, is a slot the same die has just hired into (it waits);
* ``F_WEDDING seat``: Phase 3, rounds 1-5: a son of a rewarded player marries.
"""

from __future__ import annotations

import random
from typing import Any, ClassVar

from palio.core.game import Action, State
from palio.games.signorie.components import Components

F_TURN, F_ACTION, F_ADVANCE, F_MARRY, F_MISSION, F_ROW, F_REWARD, F_BUY, F_HELPERS, \
    F_WEDDING = range(10)
FRAME_NAMES = ("turn", "action", "advance", "marry", "mission", "row", "reward", "buy",
               "helpers", "wedding")
PLAY, REWARDS, OVER = range(3)
PHASES = ("play", "rewards", "over")

# score categories (``vp_by``), in the order the score breakdown shows them
SCORE_CATEGORIES = ("missions", "marriages", "initiative", "sons", "rewards", "helpers",
                    "assignments", "careers", "alliances")
CAT_MISSION, CAT_MARRIAGE, CAT_INITIATIVE, CAT_SONS, CAT_REWARDS, CAT_HELPERS, \
    CAT_ASSIGNMENTS, CAT_CAREERS, CAT_ALLIANCES = range(9)
N_CATS = len(SCORE_CATEGORIES)

EMPTY = -1  # an empty city slot, alliance slot or die slot

# lists of ints copied with [:] (tuples inside are never mutated, only replaced)
_LISTS = ("florins", "vp", "men", "women", "stock_m", "stock_w", "brides", "threshold",
          "parked_m", "parked_w", "init_pos", "init_stamp", "ndice", "passed", "dice",
          "helpers", "tracks", "vp_by", "rows_up", "rows_down", "city_slot", "marriage_tile",
          "mission_tile", "pool", "assign", "order", "stack", "reward_queue", "alliance")
_SCALARS = ("round", "phase", "pos", "rolls", "stamp", "turn_no", "removed", "cities",
            "rewards", "hired")


class SignorieState(State):
    """A Signorie position. ``P`` = players, ``L`` = the longest career track.

    Per seat (lists of length P): ``florins``; ``vp``; ``men`` / ``women`` in the supply;
    ``stock_m`` / ``stock_w`` in the general stock; ``brides`` (sons married, 0-4);
    ``threshold`` (13 + 3 per threshold assignment this round) and ``parked_m`` /
    ``parked_w`` (meeples paid for it, on the threshold space until the end of Phase 3);
    ``init_pos`` (slot on the initiative track) and ``init_stamp`` (larger = higher in a
    stack of discs); ``ndice`` (dice on the player board); ``passed`` (1 once passed this
    round).

    Flat per-seat tables: ``dice[p*5+col]`` (the value of the die in that column, 0 =
    none); ``helpers[p*5+col]`` (bit ``i`` = helper slot ``i`` of that column is taken);
    ``tracks[(p*3+t)*L+i]`` (men of seat p on slot i of career track t); ``vp_by[p*9+k]``
    (VP per score category, adding up to ``vp``); ``rows_up[p*4+r]`` / ``rows_down[p*4+r]``
    (tuples of the alliance tile ids face up / face down in row r of the plan; a face-down
    tile's id is known to nobody, it is kept only so every tile is somewhere).

    Board: ``cities`` (tuple of the cities in use); ``city_slot[c*S+i]`` (S = most city
    slots of a city: -1 empty, else seat*4 + 0 for a bride or 1 + track for a diplomat);
    ``marriage_tile[c]`` / ``mission_tile[c]`` (alliance tile id or -1); ``pool[col*6+v-1]``
    (dice of a colour showing v in their area); ``assign[col*2+sex]`` (the assignment tile on
    the man (0) / woman (1) slot of each colour's area); ``rewards`` (tuple of the 7 reward
    tiles of rounds 1-7: bonus tile ids, then VP tile ids); ``alliance`` (the face-down
    alliance stack, top last); ``removed`` (tuple of tiles set aside for 2-3 players).

    Flow: ``round`` 1-7; ``phase`` PLAY / REWARDS / OVER; ``order`` (seats in turn order);
    ``pos`` (index in ``order`` of the turn player in Phase 2); ``reward_queue`` (seats still
    to be rewarded this Phase 3, in order); ``stack`` of pending frames; ``rolls`` (offspring
    rolls so far, a stream key); ``stamp`` (initiative stacking counter); ``turn_no``
    (increases whenever a new turn begins); ``hired`` (helper discs on all boards).
    """

    comp: ClassVar[Components]
    tables: ClassVar[Any]

    # -- contract -------------------------------------------------------------------------
    @property
    def to_move(self) -> int | None:
        stack = self.stack
        return stack[-1][1] if stack else None

    @property
    def is_over(self) -> bool:
        return self.phase == OVER

    def _legal_actions(self) -> list[Action]:
        from palio.games.signorie.rules.legal import legal_actions

        return legal_actions(self)

    def _apply(self, action: Action) -> None:
        from palio.games.signorie.rules.apply import apply_action

        apply_action(self, action)

    def _copy_fields(self, other: State) -> None:
        d = other.__dict__
        s = self.__dict__
        for name in _LISTS:
            d[name] = s[name][:]
        for name in _SCALARS:
            d[name] = s[name]

    def scores(self) -> list[float]:
        return [float(v) for v in self.vp]

    def tiebreak_keys(self) -> list[tuple[float, ...]]:
        # ties go to the seat earlier in the current turn order (ゲーム終了)
        order = self.order
        return [(float(-order.index(s)),) for s in range(self.players)]

    def observe(self, seat: int | None) -> dict[str, Any]:
        from palio.games.signorie.observe import observe

        return observe(self, seat)

    def determinize(self, seat: int, rng: random.Random) -> State:
        from palio.games.signorie.observe import determinize

        return determinize(self, seat, rng)

    # -- small queries ------------------------------------------------------------------
    def men_on_track(self, p: int, t: int) -> list[int]:
        """Men of seat ``p`` per slot of career track ``t``, bottom first."""
        L = self.comp.max_track_len
        start = (p * 3 + t) * L
        return self.tracks[start:start + self.comp.track_len[t]]

    def initiative_ranking(self) -> list[int]:
        """Seats from the highest disc to the lowest; on a shared slot the top disc first."""
        return sorted(range(self.players), key=lambda q: (self.init_pos[q], self.init_stamp[q]),
                      reverse=True)

    def dice_sum(self, p: int) -> int:
        return sum(self.dice[p * 5:p * 5 + 5])
