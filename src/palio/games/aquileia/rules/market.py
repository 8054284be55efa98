"""I Mercatus (市場): Dolus, Pecunia, Equi et arma, Servi and Potentia, in that order.

* Dolus: roll two red dice, take one coin of each metal shown.
* Pecunia: one of the printed exchanges (never two, never the same twice) and 4 VP. Reading:
  the VP come with the exchange, so a player who makes none (or can make none) scores nothing.
* Equi et arma: the card beside your field for 1 bronze paid to the bank; the leftmost card
  also brings the deck's top card, unseen by the others. Reading: the emptied slot is filled
  at once from the deck, face up, so the next placement phase again shows three cards.
* Servi: top row 1 card for 1 bronze; middle row 1 or 2 cards for as many silver; bottom row
  up to 3 cards for a gold each; paid to the bank, the cards drawn face down.
* Potentia: the four blue dice, for the arena and the race of this round only.

Each purchase is the player's choice (they may leave it); where they cannot pay, the field does
nothing and no decision is asked.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from palio.core.game import Action
from palio.games.aquileia.components import HW, METALS, SLAVE
from palio.games.aquileia.rules.common import (
    can_pay,
    cards_left,
    draw,
    everyone,
    gain,
    gain_coins,
    gain_vp,
    pay_bank,
    roll,
    take_card,
)
from palio.games.aquileia.state import CAT_PECUNIA, F_ARMA, F_EXCHANGE, F_SERVI

if TYPE_CHECKING:
    from palio.games.aquileia.state import AquileiaState


def idle(s: AquileiaState, seat: int, field: int) -> None:
    """A henchman whose action cannot be carried out: it simply comes home."""
    s.emit("idle", seat, field=s.comp.field_name[field])


# -- Dolus -----------------------------------------------------------------------------------
def dolus(s: AquileiaState, _arg: int = 0) -> None:
    seat = s.field_owner[s.comp.f_dolus]
    if seat == -1:
        return
    faces = roll(s, s.comp.dolus_dice)
    got = [0, 0, 0]
    for metal in faces:
        got[metal] += gain(s, seat, metal, 1)
    s.emit("dolus", seat, faces=[METALS[m] for m in faces], coins=got)


# -- Pecunia ---------------------------------------------------------------------------------
def exchange_options(s: AquileiaState, seat: int) -> list[int]:
    """The printed exchanges ``seat`` can pay for and the bank can give."""
    bank = s.bank
    return [i for i, (give, get) in enumerate(s.comp.exchanges)
            if can_pay(s, seat, give) and all(bank[m] >= get[m] for m in range(3))]


def pecunia(s: AquileiaState, _arg: int = 0) -> None:
    field = s.comp.f_pecunia
    seat = s.field_owner[field]
    if seat == -1:
        return
    if exchange_options(s, seat):
        s.stack.append((F_EXCHANGE, seat))
    else:
        idle(s, seat, field)


def legal_exchange(s: AquileiaState, top: tuple) -> list[Action]:
    t = s.tables
    return [t.exchange[i] for i in exchange_options(s, top[1])] + [t.skip]


def do_exchange(s: AquileiaState, seat: int, option: int) -> None:
    give, get = s.comp.exchanges[option]
    pay_bank(s, seat, give)
    gain_coins(s, seat, get)
    gain_vp(s, seat, s.comp.pecunia_vp, CAT_PECUNIA)
    s.stack.pop()
    s.emit("exchange", seat, give=list(give), get=list(get), vp=s.comp.pecunia_vp)


# -- Equi et arma ----------------------------------------------------------------------------
def arma(s: AquileiaState, slot: int) -> None:
    field = s.comp.f_arma[slot]
    seat = s.field_owner[field]
    if seat == -1:
        return
    if s.display[slot] != -1 and can_pay(s, seat, s.comp.arma_price):
        s.stack.append((F_ARMA, seat, slot))
    else:
        idle(s, seat, field)


def legal_arma(s: AquileiaState, top: tuple) -> list[Action]:
    return [s.tables.buy, s.tables.skip]


def buy_card(s: AquileiaState, seat: int, slot: int) -> None:
    from palio.games.aquileia.rules.flow import refill_display

    comp = s.comp
    pay_bank(s, seat, comp.arma_price)
    card = s.display[slot]
    s.display[slot] = -1
    take_card(s, seat, card, everyone(s))
    s.stack.pop()
    key = comp.type_key[comp.card_type[card]]
    if slot == 0:  # the leftmost card brings the deck's top card, unseen by the others
        bonus = draw(s, HW)
        if bonus != -1:
            take_card(s, seat, bonus, 0)
            s.emit("buy", seat, card=key, bonus=True,
                   secret={"bonus_card": comp.type_key[comp.card_type[bonus]]}, audience={seat})
        else:
            s.emit("buy", seat, card=key, bonus=False)
    else:
        s.emit("buy", seat, card=key, bonus=False)
    refill_display(s)


# -- Servi -----------------------------------------------------------------------------------
def servi_most(s: AquileiaState, seat: int, row: int) -> int:
    """The most slave cards ``seat`` can buy on ``row``: the row's limit, its coins of the
    row's metal, and the cards left to draw."""
    metal, most = s.comp.servi[row]
    return min(most, s.coins[3 * seat + metal], cards_left(s, SLAVE))


def servi(s: AquileiaState, row: int) -> None:
    field = s.comp.f_servi[row]
    seat = s.field_owner[field]
    if seat == -1:
        return
    if servi_most(s, seat, row) > 0:
        s.stack.append((F_SERVI, seat, row))
    else:
        idle(s, seat, field)


def legal_servi(s: AquileiaState, top: tuple) -> list[Action]:
    t = s.tables
    return [t.slaves[k] for k in range(servi_most(s, top[1], top[2]))] + [t.skip]


def buy_slaves(s: AquileiaState, seat: int, row: int, count: int) -> None:
    comp = s.comp
    metal = comp.servi[row][0]
    s.coins[3 * seat + metal] -= count
    s.bank[metal] += count
    drawn = []
    for _ in range(count):
        card = draw(s, SLAVE)
        take_card(s, seat, card, 0)
        drawn.append(comp.type_key[comp.card_type[card]])
    s.stack.pop()
    s.emit("slaves", seat, count=count, metal=METALS[metal],
           secret={"cards": drawn}, audience={seat})


# -- Potentia --------------------------------------------------------------------------------
def potentia(s: AquileiaState, _arg: int = 0) -> None:
    seat = s.field_owner[s.comp.f_potentia]
    if seat == -1:
        return
    s.blue_holder = seat
    s.blue_left = s.comp.potentia_dice
    s.emit("potentia", seat, dice=s.blue_left)

