"""II Arena (闘技場) and III Stadium (競技場): the fight and the chariot race.

Both follow the same four steps, in turn order from the start player:

1. strength from the printed values of your fields (the sum, if you hold several);
2. three red dice each: every bronze face (arena), or every face of your side's metal (race),
   adds one;
3. each entrant in turn plays cards, one at a time: slave and weapon cards in the arena, horse
   cards of their side's metal in the race, one strength per symbol; played cards are discarded.
   An entrant whose hidden cards might be playable is asked even when none is, so that being
   asked tells the others nothing;
4. the holder of the blue dice chooses how many of the four to roll in the arena and rolls them
   together (reading: the rulebook's example, "used 2 of them; one bronze came up"), and rolls
   the ones left in the race (all of them: nothing later needs them); the same faces count.

The strongest wins; equal strength goes to the seat further forward on the tiebreaker track.
Arena: 3, 2, 1 bronze to the first three; the winner takes twice their strength in VP or a
slave card, and the second the other one (reading: "twice the strength" of the second when the
VP falls to them). Race: 3, 2, 1 coins of each one's own side's metal; the winner looks at the
face-up stadium card and the deck's top card, keeps one and gives the other to the second
(with no second, it is discarded, face up).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from palio.core.game import Action
from palio.games.aquileia.components import BRONZE, HW, METALS, SLAVE, STADIUM
from palio.games.aquileia.rules.common import (
    cards_left,
    discard,
    draw,
    everyone,
    gain,
    gain_vp,
    remove_type,
    roll,
    take_card,
    type_counts,
)
from palio.games.aquileia.state import CAT_ARENA, F_BLUE, F_CARDS, F_LAUREL, F_PRIZE

if TYPE_CHECKING:
    from palio.games.aquileia.state import AquileiaState

ARENA_CONTEST, RACE_CONTEST = 1, 2  # values of ``state.contest``


def entrants(s: AquileiaState, fields: tuple[int, ...]) -> list[int]:
    """Seats with a henchman on any of ``fields``, in turn order."""
    owner = s.field_owner
    held = {owner[f] for f in fields if owner[f] != -1}
    return [p for p in s.order() if p in held]


def side_of(s: AquileiaState, seat: int) -> int:
    """The metal of the stadium side ``seat`` races on (-1 if it does not race)."""
    comp = s.comp
    for f in comp.f_race:
        if s.field_owner[f] == seat:
            return comp.field_param[f]
    return -1


def usable_types(s: AquileiaState, seat: int) -> list[int]:
    """Card types ``seat`` can play now (in the contest being resolved)."""
    comp = s.comp
    kinds = comp.arena_types if s.contest == ARENA_CONTEST else comp.horse_types[side_of(s, seat)]
    counts = type_counts(s, seat)
    return [t for t in kinds if counts[t]]


def asked_to_play(s: AquileiaState, seat: int) -> bool:
    """Is ``seat`` asked (still) whether to play cards in the contest being resolved?

    Yes when it can play one, and also whenever it holds a card of a class that could be
    played here (slave or horse/weapon in the arena, horse/weapon in the race) that some other
    seat has not seen: whether a hand holds a usable card is its holder's secret (カードの種類や
    枚数を明らかにする必要はありません), so the question must not depend on it. When every such
    card is known to all, everyone can tell whether it can play, and nobody is asked in vain.
    """
    if usable_types(s, seat):
        return True
    comp = s.comp
    classes = (SLAVE, HW) if s.contest == ARENA_CONTEST else (HW,)
    all_seats = everyone(s)
    return any(comp.type_class[comp.card_type[c]] in classes and s.seen[c] != all_seats
               for c in s.hand[seat])


def ranking(s: AquileiaState, seats: list[int]) -> list[int]:
    """Strongest first; ties to the seat further forward on the tiebreaker track."""
    return sorted(seats, key=lambda p: (-s.strength[p], s.tb[p]))


def _begin(s: AquileiaState, contest: int, fields: tuple[int, ...]) -> list[int]:
    comp = s.comp
    seats = entrants(s, fields)
    if not seats:
        return seats
    s.contest = contest
    s.strength = [0] * s.players
    owner = s.field_owner
    for p in seats:
        base = sum(comp.field_value[f] for f in fields if owner[f] == p)
        counted = BRONZE if contest == ARENA_CONTEST else side_of(s, p)
        faces = roll(s, comp.arena_dice if contest == ARENA_CONTEST else comp.stadium_dice)
        s.strength[p] = base + sum(1 for m in faces if m == counted)
        s.emit("contest_roll", p, contest=contest, base=base, faces=[METALS[m] for m in faces],
               counted=METALS[counted], strength=s.strength[p])
    for p in reversed(seats):  # the first in turn order decides first (top of the stack)
        if asked_to_play(s, p):
            s.stack.append((F_CARDS, p, contest))
    return seats


# -- the arena -------------------------------------------------------------------------------
def arena_start(s: AquileiaState, _arg: int = 0) -> None:
    _begin(s, ARENA_CONTEST, s.comp.f_arena)


def arena_blue(s: AquileiaState, _arg: int = 0) -> None:
    holder = s.blue_holder
    if (s.contest == ARENA_CONTEST and holder != -1 and s.blue_left
            and holder in entrants(s, s.comp.f_arena)):
        s.stack.append((F_BLUE, holder))


def roll_blue(s: AquileiaState, seat: int, count: int) -> None:
    """Roll ``count`` blue dice together: one decision, then the arena goes on."""
    faces = roll(s, count)
    s.blue_left -= count
    s.strength[seat] += sum(1 for face in faces if face == BRONZE)
    s.stack.pop()
    s.emit("blue", seat, faces=[METALS[face] for face in faces], counted=METALS[BRONZE],
           strength=s.strength[seat], left=s.blue_left)


def stop_blue(s: AquileiaState, seat: int) -> None:
    s.stack.pop()
    s.emit("blue_stop", seat, left=s.blue_left)


def arena_prize(s: AquileiaState, _arg: int = 0) -> None:
    if s.contest != ARENA_CONTEST:
        return
    comp = s.comp
    order = ranking(s, entrants(s, comp.f_arena))
    places = []
    for k, p in enumerate(order):
        coins = gain(s, p, BRONZE, comp.arena_coins[k]) if k < len(comp.arena_coins) else 0
        places.append([p, s.strength[p], coins])
    s.emit("contest_result", contest=ARENA_CONTEST, places=places, metal=[METALS[BRONZE]] * len(places))
    winner, second = order[0], order[1] if len(order) > 1 else -1
    if cards_left(s, SLAVE):
        s.stack.append((F_PRIZE, winner, second))
    else:  # no slave card is left to choose: the VP it is
        award_prize(s, winner, second, "vp")


def award_prize(s: AquileiaState, winner: int, second: int, choice: str) -> None:
    """The winner's choice (``vp`` or ``slave``); the second takes the other."""
    vp_to, card_to = (winner, second) if choice == "vp" else (second, winner)
    vp = 0
    if vp_to != -1:
        vp = s.comp.vp_per_strength * s.strength[vp_to]
        gain_vp(s, vp_to, vp, CAT_ARENA)
    got = None
    if card_to != -1:
        card = draw(s, SLAVE)
        if card != -1:
            take_card(s, card_to, card, 0)
            got = s.comp.type_key[s.comp.card_type[card]]
    if s.stack and s.stack[-1][0] == F_PRIZE:
        s.stack.pop()
    s.emit("prize", winner, choice=choice, vp_to=vp_to, vp=vp, card_to=card_to if got else -1,
           secret={"card": got} if got else None, audience={card_to} if got else None)


