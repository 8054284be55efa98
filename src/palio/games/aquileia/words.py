"""Everything Aquileia says to people, as messages (catalogs: ``locale/en.po``, ``locale/ja.po``).

Labels and one-line explanations of every action as it stands now, the prompt of every pending
decision (with the rules section it concerns), a log line for every event, a glossary entry for
every component the clients show, the score breakdown and a compact terminal picture. Japanese
terms follow the rulebook (部下, 詐欺師, 権力者, 闘技場, 競技場, 劇場, 別荘, 工房 ...).

Components are named from the data (a card's class, metal, colour and symbols), so a corrected
components file is named as well as the built-in one. Only ``observe``-safe facts reach words
seen by others: the prompt to others never names a card the mover alone knows.
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
from palio.games.aquileia import actions as A
from palio.games.aquileia.components import (
    ARENA,
    ARMA,
    BANK,
    CLASSES,
    DEFAULT,
    DISTRICTS,
    DOLUS,
    FIELD_KINDS,
    FORUM,
    LATRO,
    METAL_LETTERS,
    METALS,
    PECUNIA,
    PORT,
    POTENTIA,
    RACE,
    SERVI,
    THEATRE,
    THEATRUM,
    VILLA,
    WORKSHOP,
    Components,
)
from palio.games.aquileia.rules.contests import ARENA_CONTEST, RACE_CONTEST, races
from palio.games.aquileia.rules.placement import tiebreaker_ends
from palio.games.aquileia.state import (
    CATEGORIES,
    F_ARMA,
    F_AUCTION,
    F_BLUE,
    F_BUILD,
    F_CARDS,
    F_EXCHANGE,
    F_LAUREL,
    F_PLACE,
    F_PRIZE,
    F_SERVI,
    N_CAT,
    OVER,
)

if TYPE_CHECKING:
    from palio.core.game import Action, State
    from palio.games.aquileia.state import AquileiaState

D = "aquileia"


def m(key: str, **params: Any) -> Msg:
    return msg(f"{D}.{key}", **params)


# -- component names -------------------------------------------------------------------------
def metal(index: int) -> Msg:
    return m(f"metal.{METALS[index]}")


def metal_named(name: str) -> Msg:
    return m(f"metal.{name}")


def coins(values: Sequence[int]) -> Msg | list[Msg]:
    """Coins as "2 gold and 1 bronze"; "no coins" when there are none."""
    parts = [m(f"coins.{METALS[k]}", n=int(values[k])) for k in range(3) if values[k]]
    return parts if parts else m("coins.none")


def colour(c: Components, index: int) -> Msg:
    return m(f"colour.{c.colours[index]}")


def card_type(c: Components, t: int) -> Msg:
    """The name of card type ``t``."""
    kind = c.type_kind[t]
    n = c.type_symbols[t]
    if kind == "slave":
        return m("card.slave", n=n)
    if kind == "horse":
        return m(f"card.horse_{METALS[c.type_metal[t]]}", n=n)
    if kind == "weapon":
        return m("card.weapon", n=n)
    if kind == "colour":
        return m("card.laurel_colour", colour=colour(c, c.type_colours[t][0]))
    if kind == "vp":
        return m("card.laurel_vp", n=c.type_vp[t])
    first, second = c.type_colours[t]
    return m("card.theatre", first=colour(c, first), second=colour(c, second))


def card_text(c: Components, t: int) -> Msg:
    kind = c.type_kind[t]
    n = c.type_symbols[t]
    if kind == "slave":
        return m("card.slave.text", n=n)
    if kind == "horse":
        return m("card.horse.text", n=n, metal=metal(c.type_metal[t]))
    if kind == "weapon":
        return m("card.weapon.text", n=n)
    if kind == "colour":
        return m("card.laurel_colour.text", colour=colour(c, c.type_colours[t][0]))
    if kind == "vp":
        return m("card.laurel_vp.text", n=c.type_vp[t])
    first, second = c.type_colours[t]
    return m("card.theatre.text", first=colour(c, first), second=colour(c, second))


def card_key(c: Components, key: str) -> Msg:
    return card_type(c, c.type_id[key])


def field_name(c: Components, f: int) -> Msg:
    kind, param, value = c.field_kind[f], c.field_param[f], c.field_value[f]
    if kind == ARMA:
        return m("field.arma", n=param + 1)
    if kind == SERVI:
        return m("field.servi", metal=metal(c.servi[param][0]))
    if kind == ARENA:
        return m("field.arena", n=c.f_arena.index(f) + 1, value=value)
    if kind == RACE:
        same_side = [g for g in c.f_race if c.field_param[g] == param]
        return m("field.race", metal=metal(param), n=same_side.index(f) + 1, value=value)
    if kind == FORUM:
        return m("field.forum", n=param + 1)
    if kind == PORT:
        return m("field.port", metal=metal(param))
    return m(f"field.{FIELD_KINDS[kind]}")  # dolus, pecunia, potentia, theatrum, latro


def field_text(c: Components, f: int) -> Msg:
    kind, param = c.field_kind[f], c.field_param[f]
    if kind == DOLUS:
        return m("field.dolus.text", n=c.dolus_dice)
    if kind == PECUNIA:
        return m("field.pecunia.text", vp=c.pecunia_vp)
    if kind == ARMA:
        return m("field.arma.first.text" if param == 0 else "field.arma.text",
                 price=coins(c.arma_price))
    if kind == SERVI:
        metal_index, most = c.servi[param]
        return m("field.servi.text", n=most, metal=metal(metal_index))
    if kind == POTENTIA:
        return m("field.potentia.text", n=c.potentia_dice)
    if kind == ARENA:
        return m("field.arena.text", value=c.field_value[f], n=c.arena_dice)
    if kind == RACE:
        return m("field.race.text", value=c.field_value[f], n=c.stadium_dice, metal=metal(param))
    if kind == THEATRUM:
        return m("field.theatrum.text")
    if kind == FORUM:
        builds, score = c.forum_fields[param]
        return m("field.forum.score.text" if score else "field.forum.text", n=builds)
    if kind == LATRO:
        return m("field.latro.text", n=c.latro_dice)
    return m("field.port.text", metal=metal(param))


def plot_name(c: Components, p: int) -> Msg:
    kind = c.plot_kind[p]
    if kind == VILLA:
        return m("plot.villa", colour=colour(c, c.plot_colour[p]), value=c.plot_vp[p], n=p + 1)
    if kind == WORKSHOP:
        return m("plot.workshop", vp=c.plot_yield[p], n=p + 1)
    return m("plot.bank", income=coins(c.plot_income[p]), n=p + 1)


def plot_cost(c: Components, p: int) -> Msg:
    return m("plot.cost", coins=coins(c.plot_cost[p]), n=c.plot_slaves[p])


def plot_text(c: Components, p: int) -> Msg:
    kind = c.plot_kind[p]
    if kind == VILLA:
        effect = m("plot.villa.effect", colour=colour(c, c.plot_colour[p]), value=c.plot_vp[p])
    elif kind == WORKSHOP:
        effect = m("plot.workshop.effect", vp=c.plot_yield[p])
    else:
        effect = m("plot.bank.effect", income=coins(c.plot_income[p]))
    return m("plot.text", cost=plot_cost(c, p), vp=c.plot_vp[p], effect=effect)


def slave_cards(ones: int, twos: int) -> Msg:
    """The slave cards of a payment, naming only the kinds used."""
    if ones and twos:
        return m("slave_cards", ones=ones, twos=twos)
    if ones or twos:
        return m("slave_cards.ones", n=ones) if ones else m("slave_cards.twos", n=twos)
    return m("slave_cards.none")


def who(seat: int) -> Player | Msg:
    return m("nobody") if seat is None or seat < 0 else Player(seat)


def _card_list(c: Components, keys: Sequence[str]) -> list[Msg] | Msg:
    counts: dict[str, int] = {}
    for key in keys:
        counts[key] = counts.get(key, 0) + 1
    out = [m("times", n=n, card=card_key(c, key)) if n > 1 else card_key(c, key)
           for key, n in counts.items()]
    return out if out else m("cards.none")


# -- actions ---------------------------------------------------------------------------------
class AquileiaWords(GameWords):
    domain = D

    def __init__(self, components: Components = DEFAULT) -> None:
        self.c = components

    # what each action does now ----------------------------------------------------------
    def action(self, state: State, action: Action) -> ActionWords:
        s: AquileiaState = state  # type: ignore[assignment]
        c = s.comp
        top = s.stack[-1] if s.stack else (None, None)
        handler = _ACTION_WORDS.get(type(action))
        if handler is None:
            raise KeyError(f"no words for {type(action).__name__}")
        label, explain, group = handler(s, c, top, action)
        return ActionWords(label, explain, group)

    def prompt(self, state: State) -> Prompt:
        s: AquileiaState = state  # type: ignore[assignment]
        c = s.comp
        top = s.stack[-1]
        kind, seat = top[0], top[1]
        player = Player(seat)
        if kind == F_PLACE:
            left = s.henchmen[seat] if not s.passed >> seat & 1 else 0
            tb = s.tb[seat] == -1
            key = "place" if left and tb else "place.henchmen" if left else "place.tiebreaker"
            return Prompt(m(f"prompt.{key}", n=left, round=s.round),
                          m("prompt.place.others", player=player, round=s.round), "placement")
        if kind == F_EXCHANGE:
            return Prompt(m("prompt.exchange", vp=c.pecunia_vp),
                          m("prompt.exchange.others", player=player), "mercatus")
        if kind == F_ARMA:
            card = card_type(c, c.card_type[s.display[top[2]]])
            return Prompt(m("prompt.arma", card=card, price=coins(c.arma_price)),
                          m("prompt.arma.others", player=player, card=card), "mercatus")
        if kind == F_SERVI:
            metal_index = c.servi[top[2]][0]
            return Prompt(m("prompt.servi", metal=metal(metal_index)),
                          m("prompt.servi.others", player=player), "mercatus")
        if kind == F_CARDS:
            where = "arena" if top[2] == 1 else "stadium"
            return Prompt(m(f"prompt.cards.{where}", strength=s.strength[seat]),
                          m(f"prompt.cards.{where}.others", player=player,
                            strength=s.strength[seat]), where)
        if kind == F_BLUE:
            # kept dice are rolled in the race only by a holder with a henchman there
            key = "prompt.blue" if races(s, seat) else "prompt.blue.unused"
            return Prompt(m(key, n=s.blue_left, strength=s.strength[seat]),
                          m("prompt.blue.others", player=player, strength=s.strength[seat]),
                          "arena")
        if kind == F_PRIZE:
            vp = c.vp_per_strength * s.strength[seat]
            second = top[2]
            other_vp = c.vp_per_strength * s.strength[second] if second != -1 else 0
            said = (m("prompt.prize", vp=vp, second=who(second), other=other_vp) if second != -1
                    else m("prompt.prize.alone", vp=vp))
            return Prompt(said, m("prompt.prize.others", player=player), "arena")
        if kind == F_LAUREL:
            up = card_type(c, c.card_type[s.stadium_up])
            return Prompt(m("prompt.laurel", card=up, peek=card_type(c, c.card_type[s.peek]),
                            second=who(top[2])),
                          m("prompt.laurel.others", player=player, card=up), "stadium")
        if kind == F_AUCTION:
            card = card_type(c, c.card_type[s.theatre_up])
            if s.auc_high == -1:
                return Prompt(m("prompt.auction.open", card=card),
                              m("prompt.auction.open.others", player=player, card=card),
                              "theatrum")
            return Prompt(m("prompt.auction", card=card, bid=coins(s.bid), high=Player(s.auc_high)),
                          m("prompt.auction.others", player=player, card=card, bid=coins(s.bid)),
                          "theatrum")
        assert kind == F_BUILD
        field = c.f_forum[top[2]]
        score = c.forum_fields[top[2]][1]
        return Prompt(m("prompt.build.score" if score else "prompt.build", field=field_name(c, field),
                        n=top[3]),
                      m("prompt.build.others", player=player, field=field_name(c, field)), "forum")

    # the log -------------------------------------------------------------------------------
    def event(self, event: Mapping[str, Any]) -> Msg | None:
        handler = _EVENT_WORDS.get(event["kind"])
        if handler is None:
            return None
        return handler(self.c, event)

    # components ------------------------------------------------------------------------------
    def glossary(self) -> list[GlossaryEntry]:
        c = self.c
        out = [GlossaryEntry(f"district.{name}", m(f"district.{name}"), m(f"district.{name}.text"))
               for name in DISTRICTS]
        out += [GlossaryEntry(f"field.{c.field_name[f]}", field_name(c, f), field_text(c, f))
                for f in range(c.n_fields)]
        out += [GlossaryEntry(f"card.{c.type_key[t]}", card_type(c, t), card_text(c, t))
                for t in range(c.n_types)]
        out += [GlossaryEntry(f"deck.{name}", m(f"deck.{name}"), m(f"deck.{name}.text"))
                for name in CLASSES]
        out += [GlossaryEntry(f"plot.{p + 1}", plot_name(c, p), plot_text(c, p))
                for p in range(len(c.plots))]
        out += [GlossaryEntry(f"coin.{name}", m(f"coin.{name}"), m("coin.text", n=c.supply[k]))
                for k, name in enumerate(METALS)]
        out += [GlossaryEntry(key, m(key), m(f"{key}.text")) for key in (
            "phase.placement", "phase.action", "phase.over", "bank", "discards", "peek", "die.red", "die.blue", "track.score", "track.tiebreaker", "track.strength",
            "piece.henchman", "piece.house", "piece.start", "piece.tiebreaker")]
        out += [GlossaryEntry(f"exchange.{i + 1}", m("exchange.name", n=i + 1),
                              m("exchange.text", give=coins(give), get=coins(get)))
                for i, (give, get) in enumerate(c.exchanges)]
        return out

    # scores ------------------------------------------------------------------------------------
    def scores(self, state: State) -> list[ScoreRow]:
        s: AquileiaState = state  # type: ignore[assignment]
        return [ScoreRow(m(f"category.{name}"),
                         tuple(s.vp_cat[N_CAT * p + k] for p in range(s.players)))
                for k, name in enumerate(CATEGORIES)]

    def outcomes(self, state: State, seat: int) -> list[Msg]:
        """Each arena and race ``seat`` won, by round, from the public contest results of
        the log (the winner is the first place; the round is the one whose action phase the
        contest was in)."""
        out: list[Msg] = []
        round_ = 0
        for event in state.events:
            if event.kind == "actions":
                round_ = event.public["round"]
            elif event.kind == "contest_result":
                places = event.public["places"]
                if places and places[0][0] == seat:
                    kind = {ARENA_CONTEST: "arena", RACE_CONTEST: "race"}[event.public["contest"]]
                    out.append(m(f"outcome.{kind}", round=round_))
        return out

    def why_illegal(self, state: State, action: Action) -> Msg | None:
        s: AquileiaState = state  # type: ignore[assignment]
        if s.phase == OVER or not s.stack:
            return m("why.over")
        top = s.stack[-1]
        c = s.comp
        if isinstance(action, A.Place):
            if top[0] != F_PLACE:
                return m("why.not_placement")
            seat = top[1]
            f = c.field_id.get(action.field, -1)
            if f == -1:
                return None
            if s.passed >> seat & 1:
                return m("why.passed")
            if not s.henchmen[seat]:
                return m("why.no_henchmen")
            if s.field_owner[f] != -1:
                return m("why.taken", field=field_name(c, f), owner=Player(s.field_owner[f]))
            kind = c.field_kind[f]
            if kind == RACE:
                return m("why.other_side")
            if kind == PORT:
                if s.coins[3 * seat + c.field_param[f]] == 0:
                    return m("why.port_coin", metal=metal(c.field_param[f]))
                return m("why.one_port")
            if kind == ARMA:
                return m("why.no_card")
            if kind == THEATRUM:
                return m("why.no_theatre_card")
            return None
        if isinstance(action, A.Tiebreaker) and top[0] == F_PLACE:
            return m("why.tiebreaker_placed")
        if isinstance(action, A.Bid) and top[0] == F_AUCTION:
            return m("why.bid", bid=coins(s.bid), metal=metal_named(METALS[METAL_LETTERS.index(action.metal)]))
        if isinstance(action, A.Build) and top[0] == F_BUILD:
            p = action.plot - 1
            if not 0 <= p < len(c.plots):
                return None
            if s.plot_owner[p] != -1:
                return m("why.plot_taken", plot=plot_name(c, p), owner=Player(s.plot_owner[p]))
            if not s.houses[top[1]]:
                return m("why.no_house")
            return m("why.build_cost", plot=plot_name(c, p), cost=plot_cost(c, p))
        return None

    # the terminal picture -----------------------------------------------------------------------
    def board(self, state: State, seat: int | None) -> list[Msg]:
        from palio.games.aquileia.observe import observe

        s: AquileiaState = state  # type: ignore[assignment]
        return board_lines(s.comp, observe(s, seat))


def _valued(value: int, owner: int) -> Msg:
    return m("board.valued", value=value, owner=who(owner))


def plot_short(c: Components, p: int) -> Msg:
    kind = c.plot_kind[p]
    if kind == VILLA:
        return m("plot.short.villa", colour=colour(c, c.plot_colour[p]), value=c.plot_vp[p])
    if kind == WORKSHOP:
        return m("plot.short.workshop", vp=c.plot_yield[p])
    return m("plot.short.bank", income=coins(c.plot_income[p]))


def board_lines(c: Components, o: dict[str, Any]) -> list[Msg]:
    """The table as one observation shows it, district by district in resolution order, then
    the tracks and one or two lines per player (under 30 lines for 5 players)."""
    owners = o["fields"]
    players = o["players"]
    lines: list[Msg] = []
    status = m("board.over") if o["phase"] == "over" else (
        m("board.placement", round=o["round"], rounds=o["rounds"]) if o["phase"] == "placement"
        else m("board.actions", round=o["round"], rounds=o["rounds"]))
    lines.append(m("board.title", status=status, start=Player(o["start"])))
    lines.append(m("board.bank", coins=coins([o["bank"][x] for x in METALS]),
                   slave=o["decks"]["slave"], hw=o["decks"]["hw"], stadium=o["decks"]["stadium"],
                   theatre=o["decks"]["theatre"]))
    servi = [m("board.named", name=metal(c.servi[k][0]), owner=who(owners[f]))
             for k, f in enumerate(c.f_servi)]
    lines.append(m("board.mercatus", dolus=who(owners[c.f_dolus]), pecunia=who(owners[c.f_pecunia]),
                   potentia=who(owners[c.f_potentia]), servi=servi))
    arma = [m("board.arma", n=k + 1, owner=who(owners[f]),
              card=card_key(c, o["display"][k]) if o["display"][k] else m("cards.none"))
            for k, f in enumerate(c.f_arma)]
    lines.append(m("board.equi", cards=arma))
    lines.append(m("board.arena", spots=[_valued(c.field_value[f], owners[f]) for f in c.f_arena]))
    sides = {side: [_valued(c.field_value[f], owners[f]) for f in c.f_race if c.field_param[f] == side]
             for side in (0, 1)}
    up = o["stadium_card"]
    lines.append(m("board.stadium", gold=sides[0], silver=sides[1],
                   card=card_key(c, up) if up else m("cards.none")))
    lines.append(m("board.theatrum", owner=who(owners[c.f_theatrum]), n=o["decks"]["theatre"]))
    if o["auction"] is not None:
        auction = o["auction"]
        lines.append(m("board.auction", card=card_key(c, o["theatre_card"]),
                       bid=coins([auction["bid"][x] for x in METALS]), high=who(auction["high"])))
    lines.append(m("board.forum", spots=[_valued(k + 1, owners[f]) for k, f in enumerate(c.f_forum)]))
    plots = o["plots"]
    free = [m("board.plot", n=p + 1, plot=plot_short(c, p)) for p in range(len(plots)) if plots[p] == -1]
    lines.append(m("board.free_plots", plots=free) if free else m("board.no_free_plots"))
    port = []
    for k, f in enumerate(c.f_port):
        key = "board.named" if owners[f] == -1 else (
            "board.port.coin" if o["port_coins"][k] else "board.port.bare")
        port.append(m(key, name=metal(c.port_metals[k]), owner=who(owners[f])))
    lines.append(m("board.portus", latro=who(owners[c.f_latro]), fields=port))
    lines.append(m("board.tiebreaker",
                   spaces=[_valued(k + 1, p) for k, p in enumerate(o["tiebreaker"]) if k < len(players)]))
    if o["contest"]["kind"] is not None:
        strength = o["contest"]["strength"]
        lines.append(m(f"board.contest.{o['contest']['kind']}",
                       entries=[m("board.strength", player=Player(p), n=strength[p])
                                for p in range(len(players)) if strength[p]]))
    if o["blue"]["holder"] != -1:
        lines.append(m("board.blue", player=Player(o["blue"]["holder"]), n=o["blue"]["left"]))
    for p, info in enumerate(players):
        lines.extend(_player_lines(c, o, p, info))
    if o.get("peek"):
        lines.append(m("board.peek", card=card_key(c, o["peek"])))
    return lines


def _player_lines(c: Components, o: dict[str, Any], p: int, info: dict[str, Any]) -> list[Msg]:
    plots = [plot_short(c, k) for k, owner in enumerate(o["plots"]) if owner == p]
    head = m("board.player", player=Player(p), vp=info["vp"],
             coins=coins([info["coins"][x] for x in METALS]), henchmen=info["henchmen"],
             houses=info["houses"], buildings=plots if plots else m("board.no_buildings"))
    hidden = [m(f"board.hidden.{name}", n=n) for name, n in info["hidden"].items() if n]
    if not info["cards"] and not hidden:
        return [head]
    cards = m("board.cards", cards=_card_list(c, info["cards"]),
              hidden=hidden if hidden else m("board.hidden.none"))
    return [head, cards]


# -- actions in words: (label, explain, group) per action type ----------------------------------
def _place(s: AquileiaState, c: Components, top: tuple, a: A.Place) -> tuple[Msg, Msg, Msg]:
    f = c.field_id[a.field]
    kind = c.field_kind[f]
    seat = top[1]
    name = field_name(c, f)
    district = m(f"district.{DISTRICTS[c.field_district[f]]}")
    if kind == ARMA:
        card = card_type(c, c.card_type[s.display[c.field_param[f]]])
        key = "explain.place.arma.first" if c.field_param[f] == 0 else "explain.place.arma"
        explain = m(key, card=card, price=coins(c.arma_price))
        district = m("district.equi")
    elif kind == RACE:
        explain = m("explain.place.race", metal=metal(c.field_param[f]), value=c.field_value[f])
    elif kind == PORT:
        metal_index = c.field_param[f]
        vp, income = _activation(s, c, seat)
        explain = m("explain.place.port", metal=metal(metal_index), vp=vp, income=coins(income))
    elif kind == THEATRUM:
        explain = m("explain.place.theatrum", n=len(s.deck[THEATRE]))
    else:
        explain = field_text(c, f)
    return m("label.place", field=name), explain, district


def _activation(s: AquileiaState, c: Components, seat: int) -> tuple[int, list[int]]:
    vp, income = 0, [0, 0, 0]
    for p, owner in enumerate(s.plot_owner):
        if owner == seat:
            if c.plot_kind[p] == WORKSHOP:
                vp += c.plot_yield[p]
            elif c.plot_kind[p] == BANK:
                income = [income[k] + c.plot_income[p][k] for k in range(3)]
    return vp, income


def _tiebreaker(s: AquileiaState, c: Components, top: tuple, a: A.Tiebreaker):
    seat = top[1]
    if tiebreaker_ends(s):
        key = "explain.tiebreaker.last"
    elif s.henchmen[seat] and not s.passed >> seat & 1:
        key = "explain.tiebreaker.more"  # henchmen still to come on later turns
    else:
        key = "explain.tiebreaker"
    return m("label.tiebreaker"), m(key, n=s.tb_next + 1), m("group.tiebreaker")


def _pass(s: AquileiaState, c: Components, top: tuple, a: A.Pass):
    if top[0] == F_AUCTION:
        return m("label.pass"), m("explain.pass.auction"), m("group.auction")
    key = "explain.pass.tiebreaker" if s.tb[top[1]] == -1 else "explain.pass"
    return m("label.pass"), m(key, n=s.henchmen[top[1]]), m("group.tiebreaker")


def _skip(s: AquileiaState, c: Components, top: tuple, a: A.Skip):
    what = {F_EXCHANGE: "exchange", F_ARMA: "arma", F_SERVI: "servi", F_BUILD: "build"}[top[0]]
    return m("label.skip"), m(f"explain.skip.{what}"), m("group.other")


def _done(s: AquileiaState, c: Components, top: tuple, a: A.Done):
    seat = top[1]
    if top[0] == F_BLUE:
        key = "explain.done.blue" if races(s, seat) else "explain.done.blue.unused"
        return (m("label.done.blue"), m(key, n=s.blue_left, strength=s.strength[seat]),
                m("group.other"))
    return m("label.done.cards"), m("explain.done.cards", strength=s.strength[seat]), m("group.other")


def _exchange(s: AquileiaState, c: Components, top: tuple, a: A.Exchange):
    give, get = c.exchanges[a.option - 1]
    return (m("label.exchange", give=coins(give), get=coins(get)),
            m("explain.exchange", give=coins(give), get=coins(get), vp=c.pecunia_vp),
            m("group.pecunia"))


def _buy(s: AquileiaState, c: Components, top: tuple, a: A.Buy):
    slot = top[2]
    card = card_type(c, c.card_type[s.display[slot]])
    key = "explain.buy.first" if slot == 0 else "explain.buy"
    return m("label.buy", card=card), m(key, card=card, price=coins(c.arma_price)), m("group.equi")


def _slaves(s: AquileiaState, c: Components, top: tuple, a: A.Slaves):
    metal_index = c.servi[top[2]][0]
    price = [0, 0, 0]
    price[metal_index] = a.count
    return (m("label.slaves", n=a.count), m("explain.slaves", n=a.count, price=coins(price)),
            m("group.servi"))


def _play(s: AquileiaState, c: Components, top: tuple, a: A.Play):
    t = c.type_id[a.card]
    seat = top[1]
    after = s.strength[seat] + c.type_symbols[t]
    return (m("label.play", card=card_type(c, t)), m("explain.play", n=c.type_symbols[t], strength=after),
            m("group.cards"))


def _roll(s: AquileiaState, c: Components, top: tuple, a: A.Roll):
    seat, left = top[1], s.blue_left - a.count
    strength = s.strength[seat]
    if not left:
        explain = m("explain.roll.all", n=a.count, strength=strength)
    else:
        key = "explain.roll.race" if races(s, seat) else "explain.roll.unused"
        explain = m(key, n=left, count=a.count, strength=strength)
    return m("label.roll", n=a.count), explain, m("group.dice")


def _prize(s: AquileiaState, c: Components, top: tuple, a: A.Prize):
    seat, second = top[1], top[2]
    vp = c.vp_per_strength * s.strength[seat]
    if a.choice == "vp":
        key = "explain.prize.vp" if second != -1 else "explain.prize.vp.alone"
        return m("label.prize.vp", vp=vp), m(key, vp=vp, second=who(second)), m("group.prize")
    other = c.vp_per_strength * s.strength[second] if second != -1 else 0
    key = "explain.prize.slave" if second != -1 else "explain.prize.slave.alone"
    return m("label.prize.slave"), m(key, vp=other, second=who(second)), m("group.prize")


def _laurel(s: AquileiaState, c: Components, top: tuple, a: A.Laurel):
    # the choices are shown to the winner only, who has seen the top card
    up = card_type(c, c.card_type[s.stadium_up])
    peek = card_type(c, c.card_type[s.peek])
    second = top[2]
    if a.choice == "open":
        keep, give = up, peek
    else:
        keep, give = peek, up
    key = "explain.laurel" if second != -1 else "explain.laurel.alone"
    return (m(f"label.laurel.{a.choice}", card=keep), m(key, card=give, second=who(second)),
            m("group.laurel"))


def _bid(s: AquileiaState, c: Components, top: tuple, a: A.Bid):
    k = METAL_LETTERS.index(a.metal)
    after = s.bid[:]
    after[k] += 1
    if s.auc_high == -1:
        return (m("label.bid.open", metal=metal(k)), m("explain.bid.open", bid=coins(after)),
                m("group.auction"))
    return (m("label.bid", metal=metal(k)), m("explain.bid", bid=coins(s.bid), total=coins(after)),
            m("group.auction"))


def _build(s: AquileiaState, c: Components, top: tuple, a: A.Build):
    p = a.plot - 1
    need = c.plot_slaves[p]
    ones = max(0, need - 2 * a.twos)
    score = c.forum_fields[top[2]][1]
    slaves = slave_cards(ones, a.twos)
    explain = m("explain.build.score" if score else "explain.build", coins=coins(c.plot_cost[p]),
                slaves=slaves, vp=c.plot_vp[p])
    return m("label.build", plot=plot_name(c, p)), explain, m("group.build")


_ACTION_WORDS = {
    A.Place: _place, A.Tiebreaker: _tiebreaker, A.Pass: _pass, A.Skip: _skip, A.Done: _done,
    A.Exchange: _exchange, A.Buy: _buy, A.Slaves: _slaves, A.Play: _play, A.Roll: _roll,
    A.Prize: _prize, A.Laurel: _laurel, A.Bid: _bid, A.Build: _build,
}


# -- the log: one function per event kind -------------------------------------------------------
def _faces(names: Sequence[str]) -> list[Msg]:
    return [metal_named(x) for x in names]


def _ev_setup(c: Components, e: Mapping[str, Any]) -> Msg:
    return m("log.setup", n=e["players"], start=Player(e["start"]))


def _ev_round(c: Components, e: Mapping[str, Any]) -> Msg:
    return m("log.round", round=e["round"], start=Player(e["seat"]))


def _ev_place(c: Components, e: Mapping[str, Any]) -> Msg:
    return m("log.place", player=Player(e["seat"]), field=field_name(c, c.field_id[e["field"]]))


def _ev_contest_roll(c: Components, e: Mapping[str, Any]) -> Msg:
    where = "arena" if e["contest"] == 1 else "stadium"
    return m(f"log.roll.{where}", player=Player(e["seat"]), faces=_faces(e["faces"]),
             counted=metal_named(e["counted"]), base=e["base"], strength=e["strength"])


def _ev_contest_result(c: Components, e: Mapping[str, Any]) -> Msg:
    where = "arena" if e["contest"] == 1 else "stadium"
    places = [m("log.result.place", n=k + 1, player=Player(p), strength=st,
                coins=coins([n if METALS[x] == e["metal"][k] else 0 for x in range(3)]))
              for k, (p, st, n) in enumerate(e["places"])]
    return m(f"log.result.{where}", places=places)


def _ev_prize(c: Components, e: Mapping[str, Any]) -> Msg:
    winner = Player(e["seat"])
    card = card_key(c, e["card"]) if e.get("card") else None
    if e["choice"] == "vp":
        if e["card_to"] != -1:
            key = "log.prize.vp.card" if card else "log.prize.vp.slave"
            return m(key, player=winner, vp=e["vp"], second=Player(e["card_to"]),
                     card=card if card else m("cards.none"))
        return m("log.prize.vp", player=winner, vp=e["vp"])
    got = m("log.prize.got", card=card) if card else m("log.prize.got.hidden")
    if e["vp_to"] != -1:
        return m("log.prize.slave.vp", player=winner, got=got, second=Player(e["vp_to"]), vp=e["vp"])
    return m("log.prize.slave", player=winner, got=got)


def _ev_laurel(c: Components, e: Mapping[str, Any]) -> Msg:
    winner = Player(e["seat"])
    second = e.get("second", -1)
    if e["choice"] in ("open", "only"):
        head = m("log.laurel.open", player=winner, card=card_key(c, e["card"]))
        if second != -1:
            given = card_key(c, e["second_card"]) if e.get("second_card") else m("card.hidden")
            return m("log.laurel.second", head=head, second=Player(second), card=given)
    else:
        mine = card_key(c, e["card"]) if e.get("card") else m("card.hidden")
        head = m("log.laurel.hidden", player=winner, card=mine)
        if second != -1:
            return m("log.laurel.second", head=head, second=Player(second),
                     card=card_key(c, e["second_card"]))
    if e.get("discarded"):
        return m("log.laurel.discarded", head=head, card=card_key(c, e["discarded"]))
    return head


def _ev_final(c: Components, e: Mapping[str, Any]) -> Msg:
    return m("log.final", player=Player(e["seat"]), laurel=e["laurel_vp"], villas=e["villa_vp"],
             theatre=[m(f"colour.{x}") for x in e["theatre"]] or m("log.final.no_theatre"),
             cards=_card_list(c, e["cards"]))


def _ev_bid(c: Components, e: Mapping[str, Any]) -> Msg:
    bid = [e["bid"][k] for k in range(3)]
    if sum(bid) == 1:
        return m("log.bid.open", player=Player(e["seat"]), metal=metal_named(e["metal"]))
    return m("log.bid", player=Player(e["seat"]), metal=metal_named(e["metal"]), bid=coins(bid))


def _ev_auction_won(c: Components, e: Mapping[str, Any]) -> Msg:
    key = "log.auction.won.bank" if e["to"] == -1 else "log.auction.won"
    return m(key, player=Player(e["seat"]), card=card_key(c, e["card"]), paid=coins(e["paid"]),
             to=who(e["to"]))


def _ev_build(c: Components, e: Mapping[str, Any]) -> Msg:
    slaves = slave_cards(e["ones"], e["twos"])
    key = "log.build.score" if e["vp"] else "log.build"
    return m(key, player=Player(e["seat"]), plot=plot_name(c, e["plot"] - 1), coins=coins(e["coins"]),
             slaves=slaves, vp=e["vp"])


def _ev_latro(c: Components, e: Mapping[str, Any]) -> Msg:
    taken = [m("log.latro.coin", metal=metal_named(x), owner=who(owner)) for x, owner in e["taken"]]
    return m("log.latro", player=Player(e["seat"]), faces=_faces(e["faces"]),
             taken=taken if taken else m("log.latro.nothing"))


def _ev_port(c: Components, e: Mapping[str, Any]) -> Msg:
    key = "log.port.field" if e["paid_from"] == "field" else "log.port.stock"
    if not e["buildings"]:
        key += ".idle"
    return m(key, player=Player(e["seat"]), metal=metal_named(e["metal"]), vp=e["vp"],
             coins=coins(e["coins"]))


def _ev_buy(c: Components, e: Mapping[str, Any]) -> Msg:
    if e["bonus"]:
        bonus = card_key(c, e["bonus_card"]) if e.get("bonus_card") else m("card.hidden.hw")
        return m("log.buy.bonus", player=Player(e["seat"]), card=card_key(c, e["card"]), bonus=bonus)
    return m("log.buy", player=Player(e["seat"]), card=card_key(c, e["card"]))


def _ev_slaves(c: Components, e: Mapping[str, Any]) -> Msg:
    if e.get("cards"):
        return m("log.slaves.seen", player=Player(e["seat"]), n=e["count"], metal=metal_named(e["metal"]),
                 cards=_card_list(c, e["cards"]))
    return m("log.slaves", player=Player(e["seat"]), n=e["count"], metal=metal_named(e["metal"]))


def _simple(key: str, **extra: str):
    """A log line whose parameters are the event's seat and a few plain values."""
    def render(c: Components, e: Mapping[str, Any]) -> Msg:
        params: dict[str, Any] = {"player": Player(e["seat"])} if e.get("seat") is not None else {}
        for name, source in extra.items():
            params[name] = e[source]
        return m(key, **params)
    return render


