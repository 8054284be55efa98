"""VI Portus (港): the thief, then the bronze, silver and gold fields.

Latro rolls two red dice and takes, from the coins lying on the port fields, the coin of each
metal shown (nothing where that field holds none). Then each port field, bronze first and gold
last, activates its player's buildings for the coin of its metal: the coin still under the
henchman if the thief left it, else one from the player's own coins; a player who has none does
nothing. Activation pays every workshop's VP and every private bank's coins of that player.
The payment is not a choice because the rulebook makes it one: a player on a port field "must
pay the coin of that field" (該当のアクションフィールドと同じ硬貨を支払わなくてはなりません), and
the coin was committed at placement. (It is not that activating can only gain: a player with no
workshop or bank pays the coin for nothing, and the log says so.)
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from palio.games.aquileia.components import BANK, METALS, WORKSHOP
from palio.games.aquileia.rules.common import gain, gain_vp, roll
from palio.games.aquileia.state import CAT_PORTUS

if TYPE_CHECKING:
    from palio.games.aquileia.state import AquileiaState


def latro(s: AquileiaState, _arg: int = 0) -> None:
    comp = s.comp
    thief = s.field_owner[comp.f_latro]
    if thief == -1:
        return
    faces = roll(s, comp.latro_dice)
    taken = []
    for metal in dict.fromkeys(faces):  # a metal shown twice still finds one coin at most
        k = comp.port_metals.index(metal) if metal in comp.port_metals else -1
        if k != -1 and s.port_coin[k]:
            s.port_coin[k] = 0
            s.coins[3 * thief + metal] += 1
            taken.append([METALS[metal], s.field_owner[comp.f_port[k]]])
    s.emit("latro", thief, faces=[METALS[m] for m in faces], taken=taken)


def port(s: AquileiaState, k: int) -> None:
    comp = s.comp
    seat = s.field_owner[comp.f_port[k]]
    if seat == -1:
        return
    metal = comp.port_metals[k]
    if s.port_coin[k]:
        s.port_coin[k] = 0
        s.bank[metal] += 1
        paid_from = "field"
    elif s.coins[3 * seat + metal]:
        s.coins[3 * seat + metal] -= 1
        s.bank[metal] += 1
        paid_from = "stock"
    else:
        s.emit("port_unpaid", seat, metal=METALS[metal])
        return
    vp = 0
    income = [0, 0, 0]
    active = 0
    for plot, owner in enumerate(s.plot_owner):
        if owner != seat:
            continue
        kind = comp.plot_kind[plot]
        if kind == WORKSHOP:
            vp += comp.plot_yield[plot]
            active += 1
        elif kind == BANK:
            active += 1
            for m, n in enumerate(comp.plot_income[plot]):
                income[m] += n
    if vp:
        gain_vp(s, seat, vp, CAT_PORTUS)
    got = [gain(s, seat, m, income[m]) if income[m] else 0 for m in range(3)]
    s.emit("port", seat, metal=METALS[metal], paid_from=paid_from, vp=vp, coins=got,
           buildings=active)
