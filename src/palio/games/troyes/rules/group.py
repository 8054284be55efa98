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

import threading
from collections.abc import Sequence
from typing import TYPE_CHECKING

from palio.games.troyes.components import (
    ANY_COLOUR,
    BUILDING_COLOUR,
    CITY_HALL,
    PALACE,
    RED,
    WHITE,
    YELLOW,
)
from palio.games.troyes.rules.board import cathedral_room, placement_possible
from palio.games.troyes.state import G_CARD, G_CATHEDRAL, G_EVENT, G_FARM, G_PLACE, MOD_NONE

if TYPE_CHECKING:
    from palio.games.troyes.state import TroyesState

ALL = 0b111
NEED_SUM, NEED_ANY, NEED_CATHEDRAL, NEED_PLACE = range(4)

# per-use prices an activated card needs besides its dice: (deniers, influence)
USE_PRICE = {"journeyman": ("deniers",), "innkeeper": ("deniers",), "artisan": ("influence",),
             "diplomat": ("influence",), "troubadour": ("influence",)}


class Ctx:
    """The rules for one group: allowed colours (bitmask), one white die counted as ``single``
    dice (Monk, Templar, Prior; 0 otherwise), the most dice, what each die is worth (``add``
    to its value, or ``set5``), a bonus on the total (Blacksmith), Tithe's free dice, and
    what the group must achieve (``need``: a total of at least ``arg``, anything, room in the
    cathedral, or a legal placement in building ``arg``)."""

    __slots__ = ("colours", "single", "max_size", "add", "set5", "bonus", "tithe", "need", "arg",
                 "sig", "floor", "by_price", "values", "price_id")

    def __init__(self, colours: int, need: int, arg: int = 0, *, single: int = 0,
                 max_size: int = 3, add: int = 0, set5: int = 0, bonus: int = 0,
                 tithe: bool = False) -> None:
        self.colours = colours
        self.single = single
        self.max_size = 1 if single else max_size
        self.add = add
        self.set5 = set5
        self.bonus = bonus
        self.tithe = tithe
        self.need = need
        self.arg = arg
        self.sig = (colours, self.single, add, set5, self.max_size)  # what the dice are worth
        self.price_id = -1  # set by _ctx_for
        # the least total of dice a group needs (NEED_SUM, NEED_ANY), the bonus counted
        self.floor = max(0, arg - bonus) if need == NEED_SUM else 0
        # whether a group from nothing is judged by the best total at each price alone
        self.by_price = need in (NEED_SUM, NEED_ANY) and not tithe
        self.values = tuple(self.value(face) for face in range(18))  # value() without a call

    def value(self, face: int) -> int:
        if self.set5:
            return self.set5
        v = face % 6 + 1
        if self.single:
            return v * self.single
        return v + self.add


def need_colour(s: TroyesState, kind: int, target: int) -> int:
    """The colour of dice an action takes (ANY_COLOUR for Pilgrimage)."""
    if kind == G_CARD:
        card = s.comp.cards[s.slot_card[target]]
        return ANY_COLOUR if card[0] == "pilgrimage" else card[1]
    if kind == G_EVENT:
        return s.comp.events[target][4]
    if kind == G_PLACE:
        return BUILDING_COLOUR[target]
    return WHITE if kind == G_CATHEDRAL else YELLOW


def hiring(s: TroyesState, target: int, p: int) -> bool:
    """Is ``p`` hiring the tradesman of card slot ``target`` with this activation (just hired,
    or about to be: it has none there yet)?"""
    if s.hiring == target:
        return True
    width = s.comp.max_trade_spaces
    return p not in s.trade[target * width:(target + 1) * width] and not (s.extra[target] >> p) & 1


def _need(s: TroyesState, kind: int, target: int, hires: bool) -> tuple[int, int]:
    if kind == G_CARD:
        # at least one use only when the tradesman is hired (職人を置いたとき...最低1回は);
        # a card already staffed may be activated for nothing (burning dice)
        divisor = s.comp.cards[s.slot_card[target]][4]
        return (NEED_SUM if hires else NEED_ANY), divisor
    if kind == G_EVENT:
        # a fight need not earn a cube: the rulebook asks for at least one result only when a
        # tradesman is hired, so dice may be spent on an event for nothing (burning dice)
        return NEED_ANY, s.comp.events[target][5]
    if kind == G_CATHEDRAL:
        return NEED_CATHEDRAL, 0
    if kind == G_PLACE:
        return NEED_PLACE, target
    return NEED_ANY, 0