# -- the race --------------------------------------------------------------------------------
def race_start(s: AquileiaState, _arg: int = 0) -> None:
    _begin(s, RACE_CONTEST, s.comp.f_race)


def race_blue(s: AquileiaState, _arg: int = 0) -> None:
    holder = s.blue_holder
    if s.contest != RACE_CONTEST or holder == -1 or not s.blue_left:
        return
    side = side_of(s, holder)
    if side == -1:
        return
    faces = roll(s, s.blue_left)
    s.blue_left = 0
    s.strength[holder] += sum(1 for m in faces if m == side)
    s.emit("blue", holder, faces=[METALS[m] for m in faces], counted=METALS[side],
           strength=s.strength[holder], left=0)


def race_prize(s: AquileiaState, _arg: int = 0) -> None:
    if s.contest != RACE_CONTEST:
        return
    comp = s.comp
    order = ranking(s, entrants(s, comp.f_race))
    places, metals = [], []
    for k, p in enumerate(order):
        side = side_of(s, p)
        coins = gain(s, p, side, comp.stadium_coins[k]) if k < len(comp.stadium_coins) else 0
        places.append([p, s.strength[p], coins])
        metals.append(METALS[side])
    s.emit("contest_result", contest=RACE_CONTEST, places=places, metal=metals)
    winner, second = order[0], order[1] if len(order) > 1 else -1
    top = draw(s, STADIUM)
    if top == -1 or s.stadium_up == -1:  # only one card to be had (not in a normal game)
        card = top if top != -1 else s.stadium_up
        s.stadium_up = -1
        if card != -1:
            take_card(s, winner, card, everyone(s))
            s.emit("laurel", winner, choice="only", card=comp.type_key[comp.card_type[card]],
                   second=-1)
        return
    s.peek = top
    s.stack.append((F_LAUREL, winner, second))
    s.emit("laurel_peek", winner, secret={"card": comp.type_key[comp.card_type[top]]},
           audience={winner})


