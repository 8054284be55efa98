"""Scenario tests named after the rules, including the readings chosen where the text is open
(docs/coverage/signorie.md lists them). Positions are built with ``palio.games.signorie.scenario``.
"""

from __future__ import annotations

import copy
import random
from collections import Counter

import pytest

from palio.core.errors import IllegalAction, NotationError
from palio.core.i18n import Translator
from palio.games.signorie import DATA, GAME, SignorieGame
from palio.games.signorie.components import DEFAULT, Components
from palio.games.signorie.scenario import (
    fill_city,
    parse_pool,
    place_in_order,
    place_man,
    position,
    put_row,
    set_city_tile,
    set_helpers,
)
from palio.games.signorie.state import (
    CAT_HELPERS,
    CAT_REWARDS,
    CAT_SONS,
    F_ADVANCE,
    F_TURN,
    OVER,
    PLAY,
    REWARDS,
)
from tests.signorie.helpers import (
    BLUE,
    FIRENZE,
    MILANO,
    NAPOLI,
    RED,
    ROMA,
    VENEZIA,
    YELLOW,
    B,
    G,
    P,
    R,
    Y,
    assignment_tile,
    bonus_tile,
    deal,
    legal,
    play,
    slot_of,
)

S = DEFAULT.max_city_slots


def all_pass(s, rounds_of_passes: int = 1) -> None:
    """Every seat passes once (Phase 2 ends when all have passed)."""
    while s.phase == PLAY and s.stack and s.stack[-1][0] == F_TURN:
        s.apply("pass")


# -- set-up (初期準備) and Phase 1 ---------------------------------------------------------------
@pytest.mark.parametrize("players, cities, removed, dice", [(2, 3, 2, 2), (3, 4, 1, 3), (4, 5, 0, 4)])
def test_setup_cities_alliance_tiles_and_dice_by_player_count(players, cities, removed, dice):
    used = set()
    for seed in range(30):
        s = GAME.setup(players, seed)
        assert len(s.cities) == cities
        used.add(s.cities)
        assert Counter(DEFAULT.tile_family[t] for t in s.removed) == (
            Counter({f: removed for f in range(6)}) if removed else Counter())
        for col in range(5):
            assert sum(s.pool[col * 6:col * 6 + 6]) == dice
        for city in range(5):
            on = city in s.cities
            assert (s.marriage_tile[city] != -1) == on and (s.mission_tile[city] != -1) == on
        assert sorted(s.assign) == list(range(10))
        assert s.men == [4] * players and s.women == [3] * players
        assert s.stock_m == [8] * players and s.stock_w == [8] * players
        bonus, vp = s.rewards[:5], s.rewards[5:]
        assert len(set(bonus)) == 5 and len(set(vp)) == 2
        assert all(t < len(DEFAULT.bonus_tiles) for t in bonus) and all(t < len(DEFAULT.vp_tiles) for t in vp)
    assert len(used) > 1 or players == 4  # the cities left out are drawn at random


def test_phase1_refills_only_empty_alliance_slots():
    s = position(2, to_move=0, clear=False, pool="")
    city = s.cities[0]
    kept = s.mission_tile[city]
    set_city_tile(s, city, "marriage", None)  # the tile goes back under the stack
    stack = len(s.alliance)
    s.dice = [6, 5, 4, 0, 0] * 2
    s._legal = None
    all_pass(s)
    assert s.round == 2
    assert s.mission_tile[city] == kept and s.marriage_tile[city] != -1
    assert len(s.alliance) == stack - 1


# -- taking a die (ダイスの取得) ------------------------------------------------------------------
def test_one_die_per_colour_and_at_most_four():
    s = position(4, to_move=RED, florins={RED: 20}, pool="y6 y6 r6 p6 g6 b6 b6")
    play(s, "die y6", "florins")
    while s.to_move != RED:
        s.apply("pass")
    assert not any(a.startswith("die y") for a in legal(s))
    s.dice[RED * 5:RED * 5 + 5] = [6, 6, 6, 6, 0]
    s.ndice[RED] = 4
    s._legal = None
    assert legal(s) == ["pass"]
    assert GAME.words.why_illegal(s, GAME.parse_action("die b6")).id == "signorie.why.four_dice"


