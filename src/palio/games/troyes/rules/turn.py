"""The action turn: influence before the action, passing, and the five actions (activate an
activity card, build the cathedral, fight an event, place a citizen, agriculture), each as
its choice of action, cube, dice and citizen.

Rulebook: フェイズ4「アクション」, ■影響力, ■アクション (A-F) and [RB] "Phase 4: Actions",
"Influence".

Readings (docs/coverage/troyes.md): an action is offered only when it can be carried out in
full; only the activation that hires a tradesman must earn a use (a later activation or a fight
may spend dice for nothing); a citizen comes from the general supply (2 influence) only when the
personal supply is empty, as the rulebook puts it, and is never moved onto the place it already
holds; the tradesman takes the free space with the most VP; when a choice has a single option it
is made at once.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from palio.core.game import Action
from palio.games.troyes.rules.board import (
    SRC_CARD,
    SRC_LYING,
    SRC_RESERVE,
    SRC_SPACE,
    SRC_SUPPLY,
    cathedral_free_level,
    citizen_off_board,
    citizen_off_cards,
    gain_influence,
    has_tradesman,
    insert_citizen,
    placement_sources,
    sources,
    take_from,
    tradesman_slots,
)
from palio.games.troyes.rules.cards import (
    MILL_BUILDINGS,
    activate,
    can_use,
    first_use_price,
    first_use_prices,
)
from palio.games.troyes.rules.combat import influence_options
from palio.games.troyes.rules.events import add_cube, free_banners
from palio.games.troyes.rules.group import (
    MAX_GROUP,
    NEED_SUM,
    Feasible,
    addable,
    addable_to_sum,
    group_total,
    hiring,
    kept_ctx,
    make_ctx,
    mod_options,
    own_mods,
    payments,
)
from palio.games.troyes.state import (
    F_GROUP,
    F_SOURCE,
    G_CARD,
    G_CATHEDRAL,
    G_EVENT,
    G_PLACE,
    MOD_ASK,
    MOD_NONE,
    NEUTRAL,
    SRC_PLACE,
    SRC_TRADE,
)

if TYPE_CHECKING:
    from palio.games.troyes.state import TroyesState


# -- the start of a turn -------------------------------------------------------------------
# the card slots turned up by each number of revealed rounds (R1 W1 Y1, then R2 W2 Y2...)
_REVEALED = tuple(tuple(slot for slot in range(9) if slot % 3 < n) for n in range(4))


def turn_legal(s: TroyesState, top: tuple) -> list[Action]:
    p = top[1]
    c = s.comp
    t = s.tables
    out: list[Action] = []
    influence_options(s, p, out)
    influence = s.influence[p]
    from_supply = influence >= c.citizen_cost and s.reserve[p] > 0  # a citizen for 2 influence
    if from_supply:
        out.append(t.recruit)
    feasible = Feasible(s, p)
    feasible.each_colour()
    within = feasible.within
    turn_rules = feasible.turn_rules
    dice_price = feasible.dice_price
    money = s.money[p]
    staffed = tradesman_slots(s, p)
    # the influence left for a card's first use when its tradesman is hired now (-1: no
    # citizen to hire); citizen_at_hand, the cards known already
    if staffed or citizen_off_cards(s, p):
        hiring_influence = influence
    else:
        hiring_influence = influence - c.citizen_cost if from_supply else -1
    card_rules = turn_rules.card
    slot_card = s.slot_card
    for slot in _REVEALED[s.revealed]:
        # hiring the tradesman now, an activation needs a citizen, the card's hiring price and
        # its first use paid (this activation must earn and make a use); the deniers left buy
        # dice. On a card staffed before, dice may earn nothing and a paid card's uses are
        # optional (docs/coverage/troyes.md), so no use need be affordable
        (deniers, inf_needed, hiring_price, as_staffed, as_hiring, priced_staffed,
         priced_hiring) = card_rules[slot_card[slot]]
        if not (staffed >> slot) & 1:
            budget, inf = money - deniers - hiring_price, hiring_influence
            options, ctx = as_hiring, priced_hiring
        elif s.hiring != slot:
            budget, inf = money, inf_needed
            options, ctx = as_staffed, priced_staffed
        else:
            budget, inf = money - deniers, influence
            options, ctx = as_hiring, priced_hiring
        if budget >= 0 and inf >= inf_needed:
            # within(options, budget), its commonest case inline: one group rules (no cube
            # can modify the action) priced by the free dice (group.priced)
            if ctx is not None:
                if dice_price(ctx) <= budget:
                    out.append(t.card[slot])
            elif within(options, budget):
                out.append(t.card[slot])
    options = turn_rules.cathedral
    if len(options) == 1:  # within(options, money) for one group rules, a call less
        if feasible.least_one_die(options[0]) <= money:
            out.append(t.cathedral)
    elif within(options, money):
        out.append(t.cathedral)
    event_rules = turn_rules.event
    event_priced = turn_rules.event_priced
    for pos, card in enumerate(s.queue):
        ctx = event_priced[card]
        if ctx is not None:  # as for the cards above
            if dice_price(ctx) <= money:
                out.append(t.event[pos])
        elif within(event_rules[card], money):
            out.append(t.event[pos])
    place_rules = turn_rules.place
    lying = s.lying
    off_board = None
    for b in range(3):
        options = place_rules[b]
        # within(options, money), its commonest case inline: one group rules (no cube can
        # modify the placement), a citizen to place from off the board and nobody lying
        # expelled on the building, so that the dice alone decide (Feasible.least_one_die);
        # for one group rules otherwise, least_one_die itself (a call less than within)
        if len(options) == 1:
            ctx = options[0]
            if off_board is None and not lying[b]:
                off_board = feasible.off_board = citizen_off_board(s, p)
            by_dice = off_board and not lying[b]
            price = dice_price(ctx) if by_dice else feasible.least_one_die(ctx)
            if price <= money:
                out.append(t.place[b])
        elif within(options, money):
            out.append(t.place[b])
    ctx = turn_rules.farm_priced
    if ctx is not None:  # as for the cards above
        if dice_price(ctx) <= money:
            out.append(t.farm)
    elif within(turn_rules.farm, money):
        out.append(t.farm)
    out.append(t.pass_)
    return out


def apply_pass(s: TroyesState) -> None:
    p = s.stack.pop()[1]
    s.passed[p] = 1
    s.purse[p] += s.comp.pass_first
    s.emit("pass", p, deniers=s.comp.pass_first)


def apply_recruit(s: TroyesState) -> None:
    p = s.stack[-1][1]
    s.influence[p] -= s.comp.citizen_cost
    s.reserve[p] -= 1
    s.supply[p] += 1
    s.emit("recruit", p)


def apply_card(s: TroyesState, slot: int) -> None:
    p = s.stack.pop()[1]
    s.emit("choose_card", p, card=s.slot_card[slot])
    if has_tradesman(s, p, slot):
        begin_group(s, p, G_CARD, slot)
    else:
        s.stack.append((F_SOURCE, p, SRC_TRADE, slot, 0))
        _auto_source(s)


def apply_main(s: TroyesState, kind: int, target: int) -> None:
    p = s.stack.pop()[1]
    s.emit("choose_action", p, action=kind, target=target)
    begin_group(s, p, kind, target)


def group_budget(s: TroyesState, p: int, kind: int, target: int) -> int:
    """The deniers ``p`` may spend on dice: on a card whose tradesman is hired now, less its
    first use's price (that use must be made); elsewhere all of them."""
    if kind == G_CARD and hiring(s, target, p):
        return s.money[p] - first_use_prices(s.comp)[s.slot_card[target]][0]
    return s.money[p]


