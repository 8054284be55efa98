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


# -- serialization, resampling and information-set search (issue 16) ---------------------------
@pytest.mark.parametrize("game_id", available())
def test_openspiels_random_simulation_test_with_serialization(game_id):
    """OpenSpiel's own checks, states serialized and read back along the way (every game;
    ``-m slow`` runs every player count)."""
    game = po.load(game_id)
    pyspiel.random_sim_test(game, num_sims=5, serialize=True, verbose=False)


@pytest.mark.slow
@pytest.mark.parametrize(("game_id", "players"), CASES)
def test_openspiels_random_simulation_test_every_player_count(game_id, players):
    game = po.load(game_id, players=players)
    pyspiel.random_sim_test(game, num_sims=5, serialize=True, verbose=False)


@pytest.mark.parametrize(("game_id", "players"), CASES[:1] + CASES[-1:])
def test_a_finished_game_serializes_and_deserializes_exactly(game_id, players):
    state = po.load(game_id, players=players, seed=4).new_initial_state()
    rng = random.Random(4)
    while not state.is_terminal():
        state.apply_action(rng.choice(state.legal_actions()))
    text = pyspiel.serialize_game_and_state(state.get_game(), state)
    game, again = pyspiel.deserialize_game_and_state(text)
    assert again.history() == state.history() and str(again) == str(state)
    assert again.palio.notation_history() == state.palio.notation_history()
    assert again.returns() == state.returns() and again.palio is not state.palio


def test_a_determinized_state_serializes_as_itself_not_as_a_replay():
    state = _mid_game("san-gimignano", 2, seed=5)
    world = state.resample_from_infostate(0, pyspiel.UniformProbabilitySampler(0.0, 1.0))
    game, again = pyspiel.deserialize_game_and_state(
        pyspiel.serialize_game_and_state(world.get_game(), world))
    assert again.palio.hands == world.palio.hands and again.palio.deck == world.palio.deck
    assert again.palio.seed == world.palio.seed


@pytest.mark.parametrize(("game_id", "players"), CASES)
def test_resample_from_infostate_keeps_what_the_seat_knows(game_id, players):
    state = _mid_game(game_id, players, seed=7)
    seat = state.current_player()
    sampler = pyspiel.UniformProbabilitySampler(0.0, 1.0)
    worlds = [state.resample_from_infostate(seat, sampler) for _ in range(4)]
    for world in worlds:
        assert world.information_state_string(seat) == state.information_state_string(seat)
        assert world.legal_actions() == state.legal_actions()
        assert world.history() == state.history()
        assert world.palio is not state.palio and world.palio.seed != state.palio.seed
    if game_id == "san-gimignano":  # the opponent's hand really is resampled
        assert any(w.palio.hands != state.palio.hands for w in worlds)


def test_resample_is_reproducible_from_the_sampler():
    state = _mid_game("san-gimignano", 2, seed=5)
    values = iter([0.25, 0.25])
    a = state.resample_from_infostate(0, lambda: next(values))
    values = iter([0.25])
    b = state.resample_from_infostate(0, lambda: next(values))
    assert a.palio.hands == b.palio.hands and a.palio.seed == b.palio.seed


@pytest.mark.parametrize("game_id", available())
def test_openspiels_ismcts_plays_a_palio_game_on_resampled_worlds(game_id):
    """OpenSpiel's information-set MCTS (its Python ISMCTSBot; the C++ pyspiel.ISMCTSBot cannot
    call a Python game's resampler) searches worlds from resample_from_infostate only."""
    import numpy as np
    from open_spiel.python.algorithms import ismcts, mcts

    game = po.load(game_id, seed=2)
    state = game.new_initial_state()
    rng = np.random.RandomState(2)
    evaluator = mcts.RandomRolloutEvaluator(n_rollouts=1, random_state=rng)
    bot = ismcts.ISMCTSBot(game, evaluator, uct_c=1.0, max_simulations=8, random_state=rng)
    resampled = []
    original = po.PalioOpenSpielState.resample_from_infostate

    def counting(self, player, sampler):
        world = original(self, player, sampler)
        resampled.append(world)
        return world

    po.PalioOpenSpielState.resample_from_infostate = counting
    try:
        for _ in range(6):
            if state.is_terminal():
                break
            if len(state.legal_actions()) == 1:
                state.apply_action(state.legal_actions()[0])
                continue
            action = bot.step(state)
            assert action in state.legal_actions()
            state.apply_action(action)
    finally:
        po.PalioOpenSpielState.resample_from_infostate = original
    assert resampled and all(w.palio.seed != state.palio.seed for w in resampled)
