"""Self-play training end to end: a tiny network trains for a few steps and its loss falls;
checkpoints resume; self-play is seeded; ``palio train`` from the command line."""

from __future__ import annotations

import inspect

import pytest

torch = pytest.importorskip("torch")

from typer.testing import CliRunner  # noqa: E402

import palio  # noqa: E402
from palio import bots  # noqa: E402
from palio.bots.network import Model, new_model  # noqa: E402
from palio.cli import app  # noqa: E402
from palio.cli import train as train_cli  # noqa: E402
from palio.core.errors import OptionError  # noqa: E402
from palio.games import available  # noqa: E402
from palio.games import get as get_game  # noqa: E402
from palio.learn import trainer as T  # noqa: E402
from palio.learn.selfplay import play_selfplay, selfplay_jobs  # noqa: E402

pytestmark = pytest.mark.learn

ENCODED = [g for g in available() if get_game(g).observation_layout(get_game(g).info.min_players)]


def tiny(**changes) -> T.TrainSettings:
    settings = {"game": "san-gimignano", "players": 2, "seed": 3, "generations": 1, "games": 3,
                "iterations": 8, "hidden": [16], "steps": 60, "batch": 32, "lr": 3e-3,
                "explore_moves": 4, **changes}
    return T.TrainSettings(**settings)


@pytest.mark.parametrize("method", ["dmc", "search"])
def test_a_tiny_network_trains_end_to_end_and_its_loss_falls(tmp_path, method):
    trainer = T.Trainer(tiny(method=method), tmp_path / "run")
    trainer.run()
    record = trainer.history[-1]
    assert trainer.generation == 1 and record["games"] == 3 and record["positions"] > 10
    assert record["loss_after"] < record["loss_before"]
    assert (tmp_path / "run" / T.CHECKPOINT).exists()
    model = Model.load(tmp_path / "run" / T.MODEL_FILE)
    assert model.card["generations"] == 1 and model.card["self_play_games"] == 3
    assert model.card["seed"] == 3 and model.card["engine_commit"]
    assert model.card["method"] == method and model.card["cpu_seconds"] > 0
    state = palio.new_game("san-gimignano", players=2, seed=8)
    bot = bots.get("learned", model=str(tmp_path / "run" / T.MODEL_FILE), iterations=10)
    assert bot.choose(state, state.to_move) in state.legal_actions()


def test_a_run_resumes_from_its_checkpoint_and_refuses_other_settings(tmp_path):
    folder = tmp_path / "run"
    first = T.Trainer(tiny(games=2, steps=5), folder)
    first.run()
    weights = first.net.policy.weight.detach().clone()
    resumed = T.Trainer(tiny(games=2, steps=5, generations=2), folder)
    assert resumed.generation == 1 and len(resumed.buffer) == len(first.buffer)
    assert (resumed.net.policy.weight == weights).all()
    resumed.run()
    assert resumed.generation == 2 and resumed.games_played == 4
    assert [r["generation"] for r in resumed.history] == [1, 2]
    with pytest.raises(OptionError, match=r"other settings \(games\)"):
        T.Trainer(tiny(games=5, steps=5, generations=3), folder)


@pytest.mark.parametrize("game_id", ["san-gimignano", "aquileia"])
def test_a_resumed_run_ends_where_an_uninterrupted_one_does(tmp_path, game_id):
    """Two generations in one go, and one generation, then a second process resuming from the
    checkpoint: the same seed gives the same network, buffer and losses."""
    players = get_game(game_id).info.min_players
    settings = {"game": game_id, "players": players, "games": 20, "steps": 8}
    whole = T.Trainer(tiny(**settings, generations=2), tmp_path / "whole")
    whole.run()
    T.Trainer(tiny(**settings, generations=1), tmp_path / "parts").run()
    resumed = T.Trainer(tiny(**settings, generations=2), tmp_path / "parts")
    resumed.run()
    assert whole.generation == resumed.generation == 2
    assert whole.games_played == resumed.games_played == 40
    for mine, theirs in zip(whole.net.state_dict().values(), resumed.net.state_dict().values(),
                            strict=True):
        assert torch.equal(mine, theirs)
    assert [r["loss_after"] for r in whole.history] == [r["loss_after"] for r in resumed.history]
    assert len(whole.buffer) == len(resumed.buffer)
    assert all((a.value == b.value).all() and (a.legal == b.legal).all()
               for a, b in zip(whole.buffer, resumed.buffer, strict=True))
    other = T.Trainer(tiny(**settings, generations=1, seed=4), tmp_path / "other")
    other.run()
    assert not torch.equal(other.net.policy.weight, whole.net.policy.weight) or \
        other.buffer[0].value.tolist() != whole.buffer[0].value.tolist()


