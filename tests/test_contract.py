"""Every registered game, every player count: the engine contract holds in random games."""

from __future__ import annotations

import pytest

import palio
from palio.core.errors import OptionError
from tests.contract import check_finished, check_rejects, check_step, random_game

CASES = [
    (game_id, players, options)
    for game_id, game in palio.games().items()
    for players in range(game.info.min_players, game.info.max_players + 1)
    for options in [{}] + [{spec.name: True} for spec in game.info.options if spec.choices == (False, True)]
]
IDS = [f"{g}-{p}p-{'-'.join(o) or 'base'}" for g, p, o in CASES]


@pytest.mark.parametrize(("game_id", "players", "options"), CASES, ids=IDS)
def test_random_games_keep_the_contract(game_id, players, options):
    game = palio.get_game(game_id)
    for seed in range(4):
        def on_step(state, action, rng):
            if rng.random() < 0.15:
                check_step(state, action, rng)
            if rng.random() < 0.02:
                check_rejects(state)

        state = random_game(game, players, seed, options, on_step)
        check_finished(game, state)


@pytest.mark.parametrize(("game_id", "players", "options"), CASES, ids=IDS)
def test_many_random_games_end_cleanly(game_id, players, options):
    game = palio.get_game(game_id)
    for seed in range(100, 140):
        state = random_game(game, players, seed, options)
        check_finished(game, state)


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