def begin_group(s: TroyesState, p: int, kind: int, target: int) -> None:
    """Start forming the group; the cube is asked for only when one could apply."""
    mods = []
    for mod in own_mods(s, p):  # a loop, not a comprehension: a call less
        if make_ctx(s, kind, target, mod, p) is not None:
            mods.append(mod)
    if mods:
        options = mod_options(s, p, kind, target, group_budget(s, p, kind, target), mods)
    else:  # none of p's cubes can modify it, and it was offered: a group without one will do
        options = [MOD_NONE]
    mod = MOD_ASK if len(options) > 1 else options[0]
    if mod >= 0:
        _use_cube(s, p, mod)
    s.stack.append((F_GROUP, p, kind, target, mod, ()))
    if mod == MOD_ASK:  # the choice is worked out: the next position's legal actions
        s._legal = tuple(_cube_actions(s, options))  # (the state's cache, as group_legal's)


def _use_cube(s: TroyesState, p: int, slot: int) -> None:
    s.cubes[slot * 4 + p] -= 1
    s.emit("cube_used", p, card=s.slot_card[slot])


# -- where a citizen comes from --------------------------------------------------------------
def source_legal(s: TroyesState, top: tuple) -> list[Action]:
    return _source_actions(s, _sources_for(s, top))


