"""The learned bot: model files load, fit only their game, and play legal moves in every game
and player count; options and missing models give clear errors; the shipped models fit the
current encodings."""

from __future__ import annotations

import random
import time

import numpy as np
import pytest

import palio
from palio import bots
from palio.bots.learned import NetSearch, PuctBot, SearchNode
from palio.bots.network import Model, new_model, shipped, shipped_model
from palio.core.errors import OptionError
from palio.games import available
from palio.games import get as get_game
from palio.review import JUDGE_BY_GAME, Engine
from tests.bots.test_bots import positions

ENCODED = [
    (game_id, players)
    for game_id in available()
    for players in range(get_game(game_id).info.min_players, get_game(game_id).info.max_players + 1)
    if get_game(game_id).observation_layout(players) is not None
]


def random_model(game_id: str, players: int, seed: int = 0) -> Model:
    """A small network with random weights everywhere (a fresh one has zero heads, whose
    uniform priors and values would hide what the heads do)."""
    model = new_model(get_game(game_id), players, hidden=(16,), seed=seed)
    rng = np.random.default_rng(seed + 1)
    model.policy = tuple(rng.normal(0, 1, a.shape).astype(np.float32) for a in model.policy)
    model.value = tuple(rng.normal(0, 1, a.shape).astype(np.float32) for a in model.value)
    return model


@pytest.fixture(scope="module")
def model_files(tmp_path_factory):
    folder = tmp_path_factory.mktemp("models")
    files = {}
    for game_id, players in ENCODED:
        path = folder / f"{game_id}-{players}.npz"
        random_model(game_id, players).save(path)
        files[game_id, players] = str(path)
    return files


def test_every_registered_game_with_two_or_more_encodings_is_covered():
    assert {("san-gimignano", 2), ("tiletum", 3)} <= set(ENCODED)


@pytest.mark.parametrize(("game_id", "players"), ENCODED)
def test_a_saved_model_loads_and_plays_legal_moves(game_id, players, model_files):
    model = random_model(game_id, players)
    loaded = Model.load(model_files[game_id, players])
    state = palio.new_game(game_id, players=players, seed=5)
    x = loaded.features(state, state.to_move)
    assert x.shape == (get_game(game_id).observation_layout(players).size,)
    # weights are stored as float16: the loaded network agrees up to that rounding
    for mine, theirs in zip(model.predict(x), loaded.predict(x), strict=True):
        assert np.allclose(mine, theirs, atol=0.05 * (1 + np.abs(mine).max()))
    assert loaded.meta["game"] == game_id and loaded.players == players
    # the search reads the nonzero inputs only, and gets the same answer
    index, values = loaded.entries(state, state.to_move)
    assert np.array_equal(index, np.flatnonzero(x)) and np.array_equal(values, x[index])
    for dense, sparse in zip(loaded.predict(x), loaded.predict_entries(index, values), strict=True):
        assert np.allclose(dense, sparse, atol=1e-5)
    bot = bots.get("learned", model=model_files[game_id, players], iterations=12, seed=2)
    for state in positions(game_id, players, seed=9, count=6):
        action = bot.choose(state, state.to_move)
        assert action in state.legal_actions()
        assert 1 <= bot.last_stats["iterations"] <= 12 or len(state.legal_actions()) == 1


def test_a_whole_game_between_learned_and_mcts_ends(model_files):
    state = palio.new_game("san-gimignano", players=2, seed=3)
    agents = [bots.get("learned", model=model_files["san-gimignano", 2], iterations=8, seed=1),
              bots.get("mcts", iterations=8, seed=1)]
    while not state.is_over:
        state.apply(agents[state.to_move].choose(state, state.to_move))
    assert state.move_number > 0


