"""Groups of dice: which dice an action may use, what they are worth, what they cost, and
whether a partly formed group can still be completed (so only completable steps are offered).

Rulebook: フェイズ4「アクション」 (a group of 1-3 dice of one colour from any districts; other
players' dice bought at 2/4/6 each by the group's size, neutral dice paid to the bank), the
activity cards' delayed effects (one cube modifies one action) and [RB] "Phase 4: Actions".

A die is named by its index ``district*18 + colour*6 + value-1`` (district 4 = neutral); the
dice of a group being formed are taken out of their districts, so the districts always hold
exactly the dice still free.
"""

from __future__ import annotations

from bisect import bisect_left
from itertools import compress
from operator import itemgetter
from typing import TYPE_CHECKING

from palio.games.troyes.components import (
    ANY_COLOUR,
    BUILDING_COLOUR,
    CITY_HALL,
    KEPT_LIMIT,
    PALACE,
    RED,
    WHITE,
    YELLOW,
    keep,
)
from palio.games.troyes.rules.board import (
    cathedral_room,
    citizen_off_board,
    has_tradesman,
    placement_possible,
)
from palio.games.troyes.rules.cards import first_use_prices
from palio.games.troyes.state import G_CARD, G_CATHEDRAL, G_EVENT, G_FARM, G_PLACE, MOD_NONE

if TYPE_CHECKING:
    from collections.abc import Iterable

    from palio.games.troyes.components import Components
    from palio.games.troyes.state import TroyesState

ALL = 0b111
NEED_SUM, NEED_ANY, NEED_CATHEDRAL, NEED_PLACE = range(4)

MAX_GROUP = 3  # the most dice in a group (Ctx.max_size)
NO_GROUP = 1 << 30  # the price of a group that cannot be formed
# bounds of the caches kept per components set (measured: a TurnRules about 5 KB, so about
# 5 MB at its bound; a FreeDice about 800 bytes with its prices, so about 16 MB at its bound)
TURN_RULES_KEPT = 1_000  # TurnRules by delayed cards held
FREE_DICE_KEPT = 20_000  # FreeDice by colours and dice counts
LEAST_PRICES_KEPT = 20_000  # prices of groups toward a total by rules and best dice (measured
# about 130 bytes each, so about 3 MB at the bound)

# faces (colour*6 + value-1) of the colours in a bitmask, each colour from its highest value
_FACES = {mask: tuple(colour * 6 + v for colour in range(3) if (mask >> colour) & 1
                      for v in range(5, -1, -1)) for mask in range(8)}
# faces (colour*6 + value-1) of the colours in a bitmask, highest value first
_FACES_BY_VALUE = {mask: tuple(sorted(_FACES[mask], key=lambda face: -(face % 6)))
                   for mask in range(8)}
# the faces whose counts name the free dice of a colour bitmask (all 18 for several colours)
_COUNTED = {mask: (mask.bit_length() - 1) * 6 if mask in (1, 2, 4) else -1 for mask in range(8)}


_PRICE_CLASSES: dict[tuple, int] = {}  # Ctx.price_class by what it stands for


class Ctx:
    """The rules for one group: allowed colours (bitmask), one white die counted as ``single``
    dice (Monk, Templar, Prior; 0 otherwise), the most dice, what each die is worth (``add``
    to its value, or ``set5``), a bonus on the total (Blacksmith), Tithe's free dice, and
    what the group must achieve (``need``: a total of at least ``arg``, anything, room in the
    cathedral, or a legal placement in building ``arg``)."""

    __slots__ = ("colours", "single", "max_size", "add", "set5", "bonus", "tithe", "need", "arg",
                 "floor", "by_price", "searched", "values", "price_class")

    def __init__(self, colours: int, need: int, arg: int = 0, *, single: int = 0,
                 max_size: int = MAX_GROUP, add: int = 0, set5: int = 0, bonus: int = 0,
                 tithe: bool = False) -> None:
        self.colours = colours
        self.single = single
        self.max_size = 1 if single else max_size
        self.add = add
        self.set5 = set5
        self.bonus = bonus
        self.tithe = tithe
        self.need = need
        self.arg = 0 if need == NEED_ANY else arg  # anything at all: no target to read
        # the least total of dice a group needs (NEED_SUM, NEED_ANY), the bonus counted
        self.floor = max(0, arg - bonus) if need == NEED_SUM else 0
        # whether a group from nothing is judged by the best total at each price alone
        self.by_price = need in (NEED_SUM, NEED_ANY) and not tithe
        # Tithe toward a total: prices depend on the districts, so groups are searched
        self.searched = need in (NEED_SUM, NEED_ANY) and tithe
        self.values = tuple(self.value(face) for face in range(18))  # value() without a call
        # a number for everything that least_price reads of these rules, whatever their
        # colours: the key of their prices in a view of the free dice and in
        # Components.kept_least_prices, shared by rules alike (ints, not the object, so that
        # the garbage collector need not visit what those caches hold)
        self.price_class = _PRICE_CLASSES.setdefault(
            (need == NEED_PLACE, self.values[:6], self.max_size, self.floor, bool(single), tithe),
            len(_PRICE_CLASSES))

    def key(self) -> tuple:
        """Everything that tells these rules apart (rules alike share one object)."""
        return (self.colours, self.single, self.max_size, self.add, self.set5, self.bonus,
                self.tithe, self.need, self.arg)

    def value(self, face: int) -> int:
        if self.set5:
            return self.set5
        v = face % 6 + 1
        if self.single:
            return v * self.single
        return v + self.add


