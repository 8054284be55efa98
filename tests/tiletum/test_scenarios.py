"""Scenario tests named after the rules: duties, action areas, limits, King phase, fairs."""

from __future__ import annotations

import pytest

from palio.core.errors import IllegalAction, OptionError
from palio.core.i18n import Translator
from palio.games.tiletum import GAME
from palio.games.tiletum.components import (
    CHAR_BONUSES,
    CHAR_TILE,
    CONTRACT_TILE,
    CREST,
    FOOD,
    GOLD,
    HELPER,
    HELPER_EFFECTS,
    IRON,
    KING,
    STONE,
    WOOL,
)
from palio.games.tiletum.rules.round import king_phase, qualifies, score_fair
from palio.games.tiletum.scenario import position, rotation_for, tiles_where
from palio.games.tiletum.state import F_ACT, F_DIE, F_RES, F_ROOMS, F_STEPS, KINGTILE, OVER, PLAY


def legal(s):
    return [str(a) for a in s.legal_actions()]


def contract_tiles(s, pred=lambda t: True):
    return tiles_where(s, lambda t: t[0] == CONTRACT_TILE and pred(t))


def helper(s, effect, **want):
    for i, t in enumerate(s.comp.tiles):
        if t[0] == HELPER and HELPER_EFFECTS[t[1]] == effect:
            return i
    raise AssertionError(effect)


def character(s, bonus):
    return next(i for i, t in enumerate(s.comp.tiles) if t[0] == CHAR_TILE and CHAR_BONUSES[t[3]] == bonus)


# -- duties -------------------------------------------------------------------------------
def test_duty_two_gold_for_one_resource():
    s = position(2, to_move=0, res={0: "g3"})
    assert "buy w" in legal(s) and "buy g" not in legal(s)
    s.apply("buy w")
    assert s.res[0][GOLD] == 1 and s.res[0][WOOL] == 1
    assert not any(a.startswith("buy") for a in legal(s))


def test_duty_fulfil_contract_pillar_vp_and_king_extra():
    s = position(2, to_move=0, res={0: "i5"})
    tile = contract_tiles(s, lambda t: t[1] == ((IRON, 5),) and t[3] == 1)[0]
    s.store[0] = [tile]
    s.vp[0] = 10
    step = s.king_pos[0]
    s.apply("fulfil 1")
    assert s.res[0][IRON] == 0 and s.done[0] == [tile]
    assert s.pillars[0] == 3  # pillar of the leftmost contract space joins the supply
    assert s.vp[0] == 10 + 7 + s.comp.contract_space_vp[0]
    assert s.king_pos[0] == step + 1


def test_duty_fulfil_any_type_needs_identical_resources():
    s = position(2, to_move=0, res={0: "g2 f2 w3"})
    tile = contract_tiles(s, lambda t: t[1] == ((5, 3),))[0]
    s.store[0] = [tile]
    assert [a for a in legal(s) if a.startswith("fulfil")] == ["fulfil 1 w"]


def test_duty_fulfil_wool_contract_moves_merchant():
    s = position(2, to_move=0, res={0: "w5"})
    s.store[0] = [contract_tiles(s, lambda t: t[1] == ((WOOL, 5),))[0]]
    s.apply("fulfil 1")
    assert "move merch Paris" in legal(s)
    s.apply("move merch Paris")
    assert s.stack == [(F_DIE,)]


def test_duty_crest_costs_food_gives_bonus_once_per_family():
    s = position(2, to_move=0, res={0: "f2"})
    lion = tiles_where(s, lambda t: t[0] == CREST and t[1] == 0)
    s.store[0] = [lion[0]]
    assert legal(s).count("crest 1 6") == 1 and "crest 1 5" not in legal(s)
    s.apply("crest 1 6")
    assert s.vp[0] == 10 + 5 and s.res[0][FOOD] == 0
    # one crest per family: a second Lion cannot be taken
    s.map_bonus[s.comp.tiletum] = lion[1]
    s.stack = [(F_ACT, 0, 3, 0, 1)]
    s._legal = None
    assert "mapbonus" not in legal(s)


def test_crest_bonus_house_anywhere():
    s = position(2, to_move=0, res={0: "f6"})
    s.store[0] = [tiles_where(s, lambda t: t[0] == CREST)[0]]
    s.apply("crest 1 1")
    assert "house London.1" in legal(s)
    s.apply("house London.1")
    assert s.vp[0] == 10 + 3  # printed building bonus of that space (provisional value)