@pytest.mark.parametrize(("game_id", "players"), ENCODED)
def test_decisions_never_depend_on_hidden_information(game_id, players, model_files):
    """As for the other bots (tests/bots/test_bots.py): two positions that differ only in what
    the deciding seat cannot see get the same decision, with the network and the heuristic
    both weighing in."""
    from tests.bots.test_bots import hidden_twins

    checked = 0
    options = {"model": model_files[game_id, players], "iterations": 60, "mix": 0.5}
    for state, other, seat, where in hidden_twins(game_id, players):
        mine = bots.get("learned", seed=7, **options).choose(state, seat)
        theirs = bots.get("learned", seed=7, **options).choose(other, seat)
        assert mine == theirs, where
        checked += 1
    assert checked >= 4


def test_the_search_counts_visits_and_values_every_seat(model_files):
    model = Model.load(model_files["tiletum", 3])
    state = palio.new_game("tiletum", players=3, seed=2)
    result = NetSearch(model, random.Random(1), mix=0.3).run(state, state.to_move, iterations=40)
    assert result.iterations == 40
    assert set(result.visits) == set(state.legal_actions())
    assert sum(result.visits.values()) == 39  # the first iteration expands the root itself
    assert len(result.value) == 3 and abs(sum(result.value) - 1) < 1e-6
    assert abs(sum(result.priors.values()) - 1) < 1e-6


def test_with_prior_visits_the_network_gives_priors_only_at_nodes_visited_that_often(
        model_files):
    model = Model.load(model_files["troyes", 3])
    state = palio.new_game("troyes", players=3, seed=2)
    while len(state.legal_actions()) == 1:
        state.apply(state.legal_actions()[0])
    asked = []
    predict = model.predict_entries
    model.predict_entries = lambda *args: asked.append(1) or predict(*args)

    def search(**options):
        asked.clear()
        net = NetSearch(model, random.Random(1), **options)
        root = SearchNode(state.players)
        for _ in range(300):
            net.iterate(root, state.determinize(state.to_move, net.rng))
        return root, len(asked)

    def expanded(node):
        yield node
        for child in node.children.values():
            if child.priors is not None:  # an end of the game is never expanded
                yield from expanded(child)

    eager_root, eager = search(mix=1.0)
    lazy_root, lazy = search(mix=1.0, prior_visits=4)
    nodes = list(expanded(lazy_root))
    # a node is given the network's priors when a walk passes it with 4 visits or more (the
    # root when it is expanded), so exactly the nodes with more than 4 visits
    assert all(n.netted == (n is lazy_root or n.visits > 4) for n in nodes)
    assert lazy == sum(n.netted for n in nodes) and 0 < lazy < eager / 3
    assert eager == len(list(expanded(eager_root)))  # every new node asked the network
    # below mix 1 each leaf's value needs the network anyway: prior_visits changes nothing
    assert search(mix=0.5, prior_visits=4)[1] == search(mix=0.5)[1]
    with pytest.raises(OptionError, match="prior_visits must be a whole number"):
        bots.get("learned", prior_visits=1.5)


def test_the_learned_bot_plays_with_the_cards_prior_visits_unless_told(model_files, tmp_path,
                                                                        monkeypatch):
    model = Model.load(model_files["troyes", 2])
    model.meta["card"].update(mix=1.0, prior_visits=4)
    model.save(tmp_path / "lazy.npz")
    state = palio.new_game("troyes", players=2, seed=3)
    while len(state.legal_actions()) == 1:
        state.apply(state.legal_actions()[0])
    asked = []
    predict = Model.predict_entries
    monkeypatch.setattr(Model, "predict_entries",
                        lambda self, *args: asked.append(1) or predict(self, *args))

    def network_calls(spec):
        asked.clear()
        bots.get(f"learned:model={tmp_path / 'lazy.npz'},iterations=200,{spec}",
                 seed=1).choose(state.copy(), state.to_move)
        return len(asked)

    by_card, told_zero = network_calls(""), network_calls("prior_visits=0")
    assert 0 < by_card < told_zero / 3


