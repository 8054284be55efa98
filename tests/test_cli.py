"""The palio command: autoplay, a person at the terminal, records and replays."""

import json
import subprocess
import sys

from typer.testing import CliRunner

from palio.cli import app

runner = CliRunner()


def test_autoplay_prints_the_log_and_final_scores(tmp_path):
    record = tmp_path / "game.json"
    result = runner.invoke(
        app, ["play", "san-gimignano", "--bots", "random,random", "--seed", "1", "--record", str(record)]
    )
    assert result.exit_code == 0, result.output
    assert "game over after" in result.output and "1. seat" in result.output
    assert "Seat 0" in result.output  # the log in words
    data = json.loads(record.read_text())
    assert data["game"] == "san-gimignano" and data["seed"] == 1 and data["result"]["scores"]
    replay = runner.invoke(app, ["replay", str(record)])
    assert replay.exit_code == 0 and "Record verified" in replay.output


def test_a_tampered_record_is_refused_with_a_clear_message(tmp_path):
    record = tmp_path / "game.json"
    runner.invoke(app, ["play", "san-gimignano", "--bots", "random,random", "--seed", "3",
                        "--record", str(record), "-q"])
    data = json.loads(record.read_text())
    data["result"]["scores"] = [999, 0]
    record.write_text(json.dumps(data))
    result = runner.invoke(app, ["replay", str(record)])
    assert result.exit_code == 2 and "replay gives" in result.output
    data["actions"][0] = "build 5,5,5,5,5,5"
    record.write_text(json.dumps(data))
    result = runner.invoke(app, ["replay", str(record)])
    assert result.exit_code == 2 and "move 1" in result.output
    record.write_text("{not json")
    assert "not a JSON game record" in runner.invoke(app, ["replay", str(record)]).output


def test_a_person_plays_and_wrong_entries_are_explained():
    typed = "fly away\n999\nbuild 9,9\n" + "pass\n" * 200
    result = runner.invoke(app, ["play", "san-gimignano", "--seed", "4", "--bots", "random"], input=typed)
    assert result.exit_code == 0, result.output
    assert "cannot read 'fly away'" in result.output
    assert "not a tower" in result.output  # build 9,9
    assert "Your moves:" in result.output and "hand (" in result.output
    assert "game over after" in result.output


def test_bad_arguments_get_clear_errors():
    result = runner.invoke(app, ["play", "no-such-game"])
    assert result.exit_code == 2 and "unknown game" in result.output
    result = runner.invoke(app, ["play", "san-gimignano", "-p", "3"])
    assert result.exit_code == 2 and "2 players" in result.output
    result = runner.invoke(app, ["play", "san-gimignano", "--bots", "nobody,random"])
    assert result.exit_code == 2 and "unknown bot" in result.output


def test_games_lists_games_and_components():
    result = runner.invoke(app, ["games"])
    assert "san-gimignano" in result.output
    result = runner.invoke(app, ["games", "san-gimignano", "--components"])
    assert "option nobles" in result.output and "No provisional" in result.output


def test_the_console_script_runs_as_a_real_process():
    result = subprocess.run(
        [sys.executable, "-m", "palio", "play", "san-gimignano", "--bots", "greedy,random", "-q", "--seed", "2"],
        capture_output=True, text=True, timeout=60,
    )
    assert result.returncode == 0, result.stderr
    assert "game over" in result.stdout


def test_a_corrected_components_file_is_checked_and_played(tmp_path):
    exported = tmp_path / "tiletum.json"
    result = runner.invoke(app, ["games", "tiletum", "--export-components", str(exported)])
    assert result.exit_code == 0, result.output
    data = json.loads(exported.read_text())
    data["fairs"]["board_vp"] = [2, 3, 3, 5]
    exported.write_text(json.dumps(data))
    result = runner.invoke(app, ["games", "tiletum", "--components-file", str(exported)])
    assert result.exit_code == 0 and "is valid" in result.output, result.output
    result = runner.invoke(app, ["play", "tiletum", "--components-file", str(exported),
                                 "--bots", "random,random", "--seed", "2", "-q"])
    assert result.exit_code == 0 and "game over after" in result.output, result.output


def test_a_broken_components_file_is_refused_with_a_clear_message(tmp_path):
    broken = tmp_path / "broken.json"
    broken.write_text('{"no_such_section": {}}')
    result = runner.invoke(app, ["play", "tiletum", "--components-file", str(broken),
                                 "--bots", "random,random"])
    assert result.exit_code == 2 and "unknown section" in result.output
    broken.write_text("{not json")
    result = runner.invoke(app, ["games", "tiletum", "--components-file", str(broken)])
    assert result.exit_code == 2 and "not valid JSON" in result.output
    result = runner.invoke(app, ["play", "san-gimignano", "--components-file", str(broken),
                                 "--bots", "random,random"])
    assert result.exit_code == 2 and "no component data" in result.output
