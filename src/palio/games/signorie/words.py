"""Signorie in words: labels, explanations, prompts, the log, the glossary, the score breakdown
and the terminal picture, all as messages of the ``signorie`` catalog domain
(``locale/en.po``, ``locale/ja.po``). Japanese terms follow the rulebook (助手, 業務, シニョーリア
アクション, 外交任務, 進歩ポイント, 同盟タイル, しきい値, 持参金 ...).

Components are named by messages: a die colour, a city, a career, a family, an alliance tile,
an effect. A family renamed by a corrected components file is shown by its new name as given.
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
from palio.games.signorie import actions as A
from palio.games.signorie.actions import TRACK_INDEX
from palio.games.signorie.components import (
    COUNTED,
    CRITERIA,
    DEFAULT,
    DICE,
    DIE_LETTERS,
    E_THRESHOLD,
    EFFECTS,
    MARRIAGE_ROW,
    ROW_CODES,
    ROWS,
    SEXES,
    SIGNORIA,
    TRACKS,
    Components,
)
from palio.games.signorie.state import (
    F_ACTION,
    F_ADVANCE,
    F_BUY,
    F_MARRY,
    F_MISSION,
    F_REWARD,
    F_ROW,
    F_TURN,
    SCORE_CATEGORIES,
)

if TYPE_CHECKING:
    from palio.core.game import Action, State
    from palio.games.signorie.state import SignorieState

D = "signorie."


def m(key: str, **params: Any) -> Msg:
    return msg(D + key, **params)


# -- names of components ---------------------------------------------------------------------
def colour(col: int) -> Msg:
    return m(f"colour.{DICE[col]}")


def signoria(action: int) -> Msg:
    return m(f"signoria.{SIGNORIA[action]}")


def track(t: int) -> Msg:
    return m(f"track.{TRACKS[t]}")


def man(t: int) -> Msg:
    """A man of a track's family ("a military man"; the track is "military")."""
    return m(f"man.{TRACKS[t]}")


def row(r: int) -> Msg:
    return m(f"row.{ROWS[r]}")


def city(c: Components, i: int) -> Msg | str:
    name = c.city_names[i]
    return m(f"city.{i}") if name == DEFAULT.city_names[i] else name


def family(c: Components, f: int) -> Msg | str:
    name = c.family_names[f]
    return m(f"family.{f}") if name == DEFAULT.family_names[f] else name


def tile(c: Components, t: int) -> Msg:
    return m("tile", family=family(c, c.tile_family[t]), vp=c.tile_value[t])


def effect(e: int, n: int) -> Msg:
    return m(f"effect.{EFFECTS[e]}", n=n)


def assignment(c: Components, t: int) -> Msg:
    e, amount, meeples, repeat = c.assignments[t]
    if repeat:
        return m("assignment.repeat", effect=effect(e, amount), n=meeples)
    return m("assignment.once", effect=effect(e, amount), n=meeples)


def bonus(c: Components, t: int) -> Msg:
    e, amount = c.bonus_tiles[t]
    return effect(e, amount)


def vp_tile(c: Components, t: int) -> Msg:
    k, per, cap = c.vp_tiles[t]
    return m(f"criterion.{CRITERIA[k]}", per=per, cap=cap)


def reward_tile(c: Components, rewards: Sequence[int], round_: int) -> Msg:
    t = rewards[round_ - 1]
    return bonus(c, t) if round_ <= c.bonus_rounds else vp_tile(c, t)


def meeples(sex: int, n: int) -> Msg:
    return m("men" if sex == 0 else "women", n=n)


def florins(n: int) -> Msg:
    return m("florins", n=n)


def helper_slot(c: Components, col: int, slot: int) -> Msg:
    _cost, e, amount = c.helpers[col][slot]
    return m("helper_slot", colour=colour(col), slot=slot + 1, effect=effect(e, amount))


SECTIONS = {
    F_TURN: "taking-a-die", F_ACTION: "choosing-an-action", F_ADVANCE: "advancement",
    F_MARRY: "marriage", F_MISSION: "diplomatic-mission", F_ROW: "face-down-tiles",
    F_REWARD: "rewards", F_BUY: "rewards",
}