def test_duty_cathedral_once_each_stone_top_tile():
    s = position(2, to_move=0, res={0: "s9"})
    k = s.comp.cathedral_towns.index(s.comp.spot_id["Paris"])
    real = [i for i, t in enumerate(s.comp.cost_tiles) if t == (3, 4)][0]
    s.cost[k] = real
    s.cath_stack[k] = [3, 5, 8]
    assert "cathedral Paris" not in legal(s)  # needs our pillar
    s.pillar_owner[k] = [0]
    s.pillars[0] -= 1
    s._legal = None
    s.apply("cathedral Paris")
    assert s.res[0][STONE] == 6 and s.vp[0] == 10 + 4 + 8 and s.cath_tiles[0] == [8]
    assert "cathedral Paris" not in legal(s)


def test_duty_helper_is_removed_after_use():
    s = position(2, to_move=0)
    s.store[0] = [helper(s, "set")]
    s.apply("helper 1")
    assert s.store[0] == [] and s.res[0][1:] == [2, 2, 2, 2]


def test_helper_add_ap_only_on_die_action():
    s = position(2, to_move=0, dice=[(6, "g")])
    s.rotation = rotation_for(s, 6, "king")
    add = [i for i, t in enumerate(s.comp.tiles) if t[0] == HELPER and HELPER_EFFECTS[t[1]] == "add_ap" and t[3] == 2][0]
    s.store[0] = [add]
    assert "helper 1" not in legal(s)
    s.apply("die 6g")
    s.apply("helper 1")
    assert s.stack[-1][2] == 1 + 2


def test_helper_swap_changes_resource_type():
    s = position(2, to_move=0, dice=[(5, "g")])
    s.store[0] = [helper(s, "swap")]
    s.res[0] = [0] * 5
    s.apply("helper 1")
    s.apply("die 5g")
    s.apply("res s")
    assert s.res[0] == [0, 0, 0, 5, 0]  # five pips of the chosen type


def test_die_shift_costs_two_gold_per_pip_and_wraps():
    s = position(2, to_move=0, dice=[(6, "w")], res={0: "g3"})
    shifts = [a for a in legal(s) if a.startswith("die")]
    assert sorted(shifts) == ["die 6w", "die 6w>1", "die 6w>5"]
    s.apply("die 6w>1")
    assert s.res[0][GOLD] == 1 and s.res[0][WOOL] == 1
    base = s.stack[0]
    assert (base[2] if base[0] == F_ACT else base[1]) == 6  # a 1 gives 6 AP


# -- action areas ---------------------------------------------------------------------------
def test_character_refresh_reshuffles_into_deck():
    s = position(2, to_move=0, stack=[(F_ACT, 2, 2, 0, 1)])
    old = s.char_disp[:]
    size = len(s.char_deck)
    s.apply("char refresh")
    assert set(old).isdisjoint(s.char_disp) and len(s.char_deck) == size
    assert set(old) <= set(s.char_deck)


def test_character_rules_one_illustration_per_building():
    s = position(2, to_move=0, stack=[(F_ACT, 2, 6, 0, 1)])
    a, b = character(s, "wool2"), character(s, "gold2")  # Notary, Banker
    s.rooms[0][0] = a
    s.store[0] = [b]
    s._legal = None
    rooms = [x for x in legal(s) if x.startswith("room")]
    assert not any(x.startswith("room 1 b1") for x in rooms)
    assert "room 1 b2 f2" in rooms


def test_joker_all_ap_on_one_action_with_bonus_ap():
    s = position(2, to_move=0, dice=[(4, "i")])
    s.rotation = rotation_for(s, 4, "joker")
    s.bonus_ap[0][4] = 2
    s.apply("die 4i")
    assert sorted(legal(s)) == sorted(f"joker {k}" for k in ("architect", "merchant", "character", "contract", "king"))
    s.apply("joker king")
    assert s.stack[-1] == (F_ACT, 4, 3 + 2, 0, 1)


def test_area_bonus_optional_and_storehouse_limit():
    s = position(2, to_move=0, dice=[(3, "g")], clear=False)
    area = (3 - 1 + s.rotation) % 6
    s.area_bonus[area] = helper(s, "set")
    s.store[0] = [helper(s, "gain")] * 4
    s.apply("die 3g")
    assert "bonus take" not in legal(s)  # the storehouse is full


