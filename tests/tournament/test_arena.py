"""Arena pairing: the longest-waiting first, within a rank window, avoiding recent opponents,
seats balanced; and the package stays free of the server."""

from __future__ import annotations

import subprocess
import sys

import pytest

from palio.tournament import TableResult, TournamentError, arena_tables


def test_a_recent_opponent_is_avoided_while_another_waits():
    results = [TableResult(1, ("a", "b"), (1, 2))]
    paired, left = arena_tables(["a", "b", "c", "d"], ["a", "b", "c", "d"], results, seats=2)
    tables = [set(t) for t in paired.tables]
    assert {"a", "c"} in tables and {"b", "d"} in tables and left == []


def test_with_no_one_else_waiting_they_meet_again_in_the_other_seats():
    results = [TableResult(1, ("a", "b"), (1, 2))]
    paired, left = arena_tables(["b", "a"], ["a", "b"], results, seats=2)
    assert paired.tables == (("b", "a"),)


def test_the_window_keeps_tables_near_in_rank_and_the_rest_wait():
    ranking = [f"p{i}" for i in range(12)]
    paired, left = arena_tables(["p0", "p11", "p1", "p10", "p2"], ranking, [], seats=2,
                                window=3)
    assert [set(t) for t in paired.tables] == [{"p0", "p1"}, {"p11", "p10"}]
    assert left == ["p2"]


def test_three_seats_wait_for_a_third():
    paired, left = arena_tables(["a", "b"], ["a", "b", "c"], [], seats=3)
    assert paired.tables == () and left == ["a", "b"]


def test_bad_waiting_lists_are_refused():
    with pytest.raises(TournamentError):
        arena_tables(["a", "a"], ["a"], [], seats=2)
    with pytest.raises(TournamentError):
        arena_tables(["z"], ["a"], [], seats=2)


def test_the_package_imports_no_server_or_database():
    code = ("import sys, palio.tournament; "
            "print([m for m in sys.modules if m.startswith(('palio.server', 'sqlalchemy', "
            "'fastapi'))])")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                         check=True)
    assert out.stdout.strip() == "[]"
