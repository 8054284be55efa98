"""Scenario tests named after the rules, section by section of the rulebook, with the readings
chosen where the text is open (docs/coverage/aquileia.md)."""

from __future__ import annotations

import random

import pytest

from palio.core.errors import IllegalAction, NotationError
from palio.games.aquileia import GAME
from palio.games.aquileia.components import HW, SLAVE, STADIUM, THEATRE
from palio.games.aquileia.scenario import position
from palio.games.aquileia.state import ACTION, CAT_FORUM, CAT_PECUNIA, OVER, PLACEMENT

C = GAME.components
PLOTS = GAME.legend()["plots"]


def legal(s):
    return [str(a) for a in s.legal_actions()]


def keys(s, seat):
    return sorted(C.type_key[C.card_type[c]] for c in s.hand[seat])


def plot_number(**want):
    """The 1-based number of the first plot whose legend entry matches ``want``."""
    return next(p for p, x in enumerate(PLOTS) if all(x[k] == v for k, v in want.items())) + 1


def events(s, kind, start=0):
    return [e for e in s.events_for(None, start) if e["kind"] == kind]


def done_others(seat, players=4):
    """Every seat but ``seat`` already on the tiebreaker track, spaces 1, 2, 3..."""
    others = [p for p in range(players) if p != seat]
    return {p: k + 1 for k, p in enumerate(others)}


# -- ゲームの準備 (set-up) ------------------------------------------------------------------
@pytest.mark.parametrize("players", [3, 4, 5])
def test_setup_coins_decks_display_stadium_card_and_start_player(players):
    s = GAME.setup(players, seed=11)
    for p in range(players):
        assert s.coins_of(p) == [1, 1, 2]
    assert s.bank == [39 - players, 39 - players, 39 - 2 * players]
    assert len(s.deck[SLAVE]) == 22 and len(s.deck[THEATRE]) == 6
    assert len(s.deck[HW]) == 17 - 3 and all(c != -1 for c in s.display)
    assert s.stadium_up != -1 and len(s.deck[STADIUM]) == 11
    assert s.blue_holder == -1 and s.round == 1 and s.phase == PLACEMENT
    assert s.to_move == s.start
    assert {GAME.setup(players, seed).start for seed in range(40)} == set(range(players))


def test_components_match_the_rulebook_counts():
    counts = {k: C.type_count[t] for t, k in enumerate(C.type_key)}
    assert counts["slave_1"] == counts["slave_2"] == 11
    assert (counts["horse_gold_2"], counts["horse_gold_1"], counts["horse_silver_2"],
            counts["horse_silver_1"]) == (2, 3, 2, 3)
    assert (counts["weapon_3"], counts["weapon_2"], counts["weapon_1"]) == (1, 3, 3)
    assert all(counts[f"laurel_{c}"] == 2 for c in ("white", "blue", "yellow", "purple"))
    assert [C.type_vp[C.type_id[f"laurel_vp_{v}"]] for v in (10, 7, 5, 3)] == [10, 7, 5, 3]
    assert len(C.class_cards[THEATRE]) == 6 and C.n_cards == 22 + 17 + 12 + 6
    assert sum(C.supply) == 117 and C.faces.count(0) == C.faces.count(1) == C.faces.count(2) == 2
    assert C.red_dice == 3 and C.blue_dice == 4 and C.henchmen == 5 and C.houses == 9
    assert C.n_fields == 28  # the published count of action spaces


# -- 配置フェイズ (placement) ----------------------------------------------------------------
def test_placement_one_henchman_per_field_and_clockwise_turns():
    s = GAME.setup(4, seed=2)
    first = s.to_move
    s.apply("place dolus")
    assert s.to_move == (first + 1) % 4
    assert "place dolus" not in legal(s)
    with pytest.raises(IllegalAction):
        s.apply("place dolus")
    assert GAME.words.why_illegal(s, GAME.parse_action("place dolus")).id == "aquileia.why.taken"


def test_forum_fields_may_be_taken_in_any_order():
    s = GAME.setup(3, seed=2)
    s.apply("place forum5")
    assert "place forum1" in legal(s) and "place forum4" in legal(s)


def test_stadium_never_both_sides():
    s = GAME.setup(3, seed=1)
    seat = s.to_move
    s.apply("place gold1")
    s.apply("pass")
    s.apply("pass")
    assert s.to_move == seat
    assert "place gold2" in legal(s)
    assert not any(a.startswith("place silver") for a in legal(s))
    assert GAME.words.why_illegal(s, GAME.parse_action("place silver1")).id == "aquileia.why.other_side"


