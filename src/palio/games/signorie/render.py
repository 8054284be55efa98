"""The terminal picture of a Signorie position, as message lines (``words.board``).

Compact: a line per die area and assignment pair, city, career track and player row, so a
four-player position stays well under 50 lines. Everything shown is public (the view is the
same for every seat); a face-down tile shows only as a count.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from palio.core.words import Msg, Player
from palio.games.signorie.components import DICE
from palio.games.signorie.state import PHASES, PLAY
from palio.games.signorie.words import (
    assignment,
    city,
    colour,
    effect,
    florins,
    m,
    man,
    meeples,
    reward_tile,
    row,
    tile,
    track,
)

if TYPE_CHECKING:
    from palio.games.signorie.state import SignorieState

PLAYER_COLOURS = ("yellow", "red", "purple", "blue", "grey", "lightblue")


def player_colour(name: str) -> Msg | str:
    return m(f"colour.{name}") if name in PLAYER_COLOURS else name


def board_lines(s: SignorieState, seat: int | None) -> list[Msg]:
    c = s.comp
    mover = s.to_move
    out = [m("board.header", round=s.round, rounds=c.rounds, phase=m(f"phase.{PHASES[s.phase]}"),
             mover=m("board.nobody") if mover is None else Player(mover)),
           m("board.order", players=[Player(p) for p in s.order])]
    areas = []
    for col in range(5):
        values = " ".join(str(v + 1) for v in range(6) for _ in range(s.pool[col * 6 + v]))
        areas.append(m("board.dice_area", colour=colour(col), values=values or m("board.none_left")))
    out.append(m("board.dice", areas=areas))
    for col in range(5):
        out.append(m("board.assign", colour=colour(col), man=assignment(c, s.assign[col * 2]),
                     woman=assignment(c, s.assign[col * 2 + 1])))
    rewards = []
    for r in range(max(s.round, 1), c.rounds + 1):
        rewards.append(m("board.reward_round", round=r, tile=reward_tile(c, s.rewards, r)))
    out.append(m("board.rewards", tiles=rewards))
    S = c.max_city_slots
    for i in s.cities:
        free, taken = [], []
        for k, value in enumerate(c.city_slots[i]):
            x = s.city_slot[i * S + k]
            if x < 0:
                free.append(str(value))
            elif x % 4 == 0:
                taken.append(m("board.slot_bride", value=value, player=Player(x // 4)))
            else:
                taken.append(m("board.slot_man", value=value, player=Player(x // 4), track=man(x % 4 - 1)))
        out.append(m("board.city", city=city(c, i), free=" ".join(free) or m("board.none"),
                     taken=taken or m("board.none"),
                     marriage=_tile(s, s.marriage_tile[i]), mission=_tile(s, s.mission_tile[i])))
    L = c.max_track_len
    for t in range(3):
        men = []
        for i in range(c.track_len[t]):
            for p in range(s.players):
                n = s.tracks[(p * 3 + t) * L + i]
                if n:
                    men.append(m("board.track_men", slot=i + 1, vp=c.track_vp[t][i], player=Player(p), n=n))
        out.append(m("board.track", track=track(t), men=men or m("board.empty")))
    discs = [m("board.disc" if c.init_vp[s.init_pos[p]] else "board.disc_low", player=Player(p),
               slot=s.init_pos[p] + 1, vp=c.init_vp[s.init_pos[p]]) for p in s.initiative_ranking()]
    out.append(m("board.initiative", discs=discs, stack=len(s.alliance)))
    for p in range(s.players):
        out += _player(s, p)
    return out


def _tile(s: SignorieState, t: int) -> Msg:
    return tile(s.comp, t) if t != -1 else m("board.none")


def _player(s: SignorieState, p: int) -> list[Msg]:
    c = s.comp
    held = [m("board.held", colour=colour(col), value=s.dice[p * 5 + col])
            for col in range(5) if s.dice[p * 5 + col]]
    status = m("board.passed") if s.passed[p] and s.phase == PLAY else m("board.playing")
    lines = [
        m("board.player", player=Player(p), colour=player_colour(c.colours[p]), vp=s.vp[p],
          florins=florins(s.florins[p]), men=meeples(0, s.men[p]), women=meeples(1, s.women[p]),
          stock_men=meeples(0, s.stock_m[p]), stock_women=meeples(1, s.stock_w[p]), sons=s.brides[p]),
        m("board.player_dice", dice=held or m("board.none"), sum=s.dice_sum(p),
          threshold=s.threshold[p], status=status),
    ]
    helpers = []
    for col in range(5):
        mask = s.helpers[p * 5 + col]
        effects = [effect(e, amount) for i, (_cost, e, amount) in enumerate(c.helpers[col]) if mask >> i & 1]
        if effects:
            helpers.append(m("board.helper", colour=colour(col), effects=effects))
    lines.append(m("board.helpers", helpers=helpers or m("board.none")))
    rows = []
    for r in range(4):
        up = [tile(c, t) for t in s.rows_up[p * 4 + r]]
        down = len(s.rows_down[p * 4 + r])
        if down:
            up.append(m("board.face_down", n=down))
        if up:  # empty rows are left out
            rows.append(m("board.plan_row", row=row(r), tiles=up))
    lines.append(m("board.plan", rows=rows or m("board.none")))
    return lines


__all__ = ["board_lines", "DICE"]
