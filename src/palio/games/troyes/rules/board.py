"""Pieces on the board: influence, VP and money limits, seeded rolls, citizens in the three
buildings (rows, the shift and the expulsion rule), where a citizen can come from, and the
cathedral.

Rulebook sections: 注意事項 (rounding down, VP never below 0, influence at most 20, finite
citizens), アクション「建物への市民駒の配置」 and [RB] "Place a citizen on a principal building".
"""

from __future__ import annotations

from random import Random
from typing import TYPE_CHECKING

from palio.core.rng import derive_bits
from palio.games.troyes.state import NEUTRAL

if TYPE_CHECKING:
    from palio.games.troyes.state import TroyesState

# citizen sources (what the Source action names), decoded
SRC_SUPPLY, SRC_RESERVE, SRC_SPACE, SRC_LYING, SRC_CARD = range(5)


# -- tracks --------------------------------------------------------------------------------
def gain_influence(s: TroyesState, p: int, n: int) -> int:
    """Add influence up to the maximum (what is gained beyond 20 is lost); the gain made."""
    before = s.influence[p]
    s.influence[p] = min(s.comp.influence_max, before + n)
    return s.influence[p] - before


def lose_vp(s: TroyesState, p: int, n: int) -> int:
    """Take VP away, never below 0 (a player with no VP loses nothing); the loss made."""
    before = s.vp[p]
    s.vp[p] = max(0, before - n)
    return before - s.vp[p]


def pay_what_you_can(s: TroyesState, p: int, amount: int) -> bool:
    """Pay ``amount`` deniers to the bank, or everything held; True if paid in full."""
    if s.money[p] >= amount:
        s.money[p] -= amount
        return True
    s.money[p] = 0
    return False


def penalty(s: TroyesState, p: int, reason: str, **params: object) -> None:
    """The 2 VP loss for what a player cannot pay or do."""
    lost = lose_vp(s, p, s.comp.penalty_vp)
    s.emit("penalty", p, reason=reason, vp=lost, **params)


def roll(s: TroyesState) -> int:
    """One die roll from the state's seed (a new stream per roll)."""
    s.rolls += 1
    return d6(derive_bits(s.seed, "roll", s.rolls))


def d6(rng: Random) -> int:
    """A die's value (``d6s``)."""
    return d6s(rng, 1)[0]


def d6s(rng: Random, n: int) -> list[int]:
    """``n`` dice values, each drawn exactly as ``rng.randint(1, 6)`` and
    ``rng.randrange(1, 7)`` draw it (CPython's ``_randbelow_with_getrandbits``: three bits,
    drawn again while they make 6 or 7; ``tests/troyes/test_dice.py`` checks that they agree),
    without their Python calls, and one call for all of a stream's dice."""
    draw = rng.getrandbits
    values = []
    for _ in range(n):
        r = draw(3)
        while r >= 6:
            r = draw(3)
        values.append(r + 1)
    return values


# -- buildings -----------------------------------------------------------------------------
def _row_after(row: list[int], owner: int) -> tuple[list[int], int]:
    """The row once ``owner`` enters its first space, and the owner pushed out (-1 none)."""
    if -1 in row:
        e = row.index(-1)
        return [owner, *row[:e], *row[e + 1:]], -1
    return [owner, *row[:-1]], row[-1]


def insert_citizen(s: TroyesState, building: int, value: int, owner: int) -> int:
    """Place ``owner``'s citizen by the die ``value``; the expelled owner (-1 none)."""
    c = s.comp
    _b, _values, first, n = c.rows[c.row_of_value[building][value]]  # the row of the value
    row, out = _row_after(s.spaces[first:first + n], owner)
    s.spaces[first:first + n] = row
    if out != -1:
        s.lying[building] |= 1 << out
    return out


def can_insert(s: TroyesState, building: int, value: int, owner: int) -> bool:
    """Whether the placement expels nobody or a colour not yet lying on this building."""
    c = s.comp
    _b, _values, first, n = c.rows[c.row_of_value[building][value]]  # the row of the value
    return _row_takes(s.spaces[first:first + n], s.lying[building])


def _row_takes(row: list[int], lying: int) -> bool:
    """Whether a citizen may enter this row: it has a gap, or the citizen pushed out is of a
    colour not yet lying on the building (``lying``: its bitmask of colours)."""
    return -1 in row or not (lying >> row[-1]) & 1