class SignorieWords(GameWords):
    """The words of one components set (names of renamed families follow the set)."""

    domain = "signorie"

    def __init__(self, comp: Components = DEFAULT) -> None:
        self.comp = comp

    # -- actions ----------------------------------------------------------------------------
    def action(self, state: State, action: Action) -> ActionWords:
        s: SignorieState = state  # type: ignore[assignment]
        p = s.to_move
        assert p is not None
        handler = _ACTIONS[type(action)]
        label, explain, group = handler(s, p, action)
        return ActionWords(label, explain, m(f"group.{group}"))

    def prompt(self, state: State) -> Prompt:
        s: SignorieState = state  # type: ignore[assignment]
        top = s.stack[-1]
        kind, p = top[0], top[1]
        c = s.comp
        who = Player(p)
        if kind == F_TURN:
            mover = m("prompt.turn", n=s.ndice[p], round=s.round)
            others = m("prompt.turn_others", player=who)
        elif kind == F_ACTION:
            mover = m("prompt.action", colour=colour(top[2]), action=signoria(c.col_action[top[2]]))
            others = m("prompt.action_others", player=who, colour=colour(top[2]))
        elif kind == F_ADVANCE:
            mover = m("prompt.advance_stop" if top[3] == 1 else "prompt.advance", n=top[2])
            others = m("prompt.advance_others", player=who, n=top[2])
        elif kind == F_MARRY:
            mover, others = m("prompt.marry"), m("prompt.marry_others", player=who)
        elif kind == F_MISSION:
            mover, others = m("prompt.mission"), m("prompt.mission_others", player=who)
        elif kind == F_ROW:
            mover, others = m("prompt.row"), m("prompt.row_others", player=who)
        elif kind == F_REWARD:
            tile_ = reward_tile(c, s.rewards, s.round)
            mover = m("prompt.reward", bonus=tile_, florins=florins(c.florins_instead))
            others = m("prompt.reward_others", player=who)
        else:
            mover = m("prompt.buy", cost=florins(c.buy_vp_cost), vp=c.buy_vp)
            others = m("prompt.buy_others", player=who)
        return Prompt(mover, others, SECTIONS.get(kind))

    def why_illegal(self, state: State, action: Action) -> Msg | None:
        s: SignorieState = state  # type: ignore[assignment]
        if s.is_over:
            return m("why.over")
        p = s.to_move
        kind = s.stack[-1][0]
        if isinstance(action, A.TakeDie):
            if kind != F_TURN:
                return m("why.not_now")
            col = DIE_LETTERS.index(action.colour)
            if s.ndice[p] >= 4:
                return m("why.four_dice")
            if s.dice[p * 5 + col]:
                return m("why.colour_held", colour=colour(col))
            if not s.pool[col * 6 + action.value - 1]:
                return m("why.no_such_die", colour=colour(col), value=action.value)
            pay = max(0, s.comp.col_cost[col] - action.value)
            if pay > s.florins[p]:
                return m("why.cannot_pay", cost=florins(pay))
            return m("why.no_action", colour=colour(col))
        if isinstance(action, A.Marry) and kind in (F_ACTION, F_MARRY) and not s.women[p]:
            return m("why.no_woman")
        if isinstance(action, A.Hire) and kind == F_ACTION:
            return m("why.hire")
        return None

    # -- the log ----------------------------------------------------------------------------
    def event(self, event: Mapping[str, Any]) -> Msg | None:
        handler = _EVENTS.get(event["kind"])
        if handler is None:
            return None
        seat = event.get("seat")
        return handler(self.comp, None if seat is None else Player(seat), event)

    # -- glossary ---------------------------------------------------------------------------
    def glossary(self) -> Sequence[GlossaryEntry]:
        c = self.comp
        out = [GlossaryEntry(key, m(f"gloss.{key}.name"), m(f"gloss.{key}.text")) for key in _GLOSSARY]
        for col in range(5):
            out.append(GlossaryEntry(f"die.{DICE[col]}", m("gloss.die.name", colour=colour(col)),
                                     m("gloss.die.text", colour=colour(col), cost=c.col_cost[col])))
            out.append(GlossaryEntry(f"column.{DICE[col]}", m("gloss.column.name", colour=colour(col)),
                                     m("gloss.column.text", cost=c.col_cost[col],
                                       action=signoria(c.col_action[col]),
                                       target=colour(c.hire_to[col]))))
            for slot in range(len(c.helpers[col])):
                cost, e, amount = c.helpers[col][slot]
                out.append(GlossaryEntry(
                    f"helper.{DICE[col]}.{slot}", m("gloss.helper_slot.name", colour=colour(col), slot=slot + 1),
                    m("gloss.helper_slot.text", effect=effect(e, amount), cost=florins(cost),
                      colour=colour(col))))
        for a in range(5):
            out.append(GlossaryEntry(f"signoria.{SIGNORIA[a]}", signoria(a), m(f"gloss.signoria.{SIGNORIA[a]}")))
        for t in range(3):
            out.append(GlossaryEntry(f"track.{TRACKS[t]}", m("gloss.track.name", track=track(t)),
                                     m("gloss.track.text", track=track(t))))
        for r in range(4):
            out.append(GlossaryEntry(f"row.{ROWS[r]}", row(r),
                                     m("gloss.row_marriage" if r == MARRIAGE_ROW else "gloss.row_career",
                                       track=track(r) if r < 3 else row(r))))
        for i in range(5):
            out.append(GlossaryEntry(f"city.{i}", m("gloss.city.name", city=city(c, i)),
                                     m("gloss.city.text", city=city(c, i))))
        for f in range(6):
            out.append(GlossaryEntry(f"family.{f}", m("gloss.family.name", family=family(c, f)),
                                     m("gloss.family.text", family=family(c, f))))
        for t in range(len(c.assignments)):
            out.append(GlossaryEntry(f"assignment.{t}", m("gloss.assignment.name", n=t + 1),
                                     m("gloss.assignment.text", tile=assignment(c, t))))
        for t in range(len(c.bonus_tiles)):
            out.append(GlossaryEntry(f"bonus.{t}", m("gloss.bonus.name", n=t + 1),
                                     m("gloss.bonus.text", effect=bonus(c, t), florins=florins(c.florins_instead))))
        for t in range(len(c.vp_tiles)):
            out.append(GlossaryEntry(f"vptile.{t}", m("gloss.vptile.name", n=t + 1),
                                     m("gloss.vptile.text", criterion=vp_tile(c, t),
                                       cost=florins(c.buy_vp_cost), vp=c.buy_vp)))
        for i, vp in enumerate(c.son_vp):
            out.append(GlossaryEntry(f"son.{i}", m("gloss.son.name", n=i + 1),
                                     m("gloss.son.text", vp=vp, florins=florins(c.son_florins))))
        return out

    # -- scores -----------------------------------------------------------------------------
    def scores(self, state: State) -> list[ScoreRow]:
        s: SignorieState = state  # type: ignore[assignment]
        return [ScoreRow(m(f"score.{name}"), tuple(s.vp_by[p * 9 + k] for p in range(s.players)))
                for k, name in enumerate(SCORE_CATEGORIES)]

    def outcomes(self, state: State, seat: int) -> list[Msg]:
        """Each row of ``seat``'s plan that scores at the end (3 tiles or more, face up or
        down): the count and the rows are in plain view, a face-down tile's face is not read."""
        s: SignorieState = state  # type: ignore[assignment]
        return [m("outcome.row_scores", row=row(r)) for r in range(4)
                if len(s.rows_up[seat * 4 + r]) + len(s.rows_down[seat * 4 + r]) >= 3]

    # -- the terminal picture -----------------------------------------------------------------
    def board(self, state: State, seat: int | None) -> list[Msg]:
        s: SignorieState = state  # type: ignore[assignment]
        from palio.games.signorie.render import board_lines

        return board_lines(s, seat)