def test_contract_limit_is_a_free_contract_space():
    # 空いている契約スペースがない場合...契約タイルを得ることはできません: only the spaces count
    s = position(2, to_move=0, stack=[(F_ACT, 3, 6, 0, 1)], res={0: "w9 i9"})
    ids = contract_tiles(s)
    s.done[0] = ids[:5]
    s.store[0] = [ids[5]]
    s._legal = None
    assert any(x.startswith("contract take") for x in legal(s))  # one space is still free
    s.done[0] = ids[:6]
    s.store[0] = [contract_tiles(s, lambda t: t[1] == ((WOOL, 2),))[-1]]
    s._legal = None
    assert not any(x.startswith("contract take") for x in legal(s))
    assert not any(x.startswith("fulfil") for x in legal(s))  # no space to put it on


def test_king_cannot_pass_the_top_space():
    s = position(2, to_move=0, stack=[(F_ACT, 4, 3, 0, 1)])
    s.king_pos[0] = len(s.comp.king_vp) - 1
    assert legal(s) == ["end"]


def test_house_one_per_town_and_player_count_marks():
    s = position(2, to_move=0, merchant={0: "Paris"}, stack=[(F_ACT, 1, 3, 0, 1)])
    houses = [x for x in legal(s) if x.startswith("house")]
    assert houses == ["house Paris.1"]  # Paris.2 is a 3+ space
    s.apply("house Paris.1")
    assert not any(x.startswith("house") for x in legal(s))


def test_unavailable_cathedral_takes_no_pillars():
    s = position(2, to_move=0, architect={0: "Paris"}, stack=[(F_ACT, 0, 3, 0, 1)])
    k = s.comp.cathedral_towns.index(s.comp.spot_id["Paris"])
    s.cost[k] = s.comp.cost_tiles.index(None)
    s._legal = None
    assert "pillar Paris" not in legal(s)


# -- King phase, fairs, round 4 ---------------------------------------------------------------
def test_king_phase_leader_takes_tile_and_order_changes():
    s = position(3)
    s.king_bonus = helper(s, "set")
    s.king_pos = [5, 8, 8]
    s.king_stamp = [1, 3, 2]  # seat 2 is below seat 1: seat 2 leads
    s.turn, s.pos = 2, 2
    s.stack = [(F_ACT, 4, 0, 0, 1)]
    s._legal = None
    s.apply("end")
    assert s.phase == KINGTILE and s.to_move == 2
    s.apply("kingtile take")
    assert s.store[2] == [helper(s, "set")]
    assert s.order == [2, 1, 0] and s.round == 2 and s.phase == PLAY


def test_round_four_offers_4_vp_for_the_king_tile():
    s = position(2)
    s.round = 4
    s.king_bonus = helper(s, "set")
    s.vp = [10, 10]
    s.king_pos = [6, 5]
    s.turn = 3
    king_phase(s)
    assert s.phase == KINGTILE
    assert "kingtile vp" in legal(s)
    s.apply("kingtile vp")
    assert s.phase == OVER
    assert s.vp[0] >= 10 + 4 + s.comp.king_vp[6]


def test_round_four_holds_the_fourth_fair_before_final_scoring():
    # 見本市はゲーム中に4回開催 (one per round); the game ends after round 4's fair phase;
    # "最終ラウンドではこのフェイズを省略" belongs to the cleanup phase
    s = position(2, merchant={0: "Tiletum", 1: "Tiletum"})
    s.round, s.turn = 4, 3
    house = s.comp.fair_conditions.index("house")
    s.fair_tiles[3] = next(i for i, t in enumerate(s.comp.fair_tiles) if t[0] == house)  # 2 VP/house
    town = s.fair_towns[3]
    s.merchant[0] = town
    s.vp = [10, 10]
    king_phase(s)
    assert s.phase == OVER and s.fairs_done == 4
    fair = next(e for e in s.events if e.kind == "fair")
    assert fair.public["vp"][0] == (s.comp.fair_board_vp[3] + 2) * 1


def test_fair_qualifying_by_house_or_merchant():
    s = position(3)
    town = s.comp.spot_id["Verona"]
    s.merchant = [town, s.comp.tiletum, s.comp.tiletum]
    s.house_owner[s.comp.house_id["Verona.1"]] = 1
    assert [qualifies(s, p, town) for p in range(3)] == [True, True, False]