def test_one_port_field_with_its_coin_and_the_thief_beside_it():
    s = GAME.setup(3, seed=1)
    seat = s.to_move
    s.apply("place portus_silver")
    assert s.coins_of(seat) == [1, 0, 2] and s.port_coin == [0, 1, 0]
    s.apply("pass")
    s.apply("pass")
    assert not any(a.startswith("place portus") for a in legal(s))
    assert "place latro" in legal(s)  # the thief and a port field may be one player's


def test_a_port_field_needs_a_coin_of_its_metal():
    s = position(4, coins={0: "g0 s1 b2"}, tiebreaker={1: 1, 2: 2, 3: 3}, to_move=0)
    s.passed &= ~1  # seat 0 may still place henchmen
    s._legal = None
    assert "place portus_gold" not in legal(s) and "place portus_silver" in legal(s)


def test_tiebreaker_takes_the_leftmost_free_space_once():
    s = GAME.setup(3, seed=5)
    a = s.to_move
    s.apply("tiebreaker")
    b = s.to_move
    s.apply("tiebreaker")
    assert s.tb[a] == 0 and s.tb[b] == 1
    s.apply("place dolus")
    assert s.to_move == a and "tiebreaker" not in legal(s)  # placed once; henchmen go on


def test_placement_continues_after_the_tiebreaker_until_every_piece_is_placed():
    """The rulebook: placement goes on until all pieces (5 henchmen and 1 tiebreaker) are
    placed; placing the tiebreaker takes that turn, and the start player who put it down first
    still places all five henchmen on their later turns."""
    s = GAME.setup(3, seed=5)
    first = s.to_move
    s.apply("tiebreaker")
    assert s.tb[first] == 0
    turns = []
    while s.phase == PLACEMENT and s.round == 1:
        turns.append(s.to_move)
        s.apply(next((a for a in legal(s) if a.startswith("place")), legal(s)[0]))
    assert s.henchmen[first] == 0  # all five placed after the tiebreaker
    assert turns.count(first) == 5
    # one piece per turn: the tiebreaker was that turn's placement, the next one is seat 2's
    assert turns[0] != first


def test_option_tiebreaker_ends_ones_henchmen_for_the_round():
    """With the option ``tiebreaker_ends`` (the publisher's English reading) the start player
    cannot take space 1 of the track first and still place all five henchmen."""
    s = GAME.setup(3, seed=5, options={"tiebreaker_ends": True})
    first = s.to_move
    s.apply("tiebreaker")
    while s.phase == PLACEMENT and s.round == 1:
        assert s.to_move != first, "a seat placed a henchman after its tiebreaker"
        s.apply(next((a for a in legal(s) if a.startswith("place")), legal(s)[0]))
    assert s.henchmen[first] == 5  # all five stayed at home this round


def test_the_option_is_named_and_the_default_is_the_rulebook():
    specs = {spec.name: spec for spec in GAME.info.options}
    assert specs["tiebreaker_ends"].default is False
    s = GAME.setup(3, seed=5)
    assert s.options == {"tiebreaker_ends": False}


def test_the_tiebreaker_choice_says_whether_henchmen_still_come():
    from palio.core.i18n import Translator

    tr = Translator("en")
    for options, words in (({}, "still come on later turns"),
                           ({"tiebreaker_ends": True}, "no henchman after it")):
        s = GAME.setup(3, seed=5, options=options)
        tb = next(a for a in s.legal_actions() if str(a) == "tiebreaker")
        assert words in tr(GAME.words.action(s, tb).explain)


def test_pass_ends_the_henchmen_but_the_tiebreaker_is_still_placed():
    s = GAME.setup(3, seed=5)
    a = s.to_move
    s.apply("pass")
    s.apply("tiebreaker")
    s.apply("tiebreaker")
    assert s.to_move == a and legal(s) == ["tiebreaker"]  # the only move left
    s.apply("tiebreaker")
    placed = [e for e in s.events if e.kind == "tiebreaker"]
    assert placed[2].seat == a and placed[2].public["space"] == 3