def test_a_die_below_the_cost_is_paid_for_and_only_if_affordable():
    s = position(4, to_move=RED, florins={RED: 2}, pool="b1 b3 b5", men={RED: "mil 1"})
    options = legal(s)
    assert "die b3" in options and "die b5" in options and "die b1" not in options
    with pytest.raises(IllegalAction):
        s.apply("die b1")
    assert GAME.words.why_illegal(s, GAME.parse_action("die b1")).id == "signorie.why.cannot_pay"
    play(s, "die b3")
    assert s.florins[RED] == 0


def test_a_die_is_offered_only_when_an_action_can_be_carried_out_in_full():
    # red column: no woman to marry, no helper affordable, both assignments unpayable
    s = position(4, to_move=RED, florins={RED: 1}, pool="r2")
    s.women[RED] = 0
    s.men[RED] = 0
    s._legal = None
    assert "die r2" not in legal(s)
    assert GAME.words.why_illegal(s, GAME.parse_action("die r2")).id == "signorie.why.no_action"
    s.women[RED] = 1
    s._legal = None
    assert "die r2" in legal(s)  # marriage in a city's 1 slot for 1 florin
    play(s, "die r2")
    marriages = [a for a in legal(s) if a.startswith("marry")]
    assert marriages and all(a.endswith(" 1") for a in marriages)  # 1 florin: dowry 1 only


def test_florins_after_the_die_decide_which_actions_are_offered():
    s = position(4, to_move=BLUE, florins={BLUE: 4}, pool="r1")
    for city in range(5):
        fill_city(s, city, [2] if city == FIRENZE else [], YELLOW)
    s.women[BLUE] = 1
    set_helpers(s, BLUE, Y, 0b111)  # red hires into yellow: nothing left there
    s._legal = None
    play(s, "die r1")  # pays 1: 3 florins left
    assert [a for a in legal(s) if a.startswith("marry")] == ["marry Firenze 2", "marry Firenze 3"]


# -- hiring a helper (助手の雇用) -------------------------------------------------------------------
@pytest.mark.parametrize("col", range(5))
def test_hire_puts_the_helper_in_the_ring_colour_column(col):
    s = position(4, to_move=YELLOW, florins={YELLOW: 20}, pool="y6 r6 p6 g6 b6")
    play(s, f"die {'yrpgb'[col]}6", "hire 1")
    target = DEFAULT.hire_to[col]
    assert s.helpers[YELLOW * 5 + target] == 1
    assert s.florins[YELLOW] == 20 - DEFAULT.helpers[target][0][0]


def test_a_taken_helper_slot_is_not_offered_and_the_supply_is_limited():
    s = position(4, to_move=YELLOW, florins={YELLOW: 20}, pool="r6")
    set_helpers(s, YELLOW, Y, 0b011)
    s._legal = None
    play(s, "die r6")
    assert [a for a in legal(s) if a.startswith("hire")] == ["hire 3"]
    # 12 slots a board, 48 discs: with the built-in data the supply never runs dry
    assert 4 * sum(len(col) for col in DEFAULT.helpers) == DEFAULT.helper_discs
    # a components file with fewer discs than slots: the common supply limits hiring
    data = copy.deepcopy(DATA)
    data["supply"]["helper_discs"] = 3
    game = SignorieGame(Components(data))
    s = game.setup(4, 1)
    seat = s.order[0]
    s.florins[seat] = 20
    s.pool = parse_pool("r6")
    set_helpers(s, seat, Y, 0b001)
    set_helpers(s, (seat + 1) % 4, G, 0b01)  # 2 of 3 discs hired
    play(s, "die r6")
    assert [a for a in legal(s) if a.startswith("hire")] == ["hire 2", "hire 3"]
    play(s, "hire 2")
    assert s.hired == 3
    while s.to_move != seat:
        s.apply("pass")
    s.pool = parse_pool("y6")
    s._legal = None
    play(s, "die y6")  # yellow hires into light blue: no disc left in the supply
    assert not any(a.startswith("hire") for a in legal(s))


