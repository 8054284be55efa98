"""Planning runs: checked requests, seat rotation, seeds, and arena seatings and counts."""

from __future__ import annotations

import math
from collections import Counter

import pytest

from palio.core.errors import OptionError
from palio.sim import plan_arena, plan_simulation
from palio.sim.jobs import bot_seed, game_seed
from palio.sim.plan import arrangements, lineups


def test_rotation_puts_every_bot_in_every_seat_equally_often():
    jobs = plan_simulation("tiletum", 3, 9, ["mcts", "greedy", "random"], seed=4)
    for seat in range(3):
        assert Counter(job.bots[seat] for job in jobs) == {"mcts": 3, "greedy": 3, "random": 3}
    assert [job.bots for job in jobs[:2]] == [("mcts", "greedy", "random"),
                                             ("random", "mcts", "greedy")]


def test_the_last_bot_fills_the_remaining_seats_and_no_rotate_keeps_the_order():
    jobs = plan_simulation("tiletum", 4, 3, ["mcts", "greedy"], seed=0, rotate=False)
    assert {job.bots for job in jobs} == {("mcts", "greedy", "greedy", "greedy")}


def test_seeds_depend_on_the_run_seed_and_the_game_index_only():
    jobs = plan_simulation("san-gimignano", 2, 5, ["greedy", "random"], seed=7)
    assert [job.seed for job in jobs] == [game_seed(7, i) for i in range(5)]
    assert len({job.seed for job in jobs}) == 5
    assert game_seed(7, 3) != game_seed(8, 3) and bot_seed(1, 0) != bot_seed(1, 1)
    again = plan_simulation("san-gimignano", 2, 5, ["greedy", "random"], seed=7)
    assert again == jobs


@pytest.mark.parametrize(("args", "message"), [
    (("chess", 2, 1, ["random"]), "unknown game"),
    (("san-gimignano", 3, 1, ["random"]), "2 players"),
    (("san-gimignano", 2, 1, ["robot"]), "unknown bot"),
    (("san-gimignano", 2, 1, ["mcts:depth=3"]), "unknown option"),
    (("san-gimignano", 2, 1, ["random", "random", "random"]), "3 bots named for 2 seats"),
    (("san-gimignano", 2, 0, ["random"]), "games must be"),
    (("san-gimignano", 2, 1, []), "name at least one bot"),
])
def test_bad_requests_are_refused_with_a_clear_message(args, message):
    with pytest.raises(OptionError, match=message):
        plan_simulation(*args, seed=0)


def test_bad_game_options_are_refused():
    with pytest.raises(OptionError, match="unknown option"):
        plan_simulation("san-gimignano", 2, 1, ["random"], seed=0, options={"fog": True})


def test_semicolons_join_several_options_of_one_bot():
    jobs = plan_simulation("san-gimignano", 2, 1, ["mcts:iterations=5;c=1", "random"], seed=0)
    assert jobs[0].bots == ("mcts:iterations=5;c=1", "random")
    with pytest.raises(OptionError, match="c must be"):
        plan_simulation("san-gimignano", 2, 1, ["mcts:iterations=5;c=-1"], seed=0)


# -- arena -----------------------------------------------------------------------------------

def test_two_player_arena_plays_every_pair_in_both_seat_orders():
    bots = ["a", "b", "c", "d"]
    orders = [order for group in lineups(bots, 2) for order in arrangements(group, "permutations")]
    assert len(orders) == 4 * 3 and len(set(orders)) == 12
    jobs = plan_arena("san-gimignano", ["random", "greedy", "mcts:iterations=5"], games=3)
    assert len(jobs) == 3 * 2 * 3
    assert Counter(job.bots for job in jobs) == {
        ("random", "greedy"): 3, ("greedy", "random"): 3, ("random", "mcts:iterations=5"): 3,
        ("mcts:iterations=5", "random"): 3, ("greedy", "mcts:iterations=5"): 3,
        ("mcts:iterations=5", "greedy"): 3}


@pytest.mark.parametrize(("bots", "players", "seating", "groups", "per_group"), [
    (5, 3, "permutations", math.comb(5, 3), 6),
    (5, 4, "rotations", math.comb(5, 4), 4),
    (4, 4, "permutations", 1, 24),
    (4, 3, "rotations", 4, 3),
])
def test_multiplayer_arena_counts(bots, players, seating, groups, per_group):
    names = [f"b{i}" for i in range(bots)]
    found = lineups(names, players)
    assert len(found) == groups and all(len(set(g)) == players for g in found)
    for group in found:
        orders = arrangements(group, seating)
        assert len(orders) == per_group and all(sorted(o) == sorted(group) for o in orders)


def test_fewer_bots_than_seats_repeat_bots_but_never_one_bot_alone():
    found = lineups(["x", "y"], 4)
    assert found == [("x", "x", "x", "y"), ("x", "x", "y", "y"), ("x", "y", "y", "y")]
    # distinct seatings only: x,x,x,y has 4 orders, x,x,y,y has 6
    assert [len(arrangements(g, "permutations")) for g in found] == [4, 6, 4]
    assert [len(arrangements(g, "rotations")) for g in found] == [4, 4, 4]


def test_arena_defaults_and_shared_deals():
    jobs = plan_arena("tiletum", ["random", "greedy", "mcts:iterations=5"], games=2, players=3)
    assert len(jobs) == 2 * 6  # one group, all 6 seat orders (3 players: permutations)
    four = plan_arena("tiletum", ["random", "greedy", "easy", "medium"], games=1, players=4)
    assert len(four) == 4  # 4 players: cyclic rotations by default
    # every seating of a group plays the same deal in round k
    assert len({job.seed for job in jobs[:6]}) == 1 and jobs[0].seed != jobs[6].seed
    assert [job.index for job in jobs] == list(range(len(jobs)))


@pytest.mark.parametrize(("bots", "kwargs", "message"), [
    (["random"], {}, "at least two bots"),
    (["random", "random"], {}, "name each bot once"),
    (["random", "greedy"], {"seating": "shuffled"}, "unknown seating"),
])
def test_bad_arenas_are_refused(bots, kwargs, message):
    with pytest.raises(OptionError, match=message):
        plan_arena("san-gimignano", bots, games=1, **kwargs)