def test_placement_ends_when_every_piece_is_down_or_passed():
    s = GAME.setup(3, seed=8)
    rng = random.Random(1)
    while s.phase == PLACEMENT and s.round == 1:
        s.apply(rng.choice([a for a in legal(s) if a != "pass"] or legal(s)))
    assert all(t != -1 for t in s.tb)
    assert s.phase == ACTION or s.round == 2


def test_all_five_henchmen_then_only_the_tiebreaker():
    s = position(3, tiebreaker={1: 1, 2: 2}, to_move=0)
    s.passed &= ~1  # seat 0 may still place henchmen
    s._legal = None
    for name in ("dolus", "pecunia", "arena1", "forum1", "latro"):
        s.apply(f"place {name}")
    assert legal(s) == ["tiebreaker"]


def test_an_arma_field_without_a_card_is_not_offered():
    s = position(3, tiebreaker={1: 1, 2: 2}, to_move=0)
    s.deck[HW].append(s.display[1])
    s.display[1] = -1
    s.passed &= ~1  # seat 0 may still place henchmen
    s._legal = None
    assert "place arma2" not in legal(s) and "place arma1" in legal(s)


# -- I Mercatus ------------------------------------------------------------------------------
def test_dolus_takes_a_coin_of_each_metal_rolled():
    s = position(3, fields={"dolus": 0}, coins={0: "b0"}, tiebreaker={1: 1, 2: 2}, to_move=0, dice="gb")
    s.apply("tiebreaker")
    assert s.coins_of(0) == [1, 0, 1]


def test_the_bank_pays_only_what_it_has():
    s = position(3, fields={"dolus": 0}, coins={0: "b0", 1: "g32", 2: "g6"}, tiebreaker={1: 1, 2: 2},
                 to_move=0, dice="gg")
    assert s.bank[0] == 1
    s.apply("tiebreaker")
    assert s.coins_of(0)[0] == 1 and s.bank[0] == 0


def test_pecunia_one_exchange_scores_four_vp():
    s = position(3, fields={"pecunia": 0}, coins={0: "g1 s0 b0"}, tiebreaker={1: 1, 2: 2}, to_move=0)
    s.apply("tiebreaker")
    # with one gold: gold for 2 silver, or gold for a silver and 2 bronze
    assert legal(s) == ["exchange 1", "exchange 5", "skip"]
    s.apply("exchange 5")
    assert s.coins_of(0) == [0, 1, 2] and s.vp[0] == 4 and s.vp_cat[CAT_PECUNIA] == 4


def test_pecunia_skipped_scores_nothing_and_no_exchange_means_no_decision():
    s = position(3, fields={"pecunia": 0}, coins={0: "g1"}, tiebreaker={1: 1, 2: 2}, to_move=0)
    s.apply("tiebreaker")
    s.apply("skip")
    assert s.vp[0] == 0 and s.coins_of(0) == [1, 0, 0]
    s = position(3, fields={"pecunia": 0}, coins={0: "b1"}, tiebreaker={1: 1, 2: 2}, to_move=0)
    s.apply("tiebreaker")
    assert s.phase == PLACEMENT and s.round == 2 and events(s, "idle")


def test_equi_et_arma_buys_the_card_for_one_bronze_and_refills_the_slot():
    s = position(3, fields={"arma2": 1}, coins={1: "b2"}, tiebreaker={0: 1, 2: 2}, to_move=1,
                 display=["weapon_1", "horse_gold_2", "weapon_3"])
    s.apply("tiebreaker")
    assert s.to_move == 1 and legal(s) == ["buy", "skip"]
    bought = s.display[1]
    s.apply("buy")
    assert keys(s, 1) == ["horse_gold_2"] and s.coins_of(1)[2] == 1
    assert s.display[1] not in (-1, bought) and s.hand[1] == [bought]
    assert "horse_gold_2" in s.observe(0)["players"][1]["cards"]  # bought in the open


def test_the_leftmost_card_also_brings_the_decks_top_card_unseen():
    s = position(3, fields={"arma1": 1}, coins={1: "b1"}, tiebreaker={0: 1, 2: 2}, to_move=1,
                 display=["weapon_1", "horse_gold_2", "weapon_3"])
    start = len(s.log)
    s.apply("tiebreaker")
    s.apply("buy")
    assert len(s.hand[1]) == 2
    other = s.observe(0)["players"][1]
    assert other["cards"] == ["weapon_1"] and other["hidden"]["hw"] == 1
    buy = [e for e in s.events_for(0, start) if e["kind"] == "buy"][0]
    assert buy["bonus"] and "bonus_card" not in buy
    mine = [e for e in s.events_for(1, start) if e["kind"] == "buy"][0]
    assert mine["bonus_card"] in keys(s, 1)