def test_king_fair_scores_before_the_reset():
    s = position(2)
    s.round = 2
    s.fair_tiles[1] = [c for c, _ in s.comp.fair_tiles].index(s.comp.fair_conditions.index("king"))
    s.merchant = [s.fair_towns[1], s.comp.tiletum]
    s.vp = [20, 20]
    s.king_pos = [3, 3]  # -2 each
    s.king_bonus = -1
    s.turn = 3
    s.corr, s.corr_pool = [0, 0, 0], [0, 0, 0]  # no corruption in the next round
    king_phase(s)
    base = s.comp.fair_board_vp[1] + 3
    assert s.vp == [20 - 2 + base - 2, 18]
    assert s.king_pos == [s.comp.king_start] * 2


def test_score_never_below_zero_and_fair_multiplies():
    s = position(2)
    s.vp = [1, 1]
    s.king_pos = [0, 0]
    from palio.games.tiletum.rules.round import king_position_vp

    king_position_vp(s)
    assert s.vp == [0, 0]
    s.round = 1
    s.fair_tiles[0] = [c for c, _ in s.comp.fair_tiles].index(s.comp.fair_conditions.index("house"))
    score_fair(s)  # both have their starting house in Tiletum
    assert s.vp == [s.comp.fair_board_vp[0] + 2] * 2


def test_setup_numbers_per_player_count():
    for players, dice in ((2, 8), (3, 11), (4, 14)):
        s = GAME.setup(players, 5)
        assert sum(s.wheel) == dice
        assert [r[GOLD] for r in s.res] == [1, 3, 5, 6][:players]
        assert all(r[1:] == [1, 1, 1, 1] for r in s.res)
        assert s.vp == [10] * players
        assert sum(1 for b in s.map_bonus if b != -1) == sum(
            1 for m in s.comp.bonus_space_min if 0 < m <= players)
        assert sum(1 for o in s.house_owner if o != -1) == players
        assert all(s.comp.tile_min[t] <= players for t in s.bonus_deck + s.char_deck + s.contract_deck)
        assert s.fair_towns[0] == s.comp.tiletum
        assert sum(1 for st in s.cath_stack if not st) == 1
        assert s.king_ranking()[-1] == players - 1  # last player on top of the stack


def test_action_tiles_option():
    a = GAME.setup(2, 1, {"action_tiles": True})
    assert sorted(a.area_action) == list(range(6))
    with pytest.raises(OptionError):
        GAME.setup(2, 1, {"nonsense": 1})


def test_rejected_action_leaves_state_unchanged():
    s = position(2, to_move=0)
    before = s.observe(None)
    with pytest.raises(IllegalAction):
        s.apply("king")
    assert s.observe(None) == before


# -- effects, cleanup, fair conditions ---------------------------------------------------------
def test_character_bonus_extra_contract_action_and_resource():
    s = position(2, to_move=0, stack=[(F_ACT, 2, 3, 0, 1)])
    s.store[0] = [character(s, "contract1_res")]
    s.res[0] = [0, 1, 0, 0, 0]
    s._legal = None
    s.apply("room 1 b1 f1")
    assert legal(s) == [f"res {x}" for x in "gfwsi"]
    s.apply("res i")
    assert s.stack[-1] == (F_ACT, 3, 1, 0, 0)  # a contract action with 1 AP
    s.apply("exchange f g")
    s.apply("res w")  # its first exchange still adds a resource
    assert s.stack[-1] == (F_ACT, 2, 2, 0, 1)  # back to the character action
    assert s.res[0] == [1, 0, 1, 0, 1]


def test_character_bonus_merchant_step_and_house():
    s = position(2, to_move=0, merchant={0: "Tiletum"}, stack=[(F_ACT, 2, 3, 0, 1)])
    s.store[0] = [character(s, "merch_house")]
    s._legal = None
    s.apply("room 1 b1 f1")
    assert "move merch Paris" in legal(s) and "done" in legal(s)
    s.apply("move merch Paris")
    s.apply("house Paris.1")
    assert s.house_owner[s.comp.house_id["Paris.1"]] == 0
    assert s.stack[-1][0] == F_ACT


def test_house_space_building_bonus_takes_character_bonuses():
    s = position(2, to_move=0, merchant={0: "Hamburg"}, stack=[(F_ACT, 1, 3, 0, 1)])
    s.rooms[0][0] = character(s, "gold3")
    s.rooms[0][1] = character(s, "vp3")  # any tiles: only their bonuses matter here
    s.res[0] = [0] * 5
    s._legal = None
    s.apply("house Hamburg.1")
    assert legal(s) == ["building 1", "done"]
    s.apply("building 1")
    assert legal(s) == ["floor 1", "floor 2", "done"]
    s.apply("floor 2")
    s.apply("floor 1")
    assert s.res[0][GOLD] == 3 and s.vp[0] == 10 + 3
    assert s.stack[-1][0] == F_ACT


