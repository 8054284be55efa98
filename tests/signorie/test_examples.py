"""Every worked example of the rulebook (shared/seeds/signorie.ja.md), through the public API.

Each test names the rulebook section of its example and reproduces its numbers. Values that
come from provisional component data (a track slot's rank, the initiative VP) are the ones the
examples show, so the examples hold with the built-in components.
"""

from __future__ import annotations

import pytest

from palio.games.signorie import GAME
from palio.games.signorie.components import DEFAULT
from palio.games.signorie.scenario import (
    fill_city,
    place_in_order,
    position,
    put_row,
    set_city_tile,
)
from palio.games.signorie.state import (
    CAT_ALLIANCES,
    CAT_CAREERS,
    CAT_MARRIAGE,
    CAT_MISSION,
    REWARDS,
)
from tests.signorie.helpers import (
    BLUE,
    FIRENZE,
    MILANO,
    PURPLE,
    RED,
    YELLOW,
    B,
    P,
    assignment_tile,
    bonus_tile,
    deal,
    legal,
    play,
    slot_of,
)


# -- 初期準備 5: turn order, extra florins, the initiative stack -----------------------------
def test_setup_example_yellow_blue_red_purple():
    """Yellow first, blue second, red third, purple fourth: 6/7/7/8 florins, and purple's
    disc at the bottom of the initiative stack, yellow's on top."""
    order = [YELLOW, BLUE, RED, PURPLE]
    seed = next(seed for seed in range(500) if GAME.setup(4, seed).order == order)
    s = GAME.setup(4, seed)
    assert [s.florins[p] for p in order] == [6, 7, 7, 8]
    assert [s.init_pos[p] for p in order] == [0, 0, 0, 0]
    assert sorted(range(4), key=lambda p: -s.init_stamp[p]) == order  # top of the stack first
    assert s.initiative_ranking() == order
    assert s.to_move == YELLOW


# -- ダイスの取得: red takes a light blue 1 and pays 5 - 1 = 4 ---------------------------------
def test_taking_a_die_example_light_blue_one_costs_four():
    s = position(4, to_move=RED, florins={RED: 9}, pool="b1 b5", men={RED: "mil 13"})
    fill_city(s, MILANO, [3, 4, 4], YELLOW)
    play(s, "die b1")
    assert s.florins[RED] == 5
    assert s.dice[RED * 5 + B] == 1
    options = legal(s)
    assert "mission mil 9 Milano" in options  # the light blue Signoria action is offered
    play(s, "mission mil 9 Milano")
    assert s.vp[RED] == 13


# -- パス: blue passes and is out of the round's Phase 2 -------------------------------------
def test_pass_example_blue_is_out_of_the_round():
    s = position(4, to_move=BLUE, pool="y3 y4 r5 p6 g6 b6")
    place_in_order(s, [BLUE, YELLOW, RED, PURPLE])
    s.stack[-1] = (0, BLUE)
    play(s, "pass")
    assert s.passed[BLUE]
    movers = set()
    while s.phase != REWARDS:
        movers.add(s.to_move)
        s.apply(s.legal_actions()[-1] if s.stack[-1][0] == 0 else s.legal_actions()[0])
    assert BLUE not in movers


# -- 助手の雇用: a red die hires into the yellow ring; the middle slot costs 3 -------------------
def test_hire_example_red_die_middle_yellow_slot_costs_three():
    s = position(4, to_move=RED, florins={RED: 5}, pool="r2")
    play(s, "die r2")
    assert s.florins[RED] == 5  # a 2 on the cost-2 red slot is free
    assert "hire 2" in legal(s)
    play(s, "hire 2")
    assert s.florins[RED] == 2
    assert s.helpers[RED * 5 + 0] == 0b010  # the yellow column's middle slot


# -- 業務アクションの実行: purple die, man slot, 3 men, the bonus 3 times: initiative +6 ----------
def test_assignment_example_three_men_move_initiative_six():
    s = position(4, to_move=RED, pool="p3")
    deal(s, P, 0, assignment_tile("initiative", 2))
    men, stock = s.men[RED], s.stock_m[RED]
    play(s, "die p3")
    assert "assign m 3" in legal(s)
    play(s, "assign m 3")
    assert s.init_pos[RED] == 6
    assert s.men[RED] == men - 3 and s.stock_m[RED] == stock + 3  # paid back to the stock