def _source_actions(s: TroyesState, options: list[tuple[int, int]]) -> list[Action]:
    sources = s.tables.sources
    n = s.comp.n_spaces
    first = (0, 1, 2, 2 + n, 5 + n)  # each kind's first in tables.sources (decode_source)
    out = []
    for kind, where in options:  # a loop, not a comprehension: a call less
        out.append(sources[first[kind] + where])  # where is 0 for the supplies
    return out


def _sources_for(s: TroyesState, top: tuple) -> list[tuple[int, int]]:
    _kind, p, purpose, a, b = top
    found = sources(s, p)
    if purpose == SRC_PLACE:
        return placement_sources(s, p, a, b, found)
    # a tradesman: any citizen, but the general supply's 2 influence must leave the card usable
    card = s.comp.cards[s.slot_card[a]]
    if s.influence[p] - s.comp.citizen_cost >= first_use_price(s, card[0])[1]:
        return found
    return [(k, w) for k, w in found if k != SRC_RESERVE]


def decode_source(s: TroyesState, index: int) -> tuple[int, int]:
    """The (kind, where) of source action number ``index`` in ``tables.sources``."""
    n = s.comp.n_spaces
    if index == 0:
        return SRC_SUPPLY, 0
    if index == 1:
        return SRC_RESERVE, 0
    if index < 2 + n:
        return SRC_SPACE, index - 2
    if index < 5 + n:
        return SRC_LYING, index - 2 - n
    return SRC_CARD, index - 5 - n


def _auto_source(s: TroyesState) -> None:
    """Take the citizen from its only source at once; of several, the sources worked out
    here are the next position's legal actions (the state's cache, as source_legal's)."""
    options = _sources_for(s, s.stack[-1])
    if len(options) == 1:
        apply_source(s, *options[0])
    else:
        s._legal = tuple(_source_actions(s, options))


def apply_source(s: TroyesState, kind: int, where: int) -> None:
    _f, p, purpose, a, b = s.stack.pop()
    take_from(s, p, kind, where)
    if purpose == SRC_PLACE:
        out = insert_citizen(s, a, b, p)
        s.emit("placed", p, building=a, value=b, source=_where(s, kind, where), expelled=out)
        return
    # hire the tradesman: pay, then the free space with the most VP (or the illustration)
    c = s.comp
    card = c.cards[s.slot_card[a]]
    s.money[p] -= card[3]
    first = a * c.max_trade_spaces  # the card's tradesman spaces
    spaces = card[5]
    best = -1  # the first free space of the most VP (a loop: no lambda, no cells)
    for k in range(len(spaces)):
        if s.trade[first + k] == -1 and (best == -1 or spaces[k] > spaces[best]):
            best = k
    if best != -1:
        s.trade[first + best] = p
        vp = spaces[best]
    else:
        s.extra[a] |= 1 << p
        vp = 0
    s.emit("hired", p, card=s.slot_card[a], cost=card[3], vp=vp, source=_where(s, kind, where))
    s.hiring = a  # this first activation must earn a use
    begin_group(s, p, G_CARD, a)


def _where(s: TroyesState, kind: int, where: int) -> list[int]:
    return [kind, where if kind != SRC_CARD else s.slot_card[where]]


# -- forming the group -----------------------------------------------------------------------
def group_legal(s: TroyesState, top: tuple) -> list[Action]:
    _f, p, kind, target, mod, chosen = top
    t = s.tables
    # group_budget and make_ctx, whether p is hiring asked once
    if kind == G_CARD:
        card = s.slot_card[target]
        hires = hiring(s, target, p)
        budget = s.money[p] - first_use_prices(s.comp)[card][0] if hires else s.money[p]
    else:
        card, hires, budget = target, False, s.money[p]
    if mod == MOD_ASK:
        return _cube_actions(s, mod_options(s, p, kind, target, budget, own_mods(s, p)))
    key = (kind, card, MOD_NONE if mod == MOD_NONE else s.slot_card[mod], hires)
    ctx = s.comp.kept_ctx.get(key) or kept_ctx(s.comp, *key)  # kept_ctx's answer, kept already
    assert ctx is not None
    if ctx.by_price and len(chosen) < ctx.max_size:  # addable's commonest case, a call less
        dice = addable_to_sum(s, p, ctx, chosen, budget, False)
    else:
        dice = addable(s, p, ctx, chosen, budget)
    out = list(map(t.die.__getitem__, dice))
    # the group as it stands may be played (it always fits the budget)
    if chosen and (ctx.need != NEED_SUM or group_total(ctx, chosen) >= ctx.arg):  # bonus counted
        out.append(t.go)
    return out