def test_helper_extra_action_has_no_building_bonus():
    s = position(2, to_move=0)
    s.bonus_ap[0][4] = 3
    king2 = [i for i, t in enumerate(s.comp.tiles)
             if t[0] == HELPER and HELPER_EFFECTS[t[1]] == "action" and t[2] == 4 and t[3] == 2][0]
    s.store[0] = [king2]
    s.apply("helper 1")
    assert s.stack[-1] == (F_ACT, 4, 2, 0, 0)
    start = s.king_pos[0]
    s.apply("king")
    assert s.king_pos[0] == start + 2  # two steps, not five: no building bonus
    assert s.stack == [(F_DIE,)]  # finished when its AP are spent


def test_crest_bonus_pillar_anywhere_and_merchant_anywhere():
    s = position(2, to_move=0, res={0: "f11"})
    crests = [tiles_where(s, lambda t, f=f: t[0] == CREST and t[1] == f)[0] for f in (0, 1)]
    s.store[0] = crests
    s.apply("crest 1 2")
    pillars = [a for a in legal(s) if a.startswith("pillar")]
    assert len(pillars) == 8  # every available cathedral
    s.apply(pillars[0])
    s.apply("crest 1 3")
    s.apply("move merch Firenze")
    assert s.comp.spots[s.merchant[0]] == "Firenze"


def test_printed_building_completes_with_crest_only():
    s = position(2, to_move=0, res={0: "f2"})
    s.store[0] = [tiles_where(s, lambda t: t[0] == CREST)[0]]
    s.apply("crest 1 6")
    assert s.completed[0] == 1 << 5
    assert s.bonus_ap[0] == [0] * 6


def test_contract_character_extra_gives_character_action():
    s = position(2, to_move=0, res={0: "w3 i3"})
    s.store[0] = [contract_tiles(s, lambda t: t[3] == 3 and t[2] == 9)[0]]
    s.apply("fulfil 1")
    assert s.stack[-1] == (F_ACT, 2, 1, 0, 0)


def pass_turn(s):
    """Take the first die offered off the King area (a King action must step) and end the
    turn as soon as possible."""
    seat = s.to_move
    dice = [a for a in s.legal_actions() if str(a).startswith("die")]
    s.apply(next(a for a in dice if s.area_action[(a.to - 1 + s.rotation) % 6] != KING))
    while s.to_move == seat and s.stack[-1][0] != F_DIE:
        options = legal(s)
        s.apply("end" if "end" in options else "joker architect" if "joker architect" in options
                else options[0])


def test_corruption_token_revealed_before_each_of_the_three_turns():
    s = position(2)
    start = s.comp.king_start
    s.king_pos = [start + 4, start + 4]
    s.corr, s.corr_shown = [0, 2, 1], 1  # the first token was revealed at set-up
    for shown, pos in ((2, start + 2), (3, start + 1)):
        pass_turn(s)
        pass_turn(s)
        assert s.corr_shown == shown and s.turn == shown - 1
        assert s.king_pos == [pos, pos]


def test_cleanup_refills_rotates_and_redeals_corruption():
    s = position(2, clear=False)
    s.area_bonus[2] = -1
    s.king_bonus = -1
    rot = s.rotation
    s.turn = 3
    king_phase(s)
    assert s.phase == PLAY and s.round == 2 and -1 not in s.area_bonus and s.king_bonus != -1
    assert s.rotation == (rot + 1) % 6
    assert sorted(s.corr + s.corr_pool) == sorted(s.comp.corruption)
    assert s.corr_shown == 1 and sum(s.wheel) == 8


@pytest.mark.parametrize("cond, expect", [
    ("house_pillar", 1), ("contract_cathedral", 1), ("contract", 2), ("contract_crest", 1),
    ("house", 2), ("upper_character", 1), ("crest", 1), ("pillar", 1), ("full_building", 1),
    ("cathedral", 1),
])
def test_fair_condition_counts(cond, expect):
    from palio.games.tiletum.rules.round import condition_count

    s = position(2)
    s.house_owner[s.comp.house_id["Paris.1"]] = 0
    s.houses[0] -= 1
    s.pillar_owner[0] = [0]
    s.pillars[0] -= 1
    s.done[0] = contract_tiles(s)[:2]
    s.pillars[0] += 2
    s.cath_tiles[0] = [4]
    s.crests[0][3] = 2
    s.rooms[0][3], s.rooms[0][4] = character(s, "wool2"), character(s, "gold_wool")
    s.houses[0] += 1  # building 2 is full: its roof house went to the supply
    assert condition_count(s, 0, cond) == expect


