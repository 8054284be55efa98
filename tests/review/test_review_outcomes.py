"""Reasons name what a choice achieves in the game's own terms (issue 36): each game's
``words.outcomes`` (an arena won, towers completed), counted per outcome in the worlds of an
outlook, and named by a review where the better choice and the one played differ in it."""

from __future__ import annotations

import random

import pytest

import palio
from palio.core.i18n import Translator
from palio.core.words import Msg, msg
from palio.games.aquileia.scenario import position
from palio.games.san_gimignano.state import Tower
from palio.games.signorie.scoring import row_points
from palio.review import Outlook, compare_msg, expect_msg, msg_from_json, msg_json, outlook
from tests.review.test_review import position_at

SG = palio.get_game("san-gimignano")
AQ = palio.get_game("aquileia")


def play_out(state, seed: int):
    rng = random.Random(seed)
    while not state.is_over:
        state.apply_unchecked(rng.choice(state.legal_actions()))
    return state


def sg(key: str, **params) -> Msg:
    return msg(f"san_gimignano.outcome.{key}", **params)


def aq(key: str, **params) -> Msg:
    return msg(f"aquileia.outcome.{key}", **params)


# -- the games' outcomes ----------------------------------------------------------------------
def test_sg_outcomes_name_completed_towers_the_token_and_each_tallest_same_number_tower():
    state = play_out(SG.setup(2, 3), 3)
    state.towers = [Tower(0, 0, (7, 7, 7), completed=True), Tower(1, 1, (7, 7, 7)),
                    Tower(2, 1, (9, 8), completed=True), Tower(3, 0, (10, 10), completed=True),
                    Tower(4, 1, (8, 8)), Tower(5, 0, (8,))]
    state.token = 0
    # seat 0: two completed towers, the token, 7s (a tie counts, as in scoring) and 10s; not 8s
    assert SG.words.outcomes(state, 0) == [sg("completed", n=2), sg("token"),
                                           sg("tallest_same", number=7),
                                           sg("tallest_same", number=10)]
    # seat 1: one completed tower (the multi-number one names no number), 7s and 8s, no token
    assert SG.words.outcomes(state, 1) == [sg("completed", n=1), sg("tallest_same", number=7),
                                           sg("tallest_same", number=8)]
    state.towers, state.token = [], None
    assert SG.words.outcomes(state, 0) == SG.words.outcomes(state, 1) == []


@pytest.mark.parametrize("seed", range(4))
def test_sg_a_played_game_names_the_token_for_its_holder_only(seed):
    state = play_out(SG.setup(2, seed), seed)
    for seat in range(2):
        named = SG.words.outcomes(state, seat)
        assert (sg("token") in named) == (state.token == seat)
        done = sum(t.completed for t in state.towers_of(seat))
        assert (sg("completed", n=done) in named) == (done > 0)


def test_aquileia_names_the_arena_won_in_its_round_for_the_winner_only():
    # round 3: seats 0, 1, 2 fight with strength 1, 2, 4; seat 2 wins
    state = position(5, round=3, fields={"arena1": 0, "arena2": 1, "arena3": 2},
                     coins={p: "b0" for p in range(5)}, tiebreaker={1: 1, 2: 2, 3: 3, 4: 4},
                     to_move=0, dice="ggg bgg bbg")
    state.apply("tiebreaker")
    assert [state.strength[p] for p in range(3)] == [1, 2, 4]
    assert aq("arena", round=3) in AQ.words.outcomes(state, 2)
    play_out(state, 1)
    assert state.is_over
    assert aq("arena", round=3) in AQ.words.outcomes(state, 2)
    for seat in (0, 1, 3, 4):
        assert aq("arena", round=3) not in AQ.words.outcomes(state, seat)


def test_aquileia_names_the_race_won_by_a_lone_racer():
    state = position(3, round=2, fields={"gold1": 1}, tiebreaker={0: 1, 2: 2}, to_move=1)
    state.apply("tiebreaker")
    play_out(state, 2)
    assert aq("race", round=2) in AQ.words.outcomes(state, 1)
    assert all(aq("race", round=2) not in AQ.words.outcomes(state, s) for s in (0, 2))


# -- outlooks and reasons ----------------------------------------------------------------------
def view(first: int, reached: list[tuple[Msg, int]], worlds: int = 6) -> Outlook:
    category = msg("aquileia.category.arena")
    return Outlook(worlds, [category], [10.0], 10.0, 0.0, first, [], [0.0] * worlds,
                   [o for o, _ in reached], [n for _, n in reached])


ARENA = aq("arena", round=3)
RACE = aq("race", round=4)
TOKEN = sg("token")


def parts_of(reason: Msg) -> list[Msg]:
    assert reason.id == "core.review.reason.better"
    return list(reason.params["parts"])


def test_compare_names_the_outcomes_that_differ_by_a_third_of_the_worlds():
    better = view(3, [(ARENA, 4), (RACE, 2), (TOKEN, 0)])
    played = view(3, [(ARENA, 1), (RACE, 1), (TOKEN, 3)])
    parts = parts_of(compare_msg(msg("aquileia.category.arena"), better, played))
    # the arena (3 worlds more) and the token (3 fewer); the race differs in one world only
    assert parts == [msg("core.review.outcome_instead", outcome=ARENA, n=6, better=4, played=1),
                     msg("core.review.outcome_instead", outcome=TOKEN, n=6, better=0, played=3)]


