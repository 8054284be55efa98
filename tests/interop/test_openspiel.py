"""The OpenSpiel adapter: every Palio game loads by name and plays through OpenSpiel's API
exactly as through Palio's, observations hide what a seat cannot see, clones are independent."""

import random

import pytest

pyspiel = pytest.importorskip("pyspiel")

from palio.core.errors import PalioError  # noqa: E402
from palio.games import available  # noqa: E402
from palio.games import get as get_game  # noqa: E402
from palio.interop import openspiel as po  # noqa: E402

CASES = [(game_id, players) for game_id in available()
         for players in sorted({get_game(game_id).info.min_players, get_game(game_id).info.max_players})]


@pytest.mark.parametrize("game_id", available())
def test_every_game_loads_by_name_with_its_declared_type(game_id):
    info = get_game(game_id).info
    game = pyspiel.load_game(po.short_name(game_id), {"players": info.max_players, "seed": 2})
    kind = game.get_type()
    assert kind.short_name == "palio_" + game_id.replace("-", "_")
    assert kind.dynamics == pyspiel.GameType.Dynamics.SEQUENTIAL
    assert kind.reward_model == pyspiel.GameType.RewardModel.TERMINAL
    assert kind.utility == pyspiel.GameType.Utility.CONSTANT_SUM
    hidden = pyspiel.GameType.Information.IMPERFECT_INFORMATION
    assert (kind.information == hidden) == info.hidden_information
    assert game.num_players() == info.max_players
    assert game.num_distinct_actions() == info.action_space_size
    assert game.max_game_length() == info.max_length
    assert (game.min_utility(), game.max_utility(), game.utility_sum()) == (0.0, 1.0, 1.0)


@pytest.mark.parametrize(("game_id", "players"), CASES)
def test_random_playouts_through_openspiel_agree_with_palio(game_id, players):
    palio_game = get_game(game_id)
    for seed in (1, 2):
        game = po.load(game_id, players=players, seed=seed)
        spiel = game.new_initial_state()
        mirror = palio_game.setup(players, seed)
        rng = random.Random(seed)
        while not spiel.is_terminal():
            assert spiel.current_player() == mirror.to_move
            legal = spiel.legal_actions()
            assert legal == sorted(palio_game.action_index(a) for a in mirror.legal_actions())
            index = rng.choice(legal)
            action = palio_game.action_from_index(index)
            assert spiel.action_to_string(spiel.current_player(), index) == str(action)
            assert spiel.returns() == [0.0] * players  # terminal rewards only
            spiel.apply_action(index)
            mirror.apply(action)
        assert mirror.is_over
        assert spiel.current_player() == pyspiel.PlayerId.TERMINAL
        assert spiel.returns() == mirror.returns() and sum(spiel.returns()) == pytest.approx(1.0)
        assert spiel.palio.scores() == mirror.scores()
        assert len(spiel.history()) == mirror.move_number


def _mid_game(game_id, players, seed, moves=15):
    """A position ``moves`` random decisions in, from the first seed whose game lasts that long
    (a San Gimignano game may end after a handful of decisions)."""
    while True:
        state = po.load(game_id, players=players, seed=seed).new_initial_state()
        rng = random.Random(seed)
        for _ in range(moves):
            if state.is_terminal():
                break
            state.apply_action(rng.choice(state.legal_actions()))
        if not state.is_terminal():
            return state
        seed += 1


def _worlds_seat_0_cannot_tell_apart(state, samples=4):
    game = state.get_game()
    return [game.state_from_palio(state.palio.determinize(0, random.Random(i)))
            for i in range(samples)]


@pytest.mark.parametrize(("game_id", "players"), CASES)
def test_observations_do_not_change_with_what_the_seat_cannot_see(game_id, players):
    state = _mid_game(game_id, players, seed=5)
    for other in _worlds_seat_0_cannot_tell_apart(state):
        assert other.observation_string(0) == state.observation_string(0)
        assert other.information_state_string(0) == state.information_state_string(0)


def test_the_other_seat_sees_its_own_resampled_hand():
    # San Gimignano hands are private: resampling seat 1's hand changes what seat 1 sees,
    # so the equality above is not an accident of strings that ignore hidden cards
    state = _mid_game("san-gimignano", 2, seed=5)
    worlds = _worlds_seat_0_cannot_tell_apart(state)
    assert any(w.observation_string(1) != state.observation_string(1) for w in worlds)


def test_information_state_holds_the_observation_and_the_seats_own_log():
    state = _mid_game("san-gimignano", 2, seed=3)
    info = state.information_state_string(1)
    assert state.observation_string(1) in info
    assert info != state.information_state_string(0)


@pytest.mark.parametrize(("game_id", "players"), CASES[:1] + CASES[-1:])
def test_clones_are_independent(game_id, players):
    state = _mid_game(game_id, players, seed=9)
    before = (state.history(), state.legal_actions(), state.observation_string(0), str(state))
    clone = state.clone()
    assert clone.history() == state.history() and clone.palio is not state.palio
    rng = random.Random(0)
    for _ in range(10):
        clone.apply_action(rng.choice(clone.legal_actions()))
    assert (state.history(), state.legal_actions(), state.observation_string(0), str(state)) == before
    assert len(clone.history()) == len(state.history()) + 10


def test_bad_parameters_and_illegal_actions_are_refused():
    with pytest.raises(PalioError, match="2 players"):
        po.load("san-gimignano", players=3)
    with pytest.raises(pyspiel.SpielError, match="Unknown parameter"):
        pyspiel.load_game("palio_san_gimignano", {"colour": 1})
    state = po.load("san-gimignano", seed=1).new_initial_state()
    illegal = next(i for i in range(state.get_game().num_distinct_actions())
                   if i not in state.legal_actions())
    with pytest.raises(PalioError):
        state.apply_action(illegal)
    assert state.history() == [] and state.palio.move_number == 0
