"""The Troyes state: one position, as flat lists of ints (cheap to copy).

Rules live in ``rules/``; this module holds the fields, their meaning, copying and the dispatch
from the engine contract to the rules functions.

Owners: seats ``0..players-1`` and ``NEUTRAL`` (4, the gray pieces) in every list that holds a
piece's owner; ``-1`` is an empty space.

Pending decisions are a stack of small tuples (``stack``); the top frame names the seat that
decides now as its second element, so a decision out of turn (a black die in combat) is just
another seat's frame. Frame kinds (first element):

* ``F_DRAFT seat``: initial placement of one citizen on an empty space;
* ``F_COMBAT seat chosen extras``: beat the highest black die; ``chosen`` are face indices
  (colour*6 + value-1) of own dice already set against it (taken out of the district),
  ``extras`` the values of further black dice countered with them;
* ``F_FLIP seat back flipped``: turning 1-3 own dice over (paid); ``flipped`` are the new faces,
  kept out of the district until ``done``; ``back`` unused (0);
* ``F_TURN seat``: the start of an action turn (influence, pass, or a main action);
* ``F_SOURCE seat purpose a b``: where a citizen comes from; purpose ``SRC_TRADE`` (tradesman
  on the card of slot ``a``) or ``SRC_PLACE`` (into building ``a`` by the die value ``b``);
* ``F_GROUP seat kind target mod chosen``: forming a group of dice; ``kind`` G_CARD (target =
  slot), G_CATHEDRAL, G_EVENT (target = event card id), G_PLACE (target = building), G_FARM;
  ``mod`` MOD_ASK (the cube is still to be chosen), MOD_NONE or the slot of the delayed card
  whose cube modifies it; ``chosen`` die indices (district*18 + colour*6 + value-1), taken out
  of their districts;
* ``F_USES seat slot left used must``: a card whose each use costs something (pay, then ``use``
  or ``stop``); ``used`` uses made so far (Diplomat: influence paid, cubes still to place);
  ``must`` 1 when this activation hired the tradesman, so a first use must be made;
* ``F_MILL seat left``: the Miller's building choice for each of ``left`` uses;
* ``F_TARGET seat cubes archer``: put ``cubes`` cubes on events one at a time; ``archer``
  further Archer rolls to make afterwards.
"""

from __future__ import annotations

import random
from typing import Any, ClassVar

from palio.core.game import State
from palio.games.troyes.components import Components

F_DRAFT, F_COMBAT, F_FLIP, F_TURN, F_SOURCE, F_GROUP, F_USES, F_MILL, F_TARGET = range(9)
FRAME_NAMES = ("draft", "combat", "flip", "turn", "source", "group", "uses", "mill", "target")
SRC_TRADE, SRC_PLACE = range(2)
G_CARD, G_CATHEDRAL, G_EVENT, G_PLACE, G_FARM = range(5)
GROUP_KINDS = ("card", "cathedral", "event", "place", "farm")
MOD_ASK, MOD_NONE = -1, -2
DRAFT, COMBAT, ACTIONS, OVER = range(4)
PHASES = ("draft", "combat", "actions", "over")
NEUTRAL = 4  # owner code and district of the gray pieces
DISTRICTS = 5  # four seats and the neutral district, whatever the player count

# fields copied as flat lists
_FLAT = ("money", "influence", "vp", "purse", "passed", "supply", "reserve", "won", "spaces",
         "lying", "slot_card", "trade", "extra", "cubes", "cathedral", "queue", "ev_cubes",
         "red_deck", "white_deck", "yellow_deck", "red_box", "dice", "black", "stack",
         "chars", "chars_pool")
_SCALAR = ("round", "rounds", "phase", "start", "turn", "fighter", "rolls", "revealed",
           "neutral_reserve", "bonus", "turns", "hiring", "is_over", "comp", "tables")


