"""Every registered game, every player count: the engine contract holds in random games and in
games played by a policy that prefers progress to passing (``tests/contract.py``).

The progress runs play ``PROGRESS_GAMES`` games per game and option (split among its player
counts) in the normal suite; ``pytest -m slow tests/test_contract.py`` plays
``SLOW_PROGRESS_GAMES``.
"""

from __future__ import annotations

import random

import pytest

import palio
from palio.core.errors import OptionError
from tests.contract import (
    ProgressPolicy,
    check_equal_actions,
    check_finished,
    check_rejects,
    check_step,
    play_game,
    progress_game,
    random_game,
)

CASES = [
    (game_id, players, options)
    for game_id, game in palio.games().items()
    for players in range(game.info.min_players, game.info.max_players + 1)
    for options in [{}] + [{spec.name: True} for spec in game.info.options if spec.choices == (False, True)]
]
IDS = [f"{g}-{p}p-{'-'.join(o) or 'base'}" for g, p, o in CASES]

PROGRESS_GAMES = 1000
SLOW_PROGRESS_GAMES = 20_000


def games_per_case(game_id: str, total: int) -> int:
    info = palio.get_game(game_id).info
    return max(1, total // (info.max_players - info.min_players + 1))


def contract_checks(state, action, rng):
    if rng.random() < 0.15:
        check_step(state, action, rng)
    if rng.random() < 0.03:
        check_equal_actions(state)
    if rng.random() < 0.02:
        check_rejects(state)


@pytest.mark.parametrize(("game_id", "players", "options"), CASES, ids=IDS)
def test_random_games_keep_the_contract(game_id, players, options):
    game = palio.get_game(game_id)
    for seed in range(4):
        state = random_game(game, players, seed, options, contract_checks)
        check_finished(game, state)


@pytest.mark.parametrize(("game_id", "players", "options"), CASES, ids=IDS)
def test_progress_games_keep_the_contract(game_id, players, options):
    game = palio.get_game(game_id)
    for seed in range(4):
        state = progress_game(game, players, seed, options, contract_checks)
        check_finished(game, state)


@pytest.mark.parametrize(("game_id", "players", "options"), CASES, ids=IDS)
def test_many_random_games_end_cleanly(game_id, players, options):
    game = palio.get_game(game_id)
    for seed in range(100, 140):
        state = random_game(game, players, seed, options)
        check_finished(game, state)


def play_progress(game_id, players, options, seeds):
    game = palio.get_game(game_id)
    for seed in seeds:
        state = progress_game(game, players, seed, options)
        check_finished(game, state)


@pytest.mark.parametrize(("game_id", "players", "options"), CASES, ids=IDS)
def test_progress_games_never_stall(game_id, players, options):
    """Thousands of deep games: a live position always has a legal action, every game ends."""
    play_progress(game_id, players, options, range(games_per_case(game_id, PROGRESS_GAMES)))


@pytest.mark.slow
@pytest.mark.parametrize(("game_id", "players", "options"), CASES, ids=IDS)
def test_progress_games_never_stall_many(game_id, players, options):
    start = 1_000_000
    count = games_per_case(game_id, SLOW_PROGRESS_GAMES)
    play_progress(game_id, players, options, range(start, start + count))


def test_progress_policy_prefers_progress_and_a_stall_names_seed_and_moves():
    game = palio.get_game("san-gimignano")
    policy = ProgressPolicy(game, seed=1, idle=0.0)
    state = game.setup(2, 1)
    assert str(policy(state)) != "pass"  # buy, exchange or a build come first

    def break_after_two_moves(state, action, rng):
        if state.move_number == 2:  # from move 3 on, no action is legal: a broken game
            state._legal_actions = list

    with pytest.raises(AssertionError, match=r"(?s)no action is legal.*seed=5.*at move 3; moves: [^;]+; [^;]+; [^;]+$"):
        play_game(game, 2, 5, None, ProgressPolicy(game, seed=5), break_after_two_moves)


def test_equal_actions_are_the_same_action():
    """A stand-in action that is equal but not identical must be treated the same way."""
    for game_id, game in palio.games().items():
        rng = random.Random(3)
        state = game.setup(game.info.min_players, 3)
        while not state.is_over and state.move_number < 60:
            check_equal_actions(state)
            state.apply(rng.choice(state.legal_actions()))
        assert state.move_number > 0, game_id


@pytest.mark.parametrize("game_id", list(palio.games()))
def test_setup_rejects_bad_player_counts_and_options(game_id):
    game = palio.get_game(game_id)
    with pytest.raises(OptionError, match="players"):
        game.setup(game.info.max_players + 1, seed=1)
    with pytest.raises(OptionError, match="unknown option"):
        game.setup(game.info.min_players, seed=1, options={"no-such-option": True})


@pytest.mark.parametrize("game_id", list(palio.games()))
def test_same_seed_same_game(game_id):
    game = palio.get_game(game_id)
    a = random_game(game, game.info.min_players, 7)
    b = random_game(game, game.info.min_players, 7)
    assert a.notation_history() == b.notation_history() and a.scores() == b.scores()
    c = game.setup(game.info.min_players, 8)
    d = game.setup(game.info.min_players, 7)
    assert c.observe(0) != d.observe(0)


def test_registry():
    assert "san-gimignano" in palio.games()
    state = palio.new_game("san-gimignano", players=2, seed=1)
    assert state.to_move == 0 and not state.is_over
    with pytest.raises(OptionError):
        palio.new_game("no-such-game")
