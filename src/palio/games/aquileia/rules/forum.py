"""V Forum (フォーラム): building workshops, private banks and villas, fields 1 to 5 in order.

Field 1 builds; 2 builds and scores the building's printed VP at once; 3 builds up to two
buildings; 4 builds; 5 builds and scores. A building is paid with every printed coin, exactly
(no change, no other metal), and at least its slaves in slave cards; a player short of the exact
slave count pays more. Each building is paid on its own: one card is never split between two.
The player's house marks the plot, so a player with no house left builds no more.

A player pays more slaves only when their cards cannot make the exact number (奴隷の数がちょうど
でない場合は、余分に支払う): then two-slave cards alone pay one slave over.

Readings: building is the player's choice (they may leave it); an overpayment never includes a
card that could be left out, since it would be thrown away for nothing.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from palio.core.game import Action
from palio.games.aquileia.components import SLAVE
from palio.games.aquileia.rules.common import (
    can_pay,
    discard,
    everyone,
    gain_vp,
    pay_bank,
    remove_type,
    slave_cards_held,
)
from palio.games.aquileia.state import CAT_FORUM, F_BUILD

if TYPE_CHECKING:
    from palio.games.aquileia.state import AquileiaState


def payments(slaves: int, ones: int, twos: int) -> list[int]:
    """The numbers of two-slave cards with which ``slaves`` slaves can be paid from ``ones``
    one-slave and ``twos`` two-slave cards (the rest in one-slave cards): every exact payment,
    or, only when none exists, the one slave over that two-slave cards alone make."""
    out = [t for t in range(min(twos, slaves // 2) + 1) if slaves - 2 * t <= ones]
    if not out and slaves % 2 and (slaves + 1) // 2 <= twos:
        out.append((slaves + 1) // 2)
    return out


def build_options(s: AquileiaState, seat: int) -> list[tuple[int, int]]:
    """(plot, two-slave cards) for every building ``seat`` can pay for now."""
    if not s.houses[seat]:
        return []
    comp = s.comp
    ones, twos = slave_cards_held(s, seat)
    out = []
    owner = s.plot_owner
    for plot in range(len(owner)):
        if owner[plot] == -1 and can_pay(s, seat, comp.plot_cost[plot]):
            out += [(plot, t) for t in payments(comp.plot_slaves[plot], ones, twos)]
    return out


def may_build(s: AquileiaState, seat: int) -> bool:
    """Is ``seat`` asked (still) whether to build, judged only from what everyone knows?

    Coins and houses are open, slave cards are drawn face down: the question is asked when some
    free plot's coins can be paid and the slave cards could be enough if every card another
    seat has not seen showed two slaves. Whether the cards really are enough is the holder's
    secret (カードの種類や枚数を明らかにする必要はありません), so they may be asked and build nothing.
    """
    if not s.houses[seat]:
        return False
    comp = s.comp
    all_seats = everyone(s)
    most = 0
    for c in s.hand[seat]:
        t = comp.card_type[c]
        if comp.type_class[t] == SLAVE:
            most += comp.type_symbols[t] if s.seen[c] == all_seats else comp.max_slave_symbols
    return any(owner == -1 and comp.plot_slaves[plot] <= most
               and can_pay(s, seat, comp.plot_cost[plot])
               for plot, owner in enumerate(s.plot_owner))


def forum(s: AquileiaState, index: int) -> None:
    comp = s.comp
    field = comp.f_forum[index]
    seat = s.field_owner[field]
    if seat == -1:
        return
    if may_build(s, seat):
        s.stack.append((F_BUILD, seat, index, comp.forum_fields[index][0]))
    else:
        s.emit("idle", seat, field=comp.field_name[field])


def legal_build(s: AquileiaState, top: tuple) -> list[Action]:
    table = s.tables.build
    return [table[plot][t] for plot, t in build_options(s, top[1])] + [s.tables.skip]


def build(s: AquileiaState, seat: int, plot: int, twos: int) -> None:
    comp = s.comp
    _kind, seat_, index, left = s.stack[-1]
    need = comp.plot_slaves[plot]
    ones = max(0, need - 2 * twos)
    pay_bank(s, seat, comp.plot_cost[plot])
    for card_type, n in ((comp.slave_type.get(1), ones), (comp.slave_type.get(2), twos)):
        for _ in range(n):
            discard(s, remove_type(s, seat, card_type))
    s.houses[seat] -= 1
    s.plot_owner[plot] = seat
    vp = comp.plot_vp[plot] if comp.forum_fields[index][1] else 0
    if vp:
        gain_vp(s, seat, vp, CAT_FORUM)
    s.emit("build", seat, plot=plot + 1, coins=list(comp.plot_cost[plot]), ones=ones, twos=twos,
           slaves=ones + 2 * twos, vp=vp)
    if left > 1 and may_build(s, seat):
        s.stack[-1] = (F_BUILD, seat, index, left - 1)
    else:
        s.stack.pop()


def skip_build(s: AquileiaState, seat: int) -> None:
    top = s.stack.pop()
    s.emit("build_skip", seat, field=s.comp.field_name[s.comp.f_forum[top[2]]])
