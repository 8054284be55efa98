"""The PettingZoo AEC environment and the single-seat Gymnasium environment of every game."""

import warnings

import numpy as np
import pytest

pytest.importorskip("pettingzoo")
pytest.importorskip("gymnasium")

from gymnasium.utils.env_checker import check_env  # noqa: E402
from pettingzoo.test import api_test, seed_test  # noqa: E402

from palio.core.errors import OptionError  # noqa: E402
from palio.games import available  # noqa: E402
from palio.games import get as get_game  # noqa: E402
from palio.interop import spaces  # noqa: E402
from palio.interop.gym import PalioEnv  # noqa: E402
from palio.interop.pettingzoo import env  # noqa: E402

CASES = [(game_id, players) for game_id in available()
         for players in sorted({get_game(game_id).info.min_players, get_game(game_id).info.max_players})]


@pytest.mark.parametrize(("game_id", "players"), CASES)
def test_pettingzoo_api_test_passes(game_id, players):
    with warnings.catch_warnings():
        # PettingZoo warns about every Dict observation space (its own classic games' too)
        warnings.simplefilter("ignore", UserWarning)
        api_test(env(game_id, players=players, seed=3), num_cycles=400)


def test_pettingzoo_seeds_replay():
    seed_test(lambda: env("san-gimignano", seed=1), num_cycles=50)


@pytest.mark.parametrize(("game_id", "players"), CASES)
def test_the_selected_agent_is_palios_mover_and_rewards_are_the_returns(game_id, players):
    e = env(game_id, players=players)
    e.reset(seed=7)
    state = e.state
    game = get_game(game_id)
    rng = np.random.default_rng(0)
    while not state.is_over:
        agent = e.agent_selection
        # whoever Palio says decides now, also a seat answering out of turn
        assert agent == f"player_{state.to_move}"
        obs = e.observe(agent)
        assert spaces.decode_observation(obs["observation"]) == state.observe(state.to_move)
        legal = sorted(game.action_index(a) for a in state.legal_actions())
        assert list(np.flatnonzero(obs["action_mask"])) == legal
        for other in e.agents:
            if other != agent:  # nobody else may act now
                assert not e.observe(other)["action_mask"].any()
        e.step(int(rng.choice(legal)))
    assert [e.rewards[a] for a in e.possible_agents] == state.returns()
    assert all(e.terminations.values())


def test_an_illegal_index_is_refused_and_changes_nothing():
    e = env("san-gimignano", seed=1)
    e.reset(seed=1)
    mask = e.observe(e.agent_selection)["action_mask"]
    illegal = int(np.flatnonzero(mask == 0)[0])
    before = e.state.notation_history()
    for bad in (illegal, 10**6, "buy", 1.0):
        with pytest.raises(ValueError):
            e.step(bad)
    assert e.state.notation_history() == before


def test_observations_hold_only_the_seats_view():
    e = env("san-gimignano", seed=2)
    e.reset(seed=2)
    for p in range(2):
        seen = spaces.decode_observation(e.observe(f"player_{p}")["observation"])
        assert seen == e.state.observe(p)
    assert e.observe("player_0")["observation"].tobytes() != e.observe("player_1")["observation"].tobytes()


@pytest.mark.parametrize(("game_id", "players"), CASES)
def test_gymnasium_check_env_passes(game_id, players):
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", UserWarning)  # no registered spec for alternative renders
        check_env(PalioEnv(game_id, players=players, seat=players - 1, illegal="penalize"),
                  skip_render_check=True)


def test_gym_episode_against_bots_ends_with_the_seats_return():
    e = PalioEnv("tiletum", players=3, seat=1, opponents=["random", "greedy"])
    obs, info = e.reset(seed=4)
    rng = np.random.default_rng(1)
    reward, terminated, steps = 0.0, False, 0
    while not terminated:
        assert e.state.to_move == 1 and obs["action_mask"].any()
        obs, reward, terminated, truncated, info = e.step(int(rng.choice(np.flatnonzero(obs["action_mask"]))))
        assert not truncated
        steps += 1
    assert reward == e.state.returns()[1] and steps < e.state.move_number
    with pytest.raises(RuntimeError, match="reset"):
        e.step(0)