# -- トラック: 4 points: 1 initiative, 2 politician steps, 1 new military man ----------------
def test_advancement_example_four_points_split_over_tracks():
    s = position(4, to_move=RED, florins={RED: 5}, pool="g4", men={RED: "pol 1"})
    men = s.men[RED]
    play(s, "die g4", "advance", "init", "up pol 1", "up pol 2", "new mil")
    assert s.init_pos[RED] == 1
    assert s.men_on_track(RED, 0)[:3] == [0, 0, 1]  # the politician climbed two slots
    assert s.men_on_track(RED, 2)[0] == 1 and s.men[RED] == men - 1
    assert s.stack[-1][0] == 0 and s.to_move != RED  # four points used: the turn is over


# -- 同盟タイルとプレイヤーの計画: military row with 2 face up and 1 face down --------------------
def test_plan_example_military_row_two_up_one_down():
    s = position(4, to_move=RED)
    doubled, other_a, other_b = 5, 2, 0  # red's military shields: 5, 5, 2, 0
    assert sorted(DEFAULT.plan_rows[RED][2]) == sorted([doubled, doubled, other_a, other_b])
    put_row(s, RED, "mil", [(doubled, 3), (doubled, 4)], down=1)
    from palio.games.signorie.rules.common import fits
    from palio.games.signorie.scenario import take_tile

    same = take_tile(s, doubled, 2)
    assert not fits(s, RED, 2, same)  # both shields of that family are filled
    assert fits(s, RED, 2, take_tile(s, other_a, 2)) and fits(s, RED, 2, take_tile(s, other_b, 2))
    # face-down tiles: any number, any row; the row holds 3 tiles, so it scores at the end
    from palio.games.signorie.scoring import row_points

    assert row_points(s, RED)[2] == 3 + 4 + DEFAULT.face_down_vp


# -- 外交任務, first example: Milan's lowest empty slot is a 3; military 13 scores 13 ------------
def test_mission_example_milan_three_military_thirteen():
    s = position(4, to_move=RED, florins={RED: 5}, pool="b5", men={RED: "mil 13, cle 3"})
    fill_city(s, MILANO, [3, 4, 4], YELLOW)
    set_city_tile(s, MILANO, "mission", 2, 3)  # a family on red's military row
    play(s, "die b5")
    options = legal(s)
    assert "mission mil 9 Milano" in options
    assert "mission cle 3 Milano" not in options  # rank 1 is below the 3 slot
    play(s, "mission mil 9 Milano")
    assert s.vp[RED] == 13 and s.vp_by[RED * 9 + CAT_MISSION] == 13
    S = DEFAULT.max_city_slots
    milan = s.city_slot[MILANO * S:MILANO * S + 6]
    assert milan[2] == RED * 4 + 1 + 2 and milan[4:] == [-1, -1]  # on the empty 3, the 4s stay empty
    assert [DEFAULT.tile_family[t] for t in s.rows_up[RED * 4 + 2]] == [2]
    assert s.mission_tile[MILANO] == -1


# -- 外交任務, second example: Milan's empty 4s, politician slot 9 (rank 4), no tile ----------
def test_mission_example_milan_four_politician_nine_without_tile():
    s = position(4, to_move=BLUE, florins={BLUE: 5}, pool="b5", men={BLUE: "pol 9, mil 7"})
    fill_city(s, MILANO, [4, 4], YELLOW)
    play(s, "die b5")
    options = legal(s)
    assert f"mission pol {slot_of(9)} Milano" in options
    assert f"mission mil {slot_of(7)} Milano" not in options  # rank 3 < 4
    play(s, f"mission pol {slot_of(9)} Milano")
    assert s.vp[BLUE] == 9
    assert all(not s.rows_up[BLUE * 4 + r] for r in range(4))


# -- 結婚: Florence's lowest empty slot is a 1; 4 florins for 8 VP; the tile stays -------------
def test_marriage_example_florence_four_florins_eight_vp():
    s = position(4, to_move=BLUE, florins={BLUE: 6}, pool="r2")
    set_city_tile(s, FIRENZE, "marriage", 3, 4)
    put_row(s, BLUE, "mar", [(3, 2)])  # blue already has that family in the marriage row
    play(s, "die r2")
    options = [a for a in legal(s) if a.startswith("marry Firenze")]
    assert options == ["marry Firenze 1", "marry Firenze 2", "marry Firenze 3", "marry Firenze 4"]
    play(s, "marry Firenze 4")
    assert s.florins[BLUE] == 2 and s.vp[BLUE] == 8 and s.vp_by[BLUE * 9 + CAT_MARRIAGE] == 8
    assert s.marriage_tile[FIRENZE] != -1  # the tile stays in the city
    assert len(s.rows_up[BLUE * 4 + 3]) == 1