def need_colour(c: Components, kind: int, key: int) -> int:
    """The colour of dice an action takes (ANY_COLOUR for Pilgrimage); ``key`` is the card id
    for a card, else the action's target."""
    if kind == G_CARD:
        card = c.cards[key]
        return ANY_COLOUR if card[0] == "pilgrimage" else card[1]
    if kind == G_EVENT:
        return c.events[key][4]
    if kind == G_PLACE:
        return BUILDING_COLOUR[key]
    return WHITE if kind == G_CATHEDRAL else YELLOW


def hiring(s: TroyesState, target: int, p: int) -> bool:
    """Is ``p`` hiring the tradesman of card slot ``target`` with this activation (just hired,
    or about to be: it has none there yet)?"""
    return s.hiring == target or not has_tradesman(s, p, target)


def _need(c: Components, kind: int, key: int, hires: bool) -> tuple[int, int]:
    if kind == G_CARD:
        # at least one use only when the tradesman is hired (職人を置いたとき...最低1回は);
        # a card already staffed may be activated for nothing (burning dice)
        divisor = c.cards[key][4]
        return (NEED_SUM if hires else NEED_ANY), divisor
    if kind == G_EVENT:
        # a fight need not earn a cube: the rulebook asks for at least one result only when a
        # tradesman is hired, so dice may be spent on an event for nothing (burning dice)
        return NEED_ANY, c.events[key][5]
    if kind == G_CATHEDRAL:
        return NEED_CATHEDRAL, 0
    if kind == G_PLACE:
        return NEED_PLACE, key
    return NEED_ANY, 0


def make_ctx(s: TroyesState, kind: int, target: int, mod: int, p: int) -> Ctx | None:
    """The group rules of an action with the cube of delayed card slot ``mod`` (MOD_NONE: no
    cube) for ``p``; ``None`` where that cube cannot modify this action. They depend only on
    the cards involved and whether ``p`` is hiring a tradesman (:func:`hiring`): see
    :func:`kept_ctx`."""
    mod_card = MOD_NONE if mod == MOD_NONE else s.slot_card[mod]
    if kind == G_CARD:
        key = (kind, s.slot_card[target], mod_card, hiring(s, target, p))
    else:
        key = (kind, target, mod_card, False)
    found = s.comp.kept_ctx.get(key, False)  # kept_ctx's answer, kept already (None: no rules)
    return kept_ctx(s.comp, *key) if found is False else found


def kept_ctx(c: Components, kind: int, key: int, mod_card: int, hires: bool) -> Ctx | None:
    """The group rules of an action with the cube of delayed card ``mod_card`` (a card id,
    or MOD_NONE): ``key`` is the card id for a card (``hires``: whether this activation hires
    its tradesman), else the action's target (``hires`` False). Kept per components set."""
    found = c.kept_ctx.get((kind, key, mod_card, hires), False)  # None: no such rules
    if found is False:
        found = _make_ctx(c, kind, key, mod_card, _need(c, kind, key, hires))
        if found is not None:
            # one object for rules alike (cards of one colour and divisor, events of one
            # colour...), so that what a position works out per rules (Feasible) serves them all
            found = keep(c.kept_ctx_alike, found.key(), found, KEPT_LIMIT)
        found = keep(c.kept_ctx, (kind, key, mod_card, hires), found, KEPT_LIMIT)
    return found


def _make_ctx(c: Components, kind: int, target: int, mod_card: int,
              needed: tuple[int, int]) -> Ctx | None:
    """The group rules with the cube of delayed card ``mod_card`` (a card id, or MOD_NONE);
    ``target`` is the card id for a card."""
    colour = need_colour(c, kind, target)
    need, arg = needed
    size = 1 if kind == G_PLACE else MAX_GROUP
    plain = ALL if colour == ANY_COLOUR else 1 << colour
    if mod_card == MOD_NONE:
        return Ctx(plain, need, arg, max_size=size)
    key = c.cards[mod_card][0]
    fx = c.fx[key]
    red_need = colour in (RED, ANY_COLOUR)
    yellow_need = colour in (YELLOW, ANY_COLOUR)
    sums = kind in (G_CARD, G_EVENT)
    if key == "blacksmith":  # not for placing in the Palace
        return Ctx(1 << RED, need, arg, bonus=fx["bonus"]) if sums and red_need else None
    if key == "militiaman":  # yellow dice used as red ones
        if colour == RED and (sums or kind == G_PLACE):
            return Ctx(1 << YELLOW, need, arg, max_size=size)
        return None
    if key == "tithe":
        if yellow_need and (sums or kind == G_FARM or (kind == G_PLACE and target == CITY_HALL)):
            return Ctx(1 << YELLOW, need, arg, max_size=size, tithe=True)
        return None
    if key == "monk":
        return Ctx(1 << WHITE, need, arg, single=fx["dice"]) if yellow_need and (sums or kind == G_FARM) else None
    if key == "priest":  # not for placing in City Hall
        return Ctx(1 << YELLOW, need, arg, add=fx["bonus"]) if yellow_need and (sums or kind == G_FARM) else None
    if key == "apprenticeship":  # not Bishopric, City Hall or cathedral; any colours
        if sums or kind == G_FARM:
            return Ctx(ALL, need, arg, set5=fx["value"])
        if kind == G_PLACE and target == PALACE:
            return Ctx(1 << RED, need, arg, max_size=1, set5=fx["value"])
        return None
    if key == "confession":  # not Bishopric, City Hall or cathedral
        if sums or kind == G_FARM:
            return Ctx(plain, need, arg, add=fx["bonus"])
        if kind == G_PLACE and target == PALACE:
            return Ctx(1 << RED, need, arg, max_size=1, add=fx["bonus"])
        return None
    if key == "templar":
        return Ctx(1 << WHITE, need, arg, single=fx["dice"]) if red_need and sums else None
    if key == "prior":
        white_need = colour in (WHITE, ANY_COLOUR)
        if (white_need and sums) or kind == G_CATHEDRAL:
            return Ctx(1 << WHITE, need, arg, single=fx["dice"])
        return None
    return None