def sources(s: TroyesState, p: int) -> list[tuple[int, int]]:
    """Every place a citizen of ``p`` can come from: (kind, where)."""
    out: list[tuple[int, int]] = []
    if s.supply[p] > 0:
        out.append((SRC_SUPPLY, 0))
    elif s.reserve[p] > 0 and s.influence[p] >= s.comp.citizen_cost:
        out.append((SRC_RESERVE, 0))
    spaces = s.spaces
    at = -1
    for _ in range(spaces.count(p)):  # list.count and list.index: no Python loop over spaces
        at = spaces.index(p, at + 1)
        out.append((SRC_SPACE, at))
    for b in range(3):
        if (s.lying[b] >> p) & 1:
            out.append((SRC_LYING, b))
    out.extend(_CARD_SOURCES[tradesman_slots(s, p)])
    return out


# the tradesmen's sources, (SRC_CARD, slot), per bitmask of the card slots staffed
_CARD_SOURCES = tuple(tuple((SRC_CARD, k) for k in range(9) if (mask >> k) & 1) for mask in range(512))


def has_tradesman(s: TroyesState, p: int, slot: int) -> bool:
    """Whether ``p`` has a tradesman on the card in ``slot`` (on a space or lying on it)."""
    width = s.comp.max_trade_spaces
    return p in s.trade[slot * width:(slot + 1) * width] or bool((s.extra[slot] >> p) & 1)


