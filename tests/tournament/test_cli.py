"""``palio tournament pair``: the issue's two checks and a clear refusal."""

from __future__ import annotations

import json
from collections import Counter
from itertools import combinations

import pytest
from typer.testing import CliRunner

from palio.cli import app

runner = CliRunner()


def pair(*args: str):
    result = runner.invoke(app, ["tournament", "pair", *args])
    assert result.exit_code == 0, result.output
    return json.loads(result.output)


def assert_no_repeat_and_seats_within_one(rounds, seats):
    met = Counter()
    counts: dict = {}
    for tables in rounds:
        for table in tables:
            for s, p in enumerate(table):
                counts.setdefault(p, [0] * seats)[s] += 1
            met.update(frozenset(x) for x in combinations(table, 2))
    assert max(met.values()) == 1
    assert all(max(c) - min(c) <= 1 for c in counts.values())


def test_tiletum_twelve_at_three_seats_four_rounds():
    out = pair("tiletum", "--players", "12", "--seats", "3", "--rounds", "4", "--seed", "1",
               "--json")
    assert set(out) == {"rounds"} and len(out["rounds"]) == 4
    assert all(len(t) == 3 for r in out["rounds"] for t in r)
    assert_no_repeat_and_seats_within_one(out["rounds"], 3)


def test_san_gimignano_ten_at_two_seats_five_rounds():
    out = pair("san-gimignano", "--players", "10", "--seats", "2", "--rounds", "5", "--seed",
               "1", "--json")
    assert len(out["rounds"]) == 5
    assert_no_repeat_and_seats_within_one(out["rounds"], 2)


def test_a_seat_count_the_game_does_not_allow_is_refused():
    result = runner.invoke(app, ["tournament", "pair", "aquileia", "-p", "7", "-k", "2",
                                 "-r", "3"])
    assert result.exit_code == 2
    assert "3 to 5" in result.output


def test_the_text_report_names_seat_gaps_and_repeats():
    result = runner.invoke(app, ["tournament", "pair", "tiletum", "-p", "7", "-k", "3", "-r",
                                 "3", "--format", "roundrobin"])
    assert result.exit_code == 0, result.output
    assert "Round 3:" in result.output and "Repeat meetings" in result.output


@pytest.mark.parametrize("seed", range(1, 11))
def test_the_issue_checks_hold_for_seeds_one_to_ten(seed):
    tiletum = pair("tiletum", "-p", "12", "-k", "3", "-r", "4", "-s", str(seed), "--json")
    assert len(tiletum["rounds"]) == 4
    assert_no_repeat_and_seats_within_one(tiletum["rounds"], 3)
    san = pair("san-gimignano", "-p", "10", "-k", "2", "-r", "5", "-s", str(seed), "--json")
    assert len(san["rounds"]) == 5
    assert_no_repeat_and_seats_within_one(san["rounds"], 2)