# -- prices --------------------------------------------------------------------------------
def group_cost(s: TroyesState, p: int, ctx: Ctx, dice: list[int] | tuple[int, ...]) -> int:
    """Deniers owed for the foreign dice of a group of these dice."""
    c = s.comp
    price = c.single_die_price if ctx.single else c.die_prices[len(dice) - 1] if dice else 0
    total = 0
    free: set[int] = set()
    for d in dice:
        district = d // 18
        if district == p:
            continue
        if ctx.tithe and not ctx.single and district not in free:
            free.add(district)
            continue
        total += price
    return total


def payments(s: TroyesState, p: int, ctx: Ctx, dice: tuple[int, ...]) -> list[tuple[int, int]]:
    """(district, deniers) paid for each foreign die of the group, in order."""
    c = s.comp
    price = c.single_die_price if ctx.single else c.die_prices[len(dice) - 1]
    out = []
    free: set[int] = set()
    for d in dice:
        district = d // 18
        if district == p:
            continue
        if ctx.tithe and district not in free:
            free.add(district)
            out.append((district, 0))
            continue
        out.append((district, price))
    return out


# -- completion ----------------------------------------------------------------------------

def _pools(s: TroyesState, p: int, ctx: Ctx) -> tuple[list[int], list[int]]:
    """Values (as this group counts them) of the free dice of allowed colours: own, foreign,
    highest first."""
    own: list[int] = []
    foreign: list[int] = []
    dice = s.dice
    values = ctx.values
    mine = p * 18
    for face in _FACES[ctx.colours]:
        n = dice[mine + face]
        if n:
            own.extend([values[face]] * n)
        # every district's dice of this face but p's own
        n = dice[face] + dice[18 + face] + dice[36 + face] + dice[54 + face] + dice[72 + face] - n
        if n:
            foreign.extend([values[face]] * n)
    if ctx.colours not in (1, 2, 4):  # several colours: merge (a single colour is sorted)
        own.sort(reverse=True)
        foreign.sort(reverse=True)
    return own, foreign


def _sum_ok(ctx: Ctx, total: int) -> bool:
    return ctx.need == NEED_ANY or total + ctx.bonus >= ctx.arg


def completable(s: TroyesState, p: int, ctx: Ctx, chosen: tuple[int, ...], budget: int) -> bool:
    """Whether some group containing ``chosen`` (possibly just it) meets the need within the
    budget. The chosen dice are already out of their districts."""
    if ctx.need in (NEED_SUM, NEED_ANY):
        if ctx.tithe:
            return _tithe_completable(s, p, ctx, chosen, budget)
        best = _best_sum(s, p, ctx, chosen, budget, *_pools(s, p, ctx))
        return best >= 0 and _sum_ok(ctx, best)
    return bool(chosen) or bool(addable(s, p, ctx, chosen, budget, first=True))


def _best_sum(s: TroyesState, p: int, ctx: Ctx, chosen: tuple[int, ...], budget: int,
              own: list[int], foreign: list[int]) -> int:
    """The highest total a group containing ``chosen`` can reach within the budget, its own
    dice taken from ``own`` and the others from ``foreign`` (both highest first); -1 if no
    group is affordable."""
    c = s.comp
    n_chosen = len(chosen)
    f_chosen = s_chosen = 0
    values = ctx.values
    for d in chosen:
        if d // 18 != p:
            f_chosen += 1
        s_chosen += values[d % 18]
    room = ctx.max_size - n_chosen
    own_prefix = [0]
    for v in own[:room]:
        own_prefix.append(own_prefix[-1] + v)
    for_prefix = [0]
    for v in foreign[:room]:
        for_prefix.append(for_prefix[-1] + v)
    n_own, n_for = len(own_prefix) - 1, len(for_prefix) - 1
    prices = c.die_prices
    best = -1
    for extra in range(0 if n_chosen else 1, room + 1):
        price = c.single_die_price if ctx.single else prices[n_chosen + extra - 1]
        for f in range(max(0, extra - n_own), min(extra, n_for) + 1):
            if (f_chosen + f) * price > budget:
                break  # more foreign dice only cost more
            total = s_chosen + own_prefix[extra - f] + for_prefix[f]
            if total > best:
                best = total
    return best


