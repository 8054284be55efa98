"""The bots on every registered game and player count: legal choices, options, budgets,
strength against random, and decisions that never depend on what the seat cannot see."""

from __future__ import annotations

import random
import subprocess
import sys
import time

import pytest

import palio
from palio import bots
from palio.bots.mcts import (
    DEFAULT_C,
    DEFAULT_MAST,
    DEFAULT_ROLLOUT_DEPTH,
    DEFAULT_SCALE,
    LONG_ITERATIONS,
    LONG_SECONDS,
    MctsBot,
)
from palio.core.errors import IllegalAction, OptionError
from palio.games import available
from palio.games import get as get_game
from tests.rollouts import record_rollouts

CASES = [
    (game_id, players)
    for game_id in available()
    for players in range(get_game(game_id).info.min_players, get_game(game_id).info.max_players + 1)
]
SMALL = {"random": {}, "greedy": {}, "mcts": {"iterations": 20, "rollout_depth": 4}}


def positions(game_id: str, players: int, seed: int, count: int) -> list:
    """Up to ``count`` positions of a random game: every change of mover first (these include
    seats deciding out of turn), then evenly spread others."""
    state = palio.new_game(game_id, players=players, seed=seed)
    rng = random.Random(seed)
    handovers, others = [], []
    previous = None
    while not state.is_over:
        (handovers if state.to_move != previous else others).append(state.copy())
        previous = state.to_move
        step_avoiding_the_end(state, rng)
    rng.shuffle(handovers)
    picked = handovers[: count // 2] + others[:: max(1, len(others) // (count - count // 2))]
    return picked[:count]


@pytest.mark.parametrize(("game_id", "players"), CASES)
def test_every_bot_returns_a_legal_action(game_id, players):
    for state in positions(game_id, players, seed=11, count=8):
        for name, options in SMALL.items():
            bot = bots.get(name, seed=3, **options)
            action = bot.choose(state, state.to_move)
            assert action in state.legal_actions(), (name, state, action)


def test_out_of_turn_deciders_are_covered():
    """San Gimignano asks the non-turn seat to respond (defend, give); bots answer those too."""
    seen = 0
    for seed in range(5):
        for state in positions("san-gimignano", 2, seed=seed, count=40):
            if state.to_move != state.turn:
                action = bots.get("mcts", seed=1, **SMALL["mcts"]).choose(state, state.to_move)
                assert action in state.legal_actions()
                seen += 1
    assert seen > 0


def test_a_seat_not_to_move_is_refused():
    state = palio.new_game("san-gimignano", players=2, seed=1)
    for name in SMALL:
        with pytest.raises(IllegalAction, match="not to move"):
            bots.get(name).choose(state, 1 - state.to_move)


def test_names_list_bots_and_levels():
    assert {"random", "greedy", "mcts", "puct", "search", "easy", "medium", "hard",
            "expert"} <= set(bots.names())
    assert isinstance(bots.get("easy"), bots.RandomBot)
    assert isinstance(bots.get("medium"), bots.GreedyBot)
    hard, expert = bots.get("hard"), bots.get("expert")
    assert isinstance(hard, bots.MctsBot) and isinstance(expert, bots.LearnedBot)
    assert expert.iterations > hard.iterations


def test_options_by_keyword_and_by_spec():
    bot = bots.get("mcts:iterations=50,c=1.5,rollout_depth=3", seed=2)
    assert (bot.iterations, bot.c, bot.rollout_depth, bot.time_budget) == (50, 1.5, 3, None)
    assert bots.get("mcts:iterations=50", iterations=9).iterations == 9  # keyword wins
    assert bots.get("mcts", time_budget=0.5).iterations is None
    assert bots.get("expert:iterations=7").iterations == 7
    assert bots.parse_spec("mcts: c = 2 ") == ("mcts", {"c": 2})


@pytest.mark.parametrize(
    ("name", "options", "message"),
    [
        ("nobody", {}, "unknown bot 'nobody'"),
        ("mcts", {"depth": 3}, "unknown option.*depth.*it takes"),
        ("random", {"iterations": 3}, "unknown option.*iterations"),
        ("mcts", {"iterations": 0}, "iterations must be at least 1"),
        ("mcts", {"iterations": 2.5}, "iterations must be a whole number"),
        ("mcts", {"time_budget": "soon"}, "time_budget must be a number"),
        ("mcts", {"c": -1}, "c must be at least 0"),
        ("mcts", {"widen": -1}, "widen must be at least 0"),
        ("mcts", {"mast": 1.5}, "mast must be at most 1"),
        ("mcts", {"mast": "often"}, "mast must be a number"),
        ("mcts", {"cpu_time": "yes"}, "cpu_time must be true or false"),
        ("mcts:iterations", {}, "write key=value"),
        ("greedy", {"seed": "x"}, "seed must be a whole number"),
    ],
)
def test_bad_names_and_options_are_refused_clearly(name, options, message):
    with pytest.raises(OptionError, match=message):
        bots.get(name, **options)


def test_time_budget_is_roughly_respected():
    state = palio.new_game("tiletum", players=4, seed=5)
    bot = bots.get("mcts", time_budget=0.05, seed=1)
    started = time.perf_counter()
    action = bot.choose(state, state.to_move)
    assert time.perf_counter() - started < 2.0
    assert action in state.legal_actions()
    assert bot.last_stats["iterations"] >= 1
    assert bot.last_stats["seconds"] < 2.0


def test_iterations_are_counted():
    state = palio.new_game("san-gimignano", players=2, seed=5)
    for spec in ("mcts", "mcts-2026", "mcts:widen=1", "mcts:cpu_time=true"):
        bot = bots.get(spec, iterations=37, seed=1)
        bot.choose(state, state.to_move)
        assert bot.last_stats["iterations"] == 37, spec


def test_puct_searches_with_no_network_and_counts_its_budget():
    """``puct``: the learned bot's search with uniform priors and the game's evaluation at
    every leaf; it needs no model file, repeats with its seed and refuses bad options."""
    state = palio.new_game("troyes", players=3, seed=5)
    bot = bots.get("puct", iterations=37, seed=1)
    action = bot.choose(state, state.to_move)
    assert action in state.legal_actions() and bot.last_stats["iterations"] == 37
    assert bots.get("puct:iterations=37", seed=1).choose(state, state.to_move) == action
    timed = bots.get("puct:time_budget=0.02,cpu_time=true", seed=1)
    timed.choose(state, state.to_move)
    assert timed.last_stats["iterations"] >= 1 and timed.iterations is None
    for bad, message in (("puct:c=-1", "puct option c must be at least"),
                         ("puct:iterations=0", "puct option iterations must be at least"),
                         ("puct:cpu_time=2", "cpu_time must be true or false")):
        with pytest.raises(OptionError, match=message):
            bots.get(bad)


def test_the_search_bot_plays_the_search_measured_strongest_for_each_game():
    """``search`` is puct where bots.SEARCH_BY_GAME says puct beat mcts (Troyes at every
    count, two-player Signorie), mcts elsewhere: the same decisions as that bot with the same
    budget and seed."""
    for game_id, players in CASES:
        puct = game_id == "troyes" or (game_id, players) == ("signorie", 2)
        expected = "puct" if puct else "mcts"
        assert bots.strongest_search(game_id, players) == expected, (game_id, players)
    for game_id, players in (("troyes", 3), ("san-gimignano", 2)):
        state = palio.new_game(game_id, players=players, seed=5)
        bot = bots.get("search:iterations=30", seed=2)
        action = bot.choose(state, state.to_move)
        named = bots.get(bots.strongest_search(game_id, players), iterations=30, seed=2)
        assert action == named.choose(state, state.to_move)
        assert bot.search_for(state).name == named.name
        assert bot.last_stats["iterations"] == 30
    timed = bots.get("search:time_budget=0.02,cpu_time=true", seed=1)
    state = palio.new_game("troyes", players=2, seed=5)
    timed.choose(state, state.to_move)
    assert timed.search_for(state).time_budget == 0.02 and timed.search_for(state).cpu_time
    for bad, message in (("search:c=1", "unknown option.*c for bot search"),
                         ("search:iterations=0", "iterations must be at least 1"),
                         ("search:cpu_time=2", "cpu_time must be true or false")):
        with pytest.raises(OptionError, match=message):
            bots.get(bad)


@pytest.mark.parametrize("spec", ["mcts", "mcts-2026", "mcts:widen=1.5", "mcts:mast=0",
                                  "mcts:mast=1"])
def test_searches_are_reproducible_with_a_seed(spec):
    state = palio.new_game("tiletum", players=3, seed=8)
    rng = random.Random(2)
    for _ in range(20):
        state.apply_unchecked(rng.choice(state.legal_actions()))
    first = bots.get(spec, iterations=120, seed=4).search(state, state.to_move)
    again = bots.get(spec, iterations=120, seed=4).search(state, state.to_move)
    assert {a: n.visits for a, n in first.children.items()} == \
        {a: n.visits for a, n in again.children.items()}


def test_each_game_tunes_its_own_search_and_options_given_win():
    troyes, sg = palio.get_game("troyes"), palio.get_game("san-gimignano")
    signorie = palio.get_game("signorie")
    assert _rollouts(MctsBot(), troyes, 2) == (3, 0.0)  # its search_defaults: short random rollouts
    assert _rollouts(MctsBot(), signorie, 2) == (0, 0.0)  # no rollouts, so no MAST
    assert _rollouts(MctsBot(), sg, 2) == (DEFAULT_ROLLOUT_DEPTH, DEFAULT_MAST)
    assert _rollouts(MctsBot(rollout_depth=5), signorie, 2) == (5, DEFAULT_MAST)
    assert _rollouts(MctsBot(mast=0.5), troyes, 2) == (3, 0.5)
    assert _rollouts(MctsBot(), palio.get_game("aquileia"), 3) == (16, DEFAULT_MAST)
    assert _rollouts(MctsBot(mast=0), sg, 2) == (DEFAULT_ROLLOUT_DEPTH, 0)
    # a player count may have its own: four-player Tiletum rolls out 4 decisions, three 8
    tiletum, bot = palio.get_game("tiletum"), MctsBot()
    assert _rollouts(bot, tiletum, 4) == (4, DEFAULT_MAST)
    assert _rollouts(bot, tiletum, 3) == (DEFAULT_ROLLOUT_DEPTH, DEFAULT_MAST)
    assert _rollouts(MctsBot(rollout_depth=6), tiletum, 4) == (6, DEFAULT_MAST)


def test_a_long_search_takes_the_games_options_for_long_searches():
    # two-player Troyes values a leaf at once in a long search; a short one rolls out 3 decisions
    troyes = palio.get_game("troyes")
    many, few = LONG_ITERATIONS, LONG_ITERATIONS - 1
    ample, short = LONG_SECONDS, LONG_SECONDS / 2
    for options, depth in (({}, 3), ({"iterations": few}, 3), ({"iterations": many}, 0),
                           ({"iterations": 2000}, 0), ({"time_budget": short}, 3),
                           ({"time_budget": ample}, 0), ({"time_budget": 0.4}, 0),
                           # given both, the search stops at the first: long only if both are
                           ({"iterations": many, "time_budget": short}, 3),
                           ({"iterations": few, "time_budget": ample}, 3),
                           ({"iterations": many, "time_budget": ample}, 0)):
        bot = MctsBot(**options)
        assert bot.long == (depth == 0)
        assert _rollouts(bot, troyes, 2) == (depth, 0.0), options
    long = MctsBot(iterations=2000)
    assert _rollouts(long, troyes, 3) == (3, 0.0)  # other player counts: as in a short search
    assert _rollouts(MctsBot(iterations=2000, rollout_depth=3), troyes, 2) == (3, 0.0)  # given wins
    assert MctsBot(iterations=2000).settings(palio.get_game("san-gimignano"), 2) == \
        MctsBot().settings(palio.get_game("san-gimignano"), 2)  # a game without long options
    # a budget changed after a search (as search_root does) is read at the next one
    long.settings(troyes, 2)
    long.iterations = 300
    assert _rollouts(long, troyes, 2) == (3, 0.0)


def test_every_iteration_of_a_long_troyes_search_values_its_leaf_at_once(monkeypatch):
    rollouts = record_rollouts(monkeypatch)
    state = palio.new_game("troyes", players=2, seed=1)
    MctsBot(iterations=LONG_ITERATIONS, seed=1).search(state, state.to_move)
    assert rollouts == [(0, 0.0)] * LONG_ITERATIONS


def test_exploration_and_scale_come_from_the_game_unless_given():
    sg = palio.get_game("san-gimignano")
    assert MctsBot().settings(sg, 2) == (DEFAULT_C, DEFAULT_ROLLOUT_DEPTH, DEFAULT_MAST, DEFAULT_SCALE,
                                         False, False)
    chosen = MctsBot(c=0.3, scale=2.0).settings(sg, 2)
    assert (chosen.c, chosen.scale) == (0.3, 2.0)


def test_turn_rollouts_play_out_the_turn_they_start_in_and_stop():
    # turn=true: a rollout plays the decisions of the seat it starts with, then stops as soon
    # as another seat is to move (or the game ends), however long rollout_depth would allow
    rng = random.Random(5)
    for game_id, players in (("tiletum", 3), ("troyes", 2)):
        state = palio.new_game(game_id, players=players, seed=2)
        for step in range(60):
            state.apply_unchecked(rng.choice(state.legal_actions()))
            first = state.to_move
            for greedy in (0.0, 0.6):
                world, played = state.copy(), []
                MctsBot(seed=step)._rollout(world, played, 200, greedy, True)
                assert world.is_over or world.to_move != first
                assert world.move_number > state.move_number
                if greedy:
                    assert {mover for mover, _ in played} == {first}


def _rollouts(bot: MctsBot, game, players: int) -> tuple[int, float]:
    chosen = bot.settings(game, players)
    return chosen.rollout_depth, chosen.mast


@pytest.mark.parametrize(("game_id", "players", "depth", "mast"), [
    ("troyes", 2, 3, 0.0), ("signorie", 2, 0, 0.0), ("aquileia", 3, 16, DEFAULT_MAST),
    ("san-gimignano", 2, DEFAULT_ROLLOUT_DEPTH, DEFAULT_MAST),
    ("tiletum", 2, DEFAULT_ROLLOUT_DEPTH, DEFAULT_MAST), ("tiletum", 4, 4, DEFAULT_MAST),
    ("aquileia", 5, 24, DEFAULT_MAST)])
def test_every_iteration_rolls_out_as_the_game_tuned_it(game_id, players, depth, mast,
                                                        monkeypatch):
    rollouts = record_rollouts(monkeypatch)
    state = palio.new_game(game_id, players=players, seed=1)
    bot = MctsBot(iterations=30, seed=1)
    bot.search(state, state.to_move)
    assert rollouts == [(depth, mast)] * 30
    # an option given later is read at the next search, not the settings worked out before
    bot.rollout_depth, bot.mast = 2, 0.5
    rollouts.clear()
    bot.search(state, state.to_move)
    assert rollouts == [(2, 0.5)] * 30


def test_mast_rollouts_play_the_action_with_the_best_average_for_its_mover():
    state = palio.new_game("san-gimignano", players=2, seed=3)
    legal = state.legal_actions()
    mover = state.to_move
    favourite = legal[len(legal) // 2]
    for seed in range(5):
        bot = MctsBot(mast=1.0, seed=seed)
        # every legal action seen, one much better for the mover (and a trap for the other
        # seat, whose averages must not count)
        bot._mast_stats = {(mover, a): [0.2, 1.0] for a in legal}
        bot._mast_stats[(mover, favourite)] = [9.0, 10.0]
        bot._mast_stats[(1 - mover, legal[0])] = [10.0, 10.0]
        world = state.copy()
        played = []
        bot._rollout(world, played, 1, 1.0)
        assert played == [(mover, favourite)]
    # an unseen action counts as a sure win, so it is tried before a known one
    bot = MctsBot(mast=1.0, seed=0)
    bot._mast_stats = {(mover, a): [0.9, 1.0] for a in legal if a != favourite}
    played = []
    bot._rollout(state.copy(), played, 1, 1.0)
    assert played == [(mover, favourite)]


def test_a_search_with_mast_records_averages_of_the_actions_it_played():
    state = palio.new_game("tiletum", players=2, seed=2)
    bot = MctsBot(iterations=50, mast=0.6, seed=1)
    bot.search(state, state.to_move)
    stats = bot._mast_stats
    assert stats and all(0.0 <= total / times <= 1.0 for total, times in stats.values())
    assert {mover for mover, _ in stats} == {0, 1}
    assert sum(times for (mover, action), (_, times) in stats.items()
               if action in state.legal_actions() and mover == state.to_move) >= 50


def test_progressive_widening_holds_back_children_of_rarely_visited_nodes():
    """With widening a node visited n times has at most max(1, widen * sqrt(n)) children
    (while some child is legal in the sampled world); without it, every action is tried."""
    state = palio.new_game("tiletum", players=3, seed=8)
    wide = bots.get("mcts", iterations=400, seed=4, widen=0.5).search(state, state.to_move)
    plain = bots.get("mcts", iterations=400, seed=4).search(state, state.to_move)

    def nodes(node):
        yield node
        for child in node.children.values():
            yield from nodes(child)

    assert all(len(n.children) <= max(1, 0.5 * (n.visits + 1) ** 0.5) + 1 for n in nodes(wide))
    assert any(len(n.children) > max(1, 0.5 * (n.visits + 1) ** 0.5) + 1 for n in nodes(plain))


def test_chance_nodes_split_by_what_the_searching_seat_saw():
    """With ``outcomes`` a draw's node has a child node per card the drawer saw (at most
    max(1, outcomes * sqrt(n)) apart, the rarer ones shared), a plain choice has one, and the
    keys are the seat's own views of the events; without it nothing is split."""
    state = palio.new_game("san-gimignano", players=2, seed=1)
    seat = state.to_move
    root = bots.get("mcts", iterations=600, seed=4, outcomes=1).search(state, seat)

    def actions(node):
        for child in node.children.values():
            yield child
            for after in (child.outcomes or {}).values():
                yield from actions(after)

    split = [n for n in actions(root) if n.outcomes and len(n.outcomes) > 1]
    assert split, "a search of San Gimignano's opening meets draws"
    for node in split:
        assert len(node.outcomes) <= max(1.0, node.visits ** 0.5) + 1  # + the shared node
        assert all(key is None or all(isinstance(text, str) for text in key)
                   for key in node.outcomes)
    draws = [n for n in actions(root) if any(
        key and key[0].startswith(f"{{'kind': 'draw', 'seat': {seat}")
        for key in n.outcomes or {})]
    assert any(len(n.outcomes) > 1 for n in draws), "the cards the seat drew are told apart"
    assert len(root.children[next(a for a in state.legal_actions() if str(a) == "pass")]
               .outcomes) == 1
    plain = bots.get("mcts", iterations=200, seed=4).search(state, seat)
    assert all(n.outcomes is None for n in actions(plain))


def play(game_id: str, players: int, seed: int, agents: dict) -> list[float]:
    state = palio.new_game(game_id, players=players, seed=seed)
    while not state.is_over:
        seat = state.to_move
        state.apply_unchecked(agents[seat].choose(state, seat))
    return state.returns()


def test_mcts_beats_random_at_san_gimignano():
    """Ten seeded games, seats alternated; a search that did not work would lose about half."""
    wins = 0.0
    for game in range(10):
        seat = game % 2
        agents = {seat: bots.get("mcts", iterations=60, seed=game),
                  1 - seat: bots.get("random", seed=100 + game)}
        wins += play("san-gimignano", 2, 500 + game, agents)[seat]
    assert wins >= 8


def step_avoiding_the_end(state, rng: random.Random) -> None:
    """One random move, preferring moves that do not end the game (random play often passes
    twice and ends San Gimignano at once)."""
    if state.is_over:
        return
    legal = list(state.legal_actions())
    rng.shuffle(legal)
    for action in legal:
        after = state.copy()
        after.apply_unchecked(action)
        if not after.is_over:
            break
    state.apply_unchecked(action)


def hidden_twins(game_id: str, players: int):
    """Positions of seeded random games, each with two others that differ from it only in what
    the seat to move cannot see: (position, twin, seat, where)."""
    rng = random.Random(players)
    for seed in range(4):
        state = palio.new_game(game_id, players=players, seed=seed)
        for _ in range(rng.randrange(5, 60)):
            step_avoiding_the_end(state, rng)
        if state.is_over:
            continue
        seat = state.to_move
        for k in range(2):
            other = state.determinize(seat, random.Random(k))
            assert other.observe(seat) == state.observe(seat)
            yield state, other, seat, (game_id, players, seed, k)


@pytest.mark.parametrize(("game_id", "players"), CASES)
def test_decisions_never_depend_on_hidden_information(game_id, players):
    """Two states that differ only in what the seat cannot see get the same decision."""
    checked = 0
    for state, other, seat, where in hidden_twins(game_id, players):
        for name in ("greedy", "mcts", "mcts-2026", "mcts:widen=1.5", "mcts:mast=0.9",
                     "mcts:outcomes=1"):
            options = {} if name == "greedy" else {"iterations": 80, "rollout_depth": 6}
            mine = bots.get(name, seed=7, **options).choose(state, seat)
            theirs = bots.get(name, seed=7, **options).choose(other, seat)
            assert mine == theirs, (name, where)
        # the network-free PUCT search reads only determinized worlds of the seat's view too
        mine = bots.get("puct", iterations=80, seed=7).choose(state, seat)
        assert mine == bots.get("puct", iterations=80, seed=7).choose(other, seat), where
        checked += 1
    assert checked >= 4


def _own_follow_ups(game_id: str, players: int, seed: int):
    """Positions where the seat to move has just decided itself (and decides again), with the
    position before that decision."""
    state = palio.new_game(game_id, players=players, seed=seed)
    rng = random.Random(seed)
    while not state.is_over:
        before = state.copy()
        action = rng.choice(state.legal_actions())
        state.apply_unchecked(action)
        if not state.is_over and state.to_move == before.to_move \
                and len(before.legal_actions()) > 1:
            yield before, action


def test_tree_reuse_goes_on_only_right_after_the_bots_own_decision():
    before, _ = next(_own_follow_ups("tiletum", 3, 5))
    seat = before.to_move
    bot = bots.get("mcts", iterations=50, seed=1, reuse=True)
    chosen = bot.choose(before, seat)
    after = before.copy()
    after.apply(chosen)
    if after.is_over or after.to_move != seat:
        pytest.skip("the seat does not decide again here")
    root = bot.search(after, seat, bot._reused(after, seat))
    assert root.visits > 50  # the kept subtree's visits, and 50 more
    # anything else (another position, another seat) starts a new tree
    bot.choose(before, seat)
    elsewhere = palio.new_game("tiletum", players=3, seed=6)
    assert bot._reused(elsewhere, elsewhere.to_move) is None
    assert bot.search(elsewhere, elsewhere.to_move).visits == 50


@pytest.mark.parametrize("outcomes", [0, 1])
@pytest.mark.parametrize(("game_id", "players"), [("san-gimignano", 2), ("tiletum", 3),
                                                  ("troyes", 2), ("signorie", 2)])
def test_tree_reuse_never_depends_on_hidden_information(game_id, players, outcomes):
    """Twins differ only in what the seat cannot see; the bot decides on each, its choice is
    applied, and it decides again with its kept tree (with ``outcomes``, the node of what it
    saw happen): the same decisions."""
    checked = 0
    for before, _ in _own_follow_ups(game_id, players, 3):
        seat = before.to_move
        twin = before.determinize(seat, random.Random(checked))
        assert twin.observe(seat) == before.observe(seat)
        decisions, views = [], []
        for position in (before, twin):
            bot = bots.get("mcts", iterations=40, rollout_depth=4, seed=9, reuse=True,
                           outcomes=outcomes)
            first = bot.choose(position, seat)
            position = position.copy()
            position.apply(first)
            views.append(position.observe(seat))
            second = None
            if not position.is_over and position.to_move == seat:
                second = bot.choose(position, seat)
            decisions.append((first, second))
        if views[0] != views[1]:  # the decision revealed something that differs: not twins
            assert decisions[0][0] == decisions[1][0], (game_id, checked)
            continue
        assert decisions[0] == decisions[1], (game_id, checked)
        checked += 1
        if checked == 4:
            break
    assert checked >= 2


def test_pairs_values_a_place_and_agrees_with_the_win_share_at_two_players():
    from palio.bots.mcts import _pairwise, _result
    rng = random.Random(3)
    # two players: the share of the others beaten is the win share, at a leaf and at the end
    state = palio.new_game("troyes", players=2, seed=4)
    while not state.is_over:
        assert _pairwise(state, 8.0) == pytest.approx(_result(state, 8.0))
        state.apply_unchecked(rng.choice(state.legal_actions()))
    assert _pairwise(state, 8.0) == _result(state, 8.0)
    # three: the places count, second place half of what first place gets
    state = palio.new_game("tiletum", players=3, seed=4)
    while not state.is_over:
        state.apply_unchecked(rng.choice(state.legal_actions()))
    ranks = state.ranks()
    assert sorted(ranks) == [1, 2, 3]  # this seed's game has no tie
    values = _pairwise(state, 8.0)
    assert [values[ranks.index(place)] for place in (1, 2, 3)] == [1.0, 0.5, 0.0]


def test_the_bots_load_numpy_only_for_the_learned_bot() -> None:
    """A terminal game against greedy or mcts does not pay for numpy and the network: the
    learned bot's module is imported when a learned bot is first made (palio.bots.REGISTRY)."""
    code = ("import sys, palio.bots, palio.cli.play\n"
            "assert 'numpy' not in sys.modules, 'numpy at import'\n"
            "palio.bots.get('mcts:iterations=5', seed=1)\n"
            "assert 'numpy' not in sys.modules, 'numpy for mcts'\n"
            "bot = palio.bots.get('learned', seed=1)\n"
            "assert 'numpy' in sys.modules and isinstance(bot, palio.bots.LearnedBot)\n")
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                          timeout=120)
    assert done.returncode == 0, done.stderr[-2000:]