# -- action words, one function per action kind -------------------------------------------------
def _die(s: SignorieState, p: int, a: A.TakeDie) -> tuple[Msg, Msg, str]:
    c = s.comp
    col = DIE_LETTERS.index(a.colour)
    pay = max(0, c.col_cost[col] - a.value)
    label = m("act.die", colour=colour(col), value=a.value)
    explain = m("act.die_paid" if pay else "act.die_free", cost=florins(pay), colour=colour(col),
                action=signoria(c.col_action[col]), sum=s.dice_sum(p) + a.value,
                threshold=s.threshold[p])
    return label, explain, "die"


def _pass(s: SignorieState, p: int, a: A.Pass) -> tuple[Msg, Msg, str]:
    return (m("act.pass"), m("act.pass_explain", sum=s.dice_sum(p), threshold=s.threshold[p]),
            "turn")


def _hire(s: SignorieState, p: int, a: A.Hire) -> tuple[Msg, Msg, str]:
    c = s.comp
    target = c.hire_to[s.stack[-1][2]]
    cost, e, amount = c.helpers[target][a.slot - 1]
    return (m("act.hire", colour=colour(target), slot=a.slot),
            m("act.hire_explain", cost=florins(cost), colour=colour(target), effect=effect(e, amount)),
            "hire")


