"""The placement phase (配置フェイズ): henchmen on fields, the tiebreaker, passing.

In turn order from the start player, each player places one henchman on a free action field or
the tiebreaker on the leftmost free space of its track, and so on round after round until every
piece is down. A player may pass instead; after that they place no more henchmen this round. The
tiebreaker must be placed every round. One henchman per field; never on both the gold and the
silver side of the stadium; one port field per player, with a coin of its metal put on it.

The rulebook (配置フェイズ) has placement go on "until all pieces (5 henchmen and 1 tiebreaker)
are placed", and only a pass ends one's henchmen: placing the tiebreaker takes that turn's
placement and a player with henchmen left goes on placing them on later turns. A pass only ends
the henchmen; a player who passed before placing the tiebreaker places it on their next turn,
where it is their only move.

The game option ``tiebreaker_ends`` plays the publisher's English reading instead: the
tiebreaker is one's last piece of the round, no henchman after it (docs/coverage/aquileia.md).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from palio.core.game import Action
from palio.games.aquileia.components import ARMA, PORT, RACE, THEATRE, THEATRUM
from palio.games.aquileia.state import ACTION, F_PLACE

if TYPE_CHECKING:
    from palio.games.aquileia.state import AquileiaState


def tiebreaker_ends(s: AquileiaState) -> bool:
    """Is this game played with the option ``tiebreaker_ends`` (no henchman after one's
    tiebreaker)?"""
    return bool(s.options.get("tiebreaker_ends"))


def is_done(s: AquileiaState, seat: int) -> bool:
    """Has ``seat`` nothing left to place this round: the tiebreaker down, and no henchman
    left or passed (with ``tiebreaker_ends``, the tiebreaker alone ends it)?"""
    if s.tb[seat] == -1:
        return False
    return tiebreaker_ends(s) or s.henchmen[seat] == 0 or bool(s.passed >> seat & 1)


def holdings(s: AquileiaState, seat: int) -> tuple[int, bool]:
    """The stadium side ``seat`` stands on (-1 for none) and whether it holds a port field."""
    comp = s.comp
    owner = s.field_owner
    side = -1
    for f in comp.f_race:
        if owner[f] == seat:
            side = comp.field_param[f]
            break
    return side, any(owner[f] == seat for f in comp.f_port)


def field_open(s: AquileiaState, seat: int, field: int, side: int, has_port: bool) -> bool:
    """May ``seat`` put a henchman on ``field`` now (ignoring whether it has one left)?
    ``side`` and ``has_port`` are its :func:`holdings`."""
    if s.field_owner[field] != -1:
        return False
    comp = s.comp
    kind = comp.field_kind[field]
    if kind == RACE:
        return side == -1 or side == comp.field_param[field]
    if kind == PORT:
        return not has_port and s.coins[3 * seat + comp.field_param[field]] > 0
    if kind == ARMA:
        return s.display[comp.field_param[field]] != -1  # a field whose card is gone is useless
    if kind == THEATRUM:
        return bool(s.deck[THEATRE])
    return True


def legal_placement(s: AquileiaState, seat: int) -> list[Action]:
    t = s.tables
    out: list[Action] = []
    placing = (s.henchmen[seat] > 0 and not s.passed >> seat & 1
               and (s.tb[seat] == -1 or not tiebreaker_ends(s)))
    if placing:
        owner = s.field_owner
        simple = s.simple_field
        place = t.place
        side, has_port = holdings(s, seat)
        for f in range(len(owner)):
            if owner[f] == -1 and (simple[f] or field_open(s, seat, f, side, has_port)):
                out.append(place[f])
    if s.tb[seat] == -1:
        out.append(t.tiebreaker)
    if placing:
        out.append(t.pass_)
    return out


def place(s: AquileiaState, seat: int, field: int) -> None:
    comp = s.comp
    s.field_owner[field] = seat
    s.henchmen[seat] -= 1
    if comp.field_kind[field] == PORT:
        k = comp.f_port.index(field)
        s.coins[3 * seat + comp.port_metals[k]] -= 1
        s.port_coin[k] = 1
    s.emit("place", seat, field=comp.field_name[field])
    next_placer(s, seat)


def place_tiebreaker(s: AquileiaState, seat: int) -> None:
    s.tb[seat] = s.tb_next
    s.tb_next += 1
    s.emit("tiebreaker", seat, space=s.tb[seat] + 1)
    next_placer(s, seat)


def pass_placement(s: AquileiaState, seat: int) -> None:
    s.passed |= 1 << seat
    s.emit("pass", seat)
    next_placer(s, seat)


def next_placer(s: AquileiaState, seat: int) -> None:
    """Hand the placement to the next seat clockwise that still has something to place, or
    begin the action phase when nobody has."""
    n = s.players
    for k in range(1, n + 1):
        nxt = (seat + k) % n
        if not is_done(s, nxt):
            s.stack[-1] = (F_PLACE, nxt)
            return
    s.stack.pop()
    s.phase = ACTION
    s.step = 0
    s.emit("actions", round=s.round)
    from palio.games.aquileia.rules.flow import advance

    advance(s)
