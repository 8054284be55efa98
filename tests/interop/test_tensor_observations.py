"""The observation tensor through the adapters: OpenSpiel, PettingZoo and Gymnasium."""

import warnings
from pathlib import Path

import numpy as np
import pytest

pytest.importorskip("pettingzoo")
pyspiel = pytest.importorskip("pyspiel")

from gymnasium.utils.env_checker import check_env  # noqa: E402
from pettingzoo.test import api_test  # noqa: E402

from palio.core.errors import OptionError  # noqa: E402
from palio.games import available  # noqa: E402
from palio.games import get as get_game  # noqa: E402
from palio.interop import openspiel as po  # noqa: E402
from palio.interop.gym import PalioEnv  # noqa: E402
from palio.interop.pettingzoo import env  # noqa: E402

ENCODED = [g for g in available() if get_game(g).observation_layout(get_game(g).info.min_players)]
CASES = [(game_id, players) for game_id in ENCODED
         for players in sorted({get_game(game_id).info.min_players, get_game(game_id).info.max_players})]


def test_the_encoded_games_are_the_ones_expected():
    assert {"san-gimignano", "tiletum", "signorie", "troyes", "aquileia"} <= set(ENCODED)


@pytest.mark.parametrize(("game_id", "players"), CASES)
def test_openspiel_observation_tensor_has_the_declared_size(game_id, players):
    palio_game = get_game(game_id)
    game = po.load(game_id, players=players, seed=4)
    assert game.get_type().provides_observation_tensor
    assert not game.get_type().provides_information_state_tensor
    size = palio_game.observation_layout(players).size
    assert game.observation_tensor_shape() == [size]
    state = game.new_initial_state()
    for _ in range(30):
        for p in range(players):
            tensor = state.observation_tensor(p)
            assert len(tensor) == size
            expected = palio_game.observation_tensor(state.palio, p)
            assert np.allclose(tensor, expected)
        state.apply_action(state.legal_actions()[0])


def test_openspiel_observer_dict_views_its_tensor():
    from open_spiel.python.observation import make_observation

    game = po.load("san-gimignano", seed=2)
    observer = make_observation(game)
    state = game.new_initial_state()
    observer.set_from(state, 0)
    layout = get_game("san-gimignano").observation_layout(2)
    assert list(observer.dict) == [b.name for b in layout.blocks]
    assert observer.dict["me.hand"].sum() == 5  # five cards dealt
    recall = make_observation(game, pyspiel.IIGObservationType(perfect_recall=True))
    assert recall.tensor is None  # perfect recall has no fixed size: strings only


@pytest.mark.parametrize(("game_id", "players"), CASES)
def test_pettingzoo_api_test_passes_in_tensor_mode(game_id, players):
    e = env(game_id, players=players, seed=3, observation="tensor")
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", UserWarning)  # PettingZoo warns about Dict spaces
        api_test(e, num_cycles=200)
    e.reset(seed=5)
    obs = e.observe(e.agent_selection)["observation"]
    assert obs.dtype == np.float32 and obs.shape == get_game(game_id).observation_tensor_shape(players)


@pytest.mark.parametrize(("game_id", "players"), CASES)
def test_gymnasium_check_env_passes_in_tensor_mode(game_id, players):
    e = PalioEnv(game_id, players=players, seat=players - 1, illegal="penalize", observation="tensor")
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", UserWarning)
        check_env(e, skip_render_check=True)
    obs, _ = e.reset(seed=2)
    assert e.observation_space.contains(obs)
    expected = get_game(game_id).observation_tensor(e.state, players - 1)
    assert np.array_equal(obs["observation"], np.array(expected, np.float32))


def test_an_unknown_observation_kind_is_refused():
    with pytest.raises(OptionError, match="observation"):
        env("san-gimignano", observation="pixels")
    with pytest.raises(OptionError, match="observation"):
        PalioEnv("san-gimignano", observation="pixels")


def test_the_documented_layout_tables_match_the_code():
    text = (Path(__file__).parents[2] / "docs" / "observation-tensors.md").read_text(encoding="utf-8")
    assert get_game("san-gimignano").observation_layout(2).table() in text
    assert get_game("tiletum").observation_layout(2).table() in text
    assert get_game("signorie").observation_layout(2).table() in text
    assert get_game("troyes").observation_layout(2).table() in text
    assert get_game("aquileia").observation_layout(3).table() in text