def test_a_helper_hired_into_the_dice_column_does_not_act_at_once():
    """助手の雇用: hiring has no immediate effect (このアクションには即時的な効果はありません).
    A components file may give a column a hire ring of its own colour: the helper just hired
    must not act with the die that hired it, only with later dice of that column."""
    data = copy.deepcopy(DATA)
    data["columns"]["columns"][0]["hire_to"] = "yellow"
    game = SignorieGame(Components(data))
    s = game.setup(2, 1)
    seat = s.order[0]
    s.florins[seat] = 10
    s.pool = parse_pool("y6 y6")
    set_helpers(s, seat, Y, 0b100)  # already there: slot 3, 2 VP
    play(s, "die y6", "hire 1")  # slot 1: 1 florin whenever it acts
    assert s.florins[seat] == 10 - 2  # paid, and the new helper gave nothing yet
    assert s.vp[seat] == 2  # the helper already standing there acted
    assert s.helpers[seat * 5 + Y] == 0b101


def test_helpers_act_after_any_action_of_their_column():
    """Reading of 注 in ダイスの取得: helpers act after any of the three actions."""
    vp_slot = next(i for i, (_c, e, _a) in enumerate(DEFAULT.helpers[R]) if e == 1)  # a VP helper
    gain = DEFAULT.helpers[R][vp_slot][2]
    for choice in ("hire 1", "assign w 1", "marry Roma 1"):
        s = position(4, to_move=BLUE, florins={BLUE: 10}, pool="r6")
        set_helpers(s, BLUE, R, 1 << vp_slot)
        deal(s, R, 1, assignment_tile("florins"))
        s._legal = None
        play(s, "die r6", choice)
        assert s.vp_by[BLUE * 9 + CAT_HELPERS] == gain, choice


def test_helpers_act_after_the_action_and_in_slot_order():
    s = position(4, to_move=YELLOW, florins={YELLOW: 0}, pool="y3")
    set_helpers(s, YELLOW, Y, 0b101)  # slot 1: 1 florin, slot 3: 2 VP
    s._legal = None
    play(s, "die y3", "florins")
    kinds = [e.kind for e in s.events[-3:]]
    assert kinds == ["florins", "helper", "helper"]
    assert s.florins[YELLOW] == 3 + 1 and s.vp[YELLOW] == 2


def test_a_helper_advancement_point_may_be_left_unused():
    s = position(4, to_move=YELLOW, florins={YELLOW: 5}, pool="g6")
    set_helpers(s, YELLOW, G, 0b001)  # grey slot 1: 1 advancement point
    s._legal = None
    play(s, "die g6", "advance", "new pol")
    assert "done" in legal(s)
    play(s, "done")  # the Signoria action's other points
    assert s.stack[-1][0] == F_ADVANCE and "done" in legal(s)  # the helper's point: optional
    play(s, "done")
    assert s.stack[-1][0] == F_TURN and s.to_move != YELLOW


def test_an_alliance_helper_gives_nothing_when_the_stack_is_empty():
    s = position(4, to_move=YELLOW, florins={YELLOW: 5}, pool="y6")
    set_helpers(s, YELLOW, Y, 0b010)  # yellow slot 2: a face-down alliance tile
    s.removed = s.removed + tuple(s.alliance)
    s.alliance = []
    s._legal = None
    play(s, "die y6", "florins")
    assert s.to_move != YELLOW and not any(s.rows_down[YELLOW * 4 + r] for r in range(4))