def _cube_actions(s: TroyesState, options: list[int]) -> list[Action]:
    cube, nocube = s.tables.cube, s.tables.nocube
    out = []
    for option in options:  # a loop, not a comprehension: no cells
        out.append(nocube if option == MOD_NONE else cube[option])
    return out


def apply_cube(s: TroyesState, slot: int) -> None:
    _f, p, kind, target, _mod, chosen = s.stack[-1]
    _use_cube(s, p, slot)
    s.stack[-1] = (F_GROUP, p, kind, target, slot, chosen)


def apply_nocube(s: TroyesState) -> None:
    _f, p, kind, target, _mod, chosen = s.stack[-1]
    s.stack[-1] = (F_GROUP, p, kind, target, MOD_NONE, chosen)


def apply_die(s: TroyesState, d: int) -> None:
    _f, p, kind, target, mod, chosen = s.stack[-1]
    s.dice[d] -= 1
    chosen = (*chosen, d)
    s.stack[-1] = (F_GROUP, p, kind, target, mod, chosen)
    # a full group goes by itself; groups hold at most one die or MAX_GROUP (Ctx.max_size),
    # so only the first die needs the rules
    if len(chosen) >= MAX_GROUP or (
            len(chosen) == 1 and make_ctx(s, kind, target, mod, p).max_size == 1):
        resolve_group(s)


def resolve_group(s: TroyesState) -> None:
    """Pay for the group (its dice are already out of the districts) and do the action."""
    _f, p, kind, target, mod, chosen = s.stack[-1]
    c = s.comp
    ctx = make_ctx(s, kind, target, mod, p)
    assert ctx is not None
    s.stack.pop()
    hired = s.hiring == target and kind == G_CARD
    s.hiring = -1
    paid = payments(s, p, ctx, chosen)
    for district, price in paid:
        s.money[p] -= price
        if district != NEUTRAL:
            s.money[district] += price
    s.emit("group", p, dice=list(chosen), paid=list(map(list, paid)), action=kind)
    total = group_total(ctx, chosen)
    if kind == G_CARD:
        activate(s, p, target, total // c.cards[s.slot_card[target]][4], hired)
    elif kind == G_EVENT:
        _fight(s, p, target, total)
    elif kind == G_CATHEDRAL:
        _build(s, p, ctx, chosen)
    elif kind == G_PLACE:
        value = ctx.values[chosen[0] % 18]
        s.stack.append((F_SOURCE, p, SRC_PLACE, target, value, ))
        _auto_source(s)
    else:
        gain = total // c.agriculture_divisor
        s.money[p] += gain
        s.emit("farm", p, deniers=gain)


def _fight(s: TroyesState, p: int, card: int, total: int) -> None:
    pos = s.queue.index(card)
    cubes = min(total // s.comp.events[card][5], free_banners(s, pos))
    s.emit("fight", p, card=card, cubes=cubes, influence=cubes * s.comp.per_event_cube)
    for _ in range(cubes):
        if add_cube(s, pos, p):
            break


def _build(s: TroyesState, p: int, ctx, chosen: tuple[int, ...]) -> None:
    c = s.comp
    for d in chosen:
        column = d % 6
        for _ in range(ctx.single or 1):
            level = cathedral_free_level(s, column)
            s.cathedral[level * c.columns + column] = p
            s.vp[p] += c.cathedral_vp
            gained = gain_influence(s, p, c.cathedral_influence[column])
            s.emit("cathedral", p, level=level, column=column, vp=c.cathedral_vp, influence=gained)


# -- paid uses and choices after the action -------------------------------------------------------
def uses_legal(s: TroyesState, top: tuple) -> list[Action]:
    _f, p, slot, left, used, must = top
    t = s.tables
    key = s.comp.cards[s.slot_card[slot]][0]
    out: list[Action] = []
    if left and can_use(s, p, key):
        out.append(t.use)
    # the activation that hired the tradesman must make a use; on a card staffed before, the
    # uses are all optional, as its dice may earn none (docs/coverage/troyes.md)
    if used or not must:
        out.append(t.stop)
    return out


def mill_legal(s: TroyesState, top: tuple) -> list[Action]:
    return [s.tables.mill[i] for i in range(len(MILL_BUILDINGS))]


def target_legal(s: TroyesState, top: tuple) -> list[Action]:
    t = s.tables
    return [t.target[pos] for pos in range(len(s.queue)) if free_banners(s, pos) > 0]

