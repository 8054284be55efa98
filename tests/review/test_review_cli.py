"""``palio review`` and the ``hint`` command of ``palio play``."""

from __future__ import annotations

import json

from typer.testing import CliRunner

import palio
from palio.cli import app
from palio.cli.play import ask
from palio.core.i18n import Translator
from palio.core.record import GameRecord
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
    assert json.loads(out.read_text())["decisions"]


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