# -- assignments (業務アクションの実行) -----------------------------------------------------------
def test_assignment_repeat_pays_one_to_three_and_a_fixed_one_pays_its_number():
    s = position(4, to_move=YELLOW, florins={YELLOW: 5}, pool="y6")
    deal(s, Y, 0, assignment_tile("florins"))  # ..3 on the man slot
    deal(s, Y, 1, assignment_tile("advance", 2))  # one meeple on the woman slot
    play(s, "die y6")
    options = legal(s)
    assert {"assign m 1", "assign m 2", "assign m 3", "assign w 1"} <= set(options)
    assert "assign w 2" not in options
    play(s, "assign m 3")
    assert s.florins[YELLOW] == 5 + 6 and s.men[YELLOW] == 1 and s.stock_m[YELLOW] == 11


def test_assignment_needs_enough_meeples_of_its_slot():
    s = position(4, to_move=YELLOW, pool="y6")
    deal(s, Y, 1, assignment_tile("florins"))
    s.women[YELLOW] = 2
    s._legal = None
    play(s, "die y6")
    assert [a for a in legal(s) if a.startswith("assign w")] == ["assign w 1", "assign w 2"]


def test_threshold_assignment_parks_meeples_up_to_22_and_they_return():
    s = position(2, to_move=0, florins={0: 5}, pool="g6 g6")
    deal(s, G, 0, assignment_tile("threshold"))
    play(s, "die g6")
    assert "assign m 3" in legal(s)
    play(s, "assign m 3")
    assert s.threshold[0] == 22 and s.parked_m[0] == 3 and s.men[0] == 1
    stock = s.stock_m[0]
    s.dice[0:5] = [6, 6, 6, 4, 0]  # 22: at the raised threshold
    s._legal = None
    while s.phase == PLAY:
        s.apply("pass")
    assert 0 in s.reward_queue or s.to_move == 0
    while s.phase != PLAY:
        s.apply(s.legal_actions()[-1])
    assert s.threshold[0] == 13 and s.parked_m[0] == 0 and s.stock_m[0] == stock + 3


def test_threshold_cannot_rise_above_22():
    s = position(2, to_move=0, pool="g6")
    deal(s, G, 1, assignment_tile("threshold"))
    s.threshold[0] = 19
    s._legal = None
    play(s, "die g6")
    assert "assign w 1" in legal(s) and "assign w 2" not in legal(s)


def test_several_players_may_use_the_same_assignment_tile():
    s = position(2, to_move=0, florins={0: 9, 1: 9}, pool="y6 y6")
    deal(s, Y, 0, assignment_tile("vp"))
    other = 1 - 0
    play(s, "die y6", "assign m 1")
    assert s.to_move == other
    play(s, "die y6", "assign m 1")
    assert s.vp[0] == 2 and s.vp[other] == 2


def test_initiative_assignment_only_when_every_step_fits():
    s = position(2, to_move=0, pool="p6")
    deal(s, P, 0, assignment_tile("initiative"))
    s.init_pos[0] = DEFAULT.init_top - 3
    s._legal = None
    play(s, "die p6")
    assert "assign m 1" in legal(s) and "assign m 2" not in legal(s)


# -- Signoria actions ------------------------------------------------------------------------
def test_florins_action_takes_three():
    s = position(2, to_move=0, florins={0: 0}, pool="y1")
    play(s, "die y1", "florins")
    assert s.florins[0] == 3


def test_offspring_rolls_one_die_per_married_man_from_the_stock():
    s = position(2, to_move=0, florins={0: 5}, pool="p6", brides=[2, 0])
    men, women = s.men[0], s.women[0]
    play(s, "die p6", "offspring")
    event = next(e for e in reversed(s.events) if e.kind == "offspring")
    rolls = event.public["rolls"]
    assert len(rolls) == 3
    assert s.men[0] - men == sum(1 for r in rolls if r >= 4)
    assert s.women[0] - women == sum(1 for r in rolls if r <= 3)


