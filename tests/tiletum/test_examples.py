"""Every worked example of the Tiletum rulebook, reproduced with its numbers."""

from __future__ import annotations

from palio.games.tiletum.components import (
    CHAR_BONUSES,
    CHAR_TILE,
    CONTRACT_TILE,
    CREST,
    GOLD,
    IRON,
    KING,
    STONE,
    WOOL,
)
from palio.games.tiletum.rules.common import building_full
from palio.games.tiletum.rules.round import (
    corruption,
    final_points,
    king_position_vp,
    reset_red,
    score_fair,
)
from palio.games.tiletum.scenario import position, rotation_for, tiles_where
from palio.games.tiletum.state import F_ACT


def step_of(s, vp):
    return s.comp.king_vp.index(vp)


def play(s, *texts):
    for text in texts:
        s.apply(text)


def test_corruption_example_token_2():
    # green one step above -10 stops at -10; orange and blue (stacked) drop to -1 keeping order
    s = position(4)
    green, orange, blue, purple = 0, 1, 2, 3
    s.king_pos = [1, step_of(s, 1), step_of(s, 1), step_of(s, 3)]
    s.king_stamp = [1, 2, 3, 4]  # orange below blue
    corruption(s, 2)
    vp = [s.comp.king_vp[x] for x in s.king_pos]
    assert vp[green] == -10
    assert vp[orange] == vp[blue] == -1
    assert s.king_stamp[orange] < s.king_stamp[blue]  # stack order kept
    assert vp[purple] == 1


def test_corruption_zero_moves_nobody():
    s = position(3)
    before = (s.king_pos[:], s.king_stamp[:])
    corruption(s, 0)
    assert (s.king_pos, s.king_stamp) == before


def test_architect_example_4_ap():
    s = position(2, to_move=0, dice=[(3, "s")], architect={0: "Frankfurt"})
    s.rotation = rotation_for(s, 3, "architect")
    helper = tiles_where(s, lambda t: t[0] == 0)[0]
    s.map_bonus[s.comp.spot_id["Nuernberg"]] = helper
    praha = s.comp.town_cathedral[s.comp.spot_id["Praha"]]
    real = [i for i, t in enumerate(s.comp.cost_tiles) if t is not None][0]
    s.cost[praha] = real
    s.apply("die 3s")
    assert s.stack[-1] == (F_ACT, 0, 4, 0, 1)  # 7 - 3 = 4 AP
    assert s.res[0][STONE] == 1 + 3
    play(s, "move arch Nuernberg", "mapbonus", "move arch Praha", "pillar Praha")
    assert s.stack[-1][2] == 0
    assert s.store[0] == [helper]
    assert s.pillar_owner[praha] == [0]
    assert s.pillars[0] == 1


def test_merchant_example_3_ap_arles_to_genova():
    s = position(2, to_move=1, dice=[(4, "w")], merchant={1: "Arles"})
    s.rotation = rotation_for(s, 4, "merchant")
    s.apply("die 4w")
    assert s.stack[-1][2] == 3
    play(s, "move merch Arles_Genova", "move merch Genova", "house Genova.1")
    assert s.stack[-1][2] == 0
    genova = s.comp.house_id["Genova.1"]
    assert s.house_owner[genova] == 1
    assert s.houses[1] == 1


def test_character_example_5_ap():
    s = position(2, to_move=0, dice=[(2, "f")])
    s.rotation = rotation_for(s, 2, "character")
    notary = {CHAR_BONUSES[t[3]]: i for i, t in enumerate(s.comp.tiles)
              if t[0] == CHAR_TILE and t[1] == 0}
    s.char_disp = [notary["gold_wool"], notary["wool2"], -1, -1, -1]
    s.res[0] = [0, 0, 0, 0, 0]
    s.apply("die 2f")
    assert s.res[0][1] == 2  # two food for a pink 2
    assert s.stack[-1][2] == 5
    play(s, "char take 1", "char take 2")
    assert s.char_disp[0] != -1 and s.char_disp[1] != -1  # refilled at once
    houses = s.houses[0]
    play(s, "room 1 b2 f2", "room 1 b2 f1")
    assert s.stack[-1][2] == 0
    assert s.res[0][GOLD] == 1 and s.res[0][WOOL] == 3
    assert building_full(s, 0, 1)
    assert s.houses[0] == houses + 1  # the roof house joins the supply