def test_equi_et_arma_without_a_bronze_does_nothing():
    s = position(3, fields={"arma3": 1}, coins={1: "g2 s2"}, tiebreaker={0: 1, 2: 2}, to_move=1)
    s.apply("tiebreaker")
    assert s.hand[1] == [] and events(s, "idle")[0]["field"] == "arma3"


@pytest.mark.parametrize(("field", "coins", "offered"), [
    ("servi1", "b3", ["slaves 1", "skip"]),
    ("servi2", "s1", ["slaves 1", "skip"]),
    ("servi2", "s5", ["slaves 1", "slaves 2", "skip"]),
    ("servi3", "g2", ["slaves 1", "slaves 2", "skip"]),
    ("servi3", "g5", ["slaves 1", "slaves 2", "slaves 3", "skip"]),
])
def test_servi_prices_per_row(field, coins, offered):
    s = position(3, fields={field: 0}, coins={0: coins}, tiebreaker={1: 1, 2: 2}, to_move=0)
    s.apply("tiebreaker")
    assert legal(s) == offered
    before = s.coins_of(0)
    n = int(offered[-2].split()[1])
    s.apply(offered[-2])
    assert len(s.hand[0]) == n and sum(before) - sum(s.coins_of(0)) == n
    assert s.observe(1)["players"][0]["hidden"]["slave"] == n  # drawn face down


def test_potentia_blue_dice_in_the_arena_chosen_then_rolled_together_rest_in_the_race():
    s = position(3, fields={"potentia": 0, "arena1": 0, "gold1": 0, "arena2": 1},
                 coins={0: "b0", 1: "b0"}, tiebreaker={1: 1, 2: 2}, to_move=0,
                 dice="ggg ggg" + "b" + "ggs" + "gsb")
    s.apply("tiebreaker")
    assert s.blue_holder == 0 and s.to_move == 0
    assert legal(s) == ["roll 1", "roll 2", "roll 3", "roll 4", "done"]
    s.apply("roll 1")  # bronze: +1; the choice is made once, before the roll
    assert s.strength[0] == 2 and s.blue_left == 3
    s.apply("prize vp")
    # the race: gold side, strength 1 + 2 gold faces; the three blue dice left roll by
    # themselves (one gold face), and the lone racer chooses a laurel card
    assert s.contest == 2 and s.blue_left == 0 and s.strength[0] == 1 + 2 + 1
    assert s.to_move == 0 and legal(s) == ["laurel open", "laurel hidden"]


# -- II Arena --------------------------------------------------------------------------------
def test_arena_strength_adds_every_field_of_the_player_and_only_bronze_faces():
    s = position(3, fields={"arena1": 0, "arena3": 0, "arena2": 1}, tiebreaker={1: 1, 2: 2},
                 to_move=0, dice="bgs ggs")
    s.apply("tiebreaker")
    assert s.strength[0] == 1 + 2 + 1 and s.strength[1] == 1


def test_arena_prizes_three_two_one_bronze_and_the_slave_choice():
    s = position(5, fields={"arena1": 0, "arena2": 1, "arena3": 2},
                 coins={p: "b0" for p in range(5)}, tiebreaker={1: 1, 2: 2, 3: 3, 4: 4}, to_move=0,
                 dice="ggg bgg bbg")
    s.apply("tiebreaker")
    assert [s.strength[p] for p in range(3)] == [1, 2, 4]
    assert [s.coins_of(p)[2] for p in range(3)] == [1, 2, 3]
    assert s.to_move == 2
    s.apply("prize slave")
    assert len(s.hand[2]) == 1 and s.vp[1] == 4 and s.vp[2] == 0  # second: twice their strength


def test_arena_cards_are_played_one_at_a_time_and_discarded_in_the_open():
    s = position(3, fields={"arena1": 0, "arena2": 1}, hands={0: "weapon_1 slave_2 horse_gold_1"},
                 tiebreaker={1: 1, 2: 2}, to_move=0, dice="ggg ggg")
    s.apply("tiebreaker")
    assert sorted(legal(s)) == ["done", "play slave_2", "play weapon_1"]  # no horse in the arena
    s.apply("play slave_2")
    assert s.strength[0] == 3 and s.observe(1)["discards"]["slave"] == ["slave_2"]
    s.apply("done")
    assert keys(s, 0) == ["horse_gold_1", "weapon_1"]