def test_offspring_takes_what_the_stock_still_holds():
    s = position(2, to_move=0, florins={0: 5}, pool="p6", brides=[4, 0])
    s.men[0] += s.stock_m[0]
    s.stock_m[0] = 0
    s.women[0] += s.stock_w[0] - 1
    s.stock_w[0] = 1
    s._legal = None
    men, women = s.men[0], s.women[0]
    play(s, "die p6", "offspring")
    rolls = s.events[-1].public["rolls"]
    wanted = sum(1 for r in rolls if r <= 3)
    assert len(rolls) == 5 and s.men[0] == men  # no man left in the stock
    assert s.women[0] - women == min(1, wanted) and s.stock_w[0] == 1 - min(1, wanted)


def test_offspring_is_not_offered_with_an_empty_stock():
    s = position(2, to_move=0, florins={0: 5}, pool="p6")
    s.men[0] += s.stock_m[0]
    s.women[0] += s.stock_w[0]
    s.stock_m[0] = s.stock_w[0] = 0
    s._legal = None
    play(s, "die p6")
    assert "offspring" not in legal(s)


def test_offspring_rolls_replay_and_are_unknown_to_a_determinized_world():
    s = position(2, to_move=0, florins={0: 5}, pool="p6", brides=[4, 0])
    a, b = s.copy(), s.copy()
    play(a, "die p6", "offspring")
    play(b, "die p6", "offspring")
    assert a.events[-1].public == b.events[-1].public
    outcomes = set()
    for k in range(12):
        w = s.determinize(0, random.Random(k))
        play(w, "die p6", "offspring")
        outcomes.add(tuple(w.events[-1].public["rolls"]))
    assert len(outcomes) > 1


# -- advancement (トラック) ----------------------------------------------------------------------
def test_advancement_may_stop_after_the_first_point_not_before():
    s = position(2, to_move=0, florins={0: 5}, pool="g6")
    play(s, "die g6", "advance")
    assert "done" not in legal(s)
    play(s, "init")
    assert "done" in legal(s)
    play(s, "done")
    assert s.to_move == 1


def test_fourth_slot_pays_two_florins_and_sixth_moves_initiative():
    s = position(2, to_move=0, florins={0: 5}, pool="g6", men={0: "mil 3 5"})
    play(s, "die g6", "advance", f"up mil {slot_of(3)}")
    assert s.florins[0] == 5 + 2
    play(s, f"up mil {slot_of(5)}")
    assert s.init_pos[0] == 1
    stamp = s.init_stamp[0]
    assert stamp == max(s.init_stamp)  # arriving on a slot, the disc goes on top


def test_a_man_on_the_top_slot_cannot_move_and_initiative_stops_at_the_top():
    s = position(2, to_move=0, florins={0: 5}, pool="g6", men={0: "pol 13"})
    s.men[0] = 0
    s.init_pos[0] = DEFAULT.init_top
    s._legal = None
    play(s, "die g6")  # a helper can still be hired with it
    assert "advance" not in legal(s) and "hire 1" in legal(s)  # no point could be used


def test_initiative_stack_arrival_goes_on_top():
    s = position(2, to_move=0, florins={0: 5}, pool="g6")
    s.init_pos = [0, 1]
    s._legal = None
    play(s, "die g6", "advance", "init", "done")
    assert s.init_pos == [1, 1]
    assert s.initiative_ranking()[0] == 0


def test_forced_points_of_an_assignment_must_all_be_used():
    s = position(2, to_move=0, florins={0: 5}, pool="g6")
    deal(s, G, 0, assignment_tile("advance", 1))
    play(s, "die g6", "assign m 2")
    assert s.stack[-1][:3] == (F_ADVANCE, 0, 2) and "done" not in legal(s)
    play(s, "init", "init")
    assert s.to_move == 1


# -- alliance tiles and plans -------------------------------------------------------------------
def test_face_up_tile_needs_a_free_matching_shield_and_never_moves():
    s = position(4, to_move=YELLOW, florins={YELLOW: 9}, pool="r6 r5")
    set_city_tile(s, ROMA, "marriage", 2, 3)
    play(s, "die r6", "marry Roma 1")
    assert len(s.rows_up[YELLOW * 4 + 3]) == 1
    taken = s.rows_up[YELLOW * 4 + 3]
    set_city_tile(s, NAPOLI, "marriage", 2, 4)  # the same family again
    s.dice[YELLOW * 5 + R] = 0  # as if in a later round
    s.ndice[YELLOW] = 0
    while s.to_move != YELLOW:
        s.apply("pass")
    play(s, "die r5", "marry Napoli 1")
    assert s.rows_up[YELLOW * 4 + 3] == taken and s.marriage_tile[NAPOLI] != -1


