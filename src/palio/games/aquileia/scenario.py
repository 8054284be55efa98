"""Build Aquileia positions from a compact description (for tests, examples and tutorials).

A position is the end of a placement phase: the henchmen stand on their fields, every player but
one has placed their tiebreaker and is done, and the one left (``to_move``) has only their
tiebreaker to place. Playing ``tiebreaker`` then runs the whole action phase through the public
API, stopping at each decision, with the dice given in ``dice`` rolled first.

>>> s = position(4, fields={"arena3": 2, "portus_gold": 3}, coins={2: "g1 s2", 3: "b1"},
...              hands={2: "weapon_2 slave_1"}, tiebreaker={0: 1, 2: 4, 3: 2}, to_move=1)
>>> s.coins_of(2), s.coins_of(3), s.port_coin, [str(a) for a in s.legal_actions()]
([1, 2, 0], [0, 0, 1], [0, 0, 1], ['tiebreaker'])
"""

from __future__ import annotations

from typing import Any

from palio.games.aquileia.components import HW, METAL_LETTERS, PORT, STADIUM
from palio.games.aquileia.state import F_PLACE, PLACEMENT, AquileiaState


def parse_coins(text: str) -> list[int]:
    """``"g1 s2 b3"`` -> [1, 2, 3] (gold, silver, bronze)."""
    out = [0, 0, 0]
    for part in text.split():
        out[METAL_LETTERS.index(part[0])] = int(part[1:])
    return out


def parse_dice(text: str) -> tuple[int, ...]:
    """``"bgs bb"`` -> die faces as metal indices, in the order they will be rolled."""
    return tuple(METAL_LETTERS.index(x) for x in text if not x.isspace())


def take_type(s: AquileiaState, key: str) -> int:
    """A card of this type out of its deck (or the horse/weapon display, refilled)."""
    comp = s.comp
    t = comp.type_id[key]
    deck = s.deck[comp.type_class[t]]
    for i, card in enumerate(deck):
        if comp.card_type[card] == t:
            return deck.pop(i)
    for slot, card in enumerate(s.display):
        if card != -1 and comp.card_type[card] == t:
            s.display[slot] = deck.pop() if deck else -1
            return card
    if s.stadium_up != -1 and comp.card_type[s.stadium_up] == t:
        card = s.stadium_up
        s.stadium_up = deck.pop() if deck else -1
        return card
    raise ValueError(f"no {key} card is left to take")


def put_on_top(s: AquileiaState, key: str) -> None:
    """Make a card of this type the top card of its deck."""
    comp = s.comp
    card = take_type(s, key)
    s.deck[comp.type_class[comp.card_type[card]]].append(card)


def position(players: int = 4, seed: int = 1, *, start: int = 0, round: int = 1,
             to_move: int | None = None, fields: dict[str, int] | None = None,
             coins: dict[int, str] | None = None, hands: dict[int, str] | None = None,
             known: bool = False, tiebreaker: dict[int, int] | None = None,
             plots: dict[int, int] | None = None, vp: list[int] | None = None,
             dice: str = "", stadium: str | None = None,
             stadium_top: str | None = None, theatre_top: str | None = None,
             display: list[str] | None = None, game: Any = None) -> AquileiaState:
    """A fresh game changed as described, at the last placement decision of ``round``.

    ``fields`` maps field names to seats (a port field gets its coin, on top of ``coins``);
    ``coins`` gives each seat's coins after placement ("g1 s2 b0"; seats not named keep the
    starting coins; the bank keeps the total right); ``hands`` the card types each seat holds
    (known to its holder only, or to everyone with ``known``); ``tiebreaker`` the 1-based
    track space of each seat already placed (``to_move``, default the seat without one, places
    on the first free space); ``plots`` 1-based plot numbers to owners; ``dice`` faces rolled before the
    seeded ones; ``stadium`` / ``stadium_top`` / ``theatre_top`` / ``display`` set those cards.
    """
    from palio.games.aquileia import GAME

    s = (game or GAME).setup(players, seed)
    assert isinstance(s, AquileiaState)
    comp = s.comp
    s.start = start
    s.round = round
    for name, seat in (fields or {}).items():
        f = comp.field_id[name]
        s.field_owner[f] = seat
        s.henchmen[seat] -= 1
        if comp.field_kind[f] == PORT:
            s.port_coin[comp.f_port.index(f)] = 1
    for seat, text in (coins or {}).items():
        s.coins[3 * seat:3 * seat + 3] = parse_coins(text)
    for m in range(3):
        on_ports = sum(1 for k, metal in enumerate(comp.port_metals) if metal == m and s.port_coin[k])
        s.bank[m] = comp.supply[m] - on_ports - sum(s.coins[3 * p + m] for p in range(players))
        if s.bank[m] < 0:
            raise ValueError(f"more {m} coins than the game has")
    if display is not None:
        for slot, key in enumerate(display):
            s.deck[HW].append(s.display[slot])
            s.display[slot] = -1
            s.display[slot] = take_type(s, key)
    if stadium is not None:
        s.deck[STADIUM].append(s.stadium_up)
        s.stadium_up = -1
        s.stadium_up = take_type(s, stadium)
    for seat, text in (hands or {}).items():
        for key in text.split():
            card = take_type(s, key)
            s.hand[seat].append(card)
            s.seen[card] = (1 << players) - 1 if known else 1 << seat
    if stadium_top is not None:
        put_on_top(s, stadium_top)
    if theatre_top is not None:
        put_on_top(s, theatre_top)
    for p, owner in (plots or {}).items():
        s.plot_owner[p - 1] = owner
        s.houses[owner] -= 1
    if vp is not None:
        s.vp = list(vp)
        s.vp_cat = [0] * len(s.vp_cat)
        for seat, points in enumerate(vp):
            s.vp_cat[6 * seat] = points  # counted as Pecunia: only totals matter here
    spaces = {seat: space - 1 for seat, space in (tiebreaker or {}).items()}
    if to_move is None:
        to_move = next(p for p in range(players) if p not in spaces)
    s.tb = [spaces.get(p, -1) for p in range(players)]
    s.tb_next = min(k for k in range(comp.tiebreaker_spaces) if k not in spaces.values())
    s.passed = (1 << players) - 1
    s.phase = PLACEMENT
    s.stack = [(F_PLACE, to_move)]
    s.forced = parse_dice(dice)
    s._legal = None
    return s