def test_a_run_keeps_a_model_every_few_generations(tmp_path):
    folder = tmp_path / "run"
    trainer = T.Trainer(tiny(games=1, steps=2, iterations=4, generations=3), folder, keep_every=2)
    trainer.run()
    kept = sorted(p.name for p in (folder / T.SNAPSHOTS).iterdir())
    assert kept == ["model-g0002.npz"]  # generation 2 only; the latest is model.npz
    assert Model.load(folder / T.SNAPSHOTS / kept[0]).card["generations"] == 2
    assert Model.load(folder / T.MODEL_FILE).card["generations"] == 3


@pytest.mark.parametrize("method", ["dmc", "search"])
@pytest.mark.parametrize("game_id", ENCODED)
def test_self_play_gives_well_formed_samples_and_is_seeded(game_id, method):
    game = get_game(game_id)
    players = game.info.min_players
    model = new_model(game, players, hidden=(8,), seed=1).to_bytes()
    jobs = selfplay_jobs(game_id, players, {}, run_seed=5, generation=1, games=1, model=model,
                         iterations=2, mix=0.5, method=method)
    result = play_selfplay(jobs[0])
    again = play_selfplay(jobs[0])
    assert result["decisions"] == again["decisions"] and result["games"] == 1
    assert [s.value.tolist() for s in result["samples"]] == \
        [s.value.tolist() for s in again["samples"]]
    size = game.observation_layout(players).size
    actions = len(game.all_actions())
    assert result["samples"]
    for sample in result["samples"]:
        assert sample.inputs_index.max() < size and len(sample.inputs_value) == len(sample.inputs_index)
        assert sample.legal.max() < actions and len(sample.legal) >= 2
        assert abs(sample.policy.sum() - 1) < 1e-5 and abs(sample.value.sum() - 1) < 1e-5
        if method == "dmc":  # the action taken, and nothing else
            assert sorted(sample.policy.tolist()) == [0.0] * (len(sample.legal) - 1) + [1.0]


def test_search_free_jobs_share_games_and_do_not_depend_on_how_they_are_cut():
    model = new_model(get_game("san-gimignano"), 2, hidden=(8,), seed=1).to_bytes()
    jobs = selfplay_jobs("san-gimignano", 2, {}, 5, 1, 20, model, iterations=1, method="dmc")
    assert [len(j.seeds) for j in jobs] == [16, 4] and len({s for j in jobs for s in j.seeds}) == 20
    alone = selfplay_jobs("san-gimignano", 2, {}, 5, 1, 1, model, iterations=1, method="dmc")
    assert alone[0].seeds == jobs[0].seeds[:1]


def test_a_run_can_start_from_another_runs_network(tmp_path):
    """Expert iteration: a search run starts from a search-free run's network (--init)."""
    first = T.Trainer(tiny(method="dmc", games=2, steps=5), tmp_path / "dmc")
    first.run()
    model_file = tmp_path / "dmc" / T.MODEL_FILE
    started = T.Trainer(tiny(method="search", init=str(model_file)), tmp_path / "search")
    for mine, theirs in zip(started.net.linears(), first.net.linears(), strict=True):
        # the exported model is float16: the same weights to its precision
        assert torch.allclose(mine.weight, theirs.weight, atol=1e-2)
    fresh = T.Trainer(tiny(method="search"), tmp_path / "fresh")
    assert not torch.allclose(fresh.net.policy.weight, started.net.policy.weight)
    started.run()
    assert started.model().card["started_from"] == str(model_file)
    assert f"--init {model_file}" in started.settings.command()
    assert "--init" not in fresh.settings.command()
    # a model of another shape, game or count, or no file at all: refused, nothing written
    for bad, message in ((tiny(hidden=[8], init=str(model_file)), r"hidden layers \[16\]"),
                         (tiny(init=str(tmp_path / "none.npz")), "no such model file"),
                         (tiny(game="troyes", init=str(model_file)), "plays san-gimignano")):
        with pytest.raises(OptionError, match=message):
            T.Trainer(bad, tmp_path / "bad")
    assert not (tmp_path / "bad").exists()


def test_the_card_names_the_command_that_repeats_the_run():
    settings = tiny(options={"nobles": True}, lr=0.003)
    command = settings.command()
    assert command.startswith("palio train san-gimignano --players 2 --option nobles=True ")
    assert "--hidden 16 " in command and "--lr 0.003 " in command and "--seed 3 " in command
    assert "--mix-generations 4 " in command
    # every flag of the command exists: the command repeats the run
    flags = {word for word in command.split() if word.startswith("--")}
    known = {opt for param in inspect.signature(train_cli.train_command).parameters.values()
             for opt in getattr(param.default, "param_decls", None) or () if opt.startswith("--")}
    assert "--seed" in known
    assert flags <= known, flags - known


