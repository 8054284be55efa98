"""Aquileia's observation tensor (``palio.games.aquileia.encode``)."""

import random

import pytest

from palio.core.encoding import Writer, one_hot, one_hots, tally
from palio.games.aquileia import GAME
from palio.games.aquileia.components import CLASSES, HW, METALS, STADIUM, THEATRE
from palio.games.aquileia.encode import STEPS
from palio.games.aquileia.scenario import position
from palio.games.aquileia.state import FRAME_NAMES, PHASES
from tests.encoding import check_blind_to_hidden, check_in_layout, random_positions


def block(state, seat, name):
    return GAME.observation_tensor(state, seat)[GAME.observation_layout(state.players).span(name)]


@pytest.mark.parametrize("players", [3, 4, 5])
def test_every_position_fits_the_layout_for_every_player_count(players):
    shape = GAME.observation_tensor_shape(players)
    positions = 0
    for state in random_positions(GAME, players, 4, seed=players):
        for seat in (state.to_move, None):
            assert (len(check_in_layout(GAME, state, seat)),) == shape
        positions += 1
    assert positions > 500


def test_the_shape_grows_with_the_player_count():
    sizes = [GAME.observation_tensor_shape(p)[0] for p in (3, 4, 5)]
    assert sizes == [490, 591, 692]


def test_worlds_the_seat_cannot_tell_apart_give_the_same_tensor():
    rng = random.Random(3)
    reshuffled = 0
    for state in random_positions(GAME, 4, 2, seed=9):
        if state.move_number % 15 == 0 and not state.is_over:
            for seat in range(4):
                world = check_blind_to_hidden(GAME, state, seat, rng)
                reshuffled += world.hand != state.hand
    assert reshuffled > 10


def test_each_seat_sees_itself_as_player_zero_and_only_its_own_hidden_cards():
    s = position(3, coins={0: "g1 s2 b3", 1: "g4", 2: "s5"}, hands={1: "slave_2 weapon_1"},
                 tiebreaker={1: 1, 2: 2}, to_move=0)
    assert block(s, 0, "p0.coins") == [1, 2, 3]
    assert block(s, 1, "p0.coins") == [4, 0, 0]
    assert block(s, 1, "p2.coins") == [1, 2, 3]  # seat 0 is two places after seat 1
    assert sum(block(s, 1, "p0.cards")) == 2 and block(s, 1, "p0.hidden") == [0, 0, 0]
    assert sum(block(s, 0, "p1.cards")) == 0 and block(s, 0, "p1.hidden") == [1, 1, 0]
    assert block(s, None, "spectator") == [1] and block(s, None, "p0.coins") == [1, 2, 3]
    assert block(s, 2, "to_move") == [0, 1, 0, 0]  # seat 0 moves: one place after seat 2