def test_tie_goes_to_earlier_turn_order():
    s = position(3)
    s.vp = [30, 40, 40]
    s.order = [2, 0, 1]
    assert s.ranking() == [2, 1, 0]
    assert s.ranks() == [3, 2, 1]


def test_log_and_render_in_words():
    import random

    s = GAME.setup(4, 8)
    rng = random.Random(8)
    while not s.is_over:
        s.apply(rng.choice(s.legal_actions()))
    names = Translator("en", ["Ann", "Ben", "Cid", "Dee"])
    for seat in (None, 0, 3):
        assert all(isinstance(GAME.describe_event(e), str) for e in s.events_for(seat))
        assert "Dee · " in GAME.render(s, seat, names)
    assert any(GAME.describe_event(e).startswith("Final scoring") for e in s.events_for(None))
    assert GAME.provisional_components()


# -- imperative effects: what the rulebook says "do" is not optional ---------------------------
def test_contract_wool_extra_merchant_step_is_mandatory():
    """別表 契約: the 5/7-wool contracts move the merchant one step, as an order."""
    s = position(2, to_move=0, res={0: "w5"})
    s.store[0] = [contract_tiles(s, lambda t: t[1] == ((WOOL, 5),))[0]]
    s.apply("fulfil 1")
    assert "move merch Paris" in legal(s) and "done" not in legal(s)


def test_character_house_here_places_the_house():
    """別表 人物: the house-at-merchant character places the house (an order; the
    step-and-house character is worded as an option)."""
    s = position(2, to_move=0, merchant={0: "Paris"}, stack=[(F_ACT, 2, 3, 0, 1)])
    s.store[0] = [character(s, "house_here")]
    s._legal = None
    s.apply("room 1 b1 f1")
    assert legal(s) == ["house Paris.1"]
    s.apply("house Paris.1")
    assert s.house_owner[s.comp.house_id["Paris.1"]] == 0 and s.stack[-1][0] == F_ACT


def test_character_pillar_here_places_the_pillar():
    """別表 人物: the pillar-at-architect character places the pillar."""
    s = position(2, to_move=0, architect={0: "Paris"}, stack=[(F_ACT, 2, 3, 0, 1)])
    k = s.comp.cathedral_towns.index(s.comp.spot_id["Paris"])
    s.cost[k] = next(i for i, t in enumerate(s.comp.cost_tiles) if t is not None)
    s.store[0] = [character(s, "pillar_here")]
    s._legal = None
    s.apply("room 1 b1 f1")
    assert legal(s) == ["pillar Paris"]
    s.apply("pillar Paris")
    assert s.pillar_owner[k] == [0] and s.stack[-1][0] == F_ACT


def test_crest_bonus_house_and_pillar_anywhere_are_placed_when_possible():
    """紋章配置ボーナス: the house / pillar is placed on the map wherever one can go."""
    s = position(2, to_move=0, res={0: "f12"})
    crests = [tiles_where(s, lambda t, f=f: t[0] == CREST and t[1] == f)[0] for f in (0, 1)]
    s.store[0] = crests
    s.apply("crest 1 1")
    assert "house London.1" in legal(s) and "done" not in legal(s)
    s.apply("house London.1")
    s.pillars[0] = 0  # no pillar left: nothing to place, the bonus is simply lost
    s.apply("crest 1 2")
    assert s.stack == [(F_DIE,)]


def test_crest_bonus_moves_go_anywhere_or_stay():
    """紋章配置ボーナス: the merchant / architect moves to any space of the map; its own space
    is one of them, so the piece may stay (``done``). Reading, docs/coverage/tiletum.md."""
    s = position(2, to_move=0, res={0: "f9"})
    crests = [tiles_where(s, lambda t, f=f: t[0] == CREST and t[1] == f)[0] for f in (0, 1)]
    s.store[0] = crests
    here = s.merchant[0]
    s.apply("crest 1 3")
    assert "done" in legal(s) and "move merch Firenze" in legal(s)
    s.apply("done")
    assert s.merchant[0] == here and s.stack == [(F_DIE,)]
    s.apply("crest 1 4")
    assert "done" in legal(s) and "move arch Venezia" in legal(s)
    s.apply("move arch Venezia")
    assert s.comp.spots[s.architect[0]] == "Venezia"