def make_ctx(s: TroyesState, kind: int, target: int, mod: int, p: int) -> Ctx | None:
    """The group rules of an action with the cube of delayed card slot ``mod`` (MOD_NONE: no
    cube) for ``p``; ``None`` where that cube cannot modify this action. They depend only on
    the cards involved and whether ``p`` is hiring a tradesman (:func:`hiring`), so they are
    kept per components set."""
    mod_card = MOD_NONE if mod == MOD_NONE else s.slot_card[mod]
    return _ctx_for(s, kind, target, mod_card, kind == G_CARD and hiring(s, target, p))


def _ctx_for(s: TroyesState, kind: int, target: int, mod_card: int, hires: bool) -> Ctx | None:
    """``make_ctx`` with the cube's card id (or MOD_NONE), and for a card whether this
    activation hires its tradesman (always False for the other actions)."""
    cache = s.comp.__dict__.setdefault("_ctx_cache", {})
    key = (kind, s.slot_card[target] if kind == G_CARD else target, mod_card, hires)
    ctx = cache.get(key, False)
    if ctx is False:
        need = _need(s, kind, target, hires)
        ctx = _make_ctx(s, kind, target, mod_card, need)
        if ctx is not None:  # one number for rules alike in dice and floor (see Feasible)
            # under a lock: the server asks from several threads, and two rules must never
            # get one number (the shared least prices are keyed by it)
            with _PRICE_IDS_LOCK:
                ids = s.comp.__dict__.setdefault("_price_ids", {})
                ctx.price_id = ids.setdefault((ctx.sig, ctx.floor), len(ids))
        cache[key] = ctx  # only once numbered, so no thread reads an unnumbered one
    return ctx