def plain_encode(view, players):
    """The encoder as it was before it named only nonzero entries: every block written in
    full (``Writer.put``), the reference the faster one must match entry for entry."""
    enc = GAME.encoder
    c, P = enc.comp, players
    seat = view["seat"]
    me = 0 if seat is None else seat

    def rel(s):
        return P if s is None or s == -1 else (s - me) % P

    w = Writer(enc.layout(P))
    w.put("spectator", [float(seat is None)])
    w.put("round", one_hot(min(view["round"], c.rounds) - 1, c.rounds))
    w.put("phase", one_hot(PHASES.index(view["phase"]), 3))
    w.put("step", one_hot(STEPS.index(view["step"]), len(STEPS)))
    w.put("to_move", one_hot(rel(view["to_move"]), P + 1))
    w.put("start", one_hot(rel(view["start"]), P))
    pending = view["pending"] or {}
    kind = pending.get("kind")
    w.put("pending.kind", one_hot(0 if kind is None else FRAME_NAMES.index(kind) + 1,
                                  len(FRAME_NAMES) + 1))
    w.put("pending.seat", one_hot(rel(pending.get("seat")), P + 1))
    w.put("pending.second", one_hot(rel(pending.get("second")), P + 1))
    index = next((pending[k] for k in ("slot", "row", "contest", "field") if k in pending), None)
    w.put("pending.index", one_hot(index, enc.index_size))
    w.put("pending.left", [float(pending.get("left", 0))])
    w.put("fields", one_hots([rel(o) for o in view["fields"]], P + 1, c.n_fields))
    w.put("port_coins", [float(x) for x in view["port_coins"]])
    w.put("tiebreaker", one_hots([rel(o) for o in view["tiebreaker"]], P + 1, c.tiebreaker_spaces))
    w.put("plots", one_hots([rel(o) for o in view["plots"]], P + 1, len(c.plots)))
    w.put("bank", [float(view["bank"][m]) for m in METALS])
    w.put("display", one_hots([enc._in_class(HW, key) for key in view["display"]],
                              enc.n_class[HW] + 1, c.display_size))
    w.put("stadium_card", one_hot(enc._in_class(STADIUM, view["stadium_card"]),
                                  enc.n_class[STADIUM] + 1))
    w.put("theatre_card", one_hot(enc._in_class(THEATRE, view["theatre_card"]),
                                  enc.n_class[THEATRE] + 1))
    w.put("peek", one_hot(enc._in_class(STADIUM, view.get("peek")), enc.n_class[STADIUM] + 1))
    w.put("decks", [float(view["decks"][name]) for name in CLASSES])
    w.put("discards", tally((enc.types[k] for name in CLASSES for k in view["discards"][name]),
                            c.n_types))
    blue = view["blue"]
    w.put("blue.holder", one_hot(rel(blue["holder"]), P + 1))
    w.put("blue.left", [float(blue["left"])])
    contest = view["contest"]
    w.put("contest.kind", one_hot((None, "arena", "stadium").index(contest["kind"]), 3))
    w.put("contest.strength", [float(contest["strength"][(me + k) % P]) for k in range(P)])
    auction = view["auction"] or {"bid": {m: 0 for m in METALS}, "high": -1, "out": []}
    w.put("auction.bid", [float(auction["bid"][m]) for m in METALS])
    w.put("auction.high", one_hot(rel(auction["high"]), P + 1))
    w.put("auction.out", tally((rel(s) for s in auction["out"]), P))
    for k in range(P):
        p, info = f"p{k}.", view["players"][(me + k) % P]
        w.put(p + "coins", [float(info["coins"][m]) for m in METALS])
        w.put(p + "vp", [float(info["vp"])])
        w.put(p + "henchmen", [float(info["henchmen"])])
        w.put(p + "passed", [float(info["passed"])])
        tb = info["tiebreaker"]
        w.put(p + "tiebreaker", one_hot(c.tiebreaker_spaces if tb == -1 else tb,
                                        c.tiebreaker_spaces + 1))
        w.put(p + "houses", [float(info["houses"])])
        w.put(p + "hand_size", [float(info["hand_size"])])
        w.put(p + "cards", tally((enc.types[k] for k in info["cards"]), c.n_types))
        w.put(p + "hidden", [float(info["hidden"][name]) for name in CLASSES[:3]])
    return w.done()


@pytest.mark.parametrize("players", [3, 4, 5])
def test_the_encoder_writes_the_entries_of_every_block_written_in_full(players):
    # the encoder names only nonzero entries; the same entries, in the same order, as the
    # plain encoder that wrote every block in full, for every seat and a spectator
    kinds, compared = set(), 0
    for state in random_positions(GAME, players, 3, seed=40 + players):
        for seat in (*range(players), None):
            view = state.observe(seat)
            got = GAME.encoder.encode(view, players)
            want = plain_encode(view, players)
            assert (got.size, got.index, got.value) == (want.size, want.index, want.value)
            assert all(type(v) is float for v in got.value)
            compared += 1
            kinds.add((view["pending"] or {}).get("kind"))
            if "peek" in view:
                kinds.add("peek")
            if view["auction"] is not None:
                kinds.add("bid")
    assert compared > 1500
    assert {"place", "auction", "build", "cards", "laurel", "peek", "bid", None} <= kinds