def take_laurel(s: AquileiaState, winner: int, second: int, choice: str) -> None:
    """The winner keeps the face-up (``open``) or the top (``hidden``) card; the second gets the
    other (the winner has seen it too); without a second it is discarded face up."""
    comp = s.comp
    up, top = s.stadium_up, s.peek
    s.stadium_up = s.peek = -1
    s.stack.pop()
    key = comp.type_key
    ctype = comp.card_type
    if choice == "open":
        take_card(s, winner, up, everyone(s))
        if second != -1:
            take_card(s, second, top, 1 << winner)
            s.emit("laurel", winner, choice=choice, card=key[ctype[up]], second=second,
                   secret={"second_card": key[ctype[top]]}, audience={winner, second})
        else:
            discard(s, top)
            s.emit("laurel", winner, choice=choice, card=key[ctype[up]], second=-1,
                   discarded=key[ctype[top]])
    else:
        take_card(s, winner, top, 0)
        if second != -1:
            take_card(s, second, up, everyone(s))
            s.emit("laurel", winner, choice=choice, second=second, second_card=key[ctype[up]],
                   secret={"card": key[ctype[top]]}, audience={winner})
        else:
            discard(s, up)
            s.emit("laurel", winner, choice=choice, second=-1, discarded=key[ctype[up]],
                   secret={"card": key[ctype[top]]}, audience={winner})


# -- cards and blue dice: the decisions --------------------------------------------------------
def legal_cards(s: AquileiaState, top: tuple) -> list[Action]:
    play = s.tables.play
    return [play[t] for t in usable_types(s, top[1])] + [s.tables.done]


def play_card(s: AquileiaState, seat: int, card_type: int) -> None:
    comp = s.comp
    card = remove_type(s, seat, card_type)
    discard(s, card)
    s.strength[seat] += comp.type_symbols[card_type]
    if not asked_to_play(s, seat):
        s.stack.pop()
    s.emit("play", seat, card=comp.type_key[card_type], strength=s.strength[seat])


def stop_cards(s: AquileiaState, seat: int) -> None:
    s.stack.pop()
    s.emit("cards_done", seat, strength=s.strength[seat])


def legal_blue(s: AquileiaState, top: tuple) -> list[Action]:
    return [*s.tables.roll[:s.blue_left], s.tables.done]


def races(s: AquileiaState, seat: int) -> bool:
    """Does ``seat`` have a henchman in this round's race (where kept blue dice are rolled)?"""
    return seat in entrants(s, s.comp.f_race)


def legal_prize(s: AquileiaState, top: tuple) -> list[Action]:
    return list(s.tables.prize)


def legal_laurel(s: AquileiaState, top: tuple) -> list[Action]:
    return list(s.tables.laurel)