def test_area_bonus_can_be_taken_after_a_duty_frees_the_storehouse():
    """職務 at any time: a crest paid with the die's own food frees a storehouse space before
    the take/skip choice of the area's bonus tile."""
    s = position(2, to_move=0, dice=[(3, "f")], clear=False)
    area = (3 - 1 + s.rotation) % 6
    s.area_bonus[area] = helper(s, "set")
    crest = tiles_where(s, lambda t: t[0] == CREST)[0]
    s.store[0] = [helper(s, "gain")] * 3 + [crest]
    space = s.comp.crest_bonus.index(5) + 1  # the 5 VP space: no further choice
    assert s.comp.crest_food[space - 1] <= 3
    s.apply("die 3f")
    assert "bonus skip" in legal(s) and "bonus take" not in legal(s)
    assert f"crest 4 {space}" in legal(s)  # paid with the food of the die just taken
    s.apply(f"crest 4 {space}")
    assert "bonus take" in legal(s)
    s.apply("bonus take")
    assert s.store[0][-1] == helper(s, "set") and s.area_bonus[area] == -1


def test_area_bonus_not_offered_when_no_duty_could_make_it_takeable():
    s = position(2, to_move=0, dice=[(3, "g")], clear=False)
    area = (3 - 1 + s.rotation) % 6
    owned = tiles_where(s, lambda t: t[0] == CREST and t[1] == 0)
    s.area_bonus[area] = owned[1]
    s.crests[0][5] = 0  # that crest family is already on the board
    s.apply("die 3g")
    assert not any(a.startswith("bonus") for a in legal(s))


def test_duties_during_a_placement_step_can_supply_the_pillar():
    """職務 at any time: a contract fulfilled during a step-and-pillar bonus gives the pillar
    that the bonus then places."""
    s = position(2, to_move=0, architect={0: "Paris"}, res={0: "i5"},
                 stack=[(F_ACT, 2, 3, 0, 1), (F_STEPS, 0, 1, 1, 0)])
    k = s.comp.cathedral_towns.index(s.comp.spot_id["Paris"])
    s.cost[k] = next(i for i, t in enumerate(s.comp.cost_tiles) if t is not None)
    s.pillars[0] = 0
    s.store[0] = [contract_tiles(s, lambda t: t[1] == ((IRON, 5),))[0]]
    s._legal = None
    assert "pillar Paris" not in legal(s) and "fulfil 1" in legal(s)
    s.apply("fulfil 1")
    assert "pillar Paris" in legal(s)


def test_duties_during_floor_bonuses_but_not_where_order_cannot_matter():
    """Duties are offered in the pending choices where doing one first can change what the
    choice allows (area tile, placement steps, floor bonuses), not in resource picks."""
    s = position(2, to_move=0, res={0: "g2"}, stack=[(F_ACT, 2, 3, 0, 1), (F_ROOMS, 0, 1, 0)])
    assert "buy w" in legal(s)
    s = position(2, to_move=0, res={0: "g2"}, stack=[(F_ACT, 2, 3, 0, 1), (F_RES, 1)])
    assert "buy w" not in legal(s)


def test_king_action_moves_one_step_per_ap():
    """国王アクション: every AP of a King action is one step up the track, all in one decision
    (no choice is left between the steps)."""
    s = position(2, to_move=0, dice=[(4, "i")])
    s.rotation = rotation_for(s, 4, "king")
    start = s.king_pos[0]
    s.apply("die 4i")
    assert "end" not in legal(s)
    s.apply("king")
    assert s.king_pos[0] == start + 3
    assert legal(s)[-1] == "end" and "king" not in legal(s)
    assert s.events[-1].public == {"step": start + 3, "steps": 3}


def test_king_steps_stop_at_the_top_space_and_the_rest_is_lost():
    """国王アクション: the marker never passes the +15 space; AP beyond it are spent for nothing."""
    s = position(2, to_move=0, stack=[(F_DIE,), (F_ACT, 4, 3, 0, 0)])
    top = len(s.comp.king_vp) - 1
    s.king_pos[0] = top - 1
    s._legal = None
    assert "done" not in legal(s)
    s.apply("king")
    assert s.king_pos[0] == top and s.stack == [(F_DIE,)]