def test_arena_alone_the_winner_still_chooses_and_nobody_gets_the_other():
    s = position(3, fields={"arena3": 2}, tiebreaker={0: 1, 1: 2}, to_move=2, dice="bbb")
    s.apply("tiebreaker")
    assert s.to_move == 2 and sorted(legal(s)) == ["prize slave", "prize vp"]
    s.apply("prize vp")
    assert s.vp[2] == 10 and all(len(h) == 0 for h in s.hand)


def test_the_blue_dice_stay_out_of_an_arena_their_holder_is_not_in():
    s = position(3, fields={"potentia": 1, "arena1": 0}, tiebreaker={1: 1, 2: 2}, to_move=0, dice="ggg")
    s.apply("tiebreaker")
    assert s.to_move == 0 and sorted(legal(s)) == ["prize slave", "prize vp"] and s.blue_left == 4
    s.apply("prize vp")
    assert s.round == 2 and s.blue_holder == -1 and s.blue_left == 0  # back to Potentia


# -- III Stadium -----------------------------------------------------------------------------
def test_race_counts_only_the_faces_and_horses_of_the_side():
    s = position(3, fields={"gold1": 0, "silver2": 1}, hands={0: "horse_gold_2 horse_silver_2"},
                 coins={0: "b0", 1: "b0"}, tiebreaker={1: 1, 2: 2}, to_move=0, dice="gsb ssg")
    s.apply("tiebreaker")
    assert s.strength[0] == 1 + 1 and s.strength[1] == 2 + 2
    assert sorted(legal(s)) == ["done", "play horse_gold_2"]
    s.apply("play horse_gold_2")
    assert legal(s) == ["done"]  # the silver horse is no use on the gold side
    s.apply("done")
    assert s.to_move == 1  # second place chooses nothing: the winner does
    assert s.coins_of(1) == [0, 3, 0] and s.coins_of(0) == [2, 0, 0]


def test_race_winner_alone_keeps_one_card_and_the_other_is_discarded():
    s = position(3, fields={"silver1": 0}, tiebreaker={1: 1, 2: 2}, to_move=0, dice="sss",
                 stadium="laurel_white", stadium_top="laurel_vp_10")
    s.apply("tiebreaker")
    assert s.observe(0)["peek"] == "laurel_vp_10"
    s.apply("laurel open")
    assert keys(s, 0) == ["laurel_white"]
    assert "laurel_vp_10" in s.observe(1)["discards"]["stadium"]


def test_a_round_without_a_race_discards_two_stadium_cards_and_turns_up_one():
    s = position(3, tiebreaker={1: 1, 2: 2}, to_move=0)
    up = C.type_key[C.card_type[s.stadium_up]]
    deck = len(s.deck[STADIUM])
    theatre = len(s.deck[THEATRE])
    s.apply("tiebreaker")
    assert s.round == 2 and len(s.deck[STADIUM]) == deck - 2 and s.stadium_up != -1
    assert up in s.observe(None)["discards"]["stadium"]
    assert len(s.deck[THEATRE]) == theatre - 1  # nobody in the theatre: its card goes too


# -- IV Theatrum -----------------------------------------------------------------------------
def test_nobody_opens_the_placer_takes_the_card_free():
    s = position(3, fields={"theatrum": 1}, tiebreaker={0: 1, 2: 2}, to_move=1, theatre_top="theatre_white_blue")
    s.apply("tiebreaker")
    for _ in range(3):
        s.apply("pass")
    assert keys(s, 1) == ["theatre_white_blue"] and s.coins_of(1) == [1, 1, 2]


def test_the_placer_may_leave_the_opening_to_the_next_player():
    s = position(3, fields={"theatrum": 1}, tiebreaker={0: 1, 2: 2}, to_move=1)
    s.apply("tiebreaker")
    assert s.to_move == 1
    s.apply("pass")
    assert s.to_move == 2 and s.auc_high == -1
    s.apply("bid g")
    assert s.to_move == 0  # the placer passed: out for good
    s.apply("pass")
    assert s.coins_of(2) == [0, 1, 2] and s.coins_of(1) == [2, 1, 2]  # the gold goes to the placer


