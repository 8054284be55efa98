"""Applying one legal decision, dispatched by action type (and, for the words every frame
shares, by the frame on top). After the decision, the action phase runs on until the next one."""

from __future__ import annotations

from typing import TYPE_CHECKING

from palio.core.game import Action
from palio.games.aquileia import actions as A
from palio.games.aquileia.components import METAL_LETTERS
from palio.games.aquileia.rules import contests, forum, market, placement, theatre
from palio.games.aquileia.rules.flow import advance
from palio.games.aquileia.state import (
    ACTION,
    F_ARMA,
    F_AUCTION,
    F_BLUE,
    F_BUILD,
    F_CARDS,
    F_EXCHANGE,
    F_PLACE,
    F_SERVI,
)

if TYPE_CHECKING:
    from palio.games.aquileia.state import AquileiaState


def apply_action(s: AquileiaState, action: Action) -> None:
    _HANDLERS[type(action)](s, s.stack[-1], action)
    if s.phase == ACTION and not s.stack:
        advance(s)


def _place(s: AquileiaState, top: tuple, a: A.Place) -> None:
    placement.place(s, top[1], s.comp.field_id[a.field])


def _tiebreaker(s: AquileiaState, top: tuple, a: A.Tiebreaker) -> None:
    placement.place_tiebreaker(s, top[1])


def _pass(s: AquileiaState, top: tuple, a: A.Pass) -> None:
    if top[0] == F_PLACE:
        placement.pass_placement(s, top[1])
    else:
        assert top[0] == F_AUCTION
        theatre.pass_auction(s, top[1])


def _skip(s: AquileiaState, top: tuple, a: A.Skip) -> None:
    kind, seat = top[0], top[1]
    if kind == F_BUILD:
        forum.skip_build(s, seat)
        return
    comp = s.comp
    if kind == F_EXCHANGE:
        field = comp.f_pecunia
    elif kind == F_ARMA:
        field = comp.f_arma[top[2]]
    else:
        assert kind == F_SERVI
        field = comp.f_servi[top[2]]
    s.stack.pop()
    s.emit("skip", seat, field=comp.field_name[field])


def _done(s: AquileiaState, top: tuple, a: A.Done) -> None:
    if top[0] == F_CARDS:
        contests.stop_cards(s, top[1])
    else:
        assert top[0] == F_BLUE
        contests.stop_blue(s, top[1])


def _exchange(s: AquileiaState, top: tuple, a: A.Exchange) -> None:
    market.do_exchange(s, top[1], a.option - 1)


def _buy(s: AquileiaState, top: tuple, a: A.Buy) -> None:
    market.buy_card(s, top[1], top[2])


def _slaves(s: AquileiaState, top: tuple, a: A.Slaves) -> None:
    market.buy_slaves(s, top[1], top[2], a.count)


def _play(s: AquileiaState, top: tuple, a: A.Play) -> None:
    contests.play_card(s, top[1], s.comp.type_id[a.card])


def _roll(s: AquileiaState, top: tuple, a: A.Roll) -> None:
    contests.roll_blue(s, top[1], a.count)


def _prize(s: AquileiaState, top: tuple, a: A.Prize) -> None:
    contests.award_prize(s, top[1], top[2], a.choice)


def _laurel(s: AquileiaState, top: tuple, a: A.Laurel) -> None:
    contests.take_laurel(s, top[1], top[2], a.choice)


def _bid(s: AquileiaState, top: tuple, a: A.Bid) -> None:
    theatre.bid(s, top[1], METAL_LETTERS.index(a.metal))


def _build(s: AquileiaState, top: tuple, a: A.Build) -> None:
    forum.build(s, top[1], a.plot - 1, a.twos)


_HANDLERS = {
    A.Place: _place, A.Tiebreaker: _tiebreaker, A.Pass: _pass, A.Skip: _skip, A.Done: _done,
    A.Exchange: _exchange, A.Buy: _buy, A.Slaves: _slaves, A.Play: _play, A.Roll: _roll,
    A.Prize: _prize, A.Laurel: _laurel, A.Bid: _bid, A.Build: _build,
}
