"""``palio bench``: the figures are measured and printed for any game; speed is never asserted."""

import json

from typer.testing import CliRunner

from palio.bots.network import shipped_model
from palio.cli import app

runner = CliRunner()


def test_bench_prints_and_saves_the_figures_of_one_game(tmp_path):
    path = tmp_path / "bench.json"
    result = runner.invoke(app, ["bench", "san-gimignano", "--seconds", "0.2", "--json", str(path)])
    assert result.exit_code == 0, result.output
    for heading in ("decisions/s", "games/s", "copy µs", "mcts it/s", "mcts it/CPU-s", "x ttt",
                    "san-gimignano"):
        assert heading in result.output
    assert "OpenSpiel yardstick" in result.output
    data = json.loads(path.read_text())
    (figures,) = data["games"]
    assert figures["game"] == "san-gimignano" and figures["players"] == 2
    assert figures["games"] >= 1 and figures["decisions"] > figures["games"]
    assert figures["copies"] > 0 and figures["mcts_iterations"] > 0
    assert figures["mcts_iterations_per_cpu_s"] > 0
    assert set(figures["aims_met"]) == {"decisions_per_s", "games_per_s"}
    # the learned bot and its network, measured where a model ships for the game
    assert "learned it/s" in result.output and "net µs" in result.output
    if shipped_model("san-gimignano", 2) is None:
        assert figures["learned_iterations_per_s"] is None
    else:
        assert figures["learned_iterations_per_s"] > 0 and figures["network_us"] > 0
        assert figures["features_us"] > 0


def test_bench_measures_every_player_count_unless_one_is_named(tmp_path):
    path = tmp_path / "bench.json"
    result = runner.invoke(app, ["bench", "signorie", "--seconds", "0.05", "--json", str(path)])
    assert result.exit_code == 0, result.output
    counts = [f["players"] for f in json.loads(path.read_text())["games"]]
    assert counts == [2, 3, 4]
    result = runner.invoke(app, ["bench", "signorie", "-p", "3", "--seconds", "0.05",
                                 "--json", str(path)])
    assert [f["players"] for f in json.loads(path.read_text())["games"]] == [3]


def test_bench_refuses_bad_arguments_before_measuring():
    for args, message in (
        (["bench", "no-such-game"], "unknown game"),
        (["bench", "san-gimignano", "--players", "4"], "2 players"),
        (["bench", "san-gimignano", "--seconds", "0"], "--seconds"),
    ):
        result = runner.invoke(app, args)
        assert result.exit_code == 2 and message in result.output, result.output


def test_the_install_hint_survives_rich_markup():
    from rich.console import Console

    from palio.cli.bench import _yardstick_line
    from palio.sim.bench import Yardstick

    console = Console(record=True, width=200)
    missing = Yardstick("python_tic_tac_toe", available=False,
                        note="open_spiel is not installed (pip install 'palio[openspiel]')")
    console.print(_yardstick_line(missing))
    assert "pip install 'palio[openspiel]'" in console.export_text()