def test_the_placer_who_wins_pays_the_bank():
    s = position(3, fields={"theatrum": 0}, tiebreaker={1: 1, 2: 2}, to_move=0)
    bank = s.bank[:]
    s.apply("tiebreaker")
    s.apply("bid b")
    s.apply("pass")
    s.apply("pass")
    assert s.coins_of(0) == [1, 1, 1] and s.bank[2] == bank[2] + 1


def test_a_player_without_coins_cannot_open_and_is_passed_over():
    s = position(3, fields={"theatrum": 0}, coins={0: "b0"}, tiebreaker={1: 1, 2: 2}, to_move=0)
    s.apply("tiebreaker")
    assert s.to_move == 1 and events(s, "auction_pass")[0]["forced"]


def test_raising_must_match_the_bid_metal_for_metal():
    s = position(3, fields={"theatrum": 0}, coins={0: "g1", 1: "s5 b5", 2: "g2"},
                 tiebreaker={1: 1, 2: 2}, to_move=0)
    s.apply("tiebreaker")
    s.apply("bid g")
    assert s.to_move == 2  # seat 1 holds no gold: it cannot match and is out
    assert legal(s) == ["bid g", "pass"]
    with pytest.raises(IllegalAction):
        s.apply("bid s")
    assert GAME.words.why_illegal(s, GAME.parse_action("bid s")).id == "aquileia.why.bid"


# -- V Forum ---------------------------------------------------------------------------------
def test_forum_fields_resolve_one_to_five_and_score_on_two_and_five():
    white6 = plot_number(colour="white", vp=6)
    blue6 = plot_number(colour="blue", vp=6)
    s = position(3, fields={"forum5": 0, "forum1": 1}, coins={0: "s2 b1", 1: "s1 b2"},
                 hands={0: "slave_1", 1: "slave_1"}, tiebreaker={1: 1, 2: 2}, to_move=0)
    s.apply("tiebreaker")
    assert s.to_move == 1  # field 1 first
    s.apply(f"build {white6}")
    assert s.vp[1] == 0
    assert s.to_move == 0
    s.apply(f"build {blue6}")
    assert s.vp[0] == 6 and s.vp_cat[CAT_FORUM] == 6


def test_forum_coins_exactly_no_other_metal():
    purple6 = plot_number(colour="purple", vp=6)  # 3 bronze and 2 slaves
    s = position(3, fields={"forum1": 0}, coins={0: "g3 s3 b2"}, hands={0: "slave_2"},
                 tiebreaker={1: 1, 2: 2}, to_move=0)
    s.apply("tiebreaker")
    assert f"build {purple6}" not in legal(s) and f"build {purple6} 1" not in legal(s)


def test_forum_field_three_builds_two():
    white6 = plot_number(colour="white", vp=6)
    blue6 = plot_number(colour="blue", vp=6)
    s = position(3, fields={"forum3": 0}, coins={0: "s3 b3"}, hands={0: "slave_1 slave_1"},
                 tiebreaker={1: 1, 2: 2}, to_move=0)
    s.apply("tiebreaker")
    s.apply(f"build {white6}")
    assert s.to_move == 0 and f"build {blue6}" in legal(s)
    s.apply(f"build {blue6}")
    assert s.houses[0] == 7 and s.vp[0] == 0


def test_slave_payments_offer_only_combinations_without_a_spare_card():
    from palio.games.aquileia.rules.forum import payments
    assert payments(3, ones=3, twos=2) == [0, 1]  # 1+1+1, 1+2: exact, so never 2+2
    assert payments(3, ones=0, twos=2) == [2]  # no exact payment: 2+2, one slave over
    assert payments(1, ones=0, twos=1) == [1]
    assert payments(4, ones=0, twos=2) == [2]
    assert payments(4, ones=4, twos=0) == [0]
    assert payments(2, ones=1, twos=0) == []
    assert payments(0, ones=2, twos=2) == [0]