def test_face_down_tiles_go_in_any_row_without_limit():
    s = position(4, to_move=YELLOW, pool="g6")
    deal(s, G, 0, assignment_tile("alliance"))
    put_row(s, YELLOW, "mar", [], down=7)
    stack = len(s.alliance)
    play(s, "die g6", "assign m 1")
    assert legal(s) == ["row pol", "row cle", "row mil", "row mar"]
    play(s, "row mar")
    assert len(s.rows_down[YELLOW * 4 + 3]) == 8 and len(s.alliance) == stack - 1


def test_a_row_scores_only_with_three_tiles_or_more():
    from palio.games.signorie.scoring import row_points

    s = position(4, to_move=YELLOW)
    put_row(s, YELLOW, "pol", [(0, 5), (0, 4)])
    assert row_points(s, YELLOW)[0] == 0
    put_row(s, YELLOW, "pol", [], down=1)
    assert row_points(s, YELLOW)[0] == 5 + 4 + 1


# -- diplomatic missions and marriages ---------------------------------------------------------
def test_mission_goes_to_the_lowest_empty_slot_that_the_rank_reaches():
    s = position(4, to_move=RED, florins={RED: 5}, pool="b6", men={RED: "pol 4"})  # rank 2
    fill_city(s, MILANO, [3, 4], YELLOW)
    fill_city(s, VENEZIA, [2, 3], YELLOW)
    for city in (FIRENZE, ROMA, NAPOLI):
        fill_city(s, city, [], YELLOW)
    play(s, "die b6")
    missions = [a for a in legal(s) if a.startswith("mission")]
    assert missions == [f"mission pol {slot_of(4)} Venezia"]


def test_a_full_city_takes_no_one():
    s = position(4, to_move=RED, florins={RED: 5}, pool="r6")
    for city in range(5):
        fill_city(s, city, [], YELLOW)
    play(s, "die r6")
    assert not any(a.startswith("marry") for a in legal(s))


def test_mission_tile_goes_to_the_career_row_of_the_man_or_stays():
    s = position(4, to_move=RED, florins={RED: 5}, pool="b6 b5", men={RED: "cle 4, mil 1"})
    red_cleric = DEFAULT.plan_rows[RED][1]  # 4, 4, 1, 2
    set_city_tile(s, ROMA, "mission", red_cleric[0], 2)
    play(s, "die b6", "mission mil 1 Roma")  # military row has no shield of that family
    assert s.mission_tile[ROMA] != -1 and not s.rows_up[RED * 4 + 2]
    s.dice[RED * 5 + B] = 0
    s.ndice[RED] = 0
    while s.to_move != RED:
        s.apply("pass")
    play(s, "die b5", f"mission cle {slot_of(4)} Roma")  # rank 2 reaches Rome's 2 slot
    assert s.mission_tile[ROMA] == -1 and len(s.rows_up[RED * 4 + 1]) == 1


def test_dowry_from_the_slot_value_up_to_four_for_two_vp_each():
    s = position(4, to_move=RED, florins={RED: 20}, pool="r6")
    for city in range(5):
        fill_city(s, city, [3, 4] if city == VENEZIA else [], YELLOW)
    play(s, "die r6")
    assert [a for a in legal(s) if a.startswith("marry")] == ["marry Venezia 3", "marry Venezia 4"]
    play(s, "marry Venezia 3")
    assert s.vp[RED] == 6 and s.florins[RED] == 17