def _assign(s: SignorieState, p: int, a: A.Assign) -> tuple[Msg, Msg, str]:
    c = s.comp
    col = s.stack[-1][2]
    sex = SEXES.index(a.sex)
    t = s.assign[col * 2 + sex]
    e, amount, _n, repeat = c.assignments[t]
    total = amount * (a.meeples if repeat else 1)
    what = effect(e, total) if e in COUNTED else (
        m("times", effect=effect(e, amount), n=a.meeples) if repeat and a.meeples > 1 else effect(e, amount))
    label = m("act.assign", effect=what, meeples=meeples(sex, a.meeples))
    where = m("act.assign_parked") if e == E_THRESHOLD else m("act.assign_stock")
    explain = m("act.assign_explain", meeples=meeples(sex, a.meeples), where=where, effect=what)
    return label, explain, "assign"


def _florins(s: SignorieState, p: int, a: A.Florins) -> tuple[Msg, Msg, str]:
    n = s.comp.signoria_florins
    return m("act.florins", florins=florins(n)), m("act.florins_explain", florins=florins(n)), "signoria"


def _offspring(s: SignorieState, p: int, a: A.Offspring) -> tuple[Msg, Msg, str]:
    return (m("act.offspring"),
            m("act.offspring_explain", n=1 + s.brides[p], men=s.stock_m[p], women=s.stock_w[p]),
            "signoria")


def _advance(s: SignorieState, p: int, a: A.Advance) -> tuple[Msg, Msg, str]:
    return (m("act.advance"), m("act.advance_explain", n=s.comp.advancement_points), "signoria")


def _tile_fate(s: SignorieState, p: int, r: int, t: int) -> Msg:
    from palio.games.signorie.rules.common import fits

    c = s.comp
    if t == -1:
        return m("fate.none")
    if fits(s, p, r, t):
        return m("fate.take", tile=tile(c, t), row=row(r))
    return m("fate.leave", tile=tile(c, t))


def _marry(s: SignorieState, p: int, a: A.Marry) -> tuple[Msg, Msg, str]:
    from palio.games.signorie.rules.common import lowest_empty

    c = s.comp
    i = s.tables.city_id[a.city]
    value = c.city_slots[i][lowest_empty(s, i)]
    label = m("act.marry", city=city(c, i), dowry=florins(a.dowry))
    explain = m("act.marry_explain", value=value, city=city(c, i), dowry=florins(a.dowry),
                vp=a.dowry * c.vp_per_florin, fate=_tile_fate(s, p, MARRIAGE_ROW, s.marriage_tile[i]))
    return label, explain, "marry"


def _mission(s: SignorieState, p: int, a: A.Mission) -> tuple[Msg, Msg, str]:
    from palio.games.signorie.rules.common import lowest_empty

    c = s.comp
    t = TRACK_INDEX[a.track]
    i = s.tables.city_id[a.city]
    value = c.city_slots[i][lowest_empty(s, i)]
    label = m("act.mission", track=man(t), slot=a.slot, city=city(c, i))
    explain = m("act.mission_explain", vp=c.track_vp[t][a.slot - 1], value=value, city=city(c, i),
                rank=c.track_rank[t][a.slot - 1], fate=_tile_fate(s, p, t, s.mission_tile[i]))
    return label, explain, "mission"