# -- フェイズ3 1-2: initiative VP 9, 4, 4, 0 and the new turn order ------------------------------
def test_phase3_example_initiative_vp_and_turn_order():
    s = position(4, to_move=YELLOW, pool="")
    place_in_order(s, [YELLOW, RED, PURPLE, BLUE])
    s.stack[-1] = (0, YELLOW)
    top = DEFAULT.init_top
    four = DEFAULT.init_vp.index(4)
    s.init_pos = [0, top, four, four]
    s.init_stamp[PURPLE], s.init_stamp[BLUE] = 50, 60  # blue's disc lies on purple's
    s.stamp = 60
    # everyone is over the threshold, so Phase 3 ends with steps 1-2 alone
    s.dice = [6, 5, 4, 0, 0] * 4
    s._legal = None
    play(s, "pass", "pass", "pass", "pass")
    assert [s.vp[p] for p in (RED, BLUE, PURPLE, YELLOW)] == [9, 4, 4, 0]
    assert s.order == [RED, BLUE, PURPLE, YELLOW]  # higher first; on a shared slot the top disc
    assert s.init_pos == [0, 0, 0, 0]
    assert s.initiative_ranking() == s.order  # restacked: the first player's disc on top


# -- フェイズ3 3, round 1: blue takes the mission bonus, yellow 3 florins; both wed a son -------
def test_reward_example_round_one_mission_or_florins_and_weddings():
    s = position(4, to_move=YELLOW, pool="", men={BLUE: "mil 3", YELLOW: "cle 1"})
    place_in_order(s, [YELLOW, RED, PURPLE, BLUE])
    s.stack[-1] = (0, YELLOW)
    s.rewards = (bonus_tile("mission"),) + s.rewards[1:]
    s.dice = [3, 2, 0, 0, 0,  # yellow: 5
              6, 6, 2, 0, 0,  # red: 14, over 13
              6, 5, 3, 0, 0,  # purple: 14, over 13
              4, 4, 4, 1, 0]  # blue: 13, at the threshold
    florins = s.florins[:]
    s._legal = None
    play(s, "pass", "pass", "pass", "pass")
    assert s.phase == REWARDS and s.to_move == YELLOW
    assert legal(s) == ["reward bonus", "reward florins"]
    play(s, "reward florins")
    assert s.to_move == BLUE
    play(s, "reward bonus")
    assert legal(s) == [f"mission mil {slot_of(3)} {name}" for name in DEFAULT.city_names]
    play(s, "mission mil 3 Roma")
    assert s.florins[YELLOW] == florins[YELLOW] + 3
    assert s.florins[BLUE] == florins[BLUE]  # round 1: a wedding brings no florins
    assert s.brides[YELLOW] == s.brides[BLUE] == 1 and s.brides[RED] == s.brides[PURPLE] == 0
    assert s.vp[BLUE] == 3 + DEFAULT.son_vp[0]
    assert s.round == 2


# -- ゲーム終了: the yellow player's end scoring ---------------------------------------------------
def test_end_scoring_example_yellow_player():
    s = position(4, to_move=YELLOW, pool="", round=7, men={YELLOW: "pol 9, cle 7 3, mil 13"})
    place_in_order(s, [YELLOW, RED, PURPLE, BLUE])
    s.stack[-1] = (0, YELLOW)
    # yellow's plan: politician 0 0 3 4, cleric 1 1 4 5, military 2 2 5 3
    put_row(s, YELLOW, "pol", [(0, 2), (0, 3), (3, 4)])  # 9 VP
    put_row(s, YELLOW, "cle", [(1, 2), (1, 3), (4, 3)], down=1)  # 9 VP with the face-down tile
    put_row(s, YELLOW, "mil", [(2, 4), (5, 5)])  # 2 tiles: nothing
    put_row(s, YELLOW, "mar", [(0, 4)], down=1)  # 2 tiles: nothing
    s.dice = [6, 5, 4, 0, 0] * 4  # everyone over the threshold: no reward VP in the way
    s._legal = None
    play(s, "pass", "pass", "pass", "pass")
    assert s.is_over
    assert s.vp_by[YELLOW * 9 + CAT_ALLIANCES] == 9 + 9
    assert s.vp_by[YELLOW * 9 + CAT_CAREERS] == 4 + (3 + 1) + 6
    assert s.vp[YELLOW] == 32


@pytest.mark.parametrize("players, florins", [(2, [6, 7]), (3, [6, 7, 7]), (4, [6, 7, 7, 8])])
def test_starting_florins_by_turn_order(players, florins):
    for seed in range(5):
        s = GAME.setup(players, seed)
        assert [s.florins[p] for p in s.order] == florins
