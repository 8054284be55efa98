"""Activity card effects: what one activation with ``uses`` uses does.

Rulebook: アクション「活動カードの活性化」 (immediate cards: the effect as many times as the group
allows; delayed cards: that many cubes on the card) and the card list of [RB]'s appendix
("Activity Cards", "Bonus Cards"). The numbers in the texts are ``comp.fx``.

Readings (docs/coverage/troyes.md, "Activity cards"): a card whose every use costs something
(Artisan, Innkeeper, Journeyman, Troubadour, Diplomat) is used one paid use at a time, at least
once when its dice earn a use, and may stop early; dice that earn no use are spent for nothing
(allowed unless the tradesman is hired with them); a cube placed on an event by a card
always earns 1 influence, as a fought cube does.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING

from palio.games.troyes.components import (
    BISHOPRIC,
    CITY_HALL,
    DELAYED_CARDS,
    PALACE,
    RED,
    YELLOW,
    keep,
)
from palio.games.troyes.rules.board import (
    citizens_in,
    gain_influence,
    own_cathedral_cubes,
    roll,
)
from palio.games.troyes.rules.events import add_cube
from palio.games.troyes.state import F_MILL, F_TARGET, F_USES, NEUTRAL

if TYPE_CHECKING:
    from palio.games.troyes.components import Components
    from palio.games.troyes.state import TroyesState

PAID_CARDS = ("artisan", "innkeeper", "journeyman", "troubadour", "diplomat")


def first_use_price(s: TroyesState, key: str) -> tuple[int, int]:
    """(deniers, influence) a card's first use costs besides its dice."""
    return _first_use(s.comp, key)


def _first_use(c: Components, key: str) -> tuple[int, int]:
    fx = c.fx[key]
    if key in ("journeyman", "innkeeper"):
        return fx["deniers"], 0
    if key in ("artisan", "diplomat", "troubadour"):
        return 0, fx["influence"]
    return 0, 0


def first_use_prices(c: Components) -> tuple[tuple[int, int], ...]:
    """``first_use_price`` of every card, by card id, kept per components set."""
    prices = c.kept_first_use_prices.get("by card id")
    if prices is None:
        prices = keep(c.kept_first_use_prices, "by card id",
                      tuple(_first_use(c, row[0]) for row in c.cards), 1)
    return prices


def can_use(s: TroyesState, p: int, key: str) -> bool:
    deniers, influence = first_use_price(s, key)
    return s.money[p] >= deniers and s.influence[p] >= influence


def activate(s: TroyesState, p: int, slot: int, uses: int, hired: bool = False) -> None:
    """Carry out ``uses`` uses of the card in ``slot`` (frames for the choices they need).
    ``hired``: this activation hired the tradesman, so a paid card's first use must be made.

    A paid card's uses are paid one at a time; on a card staffed before, none need be (as
    its dice may earn none): uses that cannot be paid when the dice are in are not made."""
    c = s.comp
    card = s.slot_card[slot]
    key = c.cards[card][0]
    if uses and key in PAID_CARDS and not hired and not can_use(s, p, key):
        uses = 0  # not one use can be paid (the dice bought took the deniers): dice spent
    s.emit("activate", p, card=card, uses=uses)
    if not uses:  # dice spent for nothing: allowed on a card whose tradesman was there before
        return
    if key in _DELAYED:
        s.cubes[slot * 4 + p] += uses
        s.emit("card_cubes", p, card=card, cubes=uses)
        return
    if key in PAID_CARDS:
        s.stack.append((F_USES, p, slot, uses, 0, int(hired)))
        return
    if key == "miller":
        s.stack.append((F_MILL, p, uses))
        return
    if key == "archer":
        s.stack.append((F_TARGET, p, 0, uses))
        archer_rolls(s)
        return
    if key == "chivalry":
        red = sum(s.dice[p * 18 + RED * 6:p * 18 + RED * 6 + 6])  # p's red dice
        cubes = uses * red
        s.emit("chivalry", p, cubes=cubes)
        if cubes:
            s.stack.append((F_TARGET, p, cubes, 0))
        return
    # per seat (the lists are one per seat); zip, not a comprehension reading s: that would
    # make s a cell, made at every call
    before = list(zip(s.money, s.vp, s.influence, strict=True))
    _IMMEDIATE[key](s, p, uses, key)
    emit_gains(s, before, card)


def emit_gains(s: TroyesState, before: list[tuple[int, int, int]], card: int) -> None:
    """Log what each player gained or lost by an effect (money, VP, influence)."""
    for q in range(s.players):
        m, v, i = before[q]
        dm, dv, di = s.money[q] - m, s.vp[q] - v, s.influence[q] - i
        if dm or dv or di:
            s.emit("effect", q, card=card, deniers=dm, vp=dv, influence=di)


_DELAYED = frozenset(DELAYED_CARDS)


# -- uses paid one at a time ---------------------------------------------------------------
def apply_use(s: TroyesState) -> None:
    _kind, p, slot, left, used, must = s.stack[-1]
    card = s.slot_card[slot]
    key = s.comp.cards[card][0]
    fx = s.comp.fx[key]
    if key == "artisan":
        s.influence[p] -= fx["influence"]
        s.money[p] += fx["deniers"]
    elif key == "innkeeper":
        s.money[p] -= fx["deniers"]
        gain_influence(s, p, fx["influence"])
    elif key == "journeyman":
        s.money[p] -= fx["deniers"]
        s.vp[p] += fx["vp"]
    elif key == "troubadour":
        s.influence[p] -= fx["influence"]
        s.vp[p] += fx["vp"]
    else:  # diplomat: pay now, place the cubes once paying is over
        s.influence[p] -= fx["influence"]
    s.emit("use", p, card=card)
    left -= 1
    used += 1
    if left and can_use(s, p, key):
        s.stack[-1] = (F_USES, p, slot, left, used, must)
    else:
        _uses_over(s, p, key, used)