def _bonus_note(c: Components, t: int, slot: int) -> Msg:
    if slot == c.bonus_florins_slot and c.bonus_florins:
        return m("note.bonus_florins", florins=florins(c.bonus_florins))
    if slot == c.bonus_init_slot and c.bonus_init:
        return m("note.bonus_initiative", n=c.bonus_init)
    return m("note.none")


def _new(s: SignorieState, p: int, a: A.NewMan) -> tuple[Msg, Msg, str]:
    c = s.comp
    t = TRACK_INDEX[a.track]
    return (m("act.new", track=track(t)),
            m("act.new_explain", track=track(t), vp=c.track_vp[t][0], note=_bonus_note(c, t, 0)),
            "advance")


def _up(s: SignorieState, p: int, a: A.StepUp) -> tuple[Msg, Msg, str]:
    c = s.comp
    t = TRACK_INDEX[a.track]
    to = a.slot  # 0-based index of the slot reached
    return (m("act.up", track=man(t), slot=a.slot),
            m("act.up_explain", track=man(t), slot=a.slot, to=a.slot + 1, vp=c.track_vp[t][to],
              rank=c.track_rank[t][to], note=_bonus_note(c, t, to)),
            "advance")


def _init(s: SignorieState, p: int, a: A.InitStep) -> tuple[Msg, Msg, str]:
    to = s.init_pos[p] + 1
    return m("act.init"), m("act.init_explain", slot=to + 1, vp=s.comp.init_vp[to]), "advance"


def _done(s: SignorieState, p: int, a: A.Done) -> tuple[Msg, Msg, str]:
    top = s.stack[-1]
    if top[0] == F_ADVANCE:
        return m("act.stop"), m("act.stop_explain", n=top[2]), "advance"
    return m("act.no_buy"), m("act.no_buy_explain"), "reward"


def _row(s: SignorieState, p: int, a: A.Row) -> tuple[Msg, Msg, str]:
    r = ROW_CODES.index(a.row)
    n = len(s.rows_up[p * 4 + r]) + len(s.rows_down[p * 4 + r])
    return (m("act.row", row=row(r)),
            m("act.row_explain", row=row(r), n=n + 1, vp=s.comp.face_down_vp), "alliance")


def _reward(s: SignorieState, p: int, a: A.Reward) -> tuple[Msg, Msg, str]:
    c = s.comp
    if a.choice == "florins":
        n = c.florins_instead
        return m("act.reward_florins", florins=florins(n)), m("act.reward_florins_explain", florins=florins(n)), "reward"
    what = reward_tile(c, s.rewards, s.round)
    return m("act.reward_bonus", effect=what), m("act.reward_bonus_explain", effect=what), "reward"


def _buy(s: SignorieState, p: int, a: A.BuyVp) -> tuple[Msg, Msg, str]:
    c = s.comp
    return (m("act.buy", vp=c.buy_vp),
            m("act.buy_explain", cost=florins(c.buy_vp_cost), vp=c.buy_vp), "reward")


_ACTIONS = {
    A.TakeDie: _die, A.Pass: _pass, A.Hire: _hire, A.Assign: _assign, A.Florins: _florins,
    A.Offspring: _offspring, A.Advance: _advance, A.Marry: _marry, A.Mission: _mission,
    A.NewMan: _new, A.StepUp: _up, A.InitStep: _init, A.Done: _done, A.Row: _row,
    A.Reward: _reward, A.BuyVp: _buy,
}


# -- log lines, one function per event kind ----------------------------------------------------
def _tile_or_none(c: Components, t: int) -> Msg:
    return tile(c, t) if t != -1 else m("no_tile")


def _ev_setup(c: Components, who: Player | None, e: Mapping[str, Any]) -> Msg:
    return m("log.setup", players=[Player(p) for p in e["order"]],
             cities=[city(c, i) for i in e["cities"]])


def _ev_round(c: Components, who: Player | None, e: Mapping[str, Any]) -> Msg:
    said = m("log.round", round=e["round"], n=len(e["tiles"]))
    if e.get("unfilled"):
        said = m("log.round_unfilled", round=said, n=e["unfilled"])
    return said