def test_the_mix_of_the_heuristic_falls_to_zero():
    settings = tiny(mix_generations=4, method="search")
    assert [settings.mix(g) for g in (1, 2, 3, 5, 9)] == [1.0, 0.75, 0.5, 0.0, 0.0]
    assert tiny(mix_generations=0, method="search").mix(1) == 0.0
    assert tiny(mix_generations=4, method="dmc").mix(1) == 0.0  # no search, no leaves


def test_the_buffer_file_round_trips(tmp_path):
    model = new_model(get_game("san-gimignano"), 2, hidden=(8,)).to_bytes()
    job = selfplay_jobs("san-gimignano", 2, {}, 1, 1, 1, model, iterations=2)[0]
    samples = play_selfplay(job)["samples"]
    T.save_buffer(tmp_path / "b.npz", samples)
    loaded = T.load_buffer(tmp_path / "b.npz")
    assert len(loaded) == len(samples)
    for a, b in zip(samples, loaded, strict=True):
        for name in ("inputs_index", "inputs_value", "legal", "policy", "value"):
            assert (getattr(a, name) == getattr(b, name)).all()


def test_the_cards_prior_visits_decide_which_measurements_count(tmp_path):
    runner = CliRunner()
    path = tmp_path / "m.npz"
    model = new_model(get_game("san-gimignano"), 2, hidden=(8,))
    model.meta["card"] = {"mix": 1.0, "measured": [
        {"opponent": "mcts", "pairwise": 0.55, "a": "learned:model=m.npz;mix=1.0"},
        {"opponent": "mcts", "pairwise": 0.65, "a": "learned:model=m.npz;mix=1.0;prior_visits=4"}]}
    model.save(path)
    # an entry naming no prior_visits measured the bot asking its network at every new node
    assert Model.load(path).measured_against("mcts") == 0.55
    assert bots.get(f"learned:model={path}").prior_visits is None  # the card's, when it plays
    changed = runner.invoke(app, ["models", str(path), "--prior-visits", "4"])
    assert changed.exit_code == 0 and "prior_visits 0 -> 4" in changed.output, changed.output
    model = Model.load(path)
    assert model.card["prior_visits"] == 4 and model.measured_against("mcts") == 0.65
    assert model.card["prior_visits_changes"][0]["command"].endswith("--prior-visits 4")
    for bad, message in ((["--prior-visits", "-1"], "--prior-visits must be 0 or more"),
                         ([str(path), "--prior-visits", "2"], "one model file")):
        refused = runner.invoke(app, ["models", str(path), *bad])
        assert refused.exit_code == 2 and message in refused.output, refused.output
    assert Model.load(path).card["prior_visits"] == 4  # refused: nothing changed