def test_contract_example_6_ap():
    s = position(2, to_move=0, dice=[(1, "g")], res={0: "f1"})
    s.rotation = rotation_for(s, 1, "contract")
    s.apply("die 1g")
    assert s.stack[-1][2] == 6
    play(s, "exchange f g", "res i")  # first exchange: one extra resource
    assert s.res[0][GOLD] == 2 and s.res[0][IRON] == 1 and s.res[0][1] == 0
    slot2 = s.comp.contract_slot_ap.index(2) + 1
    slot3 = s.comp.contract_slot_ap.index(3) + 1
    play(s, f"contract take {slot2}", f"contract take {slot3}")
    assert s.stack[-1][2] == 0
    assert len(s.store[0]) == 2
    # the second exchange gives no extra resource (only one per contract action)
    assert s.contract_disp.count(-1) == 2
    s.apply("end")
    assert -1 not in s.contract_disp  # slid right and refilled at the end of the turn


def test_king_action_example_stacks_on_top():
    s = position(4, to_move=2, dice=[(4, "i")])
    s.rotation = rotation_for(s, 4, "king")
    start = s.comp.king_start
    s.king_pos = [start, start + 3, start, start + 3]
    s.king_stamp = [1, 2, 3, 4]
    s.corr = [0, 0, 0]
    s.apply("die 4i")
    assert s.stack[-1][2] == 3
    play(s, "king")  # one decision: the three AP are three steps
    assert s.king_pos[2] == start + 3
    assert s.king_stamp[2] > max(s.king_stamp[1], s.king_stamp[3])  # on top of orange and purple
    assert "king" not in [str(a) for a in s.legal_actions()]


def test_completed_building_example_king_bonus_3_ap():
    s = position(2, to_move=0, dice=[(1, "f")], res={0: "f6"})
    s.rotation = rotation_for(s, 1, "character")
    courtier = [i for i, t in enumerate(s.comp.tiles) if t[0] == CHAR_TILE and t[1] == 8]
    crest = tiles_where(s, lambda t: t[0] == CREST)[0]
    s.rooms[0][0], s.rooms[0][1] = courtier[0], courtier[1]
    s.store[0] = [courtier[2], crest]
    s.char_disp = [-1] * 5
    s.apply("die 1f")
    s.apply("room 1 b1 f3")
    assert s.stack[-1][2] == 6 - 3
    s.res[0][1] = 6
    s.apply("crest 1 1")
    assert s.res[0][1] == 0
    assert s.completed[0] & 1
    assert s.bonus_ap[0][KING] == 3


def test_king_phase_example_vp_and_order():
    s = position(4)
    blue, orange, purple, green = 0, 1, 2, 3
    s.king_pos = [step_of(s, 3), step_of(s, 0), step_of(s, 0), step_of(s, -2)]
    s.vp = [10, 10, 10, 10]
    king_position_vp(s)
    assert (s.vp[blue], s.vp[orange], s.vp[purple], s.vp[green]) == (13, 10, 10, 8)
    assert s.leader() == blue


def test_turn_order_example_bottom_of_stack_first_and_red_reset():
    s = position(3)
    orange, blue, green = 0, 1, 2
    s.king_pos = [step_of(s, 3), step_of(s, 3), step_of(s, -2)]
    s.king_stamp = [5, 6, 1]  # orange below blue
    assert s.king_ranking() == [orange, blue, green]
    s.king_pos = [step_of(s, -1), step_of(s, -2), step_of(s, 0)]
    s.king_stamp = [1, 2, 3]
    reset_red(s)
    assert all(s.comp.king_vp[x] == 0 for x in s.king_pos)
    # the marker that was further left ends on top
    assert s.king_stamp[blue] > s.king_stamp[orange] > s.king_stamp[green]


def test_verona_fair_example_18_vp():
    s = position(2, merchant={0: "Verona"})
    s.round = 3
    s.fair_towns[2] = s.comp.spot_id["Verona"]
    s.fair_tiles[2] = [c for c, _ in s.comp.fair_tiles].index(s.comp.fair_conditions.index("contract"))
    contracts = tiles_where(s, lambda t: t[0] == CONTRACT_TILE)
    s.done[0] = contracts[:3]
    s.done[1] = contracts[3:5]
    s.vp = [0, 0]
    s.merchant[1] = s.comp.spot_id["London"]
    score_fair(s)
    assert s.vp == [18, 0]  # (3 board + 3 tile) x 3 contracts; seat 1 does not qualify


def test_final_scoring_example_37_vp():
    s = position(2)
    s.houses[0] = 1  # roofs of buildings 1 and 3 still hold their houses -> 5 on the map
    s.pillars[0] = 2
    s.done[0] = tiles_where(s, lambda t: t[0] == CONTRACT_TILE)[:5]  # pillars left the spaces
    for b in (1, 3, 4):
        for i in s.comp.room_index[b]:
            s.rooms[0][i] = 0
    s.completed[0] = (1 << 1) | (1 << 3) | (1 << 4) | (1 << 5)
    s.res[0] = [5, 0, 1, 0, 3]
    assert final_points(s, 0) == (25, 10, 2)
    assert sum(final_points(s, 0)) == 37