def _ev_die(c: Components, who: Player | None, e: Mapping[str, Any]) -> Msg:
    key = "log.die_paid" if e["paid"] else "log.die"
    return m(key, player=who, colour=colour(e["col"]), value=e["value"], cost=florins(e["paid"]))


def _ev_pass(c: Components, who: Player | None, e: Mapping[str, Any]) -> Msg:
    return m("log.pass", player=who, n=e["dice"])


def _ev_hire(c: Components, who: Player | None, e: Mapping[str, Any]) -> Msg:
    return m("log.hire", player=who, slot=helper_slot(c, e["col"], e["slot"]), cost=florins(e["cost"]))


def _ev_assign(c: Components, who: Player | None, e: Mapping[str, Any]) -> Msg:
    return m("log.assign", player=who, meeples=meeples(e["sex"], e["meeples"]),
             tile=assignment(c, e["tile"]), colour=colour(e["col"]))


def _ev_florins(c: Components, who: Player | None, e: Mapping[str, Any]) -> Msg:
    return m("log.florins", player=who, florins=florins(e["florins"]))


def _ev_offspring(c: Components, who: Player | None, e: Mapping[str, Any]) -> Msg:
    return m("log.offspring", player=who, rolls=list(e["rolls"]), men=meeples(0, e["men"]),
             women=meeples(1, e["women"]))


def _ev_advance(c: Components, who: Player | None, e: Mapping[str, Any]) -> Msg:
    return m("log.advance", player=who, n=e["points"])


def _ev_marriage(c: Components, who: Player | None, e: Mapping[str, Any]) -> Msg:
    return m("log.marriage", player=who, city=city(c, e["city"]), dowry=florins(e["dowry"]),
             vp=e["vp"], fate=_fate(c, e, MARRIAGE_ROW))


def _fate(c: Components, e: Mapping[str, Any], r: int) -> Msg:
    if e["tile"] != -1:
        return m("fate.took", tile=tile(c, e["tile"]), row=row(r))
    if e["left"] != -1:
        return m("fate.left", tile=tile(c, e["left"]))
    return m("fate.none")


def _ev_mission(c: Components, who: Player | None, e: Mapping[str, Any]) -> Msg:
    return m("log.mission", player=who, track=man(e["track"]), slot=e["from_slot"] + 1,
             city=city(c, e["city"]), vp=e["vp"], fate=_fate(c, e, e["track"]))


def _ev_new(c: Components, who: Player | None, e: Mapping[str, Any]) -> Msg:
    return m("log.new_man", player=who, track=track(e["track"]))


def _ev_up(c: Components, who: Player | None, e: Mapping[str, Any]) -> Msg:
    return m("log.step_up", player=who, track=man(e["track"]), slot=e["to"] + 1)


def _ev_init(c: Components, who: Player | None, e: Mapping[str, Any]) -> Msg:
    return m("log.init_step", player=who, slot=e["to"] + 1)


def _ev_bonus_florins(c: Components, who: Player | None, e: Mapping[str, Any]) -> Msg:
    return m("log.bonus_florins", player=who, florins=florins(e["florins"]), track=track(e["track"]))


def _ev_bonus_init(c: Components, who: Player | None, e: Mapping[str, Any]) -> Msg:
    return m("log.bonus_initiative", player=who, track=track(e["track"]), slot=e["to"] + 1)


def _ev_points_lost(c: Components, who: Player | None, e: Mapping[str, Any]) -> Msg:
    return m("log.points_lost", player=who, n=e["points"])


def _ev_points_unused(c: Components, who: Player | None, e: Mapping[str, Any]) -> Msg:
    return m("log.points_unused", player=who, n=e["points"])


def _ev_helper(c: Components, who: Player | None, e: Mapping[str, Any]) -> Msg:
    return m("log.helper", player=who, slot=helper_slot(c, e["col"], e["slot"]),
             effect=effect(e["effect"], e["amount"]))


def _ev_helper_empty(c: Components, who: Player | None, e: Mapping[str, Any]) -> Msg:
    return m("log.helper_empty", player=who, slot=helper_slot(c, e["col"], e["slot"]))