_EVENT_WORDS = {
    "setup": _ev_setup,
    "round": _ev_round,
    "place": _ev_place,
    "tiebreaker": _simple("log.tiebreaker", n="space"),
    "pass": _simple("log.pass"),
    "actions": lambda c, e: m("log.actions", round=e["round"]),
    "idle": lambda c, e: m("log.idle", player=Player(e["seat"]), field=field_name(c, c.field_id[e["field"]])),
    "skip": lambda c, e: m("log.skip", player=Player(e["seat"]), field=field_name(c, c.field_id[e["field"]])),
    "dolus": lambda c, e: m("log.dolus", player=Player(e["seat"]), faces=_faces(e["faces"]),
                            coins=coins(e["coins"])),
    "exchange": lambda c, e: m("log.exchange", player=Player(e["seat"]), give=coins(e["give"]),
                               get=coins(e["get"]), vp=e["vp"]),
    "buy": _ev_buy,
    "display": lambda c, e: m("log.display", card=card_key(c, e["card"]), n=e["slot"]),
    "slaves": _ev_slaves,
    "potentia": _simple("log.potentia", n="dice"),
    "contest_roll": _ev_contest_roll,
    "play": lambda c, e: m("log.play", player=Player(e["seat"]), card=card_key(c, e["card"]),
                           strength=e["strength"]),
    "cards_done": _simple("log.cards_done", strength="strength"),
    "blue": lambda c, e: m("log.blue", player=Player(e["seat"]), faces=_faces(e["faces"]),
                           counted=metal_named(e["counted"]), strength=e["strength"], n=e["left"]),
    "blue_stop": _simple("log.blue_stop", n="left"),
    "contest_result": _ev_contest_result,
    "prize": _ev_prize,
    "laurel_peek": lambda c, e: (m("log.peek.seen", player=Player(e["seat"]), card=card_key(c, e["card"]))
                                 if e.get("card") else m("log.peek", player=Player(e["seat"]))),
    "laurel": _ev_laurel,
    "theatre": lambda c, e: m("log.theatre", player=Player(e["seat"]), card=card_key(c, e["card"])),
    "bid": _ev_bid,
    "auction_pass": lambda c, e: m("log.auction.pass.forced" if e["forced"] else "log.auction.pass",
                                   player=Player(e["seat"])),
    "auction_won": _ev_auction_won,
    "auction_free": lambda c, e: m("log.auction.free", player=Player(e["seat"]), card=card_key(c, e["card"])),
    "build": _ev_build,
    "build_skip": lambda c, e: m("log.build_skip", player=Player(e["seat"]),
                                 field=field_name(c, c.field_id[e["field"]])),
    "latro": _ev_latro,
    "port": _ev_port,
    "port_unpaid": lambda c, e: m("log.port.unpaid", player=Player(e["seat"]), metal=metal_named(e["metal"])),
    "unused": lambda c, e: m("log.unused", cards=_card_list(c, e["cards"])),
    "stadium_card": lambda c, e: m("log.stadium_card", card=card_key(c, e["card"])),
    "reshuffle": lambda c, e: m(f"log.reshuffle.{CLASSES[e['deck']]}", n=e["cards"]),
    "final": _ev_final,
    "game_over": lambda c, e: m("log.game_over"),
}