# -- Phase 3 (報酬) ------------------------------------------------------------------------------
def test_a_player_with_no_dice_is_under_the_threshold():
    s = position(2, to_move=0, pool="")
    s.dice = [0] * 10
    s._legal = None
    all_pass(s)
    assert s.phase == REWARDS and set(s.reward_queue) | {s.to_move} == {0, 1}


def test_son_weddings_fill_the_top_slot_and_pay_two_florins_in_rounds_two_to_five():
    s = position(2, to_move=0, pool="", round=3, brides=[1, 3])
    s.dice = [0] * 10
    florins = s.florins[:]
    s._legal = None
    all_pass(s)
    while s.phase == REWARDS:
        s.apply("reward florins")
    assert s.brides == [2, 4]
    assert s.vp_by[0 * 9 + CAT_SONS] == DEFAULT.son_vp[1]
    assert s.vp_by[1 * 9 + CAT_SONS] == DEFAULT.son_vp[3]
    assert s.florins == [f + 3 + 2 for f in florins]


def test_no_wedding_when_all_four_sons_are_married():
    s = position(2, to_move=0, pool="", round=2, brides=[4, 4])
    s.dice = [0] * 10
    s._legal = None
    all_pass(s)
    while s.phase == REWARDS:
        s.apply("reward florins")
    assert s.brides == [4, 4]


def test_rounds_six_and_seven_give_vp_tile_points_and_offer_five_vp_for_five_florins():
    s = position(2, to_move=0, pool="", round=6, florins={0: 7, 1: 4}, brides=[2, 0])
    sons = next(i for i, (k, _p, _c) in enumerate(DEFAULT.vp_tiles) if k == 0)
    s.rewards = s.rewards[:5] + (sons, s.rewards[6])
    s.dice = [0] * 10
    s._legal = None
    all_pass(s)
    assert s.vp_by[0 * 9 + CAT_REWARDS] == 2 * DEFAULT.vp_tiles[sons][1]
    assert s.to_move == 0 and legal(s) == ["buy", "done"]  # seat 1 has only 4 florins
    play(s, "buy")
    assert s.florins[0] == 2 and s.vp_by[0 * 9 + CAT_REWARDS] == 4 + 5
    assert s.round == 7 and s.phase == PLAY


def test_bonus_tile_needs_to_be_possible_else_only_florins():
    s = position(2, to_move=0, pool="")
    s.rewards = (bonus_tile("mission"),) + s.rewards[1:]
    s.dice = [0] * 10
    s._legal = None
    all_pass(s)
    assert legal(s) == ["reward florins"]  # no man on a career track


def test_bonus_face_down_tile_and_family_bonus():
    s = position(2, to_move=0, pool="")
    s.rewards = (bonus_tile("family"),) + s.rewards[1:]
    s.dice = [0] * 10
    s._legal = None
    all_pass(s)
    first = s.to_move
    men, women = s.men[first], s.women[first]
    play(s, "reward bonus")
    assert s.men[first] == men + 1 and s.women[first] == women + 1


# -- the end (ゲーム終了) ---------------------------------------------------------------------------
def test_tie_broken_by_the_current_turn_order():
    s = position(3, to_move=0, pool="", round=7)
    place_in_order(s, [2, 0, 1])
    s.stack[-1] = (F_TURN, 2)
    s.dice = [6, 6, 6, 0, 0] * 3
    s.vp = [10, 10, 10]
    s.vp_by = [10] + [0] * 8 + [10] + [0] * 8 + [10] + [0] * 8
    s._legal = None
    all_pass(s)
    assert s.phase == OVER and s.scores() == [10.0, 10.0, 10.0]
    assert s.ranking() == s.order and s.ranks() == [2, 3, 1]


def test_men_on_tracks_score_half_rounded_down_per_man():
    s = position(2, to_move=0, pool="", round=7, men={0: "mil 5 5 13"})
    s.dice = [6, 6, 6, 0, 0] * 2
    s._legal = None
    all_pass(s)
    assert s.vp[0] == 2 + 2 + 6


