"""Scoring: the rulebook's worked example, the tie-break and match play."""

from palio.games.san_gimignano import GAME, match_scores, score_breakdown
from palio.games.san_gimignano import components as C
from tests.san_gimignano.table import table

ADSO, WILLIAM = 0, 1


def rulebook_end_position():
    """The position of the rulebook's scoring example (figure 2), rebuilt from its text."""
    return table(
        towers=(
            (ADSO, (10, 10, 10), True),
            (ADSO, (9, 9, 9), True),
            (ADSO, (8, 8, 8), True),
            (ADSO, (6, 6, 6), False),
            (ADSO, (6, 7, 8, 9, 10), False),  # the five-level multi-number tower, built first
            (WILLIAM, (7, 7, 7), True),
            (WILLIAM, (5, 6, 7, 8, 9), True),
            (WILLIAM, (5, 6, 7), True),
            (WILLIAM, (8, 9, 10), True),
        ),
        token=ADSO,
    )


def test_rulebook_example_adso_63_william_66():
    s = rulebook_end_position()
    adso, william = score_breakdown(s)
    assert adso == {
        "completed": 15, "grace": 0, "same_number": 33, "multi_number": 5, "token": 10,
        "santa_fina": 0, "total": 63,
    }
    assert william == {
        "completed": 20, "grace": 6, "same_number": 7, "multi_number": 33, "token": 0,
        "santa_fina": 0, "total": 66,
    }
    assert s.scores() == [63.0, 66.0]
    assert s.ranking() == [WILLIAM, ADSO]


def test_equal_same_number_towers_both_score_once_each():
    s = table(towers=((0, (9, 9, 9), False), (1, (9, 9, 9), False), (0, (9, 9, 9), False)))
    assert [b["same_number"] for b in score_breakdown(s)] == [9, 9]


def test_shorter_same_number_tower_scores_nothing():
    s = table(towers=((0, (9, 9, 9, 9), False), (1, (9, 9, 9), False)))
    assert [b["same_number"] for b in score_breakdown(s)] == [9, 0]


def test_grace_counts_every_seven_tower_level():
    s = table(towers=((0, (7, 7, 7), False), (0, (7, 7, 7, 7), False), (0, (5, 6, 7), False)))
    assert score_breakdown(s)[0]["grace"] == 2 * 7


def test_a_7_tower_started_in_the_end_phase_earns_no_7_bonus():
    # Reading (docs/rules): the grace bonus is the 7's donation, silent in the end phase
    s = table(hands=([7, 7, 7], []), market=[], deck=[], end_phase=True)
    s.apply("build 7,7,7")
    assert not s.frames and score_breakdown(s)[0]["grace"] == 0


def test_tie_goes_to_the_token_holder():
    # seat 0: completed 9s (5) + tallest 9s (9) + 5s (5) = 19; seat 1: tallest 9s (9) + token (10) = 19
    s = table(
        towers=((0, (9, 9, 9), True), (0, (5, 5, 5), False), (1, (9, 9, 9), False)),
        token=1,
    )
    assert s.scores() == [19.0, 19.0]
    assert s.ranking() == [1, 0] and s.ranks() == [2, 1]


def test_a_tie_without_the_token_is_shared():
    s = table(towers=((0, (9, 9, 9), False), (1, (9, 9, 9), False)))
    assert s.scores() == [9.0, 9.0] and s.ranks() == [1, 1] and s.returns() == [0.5, 0.5]


def test_santa_fina_scores_five_per_tall_tower():
    s = table(
        nobles=True,
        towers=((0, (9, 9, 9, 9, 9), False), (0, (6, 7, 8, 9, 10), True), (0, (8, 8, 8, 8), False)),
        front=([C.SANTA_FINA], []),
    )
    assert score_breakdown(s)[0]["santa_fina"] == 10


def test_match_penalty_for_a_declarer_who_does_not_win():
    first = rulebook_end_position()
    first.declared_by = ADSO  # Adso declared and lost 63-66: 53
    second = rulebook_end_position()
    second.declared_by = WILLIAM  # William declared and won: no penalty
    assert match_scores([first, second]) == [63 - 10 + 63, 66 + 66]


def test_scores_are_within_the_declared_range():
    low, high = GAME.info.score_range
    assert low <= min(rulebook_end_position().scores()) and max(rulebook_end_position().scores()) <= high