def test_gym_seeded_episodes_replay_and_illegal_actions():
    def moves(seed):
        e = PalioEnv("san-gimignano", opponents="greedy")
        obs, _ = e.reset(seed=seed)
        while not e.state.is_over:
            obs, *_ = e.step(int(np.flatnonzero(obs["action_mask"])[-1]))
        return e.state.notation_history()

    assert moves(5) == moves(5)
    strict = PalioEnv("san-gimignano")
    obs, _ = strict.reset(seed=1)
    illegal = int(np.flatnonzero(obs["action_mask"] == 0)[0])
    with pytest.raises(ValueError, match="not legal"):
        strict.step(illegal)
    lenient = PalioEnv("san-gimignano", illegal="penalize", illegal_reward=-0.5)
    lenient.reset(seed=1)
    before = lenient.state.notation_history()
    _, reward, terminated, _, info = lenient.step(illegal)
    assert (reward, terminated, info["illegal_action"]) == (-0.5, False, True)
    assert lenient.state.notation_history() == before


def test_gym_bad_arguments_are_refused():
    with pytest.raises(OptionError, match="seat"):
        PalioEnv("san-gimignano", seat=2)
    with pytest.raises(OptionError, match="unknown bot"):
        PalioEnv("san-gimignano", opponents="nobody")
    with pytest.raises(OptionError, match="one per other seat"):
        PalioEnv("tiletum", players=4, opponents=["random", "random"])
    with pytest.raises(OptionError, match="illegal"):
        PalioEnv("san-gimignano", illegal="ignore")


def test_gym_action_masks_and_the_flat_observation():
    e = PalioEnv("san-gimignano", observation="flat")
    obs, _ = e.reset(seed=3)
    assert e.observation_space.shape == obs.shape and obs.dtype == np.float32
    assert e.observation_space.contains(obs)
    assert np.array_equal(obs, spaces.encode_tensor(e.state, 0))
    masks = e.action_masks()
    assert masks.dtype == bool
    assert list(np.flatnonzero(masks)) == sorted(e.game.action_index(a) for a in e.state.legal_actions())
    tensor = PalioEnv("san-gimignano", observation="tensor")
    obs2, _ = tensor.reset(seed=3)
    assert np.array_equal(obs2["observation"], obs) and np.array_equal(obs2["action_mask"], masks)
    with pytest.raises(OptionError, match="observation"):
        PalioEnv("san-gimignano", observation="pixels")


@pytest.mark.parametrize("game_id", available())
def test_gymnasium_check_env_passes_with_flat_observations(game_id):
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", UserWarning)
        check_env(PalioEnv(game_id, observation="flat", illegal="penalize"), skip_render_check=True)


def test_maskable_ppo_trains_on_the_environment_as_it_comes(monkeypatch, tmp_path):
    """sb3-contrib finds ``action_masks()`` itself: no wrapper, and it only plays legal moves.
    (Skipped without the ``rl`` extra.)"""
    sb3 = pytest.importorskip("sb3_contrib")
    monkeypatch.setenv("SB3_LOGDIR", str(tmp_path))  # its logger's folder, else a new one in /tmp
    e = PalioEnv("san-gimignano", observation="flat")
    model = sb3.MaskablePPO("MlpPolicy", e, n_steps=64, batch_size=32, n_epochs=1, seed=0)
    model.learn(total_timesteps=128)
    obs, _ = e.reset(seed=11)
    while not e.state.is_over:
        action, _ = model.predict(obs, action_masks=e.action_masks())
        assert e.action_masks()[int(action)]
        obs, *_ = e.step(int(action))


def test_the_maskable_ppo_example_runs(capsys, monkeypatch, tmp_path):
    pytest.importorskip("sb3_contrib")
    monkeypatch.setenv("SB3_LOGDIR", str(tmp_path))
    import importlib.util
    from pathlib import Path

    path = Path(__file__).resolve().parents[2] / "benchmarks" / "maskable_ppo.py"
    spec = importlib.util.spec_from_file_location("maskable_ppo", path)
    example = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(example)
    figures = example.main(["--timesteps", "32", "--n-steps", "32", "--eval-games", "2",
                            "--seed", "2"])
    assert 0.0 <= figures["trained"] <= 1.0 and "Wilson" in capsys.readouterr().out
