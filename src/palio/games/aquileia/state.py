"""The Aquileia state: one position, as flat lists of ints (cheap to copy).

Rules live in ``rules/``; this module holds the fields, their meaning, copying and the dispatch
from the engine contract to the rules functions.

Pending decisions are a stack of small tuples (``stack``); the top frame names the seat that
decides now, so an auction bid or a winner's choice is simply another seat's decision. Frames
(first element the kind, second the deciding seat):

* ``F_PLACE seat``: placement phase, ``seat`` places a henchman or the tiebreaker, or passes;
* ``F_EXCHANGE seat``: Pecunia, one exchange or none;
* ``F_ARMA seat slot``: Equi et arma, buy the card of display ``slot`` or not;
* ``F_SERVI seat row``: Servi, how many slave cards to buy on that row;
* ``F_CARDS seat contest``: arena (0) or race (1), play strength cards one at a time;
* ``F_BLUE seat``: arena, how many blue dice to roll together (or none);
* ``F_PRIZE seat second``: the arena winner picks the VP or the slave card (``second`` gets the
  other, -1 for nobody);
* ``F_LAUREL seat second``: the race winner, having seen the top stadium card, keeps it or the
  face-up one (``second`` gets the other);
* ``F_AUCTION seat``: the theatre auction waits for ``seat`` to bid or pass (the auction's own
  state is in ``bid``, ``auc_high``, ``auc_out``);
* ``F_BUILD seat field left``: forum field ``field`` (0-based), ``left`` buildings still allowed.

The action phase walks a fixed list of steps (``rules.flow.steps``): each step does what needs
no decision and pushes the frames of those that do; ``step`` is the next one to run.
"""

from __future__ import annotations

import random
from typing import Any, ClassVar

from palio.core.game import Action, State
from palio.games.aquileia.components import Components

F_PLACE, F_EXCHANGE, F_ARMA, F_SERVI, F_CARDS, F_BLUE, F_PRIZE, F_LAUREL, F_AUCTION, F_BUILD = range(10)
FRAME_NAMES = ("place", "exchange", "arma", "servi", "cards", "blue", "prize", "laurel", "auction",
               "build")
PLACEMENT, ACTION, OVER = range(3)
PHASES = ("placement", "action", "over")

# VP categories of the score breakdown (``vp_cat``), in the order they are shown
CATEGORIES = ("pecunia", "arena", "forum", "portus", "laurels", "villas")
CAT_PECUNIA, CAT_ARENA, CAT_FORUM, CAT_PORTUS, CAT_LAURELS, CAT_VILLAS = range(6)
N_CAT = len(CATEGORIES)

# fields copied as flat lists of ints, as lists of lists, and as immutable values
_FLAT = ("coins", "vp", "vp_cat", "henchmen", "tb", "houses", "strength", "field_owner",
         "port_coin", "plot_owner", "display", "bank", "bid", "seen", "stack")
_NESTED = ("hand", "deck", "discard")
_SCALAR = ("round", "phase", "start", "step", "rolls", "shuffles", "blue_holder", "blue_left", "contest",
           "auc_high", "auc_out", "peek", "stadium_up", "theatre_up", "tb_next", "passed", "forced")


class AquileiaState(State):
    """An Aquileia position.

    Per seat (flat lists): ``coins`` [3 * seat + metal] (gold, silver, bronze); ``vp`` (the score
    track) and ``vp_cat`` [6 * seat + category] (the same points by where they came from);
    ``henchmen`` (left to place this round); ``tb`` (tiebreaker space, 0 = front, or -1);
    ``houses`` (left in supply); ``strength`` (in the arena or race being resolved); ``hand``
    (card ids held, of every deck). ``passed`` is a bitmask of seats that stopped placing.

    Board: ``field_owner`` (seat or -1 per action field); ``port_coin`` (1 where the coin placed
    with a henchman still lies on a port field, in ``comp.port_metals`` order); ``plot_owner``
    (seat or -1 per forum plot); ``display`` (card id or -1 per horse/weapon slot);
    ``stadium_up`` (the face-up stadium card or -1); ``theatre_up`` (the theatre card on
    auction or -1); ``bank`` [3] (coins left in the supply); ``tb_next`` (next free tiebreaker
    space); ``blue_holder`` / ``blue_left`` (Potentia: who holds the blue dice this round, and
    how many are still unrolled); ``contest`` (0, or 1 / 2 while the arena / race is being
    resolved, so ``strength`` belongs to it).

    Cards: ``deck[cls]`` (face down, top last) and ``discard[cls]`` (face up) per class (slave,
    horse/weapon, stadium, theatre); ``seen[card]`` is the bitmask of seats that know which
    card it is while it lies in a hand (the holder always does; 0 in a deck). ``peek`` is the
    top stadium card while the race winner is looking at it (-1 otherwise).

    Theatre auction: ``bid`` [3] coins of the standing bid, ``auc_high`` the seat that made it
    (-1 before an opening bid), ``auc_out`` the bitmask of seats out of the auction.

    Flow: ``round`` 1-6, ``phase`` PLACEMENT / ACTION / OVER, ``start`` (start player), ``step``
    (next action-phase step), ``stack`` (pending frames), ``rolls`` / ``shuffles`` (counters that
    key each die roll and reshuffle to the seed), ``forced`` (die faces to use before seeded
    ones: set only by scenario tests, never by play).
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
        from palio.games.aquileia.rules.legal import legal_actions

        return legal_actions(self)

    def _apply(self, action: Action) -> None:
        from palio.games.aquileia.rules.apply import apply_action

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

    def scores(self) -> list[float]:
        return [float(v) for v in self.vp]

    def observe(self, seat: int | None) -> dict[str, Any]:
        from palio.games.aquileia.observe import observe

        return observe(self, seat)

    def determinize(self, seat: int, rng: random.Random) -> State:
        from palio.games.aquileia.observe import determinize

        return determinize(self, seat, rng)

    # -- small queries used everywhere ------------------------------------------------------
    def order(self) -> list[int]:
        """Seats in turn order this round, the start player first (clockwise = seat + 1)."""
        n = self.players
        return [(self.start + k) % n for k in range(n)]

    def coins_of(self, seat: int) -> list[int]:
        return self.coins[3 * seat:3 * seat + 3]