def test_a_time_budget_on_the_cpu_clock_is_counted_on_that_clock(model_files):
    spec = f"learned:model={model_files['san-gimignano', 2]},time_budget=0.05,cpu_time=true"
    bot = bots.get(spec, seed=1)
    assert bot.clock is time.process_time and bots.get("learned").clock is time.perf_counter
    ticks = iter(range(10_000))
    bot.clock = lambda: next(ticks) * 0.01  # every reading of the clock: 0.01 s more
    state = palio.new_game("san-gimignano", players=2, seed=4)
    while len(state.legal_actions()) == 1:
        state.apply(state.legal_actions()[0])
    assert bot.choose(state, state.to_move) in state.legal_actions()
    # read once at the start, then once after every iteration: 0.05 s is 5 iterations
    assert bot.last_stats["iterations"] == 5
    with pytest.raises(OptionError, match="cpu_time must be true or false"):
        bots.get("learned", cpu_time="yes")


def test_the_fallback_gets_the_budget_and_its_clock(monkeypatch):
    monkeypatch.setattr("palio.bots.learned.shipped_model", lambda game_id, players: None)
    state = palio.new_game("tiletum", players=4, seed=1)
    bot = bots.get("learned", fallback="mcts", time_budget=0.02, cpu_time=True, seed=1)
    assert bot.choose(state, state.to_move) in state.legal_actions()
    fallback = bot.model_for(state)
    assert fallback.clock is time.process_time and fallback.time_budget == 0.02


def test_a_model_refuses_another_game_or_player_count(model_files):
    bot = bots.get("learned", model=model_files["san-gimignano", 2], iterations=5)
    state = palio.new_game("tiletum", players=3, seed=1)
    with pytest.raises(OptionError, match="plays san-gimignano with 2 players, not tiletum"):
        bot.choose(state, state.to_move)
    model = Model.load(model_files["tiletum", 2])
    with pytest.raises(OptionError, match="not tiletum with 3"):
        model.check_fits(get_game("tiletum"), 3)


def test_a_model_trained_on_another_layout_is_refused(model_files, tmp_path):
    model = Model.load(model_files["san-gimignano", 2])
    model.meta["digest"] = "0" * 16
    path = tmp_path / "old.npz"
    model.save(path)
    state = palio.new_game("san-gimignano", players=2, seed=1)
    with pytest.raises(OptionError, match="another observation layout"):
        bots.get("learned", model=str(path)).choose(state, state.to_move)


def test_unreadable_files_and_bad_options_are_refused_clearly(tmp_path):
    state = palio.new_game("san-gimignano", players=2, seed=1)
    with pytest.raises(OptionError, match="cannot read model"):
        bots.get("learned", model=str(tmp_path / "none.npz")).choose(state, state.to_move)
    junk = tmp_path / "junk.npz"
    junk.write_bytes(b"not a model")
    with pytest.raises(OptionError, match="not a readable Palio model"):
        bots.get("learned", model=str(junk)).choose(state, state.to_move)
    with pytest.raises(OptionError, match="mix must be a number from 0 to 1"):
        bots.get("learned", mix=2)
    with pytest.raises(OptionError, match="learned option iterations must be at least 1"):
        bots.get("learned", iterations=0)


def test_without_a_shipped_model_it_says_so_or_plays_its_fallback(monkeypatch):
    monkeypatch.setattr("palio.bots.learned.shipped_model", lambda game_id, players: None)
    state = palio.new_game("tiletum", players=4, seed=1)
    with pytest.raises(OptionError, match="no trained model ships for Tiletum with 4 players"):
        bots.get("learned").choose(state, state.to_move)
    bot = bots.get("learned", fallback="mcts:iterations=5", seed=1)
    assert bot.choose(state, state.to_move) in state.legal_actions()
    assert bot.last_stats["iterations"] == 5


def test_the_expert_level_is_the_learned_bot_with_a_search_fallback():
    expert = bots.get("expert")
    assert isinstance(expert, bots.LearnedBot) and expert.fallback.startswith("search")
    assert expert.iterations > bots.get("hard").iterations


