"""``palio simulate`` and ``palio arena`` from the command line: output, errors, Ctrl-C."""

from __future__ import annotations

import csv
import json
import os
import signal
import subprocess
import sys
import time

import pytest
from typer.testing import CliRunner

from palio.cli import app

runner = CliRunner()


def lines_of(path):
    return [json.loads(line) for line in path.read_text().splitlines()]


def test_simulate_writes_a_line_per_game_and_a_summary(tmp_path):
    out = tmp_path / "games.jsonl"
    result = runner.invoke(app, ["simulate", "san-gimignano", "--games", "4", "--bots",
                                 "greedy,random", "--seed", "5", "--out", str(out), "--records"])
    assert result.exit_code == 0, result.output
    games = lines_of(out)
    assert sorted(g["index"] for g in games) == [0, 1, 2, 3]
    assert all("record" in g for g in games)
    assert "greedy" in result.output and "95% interval" in result.output
    assert "4 games, mean length" in result.output


def test_lines_can_go_to_stdout_with_the_table_on_stderr(tmp_path):
    proc = subprocess.run(
        [sys.executable, "-m", "palio", "simulate", "tiletum", "-n", "2", "--bots", "random",
         "--out", "-"], capture_output=True, text=True, timeout=60)
    assert proc.returncode == 0, proc.stderr
    assert [json.loads(line)["game"] for line in proc.stdout.splitlines()] == ["tiletum"] * 2
    assert "Simulation summary" in proc.stderr


@pytest.mark.parametrize(("args", "message"), [
    (["simulate", "chess"], "unknown game"),
    (["simulate", "san-gimignano", "-p", "5"], "2 players"),
    (["simulate", "san-gimignano", "--bots", "robot"], "unknown bot"),
    (["simulate", "san-gimignano", "--bots", "mcts:iterations=0"], "iterations"),
    (["simulate", "san-gimignano", "-o", "fog"], "unknown option"),
    (["simulate", "san-gimignano", "--games", "0"], "games must be"),
    (["simulate", "san-gimignano", "--workers", "0"], "--workers must be"),
    (["simulate", "san-gimignano", "--backend", "dask"], "unknown backend"),
    (["simulate", "san-gimignano", "--address", "ray://x:1"], "--backend ray"),
    (["arena", "san-gimignano", "--bots", "greedy"], "at least two bots"),
    (["arena", "san-gimignano", "--bots", "greedy,nobody"], "unknown bot"),
    (["arena", "tiletum", "--bots", "greedy,random", "-p", "7"], "2-4 players"),
    (["arena", "tiletum", "--bots", "greedy,random", "--seating", "random"], "unknown seating"),
    (["arena", "tiletum", "--bots", "greedy,random", "--csv", "/no/such/dir/r.csv"],
     "cannot write /no/such/dir/r.csv"),
])
def test_bad_arguments_exit_2_with_a_message_and_write_nothing(tmp_path, args, message):
    out = tmp_path / "games.jsonl"
    result = runner.invoke(app, [*args, "--out", str(out)])
    assert result.exit_code == 2, result.output
    assert message in result.output
    assert not out.exists()


def test_arena_prints_ratings_and_writes_csv_and_json(tmp_path):
    table, data = tmp_path / "r.csv", tmp_path / "r.json"
    result = runner.invoke(app, ["arena", "san-gimignano", "--bots", "greedy,random", "-n", "2",
                                 "--seed", "3", "--bootstrap", "20", "--csv", str(table),
                                 "--json", str(data)])
    assert result.exit_code == 0, result.output
    assert "Bradley-Terry" in result.output and "4 of 4 games" in result.output
    rows = list(csv.DictReader(table.open()))
    assert {row["bot"] for row in rows} == {"greedy", "random"}
    assert all(int(row["games"]) == 4 for row in rows)
    saved = json.loads(data.read_text())
    assert saved["games"] == 4 and saved["seating"] == "permutations"
    assert [b["bot"] for b in saved["bots"]] == [row["bot"] for row in rows]


def test_ctrl_c_keeps_every_finished_game_and_prints_their_summary(tmp_path):
    out = tmp_path / "games.jsonl"
    proc = subprocess.Popen(
        [sys.executable, "-m", "palio", "simulate", "san-gimignano", "--games", "5000",
         "--bots", "mcts:iterations=5", "--workers", "2", "--out", str(out)],
        stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, env=os.environ.copy())
    try:
        deadline = time.monotonic() + 60
        while time.monotonic() < deadline:
            if out.exists() and len(out.read_text().splitlines()) >= 3:
                break
            time.sleep(0.05)
        proc.send_signal(signal.SIGINT)
        stdout, stderr = proc.communicate(timeout=30)
    finally:
        proc.kill()
    assert proc.returncode == 130, stderr
    text = out.read_text()
    assert text.endswith("\n")  # no half-written line
    games = [json.loads(line) for line in text.splitlines()]
    assert 3 <= len(games) < 5000
    assert len({g["index"] for g in games}) == len(games)
    assert f"{len(games)} games, mean length" in stdout  # the summary of exactly those games
    assert f"Interrupted: {len(games)} of 5000 games" in stderr
