"""Shared bookkeeping of the Aquileia rules: coins, VP, dice, cards and who knows which card.

Coins move only between the bank, the players and the port fields, so their total per metal
never changes; the bank pays out what it still has (a physical supply of 39 per metal), and
nobody ever pays with a coin of another metal or gets change (ゲーム中のお金とカードの役割).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from palio.core.rng import derive, derive_bits
from palio.games.aquileia.components import SLAVE, STADIUM, THEATRE

if TYPE_CHECKING:
    from palio.games.aquileia.state import AquileiaState


def everyone(s: AquileiaState) -> int:
    """The bitmask of all seats."""
    return (1 << s.players) - 1


# -- coins and VP --------------------------------------------------------------------------
def can_pay(s: AquileiaState, seat: int, coins: tuple[int, int, int] | list[int]) -> bool:
    base = 3 * seat
    have = s.coins
    return have[base] >= coins[0] and have[base + 1] >= coins[1] and have[base + 2] >= coins[2]


def pay_bank(s: AquileiaState, seat: int, coins: tuple[int, int, int] | list[int]) -> None:
    """``seat`` pays exactly these coins to the bank (the caller checked ``can_pay``)."""
    base = 3 * seat
    for m in range(3):
        if coins[m]:
            s.coins[base + m] -= coins[m]
            s.bank[m] += coins[m]


def pay_seat(s: AquileiaState, seat: int, to: int, coins: tuple[int, int, int] | list[int]) -> None:
    """``seat`` hands exactly these coins to ``to``."""
    for m in range(3):
        if coins[m]:
            s.coins[3 * seat + m] -= coins[m]
            s.coins[3 * to + m] += coins[m]


def gain(s: AquileiaState, seat: int, metal: int, n: int) -> int:
    """``seat`` takes ``n`` coins of ``metal`` from the bank, as many as it still has."""
    got = min(n, s.bank[metal])
    s.bank[metal] -= got
    s.coins[3 * seat + metal] += got
    return got


def gain_coins(s: AquileiaState, seat: int, coins: tuple[int, int, int] | list[int]) -> list[int]:
    return [gain(s, seat, m, coins[m]) if coins[m] else 0 for m in range(3)]


def gain_vp(s: AquileiaState, seat: int, n: int, category: int) -> None:
    from palio.games.aquileia.state import N_CAT

    s.vp[seat] += n
    s.vp_cat[N_CAT * seat + category] += n


# -- dice ------------------------------------------------------------------------------------
def roll(s: AquileiaState, n: int) -> list[int]:
    """``n`` dice, as the metal index of each face shown. Faces come from the seed (one
    stream per roll, counted by ``rolls``), after any ``forced`` faces a scenario test set."""
    out: list[int] = []
    if s.forced:
        out = list(s.forced[:n])
        s.forced = s.forced[len(out):]
        if len(out) == n:
            return out
    faces = s.comp.faces
    rng = derive_bits(s.seed, "roll", s.rolls)  # only random(): the same draws, cheaper
    s.rolls += 1
    out += [faces[int(rng.random() * len(faces))] for _ in range(n - len(out))]
    return out


# -- cards -----------------------------------------------------------------------------------
def draw(s: AquileiaState, cls: int) -> int:
    """The top card of a deck (-1 if none). An empty slave or horse/weapon deck is made again
    from its shuffled discards (the stadium and theatre decks are meant to run out)."""
    deck = s.deck[cls]
    if not deck and cls not in (STADIUM, THEATRE) and s.discard[cls]:
        deck.extend(sorted(s.discard[cls]))
        s.discard[cls].clear()
        derive(s.seed, "shuffle", cls, s.shuffles).shuffle(deck)
        s.shuffles += 1
        s.emit("reshuffle", deck=cls, cards=len(deck))
    return deck.pop() if deck else -1


def cards_left(s: AquileiaState, cls: int) -> int:
    """Cards a draw can still reach: the deck, and for slave and horse/weapon cards the discards."""
    n = len(s.deck[cls])
    return n + len(s.discard[cls]) if cls not in (STADIUM, THEATRE) else n


def take_card(s: AquileiaState, seat: int, card: int, knowers: int) -> None:
    """``card`` joins ``seat``'s hand; ``knowers`` (a seat bitmask) know it is there."""
    s.hand[seat].append(card)
    s.seen[card] = knowers | (1 << seat)


def discard(s: AquileiaState, card: int) -> None:
    """A card shown and put face up on its discard pile."""
    s.discard[s.comp.type_class[s.comp.card_type[card]]].append(card)
    s.seen[card] = 0


def count_type(s: AquileiaState, seat: int, card_type: int) -> int:
    types = s.comp.card_type
    return sum(1 for c in s.hand[seat] if types[c] == card_type)


def type_counts(s: AquileiaState, seat: int) -> list[int]:
    """How many cards of each type ``seat`` holds."""
    out = [0] * s.comp.n_types
    types = s.comp.card_type
    for c in s.hand[seat]:
        out[types[c]] += 1
    return out


def remove_type(s: AquileiaState, seat: int, card_type: int) -> int:
    """Take one card of ``card_type`` out of ``seat``'s hand (the caller checked it has one).

    Cards of one type are alike, so an onlooker who knew of k such cards now knows of k - 1:
    the card best known goes, and every seat that knew of the type but not of that card
    forgets one of the others.
    """
    types = s.comp.card_type
    seen = s.seen
    hand = s.hand[seat]
    same = [c for c in hand if types[c] == card_type]
    gone = max(same, key=lambda c: bin(seen[c]).count("1"))
    hand.remove(gone)
    rest = [c for c in same if c != gone]
    lost = 0
    for c in rest:
        lost |= seen[c]
    lost &= ~seen[gone] & ~(1 << seat)
    while lost:
        bit = lost & -lost
        for c in rest:
            if seen[c] & bit:
                seen[c] &= ~bit
                break
        lost &= ~bit
    return gone


def slave_cards_held(s: AquileiaState, seat: int) -> tuple[int, int]:
    """(one-slave cards, two-slave cards) in ``seat``'s hand."""
    comp = s.comp
    ones = twos = 0
    for c in s.hand[seat]:
        t = comp.card_type[c]
        if comp.type_class[t] == SLAVE:
            if comp.type_symbols[t] == 1:
                ones += 1
            else:
                twos += 1
    return ones, twos
