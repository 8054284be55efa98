"""Points by place, presets, tie-breaks and standings (docs/tournaments.md)."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from palio.tournament import (
    PRESETS,
    Bye,
    Entrant,
    Scoring,
    TableResult,
    TournamentError,
    points,
    standings,
)


def test_bga_points_run_evenly_from_one_to_zero():
    assert PRESETS["bga"].place_points(4) == pytest.approx((1, 2 / 3, 1 / 3, 0))
    assert PRESETS["bga"].place_points(2) == (1, 0)


def test_tied_seats_share_the_points_of_their_places():
    assert PRESETS["bga"].table_points((1, 1, 3)) == pytest.approx([0.75, 0.75, 0])
    assert PRESETS["lichess"].table_points((1, 1)) == [1, 1]  # a draw: 1 each


def test_lichess_doubles_a_third_first_place_in_a_row():
    results = [TableResult(r, ("a", "b"), (1, 2)) for r in (1, 2, 3)]
    assert points(results, PRESETS["lichess"], 2) == {"a": 2 + 2 + 4, "b": 0}
    broken = [*results[:2], TableResult(3, ("a", "b"), (2, 1)), TableResult(4, ("a", "b"), (1, 2))]
    assert points(broken, PRESETS["lichess"], 2)["a"] == 2 + 2 + 0 + 2


def test_a_bye_scores_the_mean_place_and_a_bot_nothing():
    results = [Bye(1, "a"), TableResult(1, ("b", None, "c"), (2, 1, 3))]
    got = points(results, PRESETS["bga"], 3)
    assert got == pytest.approx({"a": 0.5, "b": 0.5, "c": 0})
    assert Scoring("custom", by_size={3: (5, 2, 0)}).table_points((3, 1, 2)) == [0, 5, 2]


def test_standings_use_the_named_tie_breaks_and_share_ranks():
    entrants = [Entrant(x) for x in "abcd"]
    results = [TableResult(1, ("a", "b"), (1, 2), (10, 4)),
               TableResult(1, ("c", "d"), (1, 2), (7, 6)),
               TableResult(2, ("a", "d"), (2, 1), (3, 9)),
               TableResult(2, ("c", "b"), (2, 1), (5, 5))]
    table = standings(entrants, results, PRESETS["bga"], 2, ("buchholz", "game_score"))
    assert [s.points for s in table] == [1, 1, 1, 1]
    # buchholz: every opponent has 1 point, so game score decides: a 13, d 15, c 12, b 9
    assert [s.entrant for s in table] == ["d", "a", "c", "b"]
    assert [s.rank for s in table] == [1, 2, 3, 4]
    tied = standings(entrants, results, PRESETS["bga"], 2, ("buchholz",))
    assert {s.rank for s in tied} == {1}


def test_game_score_comes_after_buchholz_and_wins_and_a_table_without_scores_adds_nothing():
    entrants = [Entrant(x) for x in "abcd"]
    first = [TableResult(1, ("a", "b"), (1, 2), (10, 4)),
             TableResult(1, ("c", "d"), (1, 2), (7, 6)),
             TableResult(2, ("c", "b"), (2, 1), (5, 5))]
    order = ("buchholz", "wins", "game_score")  # the server's order (issue 38)
    scored = standings(entrants, [*first, TableResult(2, ("a", "d"), (2, 1), (3, 9))],
                       PRESETS["bga"], 2, order)
    # equal on points (1), buchholz (two opponents of 1) and wins (1): the game score decides
    assert {(s.points, s.tie_breaks["buchholz"], s.tie_breaks["wins"]) for s in scored} == {
        (1, 2, 1)}
    assert list(scored[0].tie_breaks) == list(order)  # each tie-break by its name
    assert [(s.entrant, s.tie_breaks["game_score"]) for s in scored] == [
        ("d", 15), ("a", 13), ("c", 12), ("b", 9)]
    assert [s.rank for s in scored] == [1, 2, 3, 4]
    unscored = standings(entrants, [*first, TableResult(2, ("a", "d"), (2, 1))],
                         PRESETS["bga"], 2, order)
    assert [(s.entrant, s.tie_breaks["game_score"]) for s in unscored] == [
        ("c", 12), ("a", 10), ("b", 9), ("d", 6)]
    with pytest.raises(TournamentError):
        TableResult(1, ("a", "b"), (1, 2), (3,))  # one score per seat


def test_a_withdrawn_entrant_is_listed_last_and_bad_names_are_refused():
    entrants = [Entrant("a"), Entrant("b")]
    results = [TableResult(1, ("a", "b"), (1, 2))]
    assert standings(entrants, results, PRESETS["bga"], 2, withdrawn=["a"])[-1].entrant == "a"
    with pytest.raises(TournamentError):
        standings(entrants, results, PRESETS["bga"], 2, ("luck",))
    with pytest.raises(TournamentError):
        TableResult(1, ("a", "a"), (1, 2))
    with pytest.raises(TournamentError):
        TableResult(1, ("a", "b"), (1, 3))


@given(st.lists(st.integers(0, 3), min_size=2, max_size=5), st.sampled_from(sorted(PRESETS)))
def test_ties_share_points_without_making_or_losing_any(game_scores, preset):
    # places as a game gives them: equal scores tie, the next place skips (1, 1, 3)
    places = tuple(1 + sum(other > mine for other in game_scores) for mine in game_scores)
    rules = PRESETS[preset]
    got = rules.table_points(places)
    assert sum(got) == pytest.approx(sum(rules.place_points(len(places))))
    for a, pa in zip(got, places, strict=True):
        for b, pb in zip(got, places, strict=True):
            assert (pa < pb) <= (a >= b)  # a better place never scores less