def test_forum_slaves_overpaid_only_when_the_exact_number_cannot_be_made():
    """フォーラム: 奴隷の数がちょうどでない場合は、余分に支払う. A player who can pay the
    slaves exactly pays them exactly; Kiko overpays in the rulebook's example only because he
    holds nothing but 2-slave cards."""
    white10 = plot_number(colour="white", vp=10)  # 1 bronze, 2 silver, 1 gold and 3 slaves
    s = position(3, fields={"forum1": 0}, coins={0: "g1 s2 b1"},
                 hands={0: "slave_1 slave_2 slave_2"}, tiebreaker={1: 1, 2: 2}, to_move=0)
    s.apply("tiebreaker")
    assert f"build {white10} 1" in legal(s)  # 1 + 2 slaves: exact
    assert f"build {white10} 2" not in legal(s)  # 2 + 2 would overpay when exact is possible
    s = position(3, fields={"forum1": 0}, coins={0: "g1 s2 b1"}, hands={0: "slave_2 slave_2"},
                 tiebreaker={1: 1, 2: 2}, to_move=0)
    s.apply("tiebreaker")
    assert f"build {white10} 2" in legal(s)


def test_no_house_no_building_and_a_plot_is_built_once():
    white6 = plot_number(colour="white", vp=6)
    s = position(3, fields={"forum1": 0}, coins={0: "s3 b3"}, hands={0: "slave_1"},
                 plots={white6: 1}, tiebreaker={1: 1, 2: 2}, to_move=0)
    s.apply("tiebreaker")
    assert f"build {white6}" not in legal(s)
    s = position(3, fields={"forum1": 0}, coins={0: "s3 b3"}, hands={0: "slave_1"},
                 tiebreaker={1: 1, 2: 2}, to_move=0)
    s.houses[0] = 0
    s.apply("tiebreaker")
    assert events(s, "idle") and s.plot_owner[white6 - 1] == -1


# -- VI Portus -------------------------------------------------------------------------------
def test_the_thief_takes_one_coin_per_metal_even_his_own():
    s = position(3, fields={"latro": 0, "portus_bronze": 0, "portus_gold": 1}, coins={0: "b0", 1: "g0"},
                 tiebreaker={1: 1, 2: 2}, to_move=0, dice="bb")
    s.apply("tiebreaker")
    latro = events(s, "latro")[0]
    assert latro["taken"] == [["bronze", 0]]
    # the thief took his own bronze back into his coins and pays it again; the gold stays
    port = events(s, "port")
    assert [(e["seat"], e["paid_from"]) for e in port] == [(0, "stock"), (1, "field")]


def test_port_activates_every_workshop_and_bank_of_the_player():
    shops = [p + 1 for p, x in enumerate(PLOTS) if x["kind"] == "workshop"][:2]
    bank = plot_number(kind="bank")
    s = position(3, fields={"portus_silver": 2}, coins={2: "b0"}, plots={shops[0]: 2, shops[1]: 2, bank: 2},
                 tiebreaker={0: 1, 1: 2}, to_move=2)
    s.apply("tiebreaker")
    yields = sum(PLOTS[p - 1]["yield_vp"] for p in shops)
    assert s.vp[2] == yields
    assert sum(s.coins_of(2)) == sum(PLOTS[bank - 1]["income"].values())


# -- 次のラウンドの準備 / ゲームの終了 -------------------------------------------------------------
def test_the_front_tiebreaker_becomes_start_player():
    s = position(4, tiebreaker={2: 1, 0: 2, 3: 3}, to_move=1)
    s.apply("tiebreaker")
    assert s.round == 2 and s.start == 2 and s.to_move == 2


def test_six_rounds_use_every_stadium_and_theatre_card():
    s = GAME.setup(4, seed=9)
    rng = random.Random(9)
    while not s.is_over:
        s.apply(rng.choice(s.legal_actions()))
    assert s.round == 6 and s.phase == OVER and s.to_move is None and s.legal_actions() == ()
    assert not s.deck[STADIUM] and not s.deck[THEATRE] and s.stadium_up == -1
    assert events(s, "game_over")


def test_each_theatre_card_counts_for_the_colour_that_scores_more():
    from palio.games.aquileia.scoring import laurel_points
    yellow10 = plot_number(colour="yellow", vp=10)
    blue6 = plot_number(colour="blue", vp=6)
    s = position(3, hands={0: "theatre_blue_yellow theatre_yellow_purple laurel_blue"},
                 plots={yellow10: 0, blue6: 0}, tiebreaker={1: 1, 2: 2}, to_move=0)
    points = laurel_points(s, 0)
    # blue/yellow as yellow and yellow/purple as yellow: 10 x 2 + 6 x 1 = 26
    assert points["villa_vp"] == 26 and points["theatre"] == [2, 2]


def test_equal_final_scores_share_the_place():
    s = position(3, round=6, vp=[10, 10, 4], tiebreaker={1: 1, 2: 2}, to_move=0)
    s.apply("tiebreaker")
    assert s.is_over and s.ranks() == [1, 1, 3] and s.returns() == [0.5, 0.5, 0.0]