def tradesman_slots(s: TroyesState, p: int) -> int:
    """Bitmask of the card slots where ``p`` has a tradesman (``has_tradesman`` for all)."""
    trade = s.trade
    found = 0
    if p in trade:
        width = s.comp.max_trade_spaces
        at = -1
        for _ in range(trade.count(p)):  # list.count and list.index: no Python loop over spaces
            at = trade.index(p, at + 1)
            found |= 1 << (at // width)
    if any(s.extra):  # tradesmen lying on a card's illustration (rare)
        bit = 1 << p
        for slot, lying in enumerate(s.extra):
            if lying & bit:
                found |= 1 << slot
    return found


def citizen_at_hand(s: TroyesState, p: int) -> bool:
    """Whether ``p`` has a citizen in the supply or anywhere on the board (no influence
    needed to take it)."""
    return citizen_off_cards(s, p) or p in s.trade or any((x >> p) & 1 for x in s.extra)


def citizen_off_cards(s: TroyesState, p: int) -> bool:
    """``citizen_at_hand`` but for the tradesmen on cards: in the supply, on a building space
    or lying on a building."""
    lying = s.lying  # one bitmask of colours per building, three buildings
    return s.supply[p] > 0 or p in s.spaces or bool((lying[0] | lying[1] | lying[2]) >> p & 1)


def has_source(s: TroyesState, p: int) -> bool:
    """Whether ``p`` can take a citizen from anywhere (the general supply included)."""
    return citizen_at_hand(s, p) or (s.reserve[p] > 0 and s.influence[p] >= s.comp.citizen_cost)


def take_from(s: TroyesState, p: int, kind: int, where: int) -> None:
    """Take ``p``'s citizen from a source (the board keeps the gap it leaves)."""
    if kind == SRC_SUPPLY:
        s.supply[p] -= 1
    elif kind == SRC_RESERVE:
        s.reserve[p] -= 1
        s.influence[p] -= s.comp.citizen_cost
    elif kind == SRC_SPACE:
        s.spaces[where] = -1
    elif kind == SRC_LYING:
        s.lying[where] &= ~(1 << p)
    else:
        width = s.comp.max_trade_spaces
        base = where * width
        for i in range(base, base + width):
            if s.trade[i] == p:
                s.trade[i] = -1
                return
        s.extra[where] &= ~(1 << p)


def placement_ok(s: TroyesState, p: int, building: int, value: int, kind: int, where: int) -> bool:
    """Whether ``p`` may place into ``building`` by ``value`` with the citizen from this source:
    the expulsion rule holds once the citizen has left its place, and the move changes
    something (a citizen is never moved onto the place it already holds)."""
    c = s.comp
    _b, _values, first, n = c.rows[c.row_of_value[building][value]]  # the row of the value
    row = s.spaces[first:first + n]
    lying = s.lying[building]
    if kind == SRC_SPACE and first <= where < first + n:
        row[where - first] = -1
    elif kind == SRC_LYING and where == building:
        lying &= ~(1 << p)
    new, out = _row_after(row, p)
    if out != -1 and (lying >> out) & 1:
        return False
    if kind == SRC_SPACE and first <= where < first + n:
        return new != s.spaces[first:first + n]
    return True


def placement_sources(s: TroyesState, p: int, building: int, value: int,
                      found: list[tuple[int, int]]) -> list[tuple[int, int]]:
    """The sources among ``found`` from which ``p`` may place into ``building`` by ``value``
    (those ``placement_ok`` accepts). A source that leaves the row and the expelled citizens
    lying on the building as they are gets one answer, worked out once."""
    c = s.comp
    _b, _values, first, n = c.rows[c.row_of_value[building][value]]  # the row of the value
    alike: bool | None = None  # the answer for a source elsewhere
    out = []
    for kind, where in found:
        if (kind == SRC_SPACE and first <= where < first + n) or \
                (kind == SRC_LYING and where == building):
            ok = placement_ok(s, p, building, value, kind, where)
        else:
            if alike is None:
                alike = placement_ok(s, p, building, value, kind, where)
            ok = alike
        if ok:
            out.append((kind, where))
    return out


def citizen_off_board(s: TroyesState, p: int) -> bool:
    """Whether ``p`` has a citizen that leaves no gap on a building when it is placed: in the
    personal supply, in the general supply (for 2 influence) or a tradesman on a card."""
    return s.supply[p] > 0 or (s.reserve[p] > 0 and s.influence[p] >= s.comp.citizen_cost) \
        or p in s.trade or (any(s.extra) and _lies_on_a_card(s, p))


def _lies_on_a_card(s: TroyesState, p: int) -> bool:
    """Whether a tradesman of ``p`` lies on a card's illustration. (A loop in a function of
    its own: a generator reading ``p`` would make it a cell, made at every call of the
    function that holds it.)"""
    for lying in s.extra:  # noqa: SIM110 - any() of a generator: a cell and a generator made
        if (lying >> p) & 1:
            return True
    return False


def placement_possible(s: TroyesState, p: int, building: int, value: int, off_board: bool) -> bool:
    """Whether some source lets ``p`` place into ``building`` by ``value``: some source of
    ``sources`` that ``placement_ok`` accepts, found without listing them. A citizen from
    anywhere but this row and the citizens lying on this building leaves both as they are,
    so it may enter when ``can_insert`` holds (``off_board``: ``citizen_off_board``); p's
    citizens in the row or lying on the building are judged one by one."""
    if not 1 <= value <= 6:
        return False
    c = s.comp
    _b, _values, first, n = c.rows[c.row_of_value[building][value]]  # the row of the value
    spaces = s.spaces
    row = spaces[first:first + n]
    lying = s.lying[building]
    elsewhere = off_board or spaces.count(p) > row.count(p) or _lies_elsewhere(s, p, building)
    if elsewhere and _row_takes(row, lying):
        return True
    if p in row:  # loops, not generators, here and below (see _lies_on_a_card)
        for i in range(n):
            if row[i] == p and placement_ok(s, p, building, value, SRC_SPACE, first + i):
                return True
    return bool((lying >> p) & 1) and placement_ok(s, p, building, value, SRC_LYING, building)


def _lies_elsewhere(s: TroyesState, p: int, building: int) -> bool:
    """Whether a citizen of ``p`` lies expelled on another building than ``building``."""
    for b in range(3):  # noqa: SIM110 - as in _lies_on_a_card
        if b != building and (s.lying[b] >> p) & 1:
            return True
    return False


def citizens_in(s: TroyesState, owner: int, building: int) -> int:
    """Citizens of ``owner`` standing in ``building`` (expelled ones lying on it excluded)."""
    spaces = s.spaces
    return list(map(spaces.__getitem__, s.comp.building_spaces[building])).count(owner)


def neutral_in_play(s: TroyesState) -> int:
    return s.comp.neutral_citizens - s.neutral_reserve


def place_neutral(s: TroyesState, building: int, value: int) -> str:
    """An event puts a gray citizen into ``building`` by ``value``: 'placed', 'none_left'
    (all gray citizens are in play: the event is ignored) or 'blocked' (it would expel a
    colour already lying there, which nobody may do)."""
    if s.neutral_reserve <= 0:
        return "none_left"
    if not can_insert(s, building, value, NEUTRAL):
        return "blocked"
    s.neutral_reserve -= 1
    insert_citizen(s, building, value, NEUTRAL)
    return "placed"


# -- cathedral -----------------------------------------------------------------------------
def cathedral_free_level(s: TroyesState, column: int, skip: int = 0) -> int:
    """The lowest empty level of a column (0-based) after ``skip`` more cubes, or -1."""
    c = s.comp
    cath = s.cathedral
    for level in range(c.levels):
        if cath[level * c.columns + column] == -1:
            level += skip
            return level if level < c.levels else -1
    return -1


def cathedral_room(s: TroyesState, column: int) -> int:
    """How many more cubes column ``column`` (0-based) can take."""
    return s.cathedral[column::s.comp.columns].count(-1)  # the column's space on each level


def own_cathedral_cubes(s: TroyesState, p: int) -> int:
    return s.cathedral.count(p)