@pytest.mark.parametrize(("measured", "plays_model"), [
    (None, False), ([0.41], False), ([0.62, 0.48], False), ([0.55, 0.61], True)])
def test_the_expert_level_plays_a_model_only_where_it_was_measured_as_strong_as_mcts(
        monkeypatch, measured, plays_model):
    """A model whose card records no measurement, or one where it lost to mcts, leaves the
    strongest level to mcts: shipping a model must never make that level weaker."""
    model = random_model("san-gimignano", 2)
    if measured is not None:
        model.meta["card"]["measured"] = [{"opponent": "mcts", "pairwise": rate} for rate in measured]
    monkeypatch.setattr("palio.bots.learned.shipped_model", lambda game_id, players: model)
    state = palio.new_game("san-gimignano", players=2, seed=1)
    chosen = bots.get("expert", seed=1).model_for(state)
    assert (chosen is model) == plays_model
    assert plays_model or isinstance(chosen.search_for(state), bots.MctsBot)


@pytest.mark.parametrize(("measured", "plays_model"), [
    ([{"opponent": "mcts", "pairwise": 0.66}], False),
    ([{"opponent": "mcts", "pairwise": 0.66}, {"opponent": "puct", "pairwise": 0.45}], False),
    ([{"opponent": "mcts", "pairwise": 0.4}, {"opponent": "puct", "pairwise": 0.52}], True)])
def test_where_puct_is_the_strongest_search_a_model_must_be_measured_against_puct(
        monkeypatch, measured, plays_model):
    """In Troyes the search without a network that the expert level would otherwise play is
    puct (bots.SEARCH_BY_GAME), so a model's measurements against mcts do not decide there:
    only those against puct do, and the level falls back to puct, not mcts."""
    model = random_model("troyes", 2)
    model.meta["card"]["measured"] = measured
    monkeypatch.setattr("palio.bots.learned.shipped_model", lambda game_id, players: model)
    state = palio.new_game("troyes", players=2, seed=1)
    assert bots.strongest_search("troyes", 2) == "puct"
    chosen = bots.get("expert", seed=1).model_for(state)
    assert (chosen is model) == plays_model
    if not plays_model:
        search = chosen.search_for(state)
        assert isinstance(search, PuctBot) and search.iterations == 2000
    judge = Engine.strongest(state)
    assert judge.name == ("learned" if plays_model else "puct")
    assert (judge.model is model) == plays_model
    if plays_model:  # the judge searches as the card says the model plays
        model.meta["card"].update(mix=1.0, prior_visits=4)
        for entry in measured:
            entry["a"] = "learned:mix=1.0;prior_visits=4"
        judge = Engine.strongest(state)
        assert (judge.mix, judge.prior_visits) == (1.0, 4)


@pytest.mark.parametrize(("game_id", "players"), shipped())
def test_the_shipped_models_fit_the_current_encodings_and_play(game_id, players):
    """Fails when a game's observation layout or action space changes: retrain then
    (docs/bots.md has each model's command)."""
    model = shipped_model(game_id, players)
    model.check_fits(get_game(game_id), players)
    card = model.card
    assert card["generations"] >= 1 and card["self_play_games"] >= 1 and "command" in card
    bot = bots.get("learned", iterations=20, seed=1)
    for state in positions(game_id, players, seed=4, count=4):
        assert bot.choose(state, state.to_move) in state.legal_actions()


# every game at its common player counts (issue 37): a model ships for each, weak or strong,
# and its card says how strong
COMMON_COUNTS = {("san-gimignano", 2), ("tiletum", 2), ("tiletum", 3), ("tiletum", 4),
                 ("signorie", 2), ("signorie", 3), ("signorie", 4), ("troyes", 2), ("troyes", 3),
                 ("troyes", 4), ("aquileia", 3), ("aquileia", 4), ("aquileia", 5)}