# -- notation and errors -------------------------------------------------------------------------
def test_notation_round_trips_and_bad_text_is_refused():
    for action in GAME.all_actions():
        assert GAME.parse_action(str(action)) == action
    for text in ("place", "place nowhere", "build 99", "bid x", "play dragon", "slaves 0", ""):
        with pytest.raises(NotationError):
            GAME.parse_action(text)
    assert str(GAME.parse_action("build 3 0")) == "build 3"


# -- hidden cards (ゲーム中のお金とカードの役割: カードの種類や枚数を明らかにする必要はありません) ----
def seen_by(s, seat):
    """What ``seat`` can tell of the game: its view and its log."""
    return s.observe(seat), [(e["kind"], e.get("seat")) for e in s.events_for(seat)]


def same_for_onlooker(a, b, onlooker, moves):
    """Two positions that differ only in cards ``onlooker`` cannot see look the same to it
    before and after each of ``moves`` (played in both)."""
    assert seen_by(a, onlooker) == seen_by(b, onlooker)
    for move in moves:
        a.apply(move)
        b.apply(move)
        assert seen_by(a, onlooker) == seen_by(b, onlooker), move


@pytest.mark.parametrize(("fields", "cards"), [
    ({"gold1": 1, "silver1": 2}, ("horse_gold_1", "weapon_1")),  # a usable horse or not
    ({"arena1": 1, "arena2": 2}, ("weapon_1", "horse_gold_1")),  # a usable weapon or not
])
def test_hidden_cards_are_not_told_by_whether_their_holder_is_asked_to_play(fields, cards):
    """Whether a racer or fighter holds a card they could play is their secret: they are asked
    in either case and may play none, as at the table."""
    a, b = (position(3, fields=fields, hands={1: card}, tiebreaker={1: 1, 2: 2}, to_move=0,
                     dice="ggg ggg") for card in cards)
    a.apply("tiebreaker")
    b.apply("tiebreaker")
    assert a.to_move == b.to_move == 1
    same_for_onlooker(a, b, 2, ["done"])


def test_hidden_cards_are_not_told_when_the_last_usable_one_is_played():
    a, b = (position(3, fields={"gold1": 1, "silver1": 2}, hands={1: hand}, tiebreaker={1: 1, 2: 2},
                     to_move=0, dice="ggg ggg")
            for hand in ("horse_gold_1 horse_gold_2", "horse_gold_1 weapon_2"))
    a.apply("tiebreaker")
    b.apply("tiebreaker")
    same_for_onlooker(a, b, 2, ["play horse_gold_1", "done"])


def test_hidden_slave_cards_are_not_told_by_whether_their_holder_may_build():
    """A forum field's player who could pay with their hidden slave cards and one who could not
    look the same: both are asked, and may build nothing."""
    a, b = (position(3, fields={"forum1": 1}, coins={1: "g2"}, hands={1: card},
                     tiebreaker={1: 1, 2: 2}, to_move=0) for card in ("slave_1", "slave_2"))
    a.apply("tiebreaker")
    b.apply("tiebreaker")
    assert a.to_move == b.to_move == 1 and legal(a) == ["skip"]
    same_for_onlooker(a, b, 2, ["skip"])
    # coins nobody can pay with, or no slave card that could be enough: nobody is asked
    s = position(3, fields={"forum1": 1}, coins={1: "b0"}, hands={1: "slave_2"},
                 tiebreaker={1: 1, 2: 2}, to_move=0)
    s.apply("tiebreaker")
    assert events(s, "idle")


def test_a_record_of_version_1_replays_with_the_tiebreaker_ending_ones_henchmen():
    """Games stored before issue 35 (version 1, no option) were played with the tiebreaker
    ending one's henchmen; they replay as they were played."""
    from palio.core.record import GameRecord

    s = GAME.setup(3, seed=5, options={"tiebreaker_ends": True})
    rng = random.Random(2)
    while s.phase == PLACEMENT or s.round == 1:
        s.apply(rng.choice(s.legal_actions()))
    old = GameRecord.of(s)
    old.version, old.options = "1", {}
    replayed = old.replay(GAME)
    assert replayed.notation_history() == s.notation_history()
    assert GameRecord.of(GAME.setup(3, seed=5)).version == "2"