def test_compare_names_at_most_two_outcomes_the_largest_differences_first():
    better = view(2, [(ARENA, 2), (RACE, 6)])
    played = view(2, [(ARENA, 0), (TOKEN, 3), (RACE, 1)])
    parts = parts_of(compare_msg(msg("aquileia.category.arena"), better, played))
    assert [p.params["outcome"] for p in parts] == [RACE, TOKEN]


def test_compare_without_outcome_differences_says_what_it_said_before():
    same = view(2, [(ARENA, 3)])
    parts = parts_of(compare_msg(msg("aquileia.category.arena"), same, view(1, [(ARENA, 2)])))
    assert [p.id for p in parts] == ["core.review.first_instead"]
    parts = parts_of(compare_msg(msg("aquileia.category.arena"), view(1, []), view(1, [])))
    assert [p.id for p in parts] == ["core.review.about_same"]


def test_reasons_with_outcomes_read_in_both_languages_and_survive_json():
    label = msg("aquileia.category.arena")
    reason = compare_msg(label, view(3, [(ARENA, 4)]), view(1, [(ARENA, 1)]))
    stored = msg_from_json(msg_json(reason))
    assert stored == reason
    en, ja = Translator("en")(stored), Translator("ja")(stored)
    assert "arena won in round 3 in about 4 of 6 sampled games instead of 1" in en
    assert "ラウンド3の闘技場で勝利：試した6通りの展開のうち約4通り（実際の手では1通り）" in ja
    hinted = expect_msg(view(3, [(RACE, 2), (ARENA, 5), (TOKEN, 5)]))
    assert hinted.id == "core.review.reason.expect_outcome"
    assert hinted.params["outcome"] == ARENA and hinted.params["times"] == 5
    assert "arena won in round 3 in about 5 of them" in Translator("en")(hinted)
    assert "ラウンド3の闘技場で勝利：約5通り" in Translator("ja")(hinted)
    assert expect_msg(view(3, [])).id == "core.review.reason.expect"
    assert expect_msg(view(3, [(ARENA, 0)])).id == "core.review.reason.expect"
    for text in (en, ja, Translator("en")(hinted), Translator("ja")(hinted)):
        assert "{" not in text and "." + "outcome." not in text


def test_an_outlook_counts_each_outcome_once_a_world_and_shows_them_in_json():
    state = position_at("san-gimignano", 2, 2, 40)
    seat = state.to_move
    action = state.legal_actions()[0]
    seen = outlook(state, seat, action, None, seed=3, worlds=3)
    assert seen.outcomes, "a finished game of towers names some outcome"
    assert all(o.id.startswith("san_gimignano.outcome.") for o in seen.outcomes)
    assert all(1 <= n <= seen.worlds for n in seen.reached)
    assert len({json_key(o) for o in seen.outcomes}) == len(seen.outcomes)
    data = seen.to_json()
    assert {"worlds", "total", "margin", "first", "points"} <= set(data)  # nothing removed
    assert data["outcomes"] == [{"outcome": o.to_json(), "worlds": n}
                                for o, n in zip(seen.outcomes, seen.reached, strict=True)]
    assert outlook(state, seat, action, None, seed=3, worlds=1, finish=False).outcomes == []


def json_key(m: Msg) -> str:
    return repr(m.to_json())


@pytest.mark.parametrize("seed", range(3))
def test_tiletum_names_the_buildings_completed_for_each_seat_that_completed_some(seed):
    tiletum = palio.get_game("tiletum")
    state = play_out(tiletum.setup(3, seed), seed)
    for seat in range(3):
        done = {e.public["building"] for e in state.events
                if e.kind == "completed" and e.seat == seat}  # the log, not the state's bits
        named = tiletum.words.outcomes(state, seat)
        assert named == ([msg("tiletum.outcome.completed", n=len(done))] if done else [])
    state.completed[0] = 0b101
    assert tiletum.words.outcomes(state, 0) == [msg("tiletum.outcome.completed", n=2)]


@pytest.mark.parametrize("seed", range(3))
def test_troyes_names_the_event_cards_won_for_each_seat_that_won_some(seed):
    troyes = palio.get_game("troyes")
    state = play_out(troyes.setup(2, seed), seed)
    for seat in range(2):
        # the log's countered events this seat won, Marauding (which stays in play) aside
        won = sum(1 for e in state.events if e.kind == "event_countered"
                  and e.public["winner"] == seat and not e.public["stays"])
        named = troyes.words.outcomes(state, seat)
        assert named == ([msg("troyes.outcome.events_won", n=won)] if won else [])


@pytest.mark.parametrize("seed", range(3))
def test_signorie_names_each_row_of_the_plan_that_scores(seed):
    signorie = palio.get_game("signorie")
    state = play_out(signorie.setup(2, seed), seed)
    rows = ("politician", "cleric", "military", "marriage")
    for seat in range(2):
        scoring = [r for r, vp in enumerate(row_points(state, seat)) if vp]  # the final scoring's rows
        assert signorie.words.outcomes(state, seat) == [
            msg("signorie.outcome.row_scores", row=msg(f"signorie.row.{rows[r]}")) for r in scoring]
    # two tiles score nothing; a third (face down counts) makes the row score
    state.rows_up[4:8] = [[], [0, 1], [], []]
    state.rows_down[4:8] = [[], [], [2], [3, 4, 5]]
    assert signorie.words.outcomes(state, 1) == [
        msg("signorie.outcome.row_scores", row=msg("signorie.row.marriage"))]
    state.rows_down[5] = [2]
    assert signorie.words.outcomes(state, 1) == [
        msg("signorie.outcome.row_scores", row=msg("signorie.row.cleric")),
        msg("signorie.outcome.row_scores", row=msg("signorie.row.marriage"))]