def test_a_model_ships_for_every_game_at_its_common_player_counts():
    assert set(shipped()) >= COMMON_COUNTS


@pytest.mark.parametrize(("game_id", "players"), shipped())
def test_each_card_records_the_model_against_the_search_it_would_replace(game_id, players):
    """A shipped model is measured against the strongest search without a network at its
    count, and the expert level plays it exactly where every such measurement is at least a
    half (so a model shipped below that search does not change it); the review's judge too,
    except where palio.review.JUDGE_BY_GAME names the model for its steadier verdicts
    (two-player Tiletum: tests/server/review/test_review_report.py checks it is level there)."""
    model = shipped_model(game_id, players)
    measured = model.measured_against(bots.strongest_search(game_id, players))
    assert measured is not None
    state = palio.new_game(game_id, players=players, seed=1)
    assert (bots.get("expert", seed=1).model_for(state) is model) == (measured >= 0.5)
    named = JUDGE_BY_GAME.get((game_id, players)) == "learned"
    assert (Engine.strongest(state).model is model) == (measured >= 0.5 or named)


@pytest.mark.parametrize("players", [4, 5])
def test_the_expert_level_plays_the_aquileia_models_that_measured_at_least_level(players):
    """Every measurement in these cards (three seeds against mcts at equal CPU a move) is at
    least a half, so the strongest level, and the review's judge, play the model."""
    model = shipped_model("aquileia", players)
    assert model.card["method"] == "dmc" and len(model.card["measured"]) >= 3
    assert model.measured_against("mcts") >= 0.5
    state = palio.new_game("aquileia", players=players, seed=1)
    assert bots.get("expert", seed=1).model_for(state) is model


def test_two_player_troyes_plays_puct_which_beat_its_network():
    """The two-player Troyes model plays with the game's evaluation at every leaf (its card's
    mix 1, set after training: docs/bots.md, "Two-player Troyes: the network's priors with the
    game's evaluation") and beat mcts on every seed, but lost to the same search with no
    network head to head (its card's entries against puct, below a half), so the strongest
    level and the review's judge play puct."""
    model = shipped_model("troyes", 2)
    assert model.card["mix"] == 1.0 and model.card["mix_changes"][-1]["to"] == 1.0
    measured = model.card["measured"]
    assert all("mix=1.0" in entry["a"] for entry in measured if entry["opponent"] == "mcts")
    assert len([entry for entry in measured if entry["opponent"] == "puct"]) >= 2
    assert model.measured_against("mcts") >= 0.5 > model.measured_against("puct")
    state = palio.new_game("troyes", players=2, seed=1)
    assert isinstance(bots.get("expert", seed=1).model_for(state).search_for(state), PuctBot)
    judge = Engine.strongest(state)
    assert judge.name == "puct" and judge.model is None and judge.mix == 1.0


def test_a_measurement_on_rules_the_game_no_longer_has_does_not_count():
    """The three-player Aquileia model lost to mcts once on Aquileia's rules before issue 35;
    that entry stays in its card, marked superseded, and the entries on the current rules (all
    at least a half) decide: the strongest level plays the model."""
    model = shipped_model("aquileia", 3)
    old = [e for e in model.card["measured"] if e.get("superseded")]
    current = [e for e in model.card["measured"] if not e.get("superseded")]
    assert min(e["pairwise"] for e in old) < 0.5 and len(current) >= 4
    assert model.measured_against("mcts") == min(e["pairwise"] for e in current) >= 0.5
    state = palio.new_game("aquileia", players=3, seed=1)
    assert bots.get("expert", seed=1).model_for(state) is model
    lost = random_model("aquileia", 3)
    lost.meta["card"]["measured"] = [{"opponent": "mcts", "pairwise": 0.7},
                                     {"opponent": "mcts", "pairwise": 0.4, "superseded": ""},
                                     {"opponent": "mcts", "pairwise": 0.45}]
    assert lost.measured_against("mcts") == 0.4  # an empty mark marks nothing