# -- notation and errors ------------------------------------------------------------------------
@pytest.mark.parametrize("text", ["die", "die x3", "die r7", "marry Atlantis 2", "mission zzz 1 Roma",
                                  "row sky", "reward cake", "hire", "assign q 1", "up pol 99", "flrins"])
def test_bad_notation_is_refused_clearly(text):
    with pytest.raises(NotationError):
        GAME.parse_action(text)


def test_every_action_reads_back_and_has_an_index():
    for i, action in enumerate(GAME.all_actions()):
        assert GAME.parse_action(str(action)) == action
        assert GAME.action_index(action) == i
    assert GAME.info.action_space_size == len(GAME.all_actions())


def test_an_illegal_action_changes_nothing():
    s = position(2, to_move=0, pool="y6")
    before = (s.observe(0), s.move_number)
    for text in ("die r6", "marry Roma 2", "pass pass"):
        with pytest.raises(IllegalAction):
            s.apply(text)
    assert (s.observe(0), s.move_number) == before


# -- hidden information ------------------------------------------------------------------------
def test_nothing_hidden_shows_in_any_view_or_log():
    s = GAME.setup(2, 5)
    rng = random.Random(5)
    while not s.is_over:
        s.apply_unchecked(rng.choice(s.legal_actions()))
    hidden = set(s.removed) | {t for row in s.rows_down for t in row}
    view = s.observe(None)
    shown = {c["marriage_tile"] for c in view["cities"]} | {c["mission_tile"] for c in view["cities"]}
    shown |= {t for p in view["players"] for r in p["rows"] for t in r["up"]}
    assert not hidden & shown
    for event in s.events:  # the events that name alliance tiles
        view = event.view(0)
        if event.kind in ("marriage", "mission", "round", "face_down"):
            named = set(view.get("tiles", [])) | {view.get("tile"), view.get("left")}
            assert not named & hidden


def test_determinize_redeals_unseen_tiles_and_keeps_the_view():
    s = position(3, to_move=0)
    put_row(s, 1, "mil", [], down=3)
    rng = random.Random(1)
    changed = 0
    for _ in range(10):
        w = s.determinize(0, rng)
        assert w.observe(0) == s.observe(0) and w.legal_actions() == s.legal_actions()
        assert Counter(DEFAULT.tile_family[t] for t in w.removed) == Counter({f: 1 for f in range(6)})
        changed += w.alliance != s.alliance or w.rows_down != s.rows_down
    assert changed == 10


def test_why_illegal_speaks_in_words():
    s = position(4, to_move=RED, florins={RED: 0}, pool="b1")
    tr = Translator("ja")
    text = tr(GAME.words.why_illegal(s, GAME.parse_action("die b1")))
    assert "フロリン" in text
    s.dice[RED * 5 + B] = 3
    s._legal = None
    assert GAME.words.why_illegal(s, GAME.parse_action("die b1")).id == "signorie.why.colour_held"
    assert GAME.words.why_illegal(s, GAME.parse_action("die y4")).id == "signorie.why.no_such_die"


def test_men_placed_by_the_builder_come_from_the_stock():
    s = position(2, to_move=0)
    place_man(s, 0, "pol", 1)
    assert s.stock_m[0] == 7 and s.men_on_track(0, 0)[0] == 1


def test_only_rewarded_players_score_the_vp_tile_or_may_buy():
    s = position(2, to_move=0, pool="", round=7, florins={0: 9, 1: 9}, brides=[2, 2])
    sons = next(i for i, (k, _p, _c) in enumerate(DEFAULT.vp_tiles) if k == 0)
    s.rewards = s.rewards[:6] + (sons,)
    s.dice = [6, 6, 6, 0, 0] + [1, 1, 0, 0, 0]  # seat 0 over the threshold, seat 1 under
    s._legal = None
    all_pass(s)
    assert s.to_move == 1 and legal(s) == ["buy", "done"]
    play(s, "done")
    assert s.is_over
    assert s.vp_by[0 * 9 + CAT_REWARDS] == 0 and s.vp_by[1 * 9 + CAT_REWARDS] == 4