def apply_stop(s: TroyesState) -> None:
    _kind, p, slot, _left, used, _must = s.stack[-1]
    _uses_over(s, p, s.comp.cards[s.slot_card[slot]][0], used)


def _uses_over(s: TroyesState, p: int, key: str, used: int) -> None:
    s.stack.pop()
    if key == "diplomat" and used:
        s.stack.append((F_TARGET, p, used, 0))


# -- Miller --------------------------------------------------------------------------------
def apply_mill(s: TroyesState, building: int) -> None:
    _kind, p, left = s.stack[-1]
    gain = s.comp.fx["miller"]["deniers"] * citizens_in(s, p, building)
    s.money[p] += gain
    s.emit("mill", p, building=building, deniers=gain)
    if left > 1:
        s.stack[-1] = (F_MILL, p, left - 1)
    else:
        s.stack.pop()


MILL_BUILDINGS = (PALACE, BISHOPRIC)


# -- cubes on events (Archer, Chivalry, Diplomat) ----------------------------------------------
def apply_target(s: TroyesState, pos: int) -> None:
    _kind, p, cubes, archer = s.stack[-1]
    card = s.queue[pos]
    s.emit("card_cube", p, target=card)
    add_cube(s, pos, p)
    s.stack[-1] = (F_TARGET, p, cubes - 1, archer)
    archer_rolls(s)


def archer_rolls(s: TroyesState) -> None:
    """Roll for the Archer's uses until one earns a cube (or none is left)."""
    _kind, p, cubes, archer = s.stack[-1]
    at_least = s.comp.fx["archer"]["at_least"]
    while cubes == 0 and archer > 0:
        value = roll(s)
        archer -= 1
        hit = value >= at_least
        s.emit("archer", p, value=value, hit=hit)
        if hit:
            cubes = 1
    if cubes == 0:
        s.stack.pop()
    else:
        s.stack[-1] = (F_TARGET, p, cubes, archer)


# -- effects without a choice --------------------------------------------------------------
def _gain(deniers: str = "", vp: str = "", influence: str = "") -> Callable[..., None]:
    def effect(s: TroyesState, p: int, uses: int, key: str) -> None:
        fx = s.comp.fx[key]
        if deniers:
            s.money[p] += uses * fx[deniers]
        if vp:
            s.vp[p] += uses * fx[vp]
        if influence:
            gain_influence(s, p, uses * fx[influence])
    return effect


def _procession(s: TroyesState, p: int, uses: int, key: str) -> None:
    counts = [sum(s.dice[q * 18:q * 18 + 18]) for q in range(s.players)]
    best = max(counts)
    if best == 0:
        return
    for q in range(s.players):
        if counts[q] == best:
            s.vp[q] += uses * s.comp.fx[key]["vp"]


def _joust(s: TroyesState, p: int, uses: int, key: str) -> None:
    """Only the activator's own highest total pays; tied for highest, every tied player scores.
    No least total is named (the Procession names one), so a tie at 0 is a tie too."""
    totals = [sum((v + 1) * s.dice[q * 18 + RED * 6 + v] for v in range(6)) for q in range(s.players)]
    best = max(totals)
    if totals[p] < best:
        return
    for q in range(s.players):
        if totals[q] == best:
            s.vp[q] += uses * s.comp.fx[key]["vp"]


def _glassblower(s: TroyesState, p: int, uses: int, key: str) -> None:
    fx = s.comp.fx[key]
    s.vp[p] += uses * fx["vp"] * (own_cathedral_cubes(s, p) // fx["cubes"])


def _captain(s: TroyesState, p: int, uses: int, key: str) -> None:
    with_cube = sum(1 for cubes in s.ev_cubes if p in cubes)
    s.vp[p] += uses * s.comp.fx[key]["vp"] * with_cube


def _tax_collector(s: TroyesState, p: int, uses: int, key: str) -> None:
    each = s.comp.fx[key]["deniers"]
    for q in range(s.players):
        if q == p:
            continue
        owed = uses * each * citizens_in(s, q, CITY_HALL)
        paid = min(owed, s.money[q])
        s.money[q] -= paid
        s.money[p] += paid
    s.money[p] += uses * each * citizens_in(s, NEUTRAL, CITY_HALL)


def _baker(s: TroyesState, p: int, uses: int, key: str) -> None:
    yellow = sum(s.dice[d * 18 + YELLOW * 6 + v] for d in range(5) for v in range(6))
    s.money[p] += uses * s.comp.fx[key]["deniers"] * yellow


def _banquet(s: TroyesState, p: int, uses: int, key: str) -> None:
    most = max(sum(s.dice[d * 18 + RED * 6 + v] for v in range(6)) for d in range(5))
    s.vp[p] += uses * s.comp.fx[key]["vp"] * most


_IMMEDIATE: dict[str, Callable[..., None]] = {
    "merchant": _gain(deniers="deniers"),
    "goldsmith": _gain(deniers="deniers", vp="vp"),
    "sculptor": _gain(vp="vp"),
    "pilgrimage": _gain(vp="vp"),
    "hunting": _gain(influence="influence"),
    "mercenary": _gain(deniers="deniers"),
    "procession": _procession,
    "joust": _joust,
    "glassblower": _glassblower,
    "captain": _captain,
    "tax_collector": _tax_collector,
    "baker": _baker,
    "banquet": _banquet,
}