class TroyesState(State):
    """A Troyes position.

    Per seat (lists indexed by seat): ``money`` (deniers in hand), ``influence`` (0-20),
    ``vp`` (victory point tokens), ``purse`` (deniers lying in the seat's district after a
    pass, collected at the round's end), ``passed`` (0/1 this round), ``supply`` (citizens in
    the personal supply), ``reserve`` (citizens of the seat's colour still in the general
    supply), ``won`` (tuple of the event cards taken), ``chars`` (tuple of character ids, secret).

    Board: ``spaces`` (owner per building space, see ``comp.space_label``); ``lying`` (bitmask
    of owners lying expelled on each building); ``neutral_reserve`` (gray citizens in the
    general supply); ``slot_card`` (activity card id per slot R1..Y3, face down until
    ``revealed`` > its round index); ``trade`` (owner per tradesman space, slot by slot,
    ``comp.max_trade_spaces`` wide); ``extra`` (bitmask of tradesmen lying on each card's
    illustration); ``cubes`` (delayed cubes, slot*4 + seat); ``cathedral`` (owner per space,
    level*6 + column); ``queue`` (event card ids left to right, Marauding first) with
    ``ev_cubes`` (tuple of cube owners per event, in placing order); decks ``red_deck``,
    ``white_deck``, ``yellow_deck`` (top last, hidden) and ``red_box`` (red cards left in the
    box, for Resistance); ``chars_pool`` (characters nobody holds); ``dice`` (counts, index
    district*18 + colour*6 + value-1, district 4 = neutral; a bytearray, so copying it and
    reading it as bytes, as ``rules/group.py`` does per position, cost little); ``black`` (black dice still to
    beat, highest first).

    Flow: ``round`` 1..``rounds``, ``phase`` DRAFT/COMBAT/ACTIONS/OVER, ``start`` (start
    player), ``turn`` (seat whose action turn it is), ``fighter`` (seat facing the next black
    die), ``stack`` of frames, ``rolls`` (counter of single rolls, for the seeded streams),
    ``turns`` (action turns begun so far), ``bonus`` (the bonus-cards option), ``hiring`` (the
    card slot whose tradesman was just hired, while its first group of dice is formed, else -1:
    that activation must earn a use).
    """

    comp: ClassVar[Components]
    tables: ClassVar[Any]

    # -- contract -------------------------------------------------------------------------
    @property
    def to_move(self) -> int | None:
        if self.phase == OVER:
            return None
        return self.stack[-1][1]

    # ``phase == OVER`` kept as a plain field (set with it in ``end_round``): read twice per
    # decision, and a property is a Python call (about 700 CPU instructions more per read)
    is_over: bool = False

    # ``comp`` and ``tables`` are the class's, also set on each state (set-up, ``copy``): the
    # rules read them dozens of times per decision, and CPython 3.11 reads an attribute of
    # the instance about four times as fast as one of its class. Pickled without them.
    def __getstate__(self) -> dict[str, Any]:
        state = self.__dict__.copy()
        del state["comp"], state["tables"]
        return state

    def __setstate__(self, state: dict[str, Any]) -> None:
        self.__dict__.update(state)
        self.comp, self.tables = type(self).comp, type(self).tables
        self.__dict__.setdefault("is_over", self.phase == OVER)  # pickled before the field

    # _legal_actions and _apply are the rules' legal_actions and apply_action themselves, made
    # methods of the state class by TroyesGame (the rules import this module): no Python call
    # in between, once per decision

    def _copy_fields(self, other: State) -> None:
        d = other.__dict__
        s = self.__dict__
        for name in _FLAT:
            d[name] = s[name][:]
        for name in _SCALAR:
            d[name] = s[name]

    def scores(self) -> list[float]:
        from palio.games.troyes.scoring import final_scores

        if self.phase == OVER:
            return [float(v) for v in final_scores(self)]
        return [float(v) for v in self.vp]

    def observe(self, seat: int | None) -> dict[str, Any]:
        from palio.games.troyes.observe import observe

        return observe(self, seat)

    def determinize(self, seat: int, rng: random.Random) -> State:
        from palio.games.troyes.observe import determinize

        return determinize(self, seat, rng)

    # -- small queries used everywhere ------------------------------------------------------
    def next_seat(self, seat: int) -> int:
        return (seat + 1) % self.players