def test_king_ap_added_after_the_steps_are_owed_too():
    """A helper adding AP to the die's King action after its steps: the new AP must be stepped."""
    s = position(2, to_move=0, dice=[(6, "i")])
    s.rotation = rotation_for(s, 6, "king")
    s.store[0] = [helper(s, "add_ap")]
    s.apply("die 6i")
    s.apply("king")
    assert "end" in legal(s)
    s.apply("helper 1")
    assert "end" not in legal(s) and "king" in legal(s)


def test_helper_building_takes_every_character_bonus():
    """別表 助手: the building helper pays every character bonus of the building (unlike the
    house-space bonus, which lets the player ignore some)."""
    s = position(2, to_move=0)
    s.rooms[0][0] = character(s, "gold3")
    s.rooms[0][1] = character(s, "vp3")
    s.res[0] = [0] * 5
    s.store[0] = [helper(s, "building")]
    s.apply("helper 1")
    assert legal(s) == ["building 1"]
    s.apply("building 1")
    assert legal(s) == ["floor 1", "floor 2"]
    s.apply("floor 2")
    assert legal(s) == ["floor 1"]
    s.apply("floor 1")
    assert s.res[0][GOLD] == 3 and s.vp[0] == 10 + 3 and s.stack == [(F_DIE,)]


def test_crests_are_found_among_the_contract_tiles_too(tmp_path):
    """タイルの種類 / 別表 紋章: crests come on contract tiles as well as bonus tiles, so a
    corrected components file may put crests in the contract deck; one is taken from the
    contract display for its slot's AP and placed like any crest."""
    import json

    from palio.games.tiletum import DATA, TiletumGame

    deck = list(DATA["contracts"]["tiles"])
    deck[0] = {"kind": "crest", "family": 2, "min": 2}
    path = tmp_path / "contract-crests.json"
    path.write_text(json.dumps({"contracts": {"tiles": deck}}))
    game = TiletumGame.with_components(path)
    s = game.setup(2, 1)
    crest = s.comp.n_bonus  # the first tile of the contract deck
    assert s.comp.tiles[crest] == (CREST, 2)
    s.contract_disp[-1] = crest
    s.stack = [(F_ACT, 3, 2, 0, 1)]
    s.res[0][FOOD] = 2
    s._legal = None
    s.apply(f"contract take {len(s.contract_disp)}")
    assert s.store[0] == [crest]
    s.apply("crest 1 6")
    assert s.crests[0][5] == 2


def test_completed_building_boosts_the_current_action_of_its_kind():
    """プレイヤーボード: a building completed during the die's action of the same kind adds its
    bonus AP to that action at once."""
    s = position(2, to_move=0, dice=[(5, "g")])
    s.rotation = rotation_for(s, 5, "character")
    painter = next(i for i, t in enumerate(s.comp.tiles)
                   if t[0] == CHAR_TILE and t[1] == 2 and CHAR_BONUSES[t[3]] == "vp2")
    s.store[0] = [painter]
    s.crests[0][3] = 0  # the crest of building 4 (one room) is already placed
    s.char_disp = [-1] * 5
    s.apply("die 5g")
    assert s.stack[-1][2] == 2
    s.apply("room 1 b4 f1")
    assert s.completed[0] == 1 << 3 and s.bonus_ap[0][2] == 1
    assert s.stack[-1] == (F_ACT, 2, 2 - 1 + 1, 0, 1)


def test_helper_leaves_the_storehouse_after_its_ability():
    """職務 / 助手: the helper is removed from the game after its ability is resolved, so
    while its extra action runs it still fills its storehouse space."""
    s = position(2, to_move=0)
    char2 = next(i for i, t in enumerate(s.comp.tiles)
                 if t[0] == HELPER and HELPER_EFFECTS[t[1]] == "action" and t[2] == 2 and t[3] == 2)
    waiting = contract_tiles(s)[:2]
    s.store[0] = [char2, *waiting, character(s, "vp2")]  # a full storehouse of 4
    s.apply("helper 1")
    assert s.store[0][0] == char2 and "helper 1" not in legal(s)
    assert not any(a.startswith("char take") for a in legal(s))  # still full
    s.apply("room 4 b4 f1")  # placing a character frees a space
    assert any(a.startswith("char take") for a in legal(s))
    s.apply("char take 1")
    assert char2 not in s.store[0] and len(s.store[0]) == 3 and s.stack == [(F_DIE,)]


def test_instant_helper_leaves_at_once():
    s = position(2, to_move=0)
    s.store[0] = [helper(s, "gain")]
    s.apply("helper 1")
    assert s.store[0] == [] and s.holds == []