def _make_ctx(s: TroyesState, kind: int, target: int, mod_card: int,
              needed: tuple[int, int]) -> Ctx | None:
    """The group rules with the cube of delayed card ``mod_card`` (a card id, or MOD_NONE)."""
    colour = need_colour(s, kind, target)
    need, arg = needed
    size = 1 if kind == G_PLACE else 3
    plain = ALL if colour == ANY_COLOUR else 1 << colour
    if mod_card == MOD_NONE:
        return Ctx(plain, need, arg, max_size=size)
    key = s.comp.cards[mod_card][0]
    fx = s.comp.fx[key]
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
    if ctx.single:
        return sum(c.single_die_price for d in dice if d // 18 != p)
    price = c.die_prices[len(dice) - 1] if dice else 0
    total = 0
    free: set[int] = set()
    for d in dice:
        district = d // 18
        if district == p:
            continue
        if ctx.tithe and district not in free:
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
# faces (colour*6 + value-1) of the colours in a bitmask, each colour from its highest value
_FACES = {mask: tuple(colour * 6 + v for colour in range(3) if (mask >> colour) & 1
                      for v in range(5, -1, -1)) for mask in range(8)}


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


def _price_table(s: TroyesState, ctx: Ctx, own: Sequence[int],
                 foreign: Sequence[int]) -> list[tuple[int, int]]:
    """For a group started from nothing: (price, highest total) of every way to take
    ``o`` own and ``f`` foreign dice (the best dice of each kind)."""
    c = s.comp
    out = []
    own_prefix = [0]
    for v in own[:ctx.max_size]:
        own_prefix.append(own_prefix[-1] + v)
    for_prefix = [0]
    for v in foreign[:ctx.max_size]:
        for_prefix.append(for_prefix[-1] + v)
    for n in range(1, ctx.max_size + 1):
        price = c.single_die_price if ctx.single else c.die_prices[n - 1]
        for f in range(max(0, n - len(own_prefix) + 1), min(n, len(for_prefix) - 1) + 1):
            out.append((f * price, own_prefix[n - f] + for_prefix[f]))
    return out


def _best_sum(s: TroyesState, p: int, ctx: Ctx, chosen: tuple[int, ...], budget: int,
              own: list[int], foreign: list[int]) -> int:
    """The highest total a group containing ``chosen`` can reach within the budget, its own
    dice taken from ``own`` and the others from ``foreign`` (both highest first); -1 if no
    group is affordable."""
    c = s.comp
    n_chosen = len(chosen)
    f_chosen = s_chosen = 0
    value = ctx.value
    for d in chosen:
        if d // 18 != p:
            f_chosen += 1
        s_chosen += value(d % 18)
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


def _kinds(s: TroyesState, ctx: Ctx) -> list[int]:
    """Die indices with at least one free die of an allowed colour."""
    dice = s.dice
    return [d for d in _INDICES[ctx.colours] if dice[d]]


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
        return _addable_to_sum(s, p, ctx, chosen, budget, first)
    out = []
    room: dict[int, int] = {}  # per cathedral column, and per placement value, asked once
    placeable: dict[int, bool] = {}
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
            need_room = (ctx.single or 1) + sum(ctx.single or 1 for x in chosen if x % 6 == column)
            free = room.get(column)
            if free is None:
                free = room[column] = cathedral_room(s, column)
            if free < need_room:
                continue
        elif ctx.need == NEED_PLACE:
            value = ctx.value(d % 18)
            ok = placeable.get(value)
            if ok is None:
                ok = placeable[value] = placement_possible(s, p, ctx.arg, value)
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


def _addable_to_sum(s: TroyesState, p: int, ctx: Ctx, chosen: tuple[int, ...], budget: int,
                    first: bool) -> list[int]:
    """``addable`` for a total (or anything) at the usual prices: a die joins on the same
    answer as every die alike (own or not, same worth)."""
    pools = None
    values = ctx.values
    worth_counts = ctx.need == NEED_SUM  # for anything at all, only whose die it is counts
    # the group as it stands with one more die: its price per bought die and its total so far
    price = s.comp.single_die_price if ctx.single else s.comp.die_prices[len(chosen)]
    bought = sum(1 for x in chosen if x // 18 != p)
    total = sum(values[x % 18] for x in chosen) + ctx.bonus
    alike: dict[tuple[bool, int], bool] = {}
    out = []
    for d in _kinds(s, ctx):
        mine = d // 18 == p
        value = values[d % 18]
        key = (mine, value if worth_counts else 0)
        ok = alike.get(key)
        if ok is None and (bought + (not mine)) * price <= budget \
                and (not worth_counts or total + value >= ctx.arg):
            ok = alike[key] = True  # that group itself will do
        if ok is None:
            if pools is None:
                pools = _pools(s, p, ctx)
            own, foreign = pools
            rest_own, rest_foreign = own, foreign  # the pools without this die
            if mine:
                rest_own = own[:]
                rest_own.remove(value)
            else:
                rest_foreign = foreign[:]
                rest_foreign.remove(value)
            best = _best_sum(s, p, ctx, (*chosen, d), budget, rest_own, rest_foreign)
            ok = alike[key] = best >= 0 and _sum_ok(ctx, best)
        if ok:
            out.append(d)
            if first:
                break
    return out


def can_go(s: TroyesState, p: int, ctx: Ctx, chosen: tuple[int, ...], budget: int) -> bool:
    """Whether the group as it stands may be played (it always fits the budget)."""
    if not chosen:
        return False
    if ctx.need in (NEED_SUM, NEED_ANY):
        return _sum_ok(ctx, sum(ctx.value(d % 18) for d in chosen))
    return True


def group_total(ctx: Ctx, chosen: tuple[int, ...]) -> int:
    return sum(ctx.value(d % 18) for d in chosen) + ctx.bonus


NO_GROUP = 1 << 30  # the price of a group that cannot be formed
LEAST_PRICE_KEPT = 50_000  # answers kept per components set (a few MB at most)
OPTIONS_KEPT = 50_000  # a turn's group rules by action and cubes held, per components set
_PRICE_IDS_LOCK = threading.Lock()


class Feasible:
    """Whether seat ``p`` can start an action in this position, with no cube or with one of
    its delayed cubes: asked for every action at the start of a turn, and for the cube choice.
    Per kind of dice (``Ctx.sig``) the best free dice, the least price of a group reaching a
    total, the cathedral's room and the placements are found once and shared by all the
    actions. It lives only as long as the position does (never kept on the state)."""

    __slots__ = ("s", "p", "mod_cards", "options", "cheapest", "best", "facts", "known")

    def __init__(self, s: TroyesState, p: int) -> None:
        self.s = s
        self.p = p
        cubes = s.cubes
        self.mod_cards = tuple(s.slot_card[k] for k in range(9) if cubes[k * 4 + p]) \
            if any(cubes[p::4]) else ()
        self.options = s.comp.__dict__.setdefault("_ctx_options", {})
        self.cheapest: dict[int, int] = {}  # Ctx.price_id: least price of a group reaching floor
        self.best: dict[tuple, tuple] = {}  # Ctx.sig: the best values of own and other dice
        self.facts: dict = {}  # cathedral room, placements (and their sources), Tithe searches
        # least prices by rules and best dice, kept per components set (public facts only)
        self.known = s.comp.__dict__.setdefault("_least_price", {})

    def can(self, kind: int, target: int, budget: int, hiring: bool = False) -> bool:
        """Whether some group within ``budget`` deniers completes the action, with no cube or
        one of ``p``'s (``hiring``: a card activation that hires its tradesman, so it must
        earn a use)."""
        s = self.s
        key = (kind, s.slot_card[target] if kind == G_CARD else target, hiring, self.mod_cards)
        ctxs = self.options.get(key)
        if ctxs is None:
            if len(self.options) >= OPTIONS_KEPT:  # cubes held vary from game to game
                self.options.clear()
            ctxs = self.options[key] = self._options(kind, target, hiring)
        cheapest = self.cheapest
        for ctx in ctxs:
            if ctx.by_price:  # the common case, asked inline
                price = cheapest.get(ctx.price_id)
                if price is None:
                    price = cheapest[ctx.price_id] = self._cheapest(ctx)
                if price <= budget:
                    return True
            elif self.ok(ctx, budget):
                return True
        return False

    def ok(self, ctx: Ctx, budget: int) -> bool:
        """Whether a group from nothing under these rules meets the need within ``budget``
        (what ``completable(s, p, ctx, (), budget)`` answers)."""
        if ctx.by_price:
            price = self.cheapest.get(ctx.price_id)
            if price is None:
                price = self.cheapest[ctx.price_id] = self._cheapest(ctx)
            return price <= budget
        if ctx.need in (NEED_SUM, NEED_ANY):  # Tithe: prices depend on the districts
            key = (ctx, budget)
            found = self.facts.get(key)
            if found is None:
                found = self.facts[key] = _tithe_completable(self.s, self.p, ctx, (), budget)
            return bool(found)
        return self._one_die(ctx, budget)

    def _options(self, kind: int, target: int, hiring: bool) -> tuple[Ctx, ...]:
        """The group rules with no cube and with each cube that can modify this action."""
        found = (_ctx_for(self.s, kind, target, mod_card, hiring)
                 for mod_card in (MOD_NONE, *self.mod_cards))
        return tuple(ctx for ctx in found if ctx is not None)

    def _cheapest(self, ctx: Ctx) -> int:
        """The least price of a group from nothing whose total reaches ``ctx.floor``."""
        c = self.s.comp
        best = self.best.get(ctx.sig)
        if best is None:  # only the best max_size dice of each pool can matter
            own, foreign = _pools(self.s, self.p, ctx)
            best = self.best[ctx.sig] = (tuple(own[:ctx.max_size]), tuple(foreign[:ctx.max_size]))
        own_best, foreign_best = best
        if not ctx.floor:  # any group will do: only how many dice there are matters
            if own_best:
                return 0
            if ctx.single:
                return c.single_die_price if foreign_best else NO_GROUP
            return min([n * c.die_prices[n - 1] for n in range(1, len(foreign_best) + 1)],
                       default=NO_GROUP)
        # positions often share their best dice (self.known)
        key = (ctx.price_id, best)
        known = self.known
        price = known.get(key)
        if price is None:
            if len(known) >= LEAST_PRICE_KEPT:
                known.clear()
            table = _price_table(self.s, ctx, own_best, foreign_best)
            price = known[key] = min([cost for cost, total in table if total >= ctx.floor],
                                     default=NO_GROUP)
        return price

    def _one_die(self, ctx: Ctx, budget: int) -> bool:
        """Room in the cathedral or a placement: a group from nothing can be started (and so
        played) when one affordable die fits (``addable`` with ``first``)."""
        s, p = self.s, self.p
        c = s.comp
        if ctx.single:
            price = c.single_die_price
        elif ctx.tithe:
            price = 0  # the first die from a district is free
        else:
            price = c.die_prices[0]
        own_ok = budget >= 0
        buy_ok = price <= budget
        dice = s.dice
        mine = p * 18
        facts = self.facts
        for face in _FACES[ctx.colours]:
            own = dice[mine + face]
            if not (own_ok and own):  # else a die of another district, if affordable
                every = dice[face] + dice[18 + face] + dice[36 + face] + dice[54 + face] \
                    + dice[72 + face]
                if not buy_ok or every == own:
                    continue
            if ctx.need == NEED_CATHEDRAL:
                key = (NEED_CATHEDRAL, face % 6)
                room = facts.get(key)
                if room is None:
                    room = facts[key] = cathedral_room(s, face % 6)
                if room >= (ctx.single or 1):
                    return True
            else:
                key = (NEED_PLACE, ctx.arg, ctx.values[face])
                fits = facts.get(key)
                if fits is None:
                    fits = facts[key] = placement_possible(s, p, ctx.arg, ctx.values[face], facts)
                if fits:
                    return True
        return False


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
    cubes = s.cubes
    return [k for k in range(9) if cubes[k * 4 + p]]
