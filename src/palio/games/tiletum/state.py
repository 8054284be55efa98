"""The Tiletum state: one position, as flat lists of ints (cheap to copy).

Rules live in ``rules/``; this module holds the fields, their meaning, copying and the
dispatch from the engine contract to the rules functions.

Pending decisions are a stack of small tuples (``stack``); the top frame says what the seat to
move decides now. Frame kinds (first element):

* ``F_DIE``: turn start, take a die (duties allowed);
* ``F_ACT kind ap exch main``: an action with ``ap`` AP left; ``exch`` 1 once the first
  exchange of this contract action was made; ``main`` 1 for the die's own action;
* ``F_JOKER ap main``: pick the action a joker (or a joker helper) performs;
* ``F_AREA``: take or leave the bonus tile of the die's area;
* ``F_RES n``: choose ``n`` resources of any kind, one at a time;
* ``F_SWAP n``: choose one type and gain ``n`` of it (swap helper);
* ``F_HOUSE_ANY`` / ``F_PILLAR_ANY``: crest bonus, a house / pillar anywhere (``done`` only
  when nowhere can take it);
* ``F_MOVE_ANY piece``: crest bonus, move a piece to any other spot;
* ``F_STEPS piece n place forced``: up to ``n`` single steps of a piece, and (place=1) once
  a house/pillar in its town; ``done`` ends it, except that a forced frame (forced=1) must
  use what it offers;
* ``F_BLDG every``: choose one of your buildings with a character, to take its bonuses
  (every=1: the helper, no ``done`` and every floor's bonus);
* ``F_ROOMS b mask every``: take, in any order, the bonuses of the floors left in ``mask``.
"""

from __future__ import annotations

import random
from typing import Any, ClassVar

from palio.core.game import Action, State
from palio.games.tiletum.components import Components

F_DIE, F_ACT, F_JOKER, F_AREA, F_RES, F_SWAP, F_HOUSE_ANY, F_PILLAR_ANY, F_MOVE_ANY, F_STEPS, \
    F_BLDG, F_ROOMS = range(12)
PLAY, KINGTILE, OVER = range(3)

# fields copied as lists of ints / lists of lists of ints
_FLAT = ("order", "vp", "king_pos", "king_stamp", "houses", "pillars", "contributed", "completed",
         "merchant", "architect", "house_owner", "map_bonus", "cost", "area_action", "area_bonus",
         "wheel", "contract_disp", "char_disp", "bonus_deck", "contract_deck", "char_deck", "corr",
         "corr_pool", "fair_towns", "fair_tiles", "stack", "holds")
_NESTED = ("res", "store", "rooms", "crests", "done", "cath_tiles", "bonus_ap", "dice_used",
           "pillar_owner", "cath_stack")
_SCALAR = ("round", "turn", "pos", "phase", "stamp", "corr_shown", "rotation", "swap",
           "shuffles", "fairs_done")


class TiletumState(State):
    """A Tiletum position.

    Per seat (lists indexed by seat): ``vp``; ``res`` [gold, food, wool, stone, iron];
    ``king_pos`` (step index on the King track) and ``king_stamp`` (larger = higher in a stack;
    the bottom marker of a stack counts as ahead); ``houses`` / ``pillars`` in the personal
    supply; ``store`` (tile ids in the storehouse, at most ``storehouse``); ``rooms`` (tile id
    or -1 per room, buildings left to right, floors bottom up); ``crests`` (family or -1 per
    crest space); ``done`` (fulfilled contract ids, left to right on the contract spaces);
    ``cath_tiles`` (VP of cathedral tiles won); ``contributed`` (bitmask of cathedrals);
    ``completed`` (bitmask of completed buildings); ``bonus_ap`` (bonus AP per action);
    ``merchant`` / ``architect`` (spot ids); ``dice_used`` ((value, colour) this round).

    Board: ``house_owner`` (seat or -1 per house space); ``pillar_owner`` (seats per
    cathedral); ``map_bonus`` (tile or -1 per town); ``cath_stack`` (VP left per cathedral,
    top last); ``cost`` (cost tile per cathedral); ``area_action`` / ``area_bonus`` (per
    wheel area); ``rotation`` (die value v lies at area (v-1+rotation)%6); ``king_bonus``;
    ``wheel`` (dice count per (value-1)*5+colour); displays and face-down decks (top last);
    ``corr`` (this round's 3 corruption tokens, revealed from index 0) and ``corr_pool`` (the
    unused ones); fairs (``fair_towns``, ``fair_tiles``, ``fairs_done``).

    Flow: ``round`` 1-4, ``turn`` 0-2, ``pos`` index in ``order``, ``phase`` PLAY / KINGTILE /
    OVER, ``stack`` of pending frames, ``swap`` (swap helper used before the die), ``stamp``
    (King-track stacking counter), ``shuffles`` (counter of character-deck shuffles),
    ``holds`` (pairs stack depth, tile: helpers of the player to move still being resolved;
    such a helper stays in the storehouse until the stack drops to that depth).
    """

    comp: ClassVar[Components]
    tables: ClassVar[Any]

    # -- contract -------------------------------------------------------------------------
    @property
    def to_move(self) -> int | None:
        if self.phase == PLAY:
            return self.order[self.pos]
        if self.phase == KINGTILE:
            return self.leader()
        return None

    @property
    def is_over(self) -> bool:
        return self.phase == OVER

    def _legal_actions(self) -> list[Action]:
        from palio.games.tiletum.rules.legal import legal_actions

        return legal_actions(self)

    def _apply(self, action: Action) -> None:
        from palio.games.tiletum.rules.apply import apply_action

        apply_action(self, action)

    def _copy_fields(self, other: State) -> None:
        d = other.__dict__
        s = self.__dict__
        for name in _FLAT:
            d[name] = s[name][:]
        for name in _NESTED:
            d[name] = [x[:] for x in s[name]]
        for name in _SCALAR:
            d[name] = s[name]
        d["king_bonus"] = s["king_bonus"]

    def scores(self) -> list[float]:
        return [float(v) for v in self.vp]

    def tiebreak_keys(self) -> list[tuple[float, ...]]:
        # ties go to the seat earlier in the (final) turn order
        return [(float(-self.order.index(s)),) for s in range(self.players)]

    def observe(self, seat: int | None) -> dict[str, Any]:
        from palio.games.tiletum.observe import observe

        return observe(self, seat)

    def determinize(self, seat: int, rng: random.Random) -> State:
        from palio.games.tiletum.observe import determinize

        return determinize(self, seat, rng)

    # -- small queries used everywhere ------------------------------------------------------
    def advancement(self, seat: int) -> tuple[int, int]:
        """Larger is further ahead on the King track (bottom of a stack is ahead)."""
        return (self.king_pos[seat], -self.king_stamp[seat])

    def king_ranking(self) -> list[int]:
        return sorted(range(self.players), key=self.advancement, reverse=True)

    def leader(self) -> int:
        return max(range(self.players), key=self.advancement)