_INDICES = {mask: tuple(d for d in range(90) if (mask >> (d % 18 // 6)) & 1) for mask in range(8)}


# each bitmask's dice counts in one call (itemgetter), for compress: no Python loop over 90
_COUNTS_OF = {mask: itemgetter(*_INDICES[mask]) for mask in range(1, 8)}


def _kinds(s: TroyesState, ctx: Ctx) -> list[int]:
    """Die indices with at least one free die of an allowed colour."""
    return list(compress(_INDICES[ctx.colours], _COUNTS_OF[ctx.colours](s.dice)))


def _tithe_completable(s: TroyesState, p: int, ctx: Ctx, chosen: tuple[int, ...], budget: int) -> bool:
    """Tithe makes prices depend on districts: search the (few) yellow dice directly."""
    kinds = _kinds(s, ctx)
    dice = s.dice

    def search(group: tuple[int, ...], start: int) -> bool:
        if group and group_cost(s, p, ctx, group) <= budget and \
                _sum_ok(ctx, sum(ctx.value(d % 18) for d in group)):
            return True
        if len(group) >= ctx.max_size:
            return False
        for k in range(start, len(kinds)):
            d = kinds[k]
            if group.count(d) - chosen.count(d) < dice[d] and search((*group, d), k):
                return True
        return False

    return search(chosen, 0)


def addable(s: TroyesState, p: int, ctx: Ctx, chosen: tuple[int, ...], budget: int,
            first: bool = False) -> list[int]:
    """The dice that may join the group next (each leaves the group completable); with
    ``first``, only the first such die (enough to know that there is one)."""
    if len(chosen) >= ctx.max_size:
        return []
    if ctx.by_price:
        return addable_to_sum(s, p, ctx, chosen, budget, first)
    out = []
    room: dict[int, int] = {}  # per cathedral column, and per placement value, asked once
    placeable: dict[int, bool] = {}
    off_board = None  # citizen_off_board, asked once
    affordable: dict[int, bool] = {}  # per district: the price depends on whose die it is
    for d in _kinds(s, ctx):
        group = (*chosen, d)
        if ctx.need in (NEED_CATHEDRAL, NEED_PLACE):
            cheap = affordable.get(d // 18)
            if cheap is None:
                cheap = affordable[d // 18] = group_cost(s, p, ctx, group) <= budget
            if not cheap:
                continue
        if ctx.need == NEED_CATHEDRAL:
            column = d % 6
            # this die and the chosen ones of its column (no generator reading locals: it
            # would make them cells, made at every call)
            need_room = (ctx.single or 1) * (1 + [x % 6 for x in chosen].count(column))
            free = room.get(column)
            if free is None:
                free = room[column] = cathedral_room(s, column)
            if free < need_room:
                continue
        elif ctx.need == NEED_PLACE:
            value = ctx.values[d % 18]
            ok = placeable.get(value)
            if ok is None:
                if off_board is None:
                    off_board = citizen_off_board(s, p)
                ok = placeable[value] = placement_possible(s, p, ctx.arg, value, off_board)
            if not ok:
                continue
        else:  # Tithe
            s.dice[d] -= 1
            try:
                ok = _tithe_completable(s, p, ctx, group, budget)
            finally:
                s.dice[d] += 1
            if not ok:
                continue
        out.append(d)
        if first:
            break
    return out


def addable_to_sum(s: TroyesState, p: int, ctx: Ctx, chosen: tuple[int, ...], budget: int,
                    first: bool) -> list[int]:
    """``addable`` for a total (or anything) at the usual prices: a die joins on the same
    answer as every die alike (own or not, and its worth where a total is needed)."""
    kinds = list(compress(_INDICES[ctx.colours], _COUNTS_OF[ctx.colours](s.dice)))  # _kinds
    if not kinds:
        return []
    c = s.comp
    # the group as it stands with one more die: its price per bought die, its dice bought
    price = c.single_die_price if ctx.single else c.die_prices[len(chosen)]
    bought = 0
    for x in chosen:
        bought += x // 18 != p
    if ctx.need == NEED_ANY:
        # any group will do and more dice only cost more, so a die joins when the group
        # with it is affordable: p's own (which lie together in kinds) when the group is,
        # every die when one more bought die is
        if (bought + 1) * price <= budget:
            out = kinds
        elif bought * price <= budget:
            lo = bisect_left(kinds, p * 18)
            out = kinds[lo:bisect_left(kinds, p * 18 + 18, lo)]
        else:
            return []
        return out[:1] if first else out
    values = ctx.values
    total = group_total(ctx, chosen)  # the bonus counted
    pools: list = []  # the free dice's values, own and others', found on first need
    alike: dict[int, bool] = {}  # per die alike: its worth, and whether it is p's own
    out = []
    for d in kinds:
        mine = d // 18 == p
        value = values[d % 18]
        key = value * 2 + mine
        ok = alike.get(key)
        if ok is None:
            if (bought + (not mine)) * price <= budget and total + value >= ctx.arg:
                ok = True  # that group itself will do
            else:
                ok = _completes_with(s, p, ctx, chosen, budget, d, mine, value, pools)
            alike[key] = ok
        if ok:
            out.append(d)
            if first:
                break
    return out


def _completes_with(s: TroyesState, p: int, ctx: Ctx, chosen: tuple[int, ...], budget: int,
                    d: int, mine: bool, value: int, pools: list) -> bool:
    """Whether a group of ``chosen`` and die ``d`` (``mine``: ``p``'s own, worth ``value``)
    with more dice meets the need within the budget (``addable_to_sum``). ``pools``: the
    free dice's values, own and others' (``_pools``), filled here on first need."""
    if not pools:
        pools.extend(_pools(s, p, ctx))
    own, foreign = pools
    if mine:  # the pools without this die
        own = own[:]
        own.remove(value)
    else:
        foreign = foreign[:]
        foreign.remove(value)
    best = _best_sum(s, p, ctx, (*chosen, d), budget, own, foreign)
    return best >= 0 and _sum_ok(ctx, best)


def group_total(ctx: Ctx, chosen: tuple[int, ...]) -> int:
    # loops rather than comprehensions over a group's few dice: a comprehension is a call
    values = ctx.values
    total = ctx.bonus
    for d in chosen:
        total += values[d % 18]
    return total


# A view of the free dice (``free_dice_view``) is a plain dict of ints and tuples of ints,
# never an object of a class: the garbage collector stops tracking such dicts and tuples, and
# the views kept per components set (up to FREE_DICE_KEPT of them) would otherwise be visited
# at every full collection (measured after 3 CPU-s of random three-player games, 15,000 views
# kept: a full collection took 45-50 ms with them as objects, about 9 ms as such dicts, and
# such collections took about a tenth of a random playout's CPU time before). Its fields, by
# negative keys; the least prices are kept in it by the rules' price class (``Ctx.price_class``, 0 or more):
OWN_BEST, OTHER_BEST, OWN_FACES, BOUGHT_FACES, BY_SOURCE = -1, -2, -3, -4, -5
FreeDice = dict  # {OWN_BEST: ..., OTHER_BEST: ..., OWN_FACES: ..., BOUGHT_FACES: ..., Ctx.price_class: price}
# BY_SOURCE: ((0, OWN_FACES), (1, BOUGHT_FACES)), whether bought with the faces, for the loops
# that ask own dice first (kept in the view, so that no such pair is made per position)


def free_dice_view(colours: int, own_n: bytes, every_n: bytes) -> FreeDice:
    """The free dice of some colours as one seat sees them when it forms a group: the values
    (1-6, highest first) of its three best and of the three best of all the other districts
    (no group holds more), the faces of which it has a die and those of which only others
    have one (as values less one, 0-5, whatever their colour: a group's rules count a die by
    its value alone, ``Ctx.values``, so the colours share one view of the same counts); and,
    per group rules toward a total (``Ctx.by_price``), the least price of a
    group from nothing, which depends on nothing else (nor on more than the best dice: views
    with the same best dice share it, ``Components.kept_least_prices``), and per placement
    rules the price of one die where every row of the building takes a citizen, under the
    rules' price class ``Ctx.price_class`` (filled in by ``least_price``; bounded: one entry per class). Made from the counts of dice alone
    (public), so positions with the same counts share one (``Feasible.free_dice``)."""
    own: list[int] = []
    others: list[int] = []
    own_faces: list[int] = []
    bought_faces: list[int] = []
    for face in _FACES_BY_VALUE[colours]:
        every = every_n[face]
        if every:
            n = own_n[face]
            value = face % 6 + 1
            if n:
                own += [value] * n
                own_faces.append(value - 1)
                if every > n:
                    others += [value] * (every - n)
            else:
                bought_faces.append(value - 1)
                others += [value] * every
    own_at, bought_at = tuple(own_faces), tuple(bought_faces)
    return {OWN_BEST: tuple(own[:MAX_GROUP]), OTHER_BEST: tuple(others[:MAX_GROUP]),
            OWN_FACES: own_at, BOUGHT_FACES: bought_at, BY_SOURCE: ((0, own_at), (1, bought_at))}


def least_price(free: FreeDice, ctx: Ctx, c: Components) -> int:
    """The least price of a group from nothing toward ``ctx.floor`` or, for a placement
    (NEED_PLACE) into a building where every row takes a citizen, of one die of a value 1-6
    as these rules count it (NO_GROUP if none), for this view of the free dice; kept in the
    view (several threads may store the same answer at once: harmless)."""
    own_best = free[OWN_BEST]
    if ctx.need == NEED_PLACE:
        if _places(ctx, free[OWN_FACES]):
            price = 0
        elif _places(ctx, free[BOUGHT_FACES]):
            price = _one_bought(c, ctx)
        else:
            price = NO_GROUP
    elif own_best and (not ctx.floor or _worth(ctx, own_best) >= ctx.floor):
        price = 0  # own dice alone will do
    else:  # some dice must be bought: the same for every view with these best dice
        other_best = free[OTHER_BEST]
        key = (ctx.price_class, own_best, other_best)
        price = c.kept_least_prices.get(key)
        if price is None:
            price = keep(c.kept_least_prices, key,
                         _least_toward_total(c, ctx, own_best, other_best), LEAST_PRICES_KEPT)
    free[ctx.price_class] = price
    return price


def cube_rules(c: Components, mod_card: int) -> tuple[tuple[int, int, bool, Ctx], ...]:
    """Every action of a turn that the cube of delayed card ``mod_card`` can modify, as
    ``(kind, key, hires, rules)`` (``key``: the card id for a card, else the target); kept
    per components set."""
    found = c.kept_cube_rules.get(mod_card)
    if found is None:
        actions = [(G_CARD, card, hires) for card in range(len(c.cards)) for hires in (False, True)]
        actions += [(G_CATHEDRAL, 0, False), *((G_EVENT, event, False) for event in range(len(c.events))),
                    *((G_PLACE, building, False) for building in range(3)), (G_FARM, 0, False)]
        rules = ((kind, key, hires, kept_ctx(c, kind, key, mod_card, hires))
                 for kind, key, hires in actions)
        found = keep(c.kept_cube_rules, mod_card,
                     tuple(entry for entry in rules if entry[3] is not None), KEPT_LIMIT)
    return found


def _places(ctx: Ctx, faces: tuple[int, ...]) -> bool:
    """Whether a die of one of these faces counts as a value 1-6 under these rules (so that
    it names a row of the building). A loop, not a comprehension: a comprehension that reads
    a local makes it a cell, made at every call of the function that holds it."""
    values = ctx.values
    for face in faces:  # noqa: SIM110 - any() of a generator: a cell and a generator made
        if 1 <= values[face] <= 6:
            return True
    return False


def priced(options: tuple[Ctx, ...]) -> Ctx | None:
    """An action's one group rules where no cube can modify it and the free dice alone price
    a group (``Ctx.by_price``: ``turn_legal`` reads the price from their view), else None."""
    return options[0] if len(options) == 1 and options[0].by_price else None


class TurnRules:
    """The group rules of every action for one set of delayed cards on which the seat has a
    cube: per action, a tuple of rules (no cube, then each cube that can modify it). ``card``
    is indexed by card id: the deniers and influence its first use costs, its hiring price,
    then the rules when its tradesman is there already and when this activation hires it,
    and the same two ``priced``; ``event`` by event card id (``event_priced`` likewise);
    ``place`` by building; ``farm`` (and ``farm_priced``). Pure rules, kept per components
    set."""

    __slots__ = ("card", "cathedral", "event", "event_priced", "place", "farm", "farm_priced")

    def __init__(self, c: Components, mod_cards: tuple[int, ...]) -> None:
        if not mod_cards:
            first_use = first_use_prices(c)
            self._set(
                tuple((*first_use[card], c.cards[card][3], (kept_ctx(c, G_CARD, card, MOD_NONE, False),),
                       (kept_ctx(c, G_CARD, card, MOD_NONE, True),)) for card in range(len(c.cards))),
                (kept_ctx(c, G_CATHEDRAL, 0, MOD_NONE, False),),
                [(kept_ctx(c, G_EVENT, event, MOD_NONE, False),) for event in range(len(c.events))],
                tuple((kept_ctx(c, G_PLACE, building, MOD_NONE, False),) for building in range(3)),
                (kept_ctx(c, G_FARM, 0, MOD_NONE, False),))
            return
        # the rules without a cube (never None), kept; then each cube's rules added to the
        # actions it can modify (cube_rules, kept per card): the same tuples as asking every
        # action under every cube, for a few entries changed
        plain = TurnRules.of(c, ())
        cards = [list(entry[:5]) for entry in plain.card]  # first use, hiring price, rules
        event = list(plain.event)
        place = list(plain.place)
        cathedral, farm = plain.cathedral, plain.farm
        for mod_card in mod_cards:
            for kind, key, hires, ctx in cube_rules(c, mod_card):
                if kind == G_CARD:
                    cards[key][4 if hires else 3] += (ctx,)
                elif kind == G_EVENT:
                    event[key] += (ctx,)
                elif kind == G_PLACE:
                    place[key] += (ctx,)
                elif kind == G_CATHEDRAL:
                    cathedral += (ctx,)
                else:
                    farm += (ctx,)
        self._set(tuple(map(tuple, cards)), cathedral, event, tuple(place), farm)

    def _set(self, cards: Iterable[tuple], cathedral: tuple[Ctx, ...],
             event: list[tuple[Ctx, ...]], place: tuple[tuple[Ctx, ...], ...],
             farm: tuple[Ctx, ...]) -> None:
        """The fields, each action's ``priced`` added (``cards``: each card's first use,
        hiring price and its two rules)."""
        self.card = tuple((*entry, priced(entry[3]), priced(entry[4])) for entry in cards)
        self.cathedral = cathedral
        self.event = tuple(event)
        self.event_priced = tuple(map(priced, self.event))
        self.place = place
        self.farm = farm
        self.farm_priced = priced(farm)

    @staticmethod
    def of(c: Components, mod_cards: tuple[int, ...]) -> TurnRules:
        rules = c.kept_turn_rules.get(mod_cards)
        if rules is None:  # bounded: the cubes held vary from game to game
            rules = keep(c.kept_turn_rules, mod_cards, TurnRules(c, mod_cards), TURN_RULES_KEPT)
        return rules


class Feasible:
    """Whether seat ``p`` can start an action in this position, with no cube or with one of
    its delayed cubes: asked for every action at the start of a turn, and for the cube choice.

    Most group rules come down to one number, the least price of a group from nothing that
    completes the action, compared with each action's budget: toward a total it depends only
    on the free dice of the rules' colours (``FreeDice``, shared by positions with the same
    dice); for the cathedral or a building, on the room and placements here (kept in
    ``known`` per rules). Tithe's groups toward a total, whose price depends on the
    districts, are searched per budget instead. It lives only as long as the position does
    (never kept on the state), so nothing of one position reaches another."""

    __slots__ = ("s", "p", "turn_rules", "counts", "dice", "known", "off_board")

    def __init__(self, s: TroyesState, p: int) -> None:
        self.s = s
        self.p = p
        held = s.cubes[p::4]  # cubes: slot*4 + seat, so p's per slot
        mod_cards = tuple(compress(s.slot_card, held)) if any(held) else ()
        self.turn_rules = s.comp.kept_turn_rules.get(mod_cards) or TurnRules.of(s.comp, mod_cards)
        # the rest holds this position's facts only, one kind of key in each
        self.counts: tuple[bytes, bytes] | None = None  # per face: p's free dice, everyone's
        self.dice: list[FreeDice | None] = [None] * 8  # per colour bitmask
        # what this position answers, by three kinds of key that never meet (one dict made,
        # not three): per cathedral or building rules (a Ctx), its least price; per Tithe
        # rules and budget (a pair), whether a group can be formed; per building row (an
        # int, comp.rows), whether it takes a citizen
        self.known: dict[Ctx | tuple[Ctx, int] | int, int | bool] = {}
        self.off_board: bool | None = None  # citizen_off_board, asked once

    def within(self, options: tuple[Ctx, ...], budget: int) -> bool:
        """Whether some group within ``budget`` deniers completes an action, under one of its
        group ``options`` (a ``TurnRules`` entry: no cube, then each cube of ``p``'s that can
        modify it). ``ok`` for each, the common cases asked inline (a turn asks for every
        action: a call less per rules, and ``free_dice`` called only when not yet known)."""
        for ctx in options:
            if ctx.by_price:  # dice_price, inline: within is asked for every action of a turn
                free = self.dice[ctx.colours] or self.free_dice(ctx.colours)
                price = free.get(ctx.price_class)
                if price is None:
                    price = least_price(free, ctx, self.s.comp)
            else:
                price = self.known.get(ctx)  # the cathedral or a building
                if price is None:
                    if ctx.searched:
                        if self.ok(ctx, budget):
                            return True
                        continue
                    price = self.known[ctx] = self.least_one_die(ctx)
            if price <= budget:
                return True
        return False

    def dice_price(self, ctx: Ctx) -> int:
        """The least price of a group from nothing under rules that the free dice alone
        decide (``Ctx.by_price``, or a placement where every row takes a citizen)."""
        free = self.dice[ctx.colours] or self.free_dice(ctx.colours)
        price = free.get(ctx.price_class)
        return least_price(free, ctx, self.s.comp) if price is None else price

    def ok(self, ctx: Ctx, budget: int) -> bool:
        """Whether a group from nothing under these rules meets the need within ``budget``
        (what ``completable(s, p, ctx, (), budget)`` answers)."""
        if ctx.by_price:
            price = self.dice_price(ctx)
        elif ctx.searched:
            key = (ctx, budget)
            found = self.known.get(key)
            if found is None:
                found = self.known[key] = _tithe_completable(self.s, self.p, ctx, (), budget)
            return found
        else:
            price = self.known.get(ctx)
            if price is None:
                price = self.known[ctx] = self.least_one_die(ctx)
        return price <= budget

    def free_dice(self, colours: int) -> FreeDice:
        """``p``'s view of the free dice of these colours, shared by positions with the same
        counts of them (public facts, kept per components set)."""
        free = self.dice[colours]
        if free is None:
            counts = self.counts
            if counts is None:  # per face: p's dice, and every district's
                counts = self.counts = _dice_counts(self.s.dice, self.p)
            own_n, every_n = counts
            first = _COUNTED[colours]
            if first >= 0:  # one colour: its six faces' counts, whichever colour (the view
                # names faces by value, free_dice_view)
                key = (own_n[first:first + 6], every_n[first:first + 6])
            else:
                key = (colours, own_n, every_n)
            kept = self.s.comp.kept_free_dice
            free = kept.get(key)
            if free is None:
                free = keep(kept, key, free_dice_view(colours, own_n, every_n), FREE_DICE_KEPT)
            self.dice[colours] = free
        return free

    def each_colour(self) -> None:
        """``free_dice`` for red, white and yellow at once (a turn asks for all three): the
        counts read and the views found in one call."""
        own_n, every_n = self.counts = _dice_counts(self.s.dice, self.p)
        kept = self.s.comp.kept_free_dice
        dice = self.dice
        for colours in (1, 2, 4):
            first = _COUNTED[colours]
            key = (own_n[first:first + 6], every_n[first:first + 6])  # as free_dice's
            free = kept.get(key)
            if free is None:
                free = keep(kept, key, free_dice_view(colours, own_n, every_n), FREE_DICE_KEPT)
            dice[colours] = free

    def least_one_die(self, ctx: Ctx) -> int:
        """Room in the cathedral or a placement: a group from nothing can be started (and so
        played) when one die fits (``addable`` with ``first``): free if ``p`` has one, else
        the price of one bought die (NO_GROUP if none fits). Own dice first, then bought."""
        free = self.dice[ctx.colours] or self.free_dice(ctx.colours)
        s = self.s
        values = ctx.values
        if ctx.need == NEED_CATHEDRAL:
            # a die fits where the column of its value has room for it (``single`` cubes)
            need = ctx.single or 1
            columns = s.comp.columns
            for bought, faces in free[BY_SOURCE]:
                for face in faces:
                    # cathedral_room(s, face % 6), inline: the column's space on each level
                    if s.cathedral[face % 6::columns].count(-1) >= need:
                        return _one_bought(s.comp, ctx) if bought else 0
            return NO_GROUP
        # a die fits where it places a citizen in the building (by the row of its value)
        building = ctx.arg
        off_board = self.off_board
        if off_board is None:
            off_board = self.off_board = citizen_off_board(s, self.p)
        if off_board and not s.lying[building]:
            # no colour lies expelled on the building: every row takes a citizen from off
            # the board (placement_possible), so the dice alone decide (kept with them)
            price = free.get(ctx.price_class)
            return least_price(free, ctx, s.comp) if price is None else price
        c = s.comp
        rows = c.row_of_value[building]
        placeable = self.known  # by row
        spaces = s.spaces
        lying = s.lying[building]
        for bought, faces in free[BY_SOURCE]:
            for face in faces:
                value = values[face]
                if not 1 <= value <= 6:
                    continue
                row = rows[value]
                fits = placeable.get(row)
                if fits is None:
                    if off_board:  # placement_possible's first answer (_row_takes), inline
                        _b, _values, first, n = c.rows[row]
                        cells = spaces[first:first + n]
                        fits = -1 in cells or not (lying >> cells[-1]) & 1
                    if not fits:
                        fits = placement_possible(s, self.p, building, value, off_board)
                    placeable[row] = fits
                if fits:
                    return _one_bought(s.comp, ctx) if bought else 0
        return NO_GROUP


def _one_bought(c: Components, ctx: Ctx) -> int:
    """The price of a group of one die bought from another district."""
    if ctx.single:
        return c.single_die_price
    return 0 if ctx.tithe else c.die_prices[0]  # Tithe: one district's die is free


def _dice_counts(dice: bytearray, p: int) -> tuple[bytes, bytes]:
    """Per face (colour*6 + value-1): how many free dice ``p``'s district holds, and all the
    districts together. The five districts are added as numbers of one byte per face, each
    district's 18 bytes read as one number (no face holds 256 dice, so no byte carries into
    the next): a few C calls, no Python loop."""
    counts = bytes(dice)
    every = _number(counts[:18], "big") + _number(counts[18:36], "big") \
        + _number(counts[36:54], "big") + _number(counts[54:72], "big") \
        + _number(counts[72:], "big")
    return counts[p * 18:p * 18 + 18], every.to_bytes(18, "big")


_number = int.from_bytes


def _worth(ctx: Ctx, values: tuple[int, ...]) -> int:
    """The total of the best of these dice (values 1-6) a group of these rules can hold."""
    worth = ctx.values  # by face: the first six are the values 1-6 of any colour
    total = 0
    for v in values[:ctx.max_size]:
        total += worth[v - 1]
    return total


def _least_toward_total(c: Components, ctx: Ctx, own: tuple[int, ...], others: tuple[int, ...]) -> int:
    """The least price of a group whose dice total at least ``ctx.floor`` (any group when 0),
    from ``p``'s best dice (free) and the others' best (bought), values 1-6 highest first,
    where ``p``'s own dice alone fall short (``least_price`` answers 0 then)."""
    worth = ctx.values
    size = ctx.max_size
    own_prefix = [0]
    for v in own[:size]:
        own_prefix.append(own_prefix[-1] + worth[v - 1])
    other_prefix = [0]
    for v in others[:size]:
        other_prefix.append(other_prefix[-1] + worth[v - 1])
    n_own, n_others = len(own_prefix) - 1, len(other_prefix) - 1
    floor = ctx.floor
    least = NO_GROUP
    for n in range(1, size + 1):  # n dice, f of them bought
        price = c.single_die_price if ctx.single else c.die_prices[n - 1]
        for f in range(max(1, n - n_own), min(n, n_others) + 1):
            if f * price < least and own_prefix[n - f] + other_prefix[f] >= floor:
                least = f * price
    return least


def mod_options(s: TroyesState, p: int, kind: int, target: int, budget: int,
                mods: list[int]) -> list[int]:
    """The cube choices (MOD_NONE included) that leave the action feasible."""
    feasible = Feasible(s, p)
    out = []
    for mod in (MOD_NONE, *mods):
        ctx = make_ctx(s, kind, target, mod, p)
        if ctx is not None and feasible.ok(ctx, budget):
            out.append(mod)
    return out


def own_mods(s: TroyesState, p: int) -> list[int]:
    """Slots of the delayed cards on which ``p`` has a cube."""
    return list(compress(range(9), s.cubes[p::4]))  # cubes: slot*4 + seat
