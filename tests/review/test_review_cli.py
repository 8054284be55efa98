"""``palio review`` and the ``hint`` command of ``palio play``."""

from __future__ import annotations

import io
import json

from rich.console import Console
from typer.testing import CliRunner

import palio
from palio.cli import app
from palio.cli.play import ask
from palio.cli.review import ITERATIONS_HELP, TenthLines
from palio.core.errors import PalioError
from palio.core.i18n import Translator
from palio.core.record import GameRecord
from palio.review import DEFAULT_ITERATIONS, ITERATIONS_BY_GAME
from tests.review.test_review import greedy_game

runner = CliRunner()


def write_record(tmp_path, state) -> str:
    path = tmp_path / "game.json"
    GameRecord.of(state, ["Ada", "Bea"]).save(path)
    return str(path)


def test_review_writes_json_with_decisions_and_players(tmp_path):
    path = write_record(tmp_path, greedy_game("san-gimignano", 2, 2, stop=75, then="pass"))
    result = runner.invoke(app, ["review", path, "--iterations", "150", "--seed", "1",
                                 "--seat", "1", "--json", "-", "--lang", "en"])
    assert result.exit_code == 0, result.output
    data = json.loads(result.stdout)
    assert {d["seat"] for d in data["decisions"]} == {1}
    decisive = next(d for d in data["decisions"] if d["move"] == 75)
    assert decisive["class"] == "blunder"
    assert decisive["played"] == {**decisive["played"], "notation": "pass", "label": "Pass"}
    assert decisive["best"]["label"] and decisive["best"]["explain"]
    assert [p["seat"] for p in data["players"]] == [1]
    assert data["players"][0]["blunders"] >= 1 and data["players"][0]["average_loss"] > 0


def test_review_prints_tables_in_japanese_and_saves_a_file(tmp_path):
    path = write_record(tmp_path, greedy_game("san-gimignano", 2, 2, stop=75, then="pass"))
    out = tmp_path / "review.json"
    result = runner.invoke(app, ["review", path, "--iterations", "60", "--lang", "ja",
                                 "--json", str(out)], env={"COLUMNS": "200"})
    assert result.exit_code == 0, result.output
    assert "悪手" in result.output and "プレイヤーごとのまとめ" in result.output
    assert "Bea" in result.output
    assert "無作為" in result.output  # what the accuracy means, under the players' table
    assert json.loads(out.read_text())["decisions"]


def test_review_leaves_the_budget_to_the_game_unless_one_is_given(tmp_path, monkeypatch):
    path = write_record(tmp_path, greedy_game("san-gimignano", 2, 2))
    asked = []

    def noted(record, game, *, budget, **kwargs):
        asked.append(budget)
        raise PalioError("stopped by the test")

    monkeypatch.setattr("palio.cli.review.review", noted)
    for extra in ([], ["--iterations", "70"], ["--seconds", "0.5"]):
        result = runner.invoke(app, ["review", path, "--lang", "en", *extra])
        assert result.exit_code == 2 and "stopped by the test" in result.output
    # none given: palio.review.review takes the game's own (iterations_for)
    assert asked[0] is None
    assert (asked[1].iterations, asked[1].seconds) == (70, None)
    assert asked[2].seconds == 0.5


def test_review_refuses_an_unfinished_record_and_a_bad_seat(tmp_path):
    state = palio.new_game("san-gimignano", players=2, seed=1)
    state.apply(state.legal_actions()[0])
    path = write_record(tmp_path, state)
    result = runner.invoke(app, ["review", path, "--lang", "en"])
    assert result.exit_code == 2 and "finished" in result.output
    done = write_record(tmp_path, greedy_game("san-gimignano", 2, 4))
    result = runner.invoke(app, ["review", done, "--seat", "5", "--lang", "en"])
    assert result.exit_code == 2 and "--seat must be 0-1" in result.output


def test_hint_at_the_terminal_shows_three_choices_and_is_remembered(capsys):
    state = palio.new_game("san-gimignano", players=2, seed=3)
    answers = iter(["hint", "1"])
    used: list[int] = []
    action = ask(state, Translator("en"), read=lambda _prompt: next(answers), hints=used)
    assert action == state.legal_actions()[0]
    out = capsys.readouterr().out
    assert "The bot's best choices:" in out
    assert out.count("chance of winning about") == min(3, len(state.legal_actions()))
    assert "Likely continuation:" in out
    assert used == [0]


def test_review_shows_progress_as_lines_when_output_is_not_a_terminal(tmp_path):
    path = write_record(tmp_path, greedy_game("san-gimignano", 2, 4))
    result = runner.invoke(app, ["review", path, "--iterations", "10", "--seat", "0",
                                 "--lang", "en"], env={"COLUMNS": "200"})
    assert result.exit_code == 0, result.output
    lines = [line for line in result.output.splitlines()
             if line.startswith("Reviewing San Gimignano:")]
    assert 5 <= len(lines) <= 11  # a line per tenth (seat 1's decisions count as done at once)
    total = len(GameRecord.load(path).actions)
    assert lines[-1] == f"Reviewing San Gimignano: {total} of {total} decisions"
    assert "Why" in result.output or "No decision lost much." in result.output


def tenth_lines(calls, total):
    out = io.StringIO()
    lines = TenthLines(Console(file=out, width=200), Translator("en"), "Troyes")
    for done in calls:
        lines(done, total)
    return out.getvalue().splitlines()


def test_tenth_lines_print_a_line_per_tenth_of_the_decisions():
    # every decision reported: the first, then one as each tenth is passed, the last at the end
    shown = tenth_lines(range(1, 38), 37)
    assert len(shown) == 11
    done = [int(line.split(": ")[1].split(" of ")[0]) for line in shown]
    assert [10 * d // 37 for d in done] == list(range(11))
    assert shown[-1] == "Reviewing Troyes: 37 of 37 decisions"
    # reports that jump (another seat's decisions counted at once): a line per new tenth only
    assert len(tenth_lines([20, 21, 30, 37], 37)) == 3


def test_review_judges_in_parallel_by_default_with_lines_and_the_same_result(tmp_path):
    path = write_record(tmp_path, greedy_game("san-gimignano", 2, 4))
    args = ["review", path, "--iterations", "10", "--seed", "3", "--lang", "en"]
    parallel = runner.invoke(app, args, env={"COLUMNS": "200"})  # one process per core
    assert parallel.exit_code == 0, parallel.output
    lines = [line for line in parallel.output.splitlines()
             if line.startswith("Reviewing San Gimignano:")]
    total = len(GameRecord.load(path).actions)
    assert len(lines) == 11 and lines[-1].endswith(f"{total} of {total} decisions")
    alone = runner.invoke(app, [*args, "--workers", "1"], env={"COLUMNS": "200"})
    assert alone.exit_code == 0, alone.output
    assert alone.output == parallel.output
    bad = runner.invoke(app, [*args, "--workers", "0"])
    assert bad.exit_code == 2 and "--workers must be at least 1" in bad.output


def test_the_iterations_help_names_every_game_with_its_own_budget():
    assert f"default {DEFAULT_ITERATIONS}" in ITERATIONS_HELP
    for (game, players), iterations in ITERATIONS_BY_GAME.items():
        assert f"{iterations} for {game} with {players} players" in ITERATIONS_HELP
