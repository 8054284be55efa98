"""IV Theatrum (劇場): the auction for one two-coloured laurel card.

The player on the theatre field turns up the deck's top card for all to see and opens the
auction with one coin of any metal; if they cannot or will not, the next player clockwise may
open, and so on. Then, clockwise, each player still in the auction either passes (and is out for
good) or raises: they put down exactly the coins of the standing bid, metal for metal, and one
more coin of their choice. A player who cannot match the bid must pass (the engine passes for
them: nothing else is open to them, and their coins are public). When only the high bidder is
left, they take the card and pay their bid to the theatre's player, or to the bank if that is
themselves; the others keep their coins. If nobody opens, the theatre's player takes the card
for free. Nobody on the field: no card is turned up (it is discarded at the round's end).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from palio.core.game import Action
from palio.games.aquileia.components import METALS, THEATRE
from palio.games.aquileia.rules.common import draw, everyone, pay_bank, pay_seat, take_card
from palio.games.aquileia.state import F_AUCTION

if TYPE_CHECKING:
    from palio.games.aquileia.state import AquileiaState


def theatre(s: AquileiaState, _arg: int = 0) -> None:
    placer = s.field_owner[s.comp.f_theatrum]
    if placer == -1:
        return
    card = draw(s, THEATRE)
    if card == -1:
        return
    s.theatre_up = card
    s.bid = [0, 0, 0]
    s.auc_high = -1
    s.auc_out = 0
    s.emit("theatre", placer, card=s.comp.type_key[s.comp.card_type[card]])
    _offer_opening(s, placer)


def placer_of(s: AquileiaState) -> int:
    return s.field_owner[s.comp.f_theatrum]


def can_raise(s: AquileiaState, seat: int, metal: int) -> bool:
    """Can ``seat`` put down the standing bid plus one coin of ``metal``?"""
    base = 3 * seat
    bid = s.bid
    have = s.coins
    return all(have[base + m] >= bid[m] + (m == metal) for m in range(3))


def _offer_opening(s: AquileiaState, seat: int) -> None:
    """The opening bid is offered to ``seat`` and then clockwise; a player with no coin at all
    cannot open and is passed over. Nobody able to open: the card goes free to the placer."""
    n = s.players
    for k in range(n):
        p = (seat + k) % n
        if s.auc_out >> p & 1:
            continue
        if any(s.coins[3 * p + m] for m in range(3)):
            _set_bidder(s, p)
            return
        s.auc_out |= 1 << p
        s.emit("auction_pass", p, forced=True)
    _finish(s)


def _set_bidder(s: AquileiaState, seat: int) -> None:
    if s.stack and s.stack[-1][0] == F_AUCTION:
        s.stack[-1] = (F_AUCTION, seat)
    else:
        s.stack.append((F_AUCTION, seat))


def _next_bidder(s: AquileiaState, seat: int) -> None:
    """After ``seat`` acted, the next player clockwise still in the auction bids; one who cannot
    match the bid passes. Only the high bidder left: the auction ends."""
    n = s.players
    for k in range(1, n):
        p = (seat + k) % n
        if p == s.auc_high or s.auc_out >> p & 1:
            continue
        if any(can_raise(s, p, m) for m in range(3)):
            _set_bidder(s, p)
            return
        s.auc_out |= 1 << p
        s.emit("auction_pass", p, forced=True)
    _finish(s)


def legal_auction(s: AquileiaState, top: tuple) -> list[Action]:
    seat = top[1]
    bids = s.tables.bid
    return [bids[m] for m in range(3) if can_raise(s, seat, m)] + [s.tables.pass_]


def bid(s: AquileiaState, seat: int, metal: int) -> None:
    s.bid[metal] += 1
    s.auc_high = seat
    s.emit("bid", seat, metal=METALS[metal], bid=s.bid[:])
    _next_bidder(s, seat)


def pass_auction(s: AquileiaState, seat: int) -> None:
    s.auc_out |= 1 << seat
    s.emit("auction_pass", seat, forced=False)
    if s.auc_high == -1:
        _offer_opening(s, (seat + 1) % s.players)
    else:
        _next_bidder(s, seat)


def _finish(s: AquileiaState) -> None:
    comp = s.comp
    placer = placer_of(s)
    card = s.theatre_up
    winner = s.auc_high
    key = comp.type_key[comp.card_type[card]]
    if winner == -1:
        take_card(s, placer, card, everyone(s))
        s.emit("auction_free", placer, card=key)
    else:
        paid = s.bid[:]
        if winner == placer:
            pay_bank(s, winner, paid)
        else:
            pay_seat(s, winner, placer, paid)
        take_card(s, winner, card, everyone(s))
        s.emit("auction_won", winner, card=key, paid=paid, to=-1 if winner == placer else placer)
    s.theatre_up = -1
    s.bid = [0, 0, 0]
    s.auc_high = -1
    s.auc_out = 0
    if s.stack and s.stack[-1][0] == F_AUCTION:
        s.stack.pop()
