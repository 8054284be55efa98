"""The bots on every registered game and player count: legal choices, options, budgets,
strength against random, and decisions that never depend on what the seat cannot see."""

from __future__ import annotations

import random
import time

import pytest

import palio
from palio import bots
from palio.core.errors import IllegalAction, OptionError
from palio.games import available
from palio.games import get as get_game

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
    assert {"random", "greedy", "mcts", "easy", "medium", "hard", "expert"} <= set(bots.names())
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
    bot = bots.get("mcts", iterations=37, seed=1)
    bot.choose(state, state.to_move)
    assert bot.last_stats["iterations"] == 37


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
        for name in ("greedy", "mcts"):
            options = {"iterations": 80, "rollout_depth": 6} if name == "mcts" else {}
            mine = bots.get(name, seed=7, **options).choose(state, seat)
            theirs = bots.get(name, seed=7, **options).choose(other, seat)
            assert mine == theirs, (name, where)
        checked += 1
    assert checked >= 4
