"""Troyes in words: labels and explanations of every action, prompts, log lines, component
names, the score breakdown and the terminal board, as messages of the ``troyes`` catalogs
(``locale/en.po``, ``locale/ja.po``); Japanese terms follow the rule summary (活動カード, 職人,
大聖堂, 市民駒, 影響点, 区画, 迎撃 ...). Also ``legend``: the printed tables a client draws from.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import TYPE_CHECKING, Any

from palio.core.words import (
    ActionWords,
    GameWords,
    GlossaryEntry,
    Msg,
    Player,
    Prompt,
    ScoreRow,
    msg,
)
from palio.games.troyes import actions as A
from palio.games.troyes.components import (
    BUILDINGS,
    CARD_KEYS,
    CHARACTER_KEYS,
    COLOURS,
    DELAYED_CARDS,
    EVENT_KEYS,
    Components,
)
from palio.games.troyes.state import (
    F_COMBAT,
    F_DRAFT,
    F_FLIP,
    F_GROUP,
    F_MILL,
    F_SOURCE,
    F_TARGET,
    F_TURN,
    F_USES,
    G_CARD,
    G_CATHEDRAL,
    G_EVENT,
    G_PLACE,
    MOD_ASK,
    NEUTRAL,
    SRC_PLACE,
)

if TYPE_CHECKING:
    from palio.core.game import Action, State
    from palio.games.troyes.state import TroyesState

D = "troyes"
FACE_OF = {f"{col}{v}": i * 6 + v - 1 for i, col in enumerate(A.DIE_COLOURS) for v in range(1, 7)}
SLOT_OF = {name: i for i, name in enumerate(A.SLOTS)}
DISTRICT_OF = {name: i for i, name in enumerate(A.DISTRICTS)}
SECTIONS = {  # rules document anchors (docs/rules/troyes.md)
    F_DRAFT: "initial-placement", F_COMBAT: "combat", F_FLIP: "influence", F_TURN: "actions",
    F_USES: "activity-cards", F_MILL: "activity-cards", F_TARGET: "activity-cards",
}
GROUP_SECTIONS = ("activity-cards", "cathedral", "fighting-events", "placing-a-citizen",
                  "agriculture")


def m(key: str, **params: Any) -> Msg:
    return msg(f"{D}.{key}", **params)


# -- names -----------------------------------------------------------------------------------
def seq(items: Sequence[Msg | Player], pair: str = "pair") -> Msg:
    """Items side by side (a list without "and"): ``pair`` joins two of them with a comma,
    ``pair.slash`` with a slash, ``pair.dot`` with a dot."""
    if not items:
        return m("none")
    out = items[-1]
    for item in reversed(items[:-1]):
        out = m(pair, a=item, b=out)
    return out if isinstance(out, Msg) else m("who", player=out)


def colour(c: int) -> Msg:
    return m(f"colour.{COLOURS[c]}")


def die(face: int) -> Msg:
    return m("die", colour=colour(face // 6), value=face % 6 + 1)


def black_die(value: int) -> Msg:
    return m("die", colour=m("colour.black"), value=value)


def card_name(comp: Components, card: int) -> Msg:
    return m(f"card.{comp.cards[card][0]}")


def event_name(comp: Components, card: int) -> Msg:
    return m(f"event.{comp.events[card][0]}")


def building(b: int) -> Msg:
    return m(f"building.{BUILDINGS[b]}")


def owner(o: int) -> Msg | Player:
    if o == NEUTRAL:
        return m("neutral")
    if o < 0:
        return m("empty")
    return Player(o)


def district(d: int) -> Msg:
    return m("district.neutral") if d == NEUTRAL else m("district.seat", player=Player(d))


def space(comp: Components, i: int) -> Msg:
    b, row, slot = comp.spaces[i]
    r = comp.rows[comp.building_rows[b][row]]
    if r[3] == 1:
        return m("space.single", building=building(b), value=_values(r[1]))
    return m("space.row", building=building(b), values=_values(r[1]), place=slot + 1)


def _values(values: Sequence[int]) -> str:
    return "–".join(str(v) for v in (values[0], values[-1])) if len(values) > 1 else str(values[0])


def character(comp: Components, ch: int) -> Msg:
    return m(f"char.{comp.characters[ch][0]}")


def slot_card(s: TroyesState, slot: int) -> Msg:
    return card_name(s.comp, s.slot_card[slot])


def group_action(s: TroyesState, kind: int, target: int) -> Msg:
    if kind == G_CARD:
        return m("do.card", card=slot_card(s, target))
    if kind == G_EVENT:
        return m("do.event", event=event_name(s.comp, target))
    if kind == G_PLACE:
        return m("do.place", building=building(target))
    return m("do.cathedral") if kind == G_CATHEDRAL else m("do.farm")


# -- the words of the game -----------------------------------------------------------------------
class TroyesWords(GameWords):
    domain = D

    def __init__(self, comp: Components | None = None) -> None:
        from palio.games.troyes.components import DEFAULT

        self.comp = comp or DEFAULT

    # -- actions ---------------------------------------------------------------------------
    def action(self, state: State, action: Action) -> ActionWords:
        s: TroyesState = state  # type: ignore[assignment]
        handler = _ACTION_WORDS[type(action)]
        label, explain, group = handler(s, action)
        return ActionWords(label, explain, m(f"group.{group}"))

    def outcomes(self, state: State, seat: int) -> list[Msg]:
        """How many event cards ``seat`` won (taken in plain view; Henry I counts them)."""
        s: TroyesState = state  # type: ignore[assignment]
        won = len(s.won[seat])
        return [m("outcome.events_won", n=won)] if won else []

    def why_illegal(self, state: State, action: Action) -> Msg | None:
        s: TroyesState = state  # type: ignore[assignment]
        if s.is_over:
            return m("why.over")
        top = s.stack[-1][0]
        kind = type(action)
        if kind in (A.Reroll, A.Flip) and s.influence[s.to_move] < (
                s.comp.reroll_cost if kind is A.Reroll else s.comp.flip_cost):
            return m("why.influence")
        if kind in (A.ActivateCard, A.Cathedral, A.FightEvent, A.PlaceCitizen, A.Farm, A.Pass) \
                and top != F_TURN:
            return m("why.not_your_action")
        if kind is A.ActivateCard and SLOT_OF.get(action.slot, 0) % 3 >= s.revealed:
            return m("why.face_down")
        if kind is A.FightEvent and action.position > len(s.queue):
            return m("why.no_event")
        if kind in (A.ActivateCard, A.Cathedral, A.FightEvent, A.PlaceCitizen, A.Farm):
            return m("why.no_group")
        if kind is A.TakeDie and top == F_GROUP:
            return m("why.die")
        return None

    # -- prompts ---------------------------------------------------------------------------
    def prompt(self, state: State) -> Prompt:
        s: TroyesState = state  # type: ignore[assignment]
        top = s.stack[-1]
        kind, p = top[0], top[1]
        who = Player(p)
        if kind == F_COMBAT:
            value = s.black[0]
            return Prompt(m("prompt.combat", value=value, extra=len(s.black) - 1),
                          m("prompt.combat.other", player=who, value=value), "combat")
        if kind == F_FLIP:
            return Prompt(m("prompt.flip", n=len(top[3])), m("prompt.flip.other", player=who),
                          "influence")
        if kind == F_SOURCE:
            if top[2] == SRC_PLACE:
                return Prompt(m("prompt.source.place", building=building(top[3])),
                              m("prompt.source.place.other", player=who, building=building(top[3])),
                              "placing-a-citizen")
            return Prompt(m("prompt.source.trade", card=slot_card(s, top[3])),
                          m("prompt.source.trade.other", player=who, card=slot_card(s, top[3])),
                          "activity-cards")
        if kind == F_GROUP:
            _f, _p, gkind, target, mod, chosen = top
            doing = group_action(s, gkind, target)
            section = GROUP_SECTIONS[gkind]
            if mod == MOD_ASK:
                return Prompt(m("prompt.cube", action=doing), m("prompt.cube.other", player=who),
                              "delayed-cards")
            return Prompt(m("prompt.dice", action=doing, n=len(chosen)),
                          m("prompt.dice.other", player=who, action=doing), section)
        if kind == F_USES:
            key = "prompt.uses" if top[4] else "prompt.uses.first"  # none made yet
            return Prompt(m(key, card=slot_card(s, top[2]), n=top[3]),
                          m("prompt.uses.other", player=who, card=slot_card(s, top[2])), "activity-cards")
        if kind == F_MILL:
            return Prompt(m("prompt.mill", n=top[2]), m("prompt.mill.other", player=who), "activity-cards")
        if kind == F_TARGET:
            return Prompt(m("prompt.target", n=top[2]), m("prompt.target.other", player=who),
                          "activity-cards")
        if kind == F_DRAFT:
            return Prompt(m("prompt.draft", n=s.supply[p]), m("prompt.draft.other", player=who),
                          "initial-placement")
        return Prompt(m("prompt.turn", round=s.round), m("prompt.turn.other", player=who), "actions")

    # -- log -------------------------------------------------------------------------------
    def event(self, event: Mapping[str, Any]) -> Msg | None:
        handler = _EVENT_WORDS.get(event["kind"])
        return None if handler is None else handler(self.comp, event)

    # -- components --------------------------------------------------------------------------
    def glossary(self) -> Sequence[GlossaryEntry]:
        out = []
        for key in CARD_KEYS:
            out.append(GlossaryEntry(f"card.{key}", m(f"card.{key}"), m(f"card.{key}.text")))
        for key in EVENT_KEYS:
            out.append(GlossaryEntry(f"event.{key}", m(f"event.{key}"), m(f"event.{key}.text")))
        for key in CHARACTER_KEYS:
            out.append(GlossaryEntry(f"char.{key}", m(f"char.{key}"), m(f"char.{key}.text")))
        for key in BUILDINGS:
            out.append(GlossaryEntry(f"building.{key}", m(f"building.{key}"), m(f"building.{key}.text")))
        for key in (*COLOURS, "black"):
            out.append(GlossaryEntry(f"die.{key}", m("die.name", colour=m(f"colour.{key}")),
                                     m(f"die.{key}.text")))
        for key in GLOSSARY_TERMS:
            out.append(GlossaryEntry(key, m(f"term.{key}"), m(f"term.{key}.text")))
        return out

    # -- scores ----------------------------------------------------------------------------
    def scores(self, state: State) -> list[ScoreRow]:
        s: TroyesState = state  # type: ignore[assignment]
        if not s.is_over:
            return [ScoreRow(m("score.tokens"), tuple(s.vp))]
        from palio.games.troyes.scoring import breakdown, character_vp, dealt_characters

        rows = breakdown(s)
        out = [ScoreRow(m(f"score.{name}"), tuple(rows[name]))
               for name in ("tokens", "events", "tradesmen", "cathedral")]
        for ch in dealt_characters(s):
            out.append(ScoreRow(m("score.character", character=character(s.comp, ch)),
                                tuple(character_vp(s, ch, p) for p in range(s.players))))
        if any(rows["floor"]):
            out.append(ScoreRow(m("score.floor"), tuple(rows["floor"])))
        return out

    # -- the terminal board ------------------------------------------------------------------
    def board(self, state: State, seat: int | None) -> list[Msg]:
        return board_lines(state, seat)  # type: ignore[arg-type]


GLOSSARY_TERMS = ("cathedral", "influence", "vp", "denier", "district", "district.neutral",
                  "tradesman", "cube", "citizen", "citizen.neutral", "start_player", "event_queue",
                  "supply", "reserve", "purse", "expelled", "banner", "character", "activity_card",
                  "delayed", "black_dice", "agriculture")


# -- action words -------------------------------------------------------------------------------
def _draft(s: TroyesState, a: A.Draft) -> tuple[Msg, Msg, str]:
    i = s.comp.space_id[a.space]
    b = s.comp.spaces[i][0]
    return (m("act.draft", space=space(s.comp, i)),
            m("act.draft.explain", colour=colour(b)), "draft")


def _reroll(s: TroyesState, a: A.Reroll) -> tuple[Msg, Msg, str]:
    face = FACE_OF[f"{a.colour}{a.value}"]
    return m("act.reroll", die=die(face)), m("act.reroll.explain", cost=s.comp.reroll_cost), "influence"


def _flip(s: TroyesState, a: A.Flip) -> tuple[Msg, Msg, str]:
    return m("act.flip"), m("act.flip.explain", cost=s.comp.flip_cost, most=s.comp.flip_max), "influence"


def _flip_die(s: TroyesState, a: A.FlipDie) -> tuple[Msg, Msg, str]:
    face = FACE_OF[f"{a.colour}{a.value}"]
    new = face - face % 6 + 5 - face % 6
    return m("act.flip_die", die=die(face)), m("act.flip_die.explain", new=die(new)), "influence"


def _done(s: TroyesState, a: A.Done) -> tuple[Msg, Msg, str]:
    return m("act.done"), m("act.done.explain"), "influence"


def _recruit(s: TroyesState, a: A.Recruit) -> tuple[Msg, Msg, str]:
    p = s.to_move
    return (m("act.recruit"), m("act.recruit.explain", cost=s.comp.citizen_cost,
                                left=s.reserve[p] if p is not None else 0), "influence")


def _pass(s: TroyesState, a: A.Pass) -> tuple[Msg, Msg, str]:
    return (m("act.pass"), m("act.pass.explain", first=s.comp.pass_first, again=s.comp.pass_again),
            "action")


def _card(s: TroyesState, a: A.ActivateCard) -> tuple[Msg, Msg, str]:
    from palio.games.troyes.rules.board import has_tradesman

    slot = SLOT_OF[a.slot]
    c = s.comp
    card = c.cards[s.slot_card[slot]]
    key = card[0]
    dice = m("colour.any") if key == "pilgrimage" else colour(card[1])
    effect = m(f"card.{key}.text")
    p = s.to_move
    if p is not None and not has_tradesman(s, p, slot):
        explain = m("act.card.hire", cost=card[3], dice=dice, divisor=card[4], effect=effect)
    else:
        explain = m("act.card.explain", dice=dice, divisor=card[4], effect=effect)
    return m("act.card", card=m(f"card.{key}")), explain, "action"


def _cathedral(s: TroyesState, a: A.Cathedral) -> tuple[Msg, Msg, str]:
    return m("act.cathedral"), m("act.cathedral.explain"), "action"


def _event(s: TroyesState, a: A.FightEvent) -> tuple[Msg, Msg, str]:
    c = s.comp
    pos = a.position - 1
    card = s.queue[pos] if pos < len(s.queue) else c.marauding
    ev = c.events[card]
    free = ev[6] - (len(s.ev_cubes[pos]) if pos < len(s.queue) else 0)
    return (m("act.event", event=event_name(c, card)),
            m("act.event.explain", colour=colour(ev[4]), divisor=ev[5], free=free,
              first=ev[7][0], second=ev[7][1]), "action")


def _place(s: TroyesState, a: A.PlaceCitizen) -> tuple[Msg, Msg, str]:
    b = "PBC".index(a.building)
    return (m("act.place", building=building(b)),
            m(f"act.place.explain.{'palace' if b == 0 else 'row'}", colour=colour(b), building=building(b)),
            "action")


def _farm(s: TroyesState, a: A.Farm) -> tuple[Msg, Msg, str]:
    return m("act.farm"), m("act.farm.explain", divisor=s.comp.agriculture_divisor), "action"


def _cube(s: TroyesState, a: A.UseCube) -> tuple[Msg, Msg, str]:
    slot = SLOT_OF[a.slot]
    key = s.comp.cards[s.slot_card[slot]][0]
    return m("act.cube", card=m(f"card.{key}")), m(f"card.{key}.text"), "cube"


def _nocube(s: TroyesState, a: A.NoCube) -> tuple[Msg, Msg, str]:
    return m("act.nocube"), m("act.nocube.explain"), "cube"


def _group_ctx(s: TroyesState):
    from palio.games.troyes.rules.group import make_ctx

    top = s.stack[-1]
    if top[0] != F_GROUP:
        return None, top
    return make_ctx(s, top[2], top[3], top[4], top[1]), top


def _take_die(s: TroyesState, a: A.TakeDie) -> tuple[Msg, Msg, str]:
    d = DISTRICT_OF[a.district]
    face = FACE_OF[f"{a.colour}{a.value}"]
    ctx, top = _group_ctx(s)
    p = s.to_move
    where = m("from.own") if d == p else district(d)
    label = m("act.die", die=die(face), district=where)
    if ctx is None:
        return label, m("act.die.explain.own"), "dice"
    counts = ctx.value(face)
    chosen = top[5]
    if d == p:
        explain = m("act.die.explain.own.counts", value=counts)
    elif ctx.tithe and all(x // 18 != d for x in chosen):
        explain = m("act.die.explain.tithe", value=counts)
    elif ctx.single:
        explain = m("act.die.explain.single", value=counts, price=s.comp.single_die_price)
    else:
        prices = s.comp.die_prices
        explain = m("act.die.explain.buy", value=counts, one=prices[0], two=prices[1], three=prices[2])
    return label, explain, "dice"


def _go(s: TroyesState, a: A.Go) -> tuple[Msg, Msg, str]:
    from palio.games.troyes.rules.group import group_cost, group_total

    ctx, top = _group_ctx(s)
    if ctx is None:
        return m("act.go"), m("act.go.explain.plain"), "dice"
    _f, p, kind, target, _mod, chosen = top
    c = s.comp
    total = group_total(ctx, chosen)
    cost = group_cost(s, p, ctx, chosen)
    if kind == G_CARD:
        outcome = m("outcome.card", card=slot_card(s, target), n=total // c.cards[s.slot_card[target]][4])
    elif kind == G_EVENT:
        from palio.games.troyes.rules.events import free_banners

        pos = s.queue.index(target)
        outcome = m("outcome.event", event=event_name(c, target),
                    n=min(total // c.events[target][5], free_banners(s, pos)))
    elif kind == G_CATHEDRAL:
        outcome = m("outcome.cathedral", n=len(chosen) * (ctx.single or 1))
    else:
        outcome = m("outcome.farm", n=total // c.agriculture_divisor)
    return m("act.go"), m("act.go.explain", total=total, cost=cost, outcome=outcome), "dice"


def _source(s: TroyesState, a: A.Source) -> tuple[Msg, Msg, str]:
    from palio.games.troyes.rules.board import SRC_CARD, SRC_LYING, SRC_RESERVE, SRC_SPACE
    from palio.games.troyes.rules.turn import decode_source

    kind, where = decode_source(s, s.tables.sources.index(a))
    if kind == SRC_RESERVE:
        label = m("src.reserve", cost=s.comp.citizen_cost)
    elif kind == SRC_SPACE:
        label = m("src.space", space=space(s.comp, where))
    elif kind == SRC_LYING:
        label = m("src.lying", building=building(where))
    elif kind == SRC_CARD:
        label = m("src.card", card=slot_card(s, where))
    else:
        label = m("src.supply")
    top = s.stack[-1]
    if top[0] == F_SOURCE and top[2] == SRC_PLACE:
        explain = m("src.explain.place", building=building(top[3]), value=top[4])
    elif top[0] == F_SOURCE:
        explain = m("src.explain.trade", card=slot_card(s, top[3]), cost=s.comp.cards[s.slot_card[top[3]]][3])
    else:
        explain = m("src.explain.plain")
    return label, explain, "citizen"


def _use(s: TroyesState, a: A.Use) -> tuple[Msg, Msg, str]:
    top = s.stack[-1]
    if top[0] != F_USES:
        return m("act.use.plain"), m("act.use.explain.plain"), "effect"
    key = s.comp.cards[s.slot_card[top[2]]][0]
    return (m("act.use", card=m(f"card.{key}")), m(f"use.{key}", n=top[3], **s.comp.fx[key]), "effect")


def _stop(s: TroyesState, a: A.Stop) -> tuple[Msg, Msg, str]:
    top = s.stack[-1]
    left = top[3] if top[0] == F_USES else 0
    return m("act.stop"), m("act.stop.explain", n=left), "effect"


def _mill(s: TroyesState, a: A.Mill) -> tuple[Msg, Msg, str]:
    from palio.games.troyes.rules.board import citizens_in

    b = "PB".index(a.building)
    p = s.to_move
    n = citizens_in(s, p, b) if p is not None else 0
    gain = s.comp.fx["miller"]["deniers"] * n
    return m("act.mill", building=building(b)), m("act.mill.explain", deniers=gain, n=n), "effect"


def _target(s: TroyesState, a: A.Target) -> tuple[Msg, Msg, str]:
    c = s.comp
    pos = a.position - 1
    card = s.queue[pos] if pos < len(s.queue) else c.marauding
    free = c.events[card][6] - (len(s.ev_cubes[pos]) if pos < len(s.queue) else 0)
    return m("act.target", event=event_name(c, card)), m("act.target.explain", free=free), "effect"


def _defend(s: TroyesState, a: A.Defend) -> tuple[Msg, Msg, str]:
    from palio.games.troyes.rules.combat import strength

    face = FACE_OF[f"{a.colour}{a.value}"]
    target = s.black[0] if s.black else 0
    return (m("act.def", die=die(face), black=target),
            m("act.def.explain", value=strength(face)), "combat")


def _also(s: TroyesState, a: A.Also) -> tuple[Msg, Msg, str]:
    return m("act.also", value=a.value), m("act.also.explain"), "combat"


def _counter(s: TroyesState, a: A.Counter) -> tuple[Msg, Msg, str]:
    top = s.stack[-1]
    n = 1 + (len(top[3]) if top[0] == F_COMBAT else 0)
    return m("act.counter"), m("act.counter.explain", n=n), "combat"


def _concede(s: TroyesState, a: A.Concede) -> tuple[Msg, Msg, str]:
    target = s.black[0] if s.black else 0
    return m("act.concede", value=target), m("act.concede.explain", vp=s.comp.penalty_vp), "combat"


_ACTION_WORDS = {
    A.Draft: _draft, A.Reroll: _reroll, A.Flip: _flip, A.FlipDie: _flip_die, A.Done: _done,
    A.Recruit: _recruit, A.Pass: _pass, A.ActivateCard: _card, A.Cathedral: _cathedral,
    A.FightEvent: _event, A.PlaceCitizen: _place, A.Farm: _farm, A.UseCube: _cube,
    A.NoCube: _nocube, A.TakeDie: _take_die, A.Go: _go, A.Source: _source, A.Use: _use,
    A.Stop: _stop, A.Mill: _mill, A.Target: _target, A.Defend: _defend, A.Also: _also,
    A.Counter: _counter, A.Concede: _concede,
}


# -- log words --------------------------------------------------------------------------------
def _dice(faces: Sequence[int]) -> Msg:
    return seq([die(f) for f in faces])


def _ev(c: Components, e: Mapping[str, Any], key: str = "card") -> Msg:
    return event_name(c, e[key])


def _source_words(c: Components, src: Sequence[int]) -> Msg:
    kind, where = src
    if kind == 1:
        return m("src.reserve.short")
    if kind == 2:
        return m("src.space.short", space=space(c, where))
    if kind == 3:
        return m("src.lying.short", building=building(where))
    if kind == 4:
        return m("src.card.short", card=card_name(c, where))
    return m("src.supply.short")


def _group_log(c: Components, e: Mapping[str, Any]) -> Msg:
    dice = seq([m("die.at", die=die(d % 18), district=district(d // 18)) for d in e["dice"]])
    paid = [x for x in e["paid"] if x[1]]
    if not paid:
        return m("log.group", player=Player(e["seat"]), dice=dice)
    payments = seq([m("log.paid_to", deniers=x, to=m("bank") if d == NEUTRAL else Player(d))
                    for d, x in paid])
    return m("log.group.paid", player=Player(e["seat"]), dice=dice, payments=payments)


def _changes(e: Mapping[str, Any]) -> Msg:
    parts = []
    for key in ("deniers", "vp", "influence"):
        n = e.get(key, 0)
        if n:
            parts.append(m(f"change.{key}", n=n) if n > 0 else m(f"change.{key}.lost", n=-n))
    return seq(parts)


def _penalty(c: Components, e: Mapping[str, Any]) -> Msg:
    none = "" if e["vp"] else ".none"
    if e["reason"] == "salary":
        return m(f"log.penalty.salary{none}", player=Player(e["seat"]), vp=e["vp"])
    return m(f"log.penalty.event{none}", player=Player(e["seat"]), event=_ev(c, e), vp=e["vp"])


def _neutral(c: Components, e: Mapping[str, Any]) -> Msg:
    return m(f"log.neutral.{e['result']}", event=_ev(c, e), value=e["value"], building=building(e["building"]))


def _countered(c: Components, e: Mapping[str, Any]) -> Msg:
    gains = seq([m("log.vp_to", player=owner(o), vp=v) for o, v in e["vp"]])
    if e["stays"]:
        return m("log.countered.stays", event=_ev(c, e), gains=gains)
    if e["winner"] == NEUTRAL:
        return m("log.countered.discarded", event=_ev(c, e), gains=gains)
    return m("log.countered", event=_ev(c, e), gains=gains, player=Player(e["winner"]))


def _cathedral_space(e: Mapping[str, Any]) -> Msg:
    return m("cathedral.space", level=e["level"] + 1, column=e["column"] + 1)


def _workforce(c: Components, e: Mapping[str, Any]) -> Msg:
    if e.get("neutral"):
        return m("log.workforce.neutral", dice=_dice(e["faces"]))
    return m("log.workforce", player=Player(e["seat"]), dice=_dice(e["faces"]))


def _deal(c: Components, e: Mapping[str, Any]) -> Msg:
    if "characters" in e:
        return m("log.deal.own", characters=seq([character(c, ch) for ch in e["characters"]]))
    return m("log.deal", player=Player(e["seat"]))


def _game_over(c: Components, e: Mapping[str, Any]) -> Msg:
    held = [m("log.holds", player=Player(p), characters=seq([character(c, ch) for ch in chars]))
            for p, chars in enumerate(e["characters"])]
    return m("log.game_over", holds=seq(held))


def _placed(c: Components, e: Mapping[str, Any]) -> Msg:
    where = m("log.placed", player=Player(e["seat"]), building=building(e["building"]),
              value=e["value"], source=_source_words(c, e["source"]))
    if e["expelled"] == -1:
        return where
    return m("log.placed.expels", placed=where, expelled=owner(e["expelled"]))


def _seat(e: Mapping[str, Any]) -> Player:
    return Player(e["seat"])


_EVENT_WORDS: dict[str, Any] = {
    "setup": lambda c, e: m("log.setup", n=e["players"], rounds=e["rounds"]),
    "deal": _deal,
    "draft": lambda c, e: m("log.draft", player=_seat(e), space=space(c, e["space"])),
    "draft_done": lambda c, e: m("log.draft_done"),
    "round": lambda c, e: m("log.round", round=e["round"], player=Player(e["start"])),
    "cards_revealed": lambda c, e: m("log.cards_revealed", cards=seq([card_name(c, k) for k in e["cards"]])),
    "income": lambda c, e: m("log.income", player=_seat(e), income=e["income"], paid=e["paid"]),
    "penalty": _penalty,
    "workforce": _workforce,
    "event_enters": lambda c, e: m("log.event_enters", event=_ev(c, e)),
    "neutral_citizen": _neutral,
    "heresy": lambda c, e: m("log.heresy", player=_seat(e), event=_ev(c, e), n=e["lost"]),
    "builders": lambda c, e: m("log.builders", event=_ev(c, e)) if e["level"] >= 0 else m("log.builders.full", event=_ev(c, e)),
    "interrupted": lambda c, e: m("log.interrupted", event=_ev(c, e), space=_cathedral_space(e), player=owner(e["owner"])) if e["level"] >= 0 else m("log.interrupted.empty", event=_ev(c, e)),
    "pays_event": lambda c, e: m("log.pays_event", player=_seat(e), event=_ev(c, e), paid=e["paid"]),
    "support": lambda c, e: m("log.support", event=_ev(c, e), target=_ev(c, e, "target")),
    "resistance": lambda c, e: m("log.resistance", event=_ev(c, e), target=_ev(c, e, "target"), player=owner(e["owner"])),
    "black_dice": lambda c, e: m("log.black_dice", dice=seq([black_die(v) for v in e["dice"]])),
    "black_lost": lambda c, e: m("log.black_lost" if e["vp"] else "log.black_lost.none", player=_seat(e), value=e["value"], vp=e["vp"]),
    "black_beaten": lambda c, e: m("log.black_beaten", player=_seat(e), black=seq([black_die(v) for v in e["black"]]), dice=_dice(e["faces"]), n=e["influence"]),
    "reroll": lambda c, e: m("log.reroll", player=_seat(e), die=die(e["face"]), new=die(e["new"])),
    "flip_paid": lambda c, e: m("log.flip_paid", player=_seat(e), cost=e["cost"]),
    "flip": lambda c, e: m("log.flip", player=_seat(e), die=die(e["face"]), new=die(e["new"])),
    "recruit": lambda c, e: m("log.recruit", player=_seat(e)),
    "pass": lambda c, e: m("log.pass", player=_seat(e), n=e["deniers"]),
    "pass_income": lambda c, e: m("log.pass_income", player=_seat(e), n=e["deniers"]),
    "hired": lambda c, e: m("log.hired", player=_seat(e), card=card_name(c, e["card"]), cost=e["cost"], vp=e["vp"], source=_source_words(c, e["source"])),
    "cube_used": lambda c, e: m("log.cube_used", player=_seat(e), card=card_name(c, e["card"])),
    "group": _group_log,
    "activate": lambda c, e: m("log.activate", player=_seat(e), card=card_name(c, e["card"]), n=e["uses"]),
    "card_cubes": lambda c, e: m("log.card_cubes", player=_seat(e), card=card_name(c, e["card"]), n=e["cubes"]),
    "effect": lambda c, e: m("log.effect", player=_seat(e), card=card_name(c, e["card"]), changes=_changes(e)),
    "use": lambda c, e: m("log.use", player=_seat(e), card=card_name(c, e["card"])),
    "mill": lambda c, e: m("log.mill", player=_seat(e), building=building(e["building"]), n=e["deniers"]),
    "archer": lambda c, e: m("log.archer.hit" if e["hit"] else "log.archer.miss", player=_seat(e), value=e["value"]),
    "chivalry": lambda c, e: m("log.chivalry", player=_seat(e), n=e["cubes"]),
    "card_cube": lambda c, e: m("log.card_cube", player=_seat(e), event=_ev(c, e, "target")),
    "fight": lambda c, e: m("log.fight", player=_seat(e), event=_ev(c, e), n=e["cubes"]),
    "event_countered": _countered,
    "cathedral": lambda c, e: m("log.cathedral", player=_seat(e), space=_cathedral_space(e), vp=e["vp"], influence=e["influence"]),
    "placed": _placed,
    "farm": lambda c, e: m("log.farm", player=_seat(e), n=e["deniers"]),
    "round_end": lambda c, e: m("log.round_end", round=e["round"]),
    "game_over": _game_over,
}


# -- the legend: printed tables a client draws from ------------------------------------------------
def legend(c: Components) -> dict[str, Any]:
    return {
        "slots": list(A.SLOTS),
        "space_labels": list(c.space_label),
        "spaces": [list(sp) for sp in c.spaces],
        "rows": [{"building": BUILDINGS[b], "values": list(values), "first": first, "slots": n}
                 for b, values, first, n in c.rows],
        "cards": [{"key": k[0], "colour": COLOURS[k[1]], "round": k[2], "hire": k[3], "divisor": k[4],
                   "spaces": list(k[5]), "delayed": k[0] in DELAYED_CARDS, "bonus": k[6]} for k in c.cards],
        "events": [{"key": k[0], "deck": k[1], "black": k[2],
                    "calls": None if k[3] is None else COLOURS[k[3]], "fight": COLOURS[k[4]],
                    "divisor": k[5], "banners": k[6], "vp": list(k[7]), "bonus": k[8]} for k in c.events],
        "characters": [{"key": k, "thresholds": [list(t) for t in th], "two_player_shift": shift}
                       for k, th, shift in c.characters],
        "cathedral": {"columns": c.columns, "levels": c.levels, "vp": c.cathedral_vp,
                      "influence": list(c.cathedral_influence), "missing_level_vp": c.missing_level_vp},
        "die_prices": list(c.die_prices), "influence_max": c.influence_max,
        "influence_costs": {"reroll": c.reroll_cost, "citizen": c.citizen_cost, "flip": c.flip_cost},
        "max_trade_spaces": c.max_trade_spaces,
    }



# -- the terminal board ------------------------------------------------------------------------
def _owners(owners: Sequence[int], pair: str = "pair") -> Msg:
    return seq([_owner_msg(o) for o in owners], pair)


def _owner_msg(o: int) -> Msg:
    who = owner(o)
    return who if isinstance(who, Msg) else m("who", player=who)


def _district_dice(s: TroyesState, d: int) -> Msg:
    faces = [f for f in range(18) for _ in range(s.dice[d * 18 + f])]
    return _dice(faces)


def board_lines(s: TroyesState, seat: int | None) -> list[Msg]:
    """The position in about 20 + players lines (under 50 with four players)."""
    c = s.comp
    lines: list[Msg] = []
    phase = ("draft", "combat", "actions", "over")[s.phase]
    mover = m("board.nobody") if s.is_over else _owner_msg(s.to_move)
    lines.append(m("board.header", round=s.round, rounds=s.rounds, start=Player(s.start),
                   phase=m(f"phase.{phase}"), mover=mover))
    events = []
    for pos, card in enumerate(s.queue):
        events.append(m("board.event", place=pos + 1, event=event_name(c, card),
                        cubes=len(s.ev_cubes[pos]), banners=c.events[card][6],
                        owners=_owners(s.ev_cubes[pos])))
    lines.append(m("board.events", events=seq(events, "pair.dot")))
    lines.append(m("board.decks", red=len(s.red_deck), white=len(s.white_deck),
                   yellow=len(s.yellow_deck), black=seq([black_die(v) for v in s.black])))
    for b in range(3):
        rows = []
        for r in c.building_rows[b]:
            _b, values, first, n = c.rows[r]
            rows.append(m("board.row", values=_values(values),
                          owners=_owners(s.spaces[first:first + n], "pair.slash")))
        lying = [o for o in range(5) if (s.lying[b] >> o) & 1]
        lines.append(m("board.building", building=building(b), rows=seq(rows, "pair.dot"),
                       lying=_owners(lying)))
    for level in range(c.levels - 1, -1, -1):
        cells = s.cathedral[level * c.columns:(level + 1) * c.columns]
        lines.append(m("board.cathedral", level=level + 1, owners=_owners(cells, "pair.slash")))
    width = c.max_trade_spaces
    for colour_i in range(3):
        cards = []
        for rnd in range(3):
            k = colour_i * 3 + rnd
            if rnd >= s.revealed:
                cards.append(m("board.card.hidden", round=rnd + 1))
                continue
            card = c.cards[s.slot_card[k]]
            spaces = [m("board.trade", owner=_owner_msg(s.trade[k * width + i]), vp=card[5][i])
                      for i in range(len(card[5]))]
            extra = [o for o in range(4) if (s.extra[k] >> o) & 1]
            cubes = [m("board.cubes", player=Player(p), n=s.cubes[k * 4 + p])
                     for p in range(s.players) if s.cubes[k * 4 + p]]
            cards.append(m("board.card", card=m(f"card.{card[0]}"), hire=card[3], divisor=card[4],
                           spaces=seq(spaces, "pair.slash"), extra=_owners(extra), cubes=seq(cubes)))
        lines.append(m("board.cards", colour=colour(colour_i), cards=seq(cards, "pair.dot")))
    for p in range(s.players):
        chars = list(s.chars[p]) if (s.is_over or p == seat) else None
        held = seq([character(c, ch) for ch in chars]) if chars is not None else \
            m("board.secret", n=len(s.chars[p]))
        lines.append(m("board.player", player=Player(p), money=s.money[p], purse=s.purse[p],
                       influence=s.influence[p], vp=s.vp[p], supply=s.supply[p],
                       reserve=s.reserve[p], won=len(s.won[p]), characters=held,
                       passed=m("board.passed") if s.passed[p] else m("board.playing")))
        lines.append(m("board.dice", district=district(p), dice=_district_dice(s, p)))
    lines.append(m("board.dice", district=district(NEUTRAL), dice=_district_dice(s, NEUTRAL)))
    lines.append(m("board.neutral", n=s.neutral_reserve))
    if not s.is_over:
        lines.append(m("board.prompt", prompt=s.game.words.prompt(s).for_viewer(seat, s.to_move)))
    return lines