def _ev_face_down(c: Components, who: Player | None, e: Mapping[str, Any]) -> Msg:
    return m("log.face_down", player=who, row=row(e["row"]))


def _ev_family(c: Components, who: Player | None, e: Mapping[str, Any]) -> Msg:
    return m("log.family", player=who, men=meeples(0, e["men"]), women=meeples(1, e["women"]))


def _ev_initiative_vp(c: Components, who: Player | None, e: Mapping[str, Any]) -> Msg:
    return m("log.initiative_vp", player=who, slot=e["slot"] + 1, vp=e["vp"])


def _ev_turn_order(c: Components, who: Player | None, e: Mapping[str, Any]) -> Msg:
    return m("log.turn_order", players=[Player(p) for p in e["order"]])


def _ev_qualified(c: Components, who: Player | None, e: Mapping[str, Any]) -> Msg:
    seats = e["seats"]
    if not seats:
        return m("log.nobody_rewarded")
    return m("log.qualified", players=[Player(p) for p in seats])


def _ev_reward(c: Components, who: Player | None, e: Mapping[str, Any]) -> Msg:
    if e["bonus"]:
        return m("log.reward_bonus", player=who, effect=bonus(c, e["tile"]))
    return m("log.reward_florins", player=who, florins=florins(e["florins"]))


def _ev_wedding(c: Components, who: Player | None, e: Mapping[str, Any]) -> Msg:
    return m("log.wedding", player=who, n=e["slot"] + 1, vp=e["vp"], florins=florins(e["florins"]))


def _ev_vp_tile(c: Components, who: Player | None, e: Mapping[str, Any]) -> Msg:
    return m("log.vp_tile", player=who, vp=e["vp"], tile=vp_tile(c, e["tile"]))


def _ev_buy(c: Components, who: Player | None, e: Mapping[str, Any]) -> Msg:
    return m("log.buy", player=who, florins=florins(e["florins"]), vp=e["vp"])


def _ev_no_buy(c: Components, who: Player | None, e: Mapping[str, Any]) -> Msg:
    return m("log.no_buy", player=who)


def _ev_final(c: Components, who: Player | None, e: Mapping[str, Any]) -> Msg:
    return m("log.final", player=who, careers=e["careers"], rows=sum(e["rows"]), vp=e["vp"])


def _ev_round_end(c: Components, who: Player | None, e: Mapping[str, Any]) -> Msg:
    return m("log.round_end", round=e["round"])


def _ev_game_over(c: Components, who: Player | None, e: Mapping[str, Any]) -> Msg:
    return m("log.game_over", player=Player(e["ranking"][0]), vp=e["scores"][e["ranking"][0]])


_EVENTS = {
    "setup": _ev_setup, "round": _ev_round, "die": _ev_die, "pass": _ev_pass, "hire": _ev_hire,
    "assign": _ev_assign, "florins": _ev_florins, "offspring": _ev_offspring,
    "advance": _ev_advance, "marriage": _ev_marriage, "mission": _ev_mission, "new_man": _ev_new,
    "step_up": _ev_up, "init_step": _ev_init, "bonus_florins": _ev_bonus_florins,
    "bonus_initiative": _ev_bonus_init, "points_lost": _ev_points_lost,
    "points_unused": _ev_points_unused, "helper": _ev_helper, "helper_empty": _ev_helper_empty,
    "face_down": _ev_face_down,
    "family": _ev_family, "initiative_vp": _ev_initiative_vp, "turn_order": _ev_turn_order,
    "qualified": _ev_qualified, "reward": _ev_reward, "wedding": _ev_wedding,
    "vp_tile": _ev_vp_tile, "buy": _ev_buy, "no_buy": _ev_no_buy, "final": _ev_final,
    "round_end": _ev_round_end, "game_over": _ev_game_over,
}

# glossary keys with a name and a text of their own (the rest are built per component)
_GLOSSARY = ("florin", "vp", "man", "woman", "bride", "helper", "supply", "stock", "offspring_die",
             "initiative", "turn_order", "threshold", "alliance_tile", "face_down", "plan",
             "city_slot", "marriage_slot", "mission_slot", "assignment_area", "reward_row",
             "advancement_point", "rank", "dowry", "dice_area", "main_board", "alliance_stack")