def test_palio_train_from_the_command_line(tmp_path):
    runner = CliRunner()
    folder = tmp_path / "run"
    args = ["train", "san-gimignano", "--generations", "1", "--games", "2", "--iterations", "4",
            "--steps", "3", "--hidden", "8", "--run", str(folder), "--export",
            str(tmp_path / "m.npz"), "--seed", "2"]
    result = runner.invoke(app, args)
    assert result.exit_code == 0, result.output
    assert "generation 1: 2 games" in result.output and (tmp_path / "m.npz").exists()
    command = Model.load(tmp_path / "m.npz").card["command"]
    assert command.startswith("palio train san-gimignano --players 2 ") and "--seed 2 " in command
    again = runner.invoke(app, [*args[:2], "--generations", "2", *args[4:]])
    assert again.exit_code == 0 and "generation 2" in again.output
    card = runner.invoke(app, ["models", str(tmp_path / "m.npz")])
    assert card.exit_code == 0 and "self_play_games: 4" in card.output, card.output
    assert "method: dmc" in card.output
    missing = runner.invoke(app, ["models", str(tmp_path / "none.npz")])
    assert missing.exit_code == 2 and "cannot read model" in missing.output
    # the card's mix (the bot's default weight of the game's evaluation): an earlier
    # measurement at another weight stays, marked superseded; one made at the new weight counts
    model = Model.load(tmp_path / "m.npz")
    model.meta["card"]["measured"] = [
        {"opponent": "mcts", "pairwise": 0.2, "a": "learned:model=m.npz;time_budget=0.1"},
        {"opponent": "mcts", "pairwise": 0.7, "a": "learned:model=m.npz;mix=1.0;time_budget=0.1"}]
    model.save(tmp_path / "m.npz")
    assert Model.load(tmp_path / "m.npz").measured_against("mcts") == 0.2  # the mix-1 one not
    changed = runner.invoke(app, ["models", str(tmp_path / "m.npz"), "--mix", "1"])
    assert changed.exit_code == 0 and "mix 0 -> 1" in changed.output, changed.output
    model = Model.load(tmp_path / "m.npz")
    assert model.card["mix"] == 1.0 and model.card["mix_changes"][0]["from"] == 0.0
    assert model.measured_against("mcts") == 0.7
    assert "measured with mix 0" in model.card["measured"][0]["superseded"]
    assert "superseded" not in model.card["measured"][1]  # its spec names its mix
    # an entry whose spec names a mix counts exactly while the card plays that mix: back at
    # mix 0 neither entry counts (the first stays superseded), at 1 again the second does
    assert runner.invoke(app, ["models", str(tmp_path / "m.npz"), "--mix", "0"]).exit_code == 0
    assert Model.load(tmp_path / "m.npz").measured_against("mcts") is None
    assert runner.invoke(app, ["models", str(tmp_path / "m.npz"), "--mix", "1"]).exit_code == 0
    assert Model.load(tmp_path / "m.npz").measured_against("mcts") == 0.7
    for bad, message in ((["--mix", "1.5"], "--mix must lie between 0 and 1"),
                         (["--mix", "-0.1"], "--mix must lie between 0 and 1")):
        refused = runner.invoke(app, ["models", str(tmp_path / "m.npz"), *bad])
        assert refused.exit_code == 2 and message in refused.output, refused.output
    both = runner.invoke(app, ["models", str(tmp_path / "m.npz"), str(tmp_path / "m.npz"),
                               "--mix", "0.5"])
    assert both.exit_code == 2 and "one model file" in both.output
    assert Model.load(tmp_path / "m.npz").card["mix"] == 1.0  # refused: nothing changed
    noted = runner.invoke(app, ["models", str(tmp_path / "m.npz"), "--note", " a control did as well "])
    assert noted.exit_code == 0 and "note written" in noted.output, noted.output
    assert Model.load(tmp_path / "m.npz").card["note"] == "a control did as well"
    assert "note: a control did as well" in runner.invoke(
        app, ["models", str(tmp_path / "m.npz")]).output
    two = runner.invoke(app, ["models", str(tmp_path / "m.npz"), str(tmp_path / "m.npz"),
                              "--note", "x"])
    assert two.exit_code == 2 and "--note changes one model file" in two.output
    assert Model.load(tmp_path / "m.npz").card["note"] == "a control did as well"
    removed = runner.invoke(app, ["models", str(tmp_path / "m.npz"), "--note", ""])
    assert removed.exit_code == 0 and "note" not in Model.load(tmp_path / "m.npz").card
    for bad, message in ((["--games", "0"], "--games must be at least 1"),
                         (["--hidden", "0"], "--hidden takes positive widths"),
                         (["--device", "tpu"], "unknown device"),
                         (["--keep-every", "-1"], "--keep-every and --weight-decay must be 0 or more"),
                         (["--method", "ppo"], "unknown --method 'ppo'"),
                         (["--epsilon", "2"], "--epsilon must be from 0 to 1"),
                         (["-p", "5"], "played by 2 players")):
        result = runner.invoke(app, ["train", "san-gimignano", "--run", str(tmp_path / "x"),
                                     *bad])
        assert result.exit_code == 2 and message in result.output, (bad, result.output)


def test_progress_shows_in_plain_lines_outside_a_terminal(tmp_path, monkeypatch):
    monkeypatch.setattr(train_cli, "PLAIN_EVERY", 0.0)
    result = CliRunner().invoke(app, ["train", "troyes", "-p", "3", "--generations", "1",
                                      "--games", "20", "--steps", "2", "--hidden", "8",
                                      "--run", str(tmp_path / "run")])
    assert result.exit_code == 0, result.output
    assert "generation 1: 16 of 20 self-play games played" in result.output
    assert "generation 1: 20 of 20 self-play games played" in result.output
    assert "generation 1: 20 games" in result.output


@pytest.mark.ray
def test_self_play_on_ray_gives_what_local_processes_give():
    ray = pytest.importorskip("ray")
    from palio.sim.backends import run_jobs

    model = new_model(get_game("san-gimignano"), 2, hidden=(8,), seed=2).to_bytes()
    jobs = selfplay_jobs("san-gimignano", 2, {}, 7, 1, 2, model, iterations=3)

    def summary(results):
        return sorted((r["index"], r["decisions"], r["returns"],
                       [s.policy.tolist() for s in r["samples"]]) for r in results)

    local = summary(run_jobs(jobs, 2, function=play_selfplay))
    ray.init(num_cpus=2, include_dashboard=False, log_to_driver=False)
    try:
        remote = summary(run_jobs(jobs, 2, "ray", function=play_selfplay))
    finally:
        ray.shutdown()
    assert remote == local and len(local) == 2
