"""Scenario tests named after the rules (set-up, round phases, events, combat, actions,
activity cards, end scoring) and after the readings chosen where the text is open
(docs/coverage/troyes.md)."""

from __future__ import annotations

import random

import pytest

from palio.core.errors import IllegalAction
from palio.games.troyes import GAME
from palio.games.troyes.rules.combat import next_black
from palio.games.troyes.rules.events import resolve_events
from palio.games.troyes.scenario import event_id, position
from palio.games.troyes.scoring import breakdown, final_scores
from palio.games.troyes.state import ACTIONS, COMBAT, F_DRAFT, NEUTRAL, OVER


def legal(s):
    return [str(a) for a in s.legal_actions()]


def play(s, *notations):
    for text in notations:
        assert text in legal(s), (text, legal(s))
        s.apply(text)


def slot(name):
    return "RWY".index(name[0]) * 3 + int(name[1]) - 1


def give_cube(s, slot_name, seat, key, n=1):
    s.slot_card[slot(slot_name)] = s.comp.card_id[key]
    s.cubes[slot(slot_name) * 4 + seat] = n
    s._legal = None


def give_tradesman(s, slot_name, seat, key):
    s.slot_card[slot(slot_name)] = s.comp.card_id[key]
    s.trade[slot(slot_name) * s.comp.max_trade_spaces] = seat
    s.reserve[seat] -= 1
    s._legal = None


# -- set-up -----------------------------------------------------------------------------------
@pytest.mark.parametrize(("players", "citizens", "chars", "rounds"), [(2, 6, 2, 4), (3, 5, 1, 5), (4, 4, 1, 6)])
def test_setup_numbers_per_player_count(players, citizens, chars, rounds):
    s = GAME.setup(players, 3)
    assert s.money == [5] * players and s.influence == [4] * players and s.vp == [0] * players
    assert s.supply == [citizens] * players and s.reserve == [12 - citizens] * players
    assert all(len(ch) == chars for ch in s.chars)
    assert len({ch for p in range(players) for ch in s.chars[p]}) == players * chars
    assert s.rounds == len(s.red_deck) == rounds
    assert len(s.white_deck) == 4 and len(s.yellow_deck) == 4
    assert s.queue == [s.comp.marauding] and s.revealed == 0
    view = s.observe(0)
    assert view["cards"] == [None] * 9  # every activity card face down
    assert view["players"][1]["characters"] is None and view["players"][0]["characters"] == list(s.chars[0])


def test_snake_draft_order_and_gray_citizens_fill_the_rest():
    s = GAME.setup(3, 1)
    order = []
    while s.phase == 0:
        order.append(s.to_move)
        s.apply(legal(s)[0])
    assert order == [0, 1, 2, 2, 1, 0, 0, 1, 2, 2, 1, 0, 0, 1, 2]
    assert s.spaces.count(NEUTRAL) == 3 and -1 not in s.spaces
    assert s.neutral_reserve == 5


def test_two_player_gray_citizens_take_their_spaces_before_the_draft():
    s = GAME.setup(2, 1)
    pre = [i for i, o in enumerate(s.spaces) if o == NEUTRAL]
    assert pre == sorted(s.comp.two_player_neutral) and len(pre) == 6
    assert all(f"start {s.comp.space_label[i]}" not in legal(s) for i in pre)
    while s.phase == 0:
        s.apply(legal(s)[-1])
    assert s.spaces.count(NEUTRAL) == 6 and s.spaces.count(0) == 6 and s.spaces.count(1) == 6


# -- the round's automatic phases ------------------------------------------------------------------
def test_activity_cards_turn_up_one_per_colour_in_rounds_1_to_3():
    s = GAME.setup(2, 5)
    while s.phase == 0:
        s.apply(legal(s)[0])
    assert s.revealed == 1
    view = s.observe(None)["cards"]
    assert [k for k in range(9) if view[k] is not None] == [0, 3, 6]


def test_workforce_one_die_per_citizen_in_the_buildings_colour():
    s = GAME.setup(4, 8)
    while s.phase == 0:
        s.apply(legal(s)[0])
    c = s.comp
    # the first round's dice as rolled (before anything was spent): from the log
    rolled = {e.seat: e.public["faces"] for e in s.events if e.kind == "workforce" and not e.public["neutral"]}
    for p in range(4):
        want = sorted(c.spaces[i][0] for i, o in enumerate(s.spaces) if o == p)
        assert sorted(f // 6 for f in rolled[p]) == want


def test_event_phase_reveals_a_red_card_then_the_colour_it_calls():
    s = GAME.setup(2, 2)
    red = s.red_deck[-1]
    called = s.comp.events[red][3]
    deck = s.white_deck if called == 1 else s.yellow_deck
    second = deck[-1]
    while s.phase == 0:
        s.apply(legal(s)[0])
    assert s.queue == [s.comp.marauding, red, second]
    entered = [e.public["card"] for e in s.events if e.kind == "event_enters"]
    assert entered == [red, second]


def test_events_take_effect_every_round_until_countered():
    s = position(2, to_move=0, queue=["civil_war"], money={0: 10, 1: 2}, vp={0: 4, 1: 4})
    resolve_events(s)
    assert s.money == [7, 0] and s.vp == [4, 2]  # seat 1 could not pay all: -2 VP
    resolve_events(s)
    assert s.money == [4, 0] and s.vp == [4, 0]


def test_heresy_and_drought_penalise_what_cannot_be_done():
    s = position(2, to_move=0, queue=["heresy", "drought"], influence={0: 5, 1: 1},
                 money={0: 0, 1: 5}, vp={0: 3, 1: 3}, spaces={"C1.1": 0, "C2.1": 1, "C3.1": 1})
    resolve_events(s)
    assert s.influence == [3, 0]
    assert s.money == [0, 3]
    assert s.vp == [1, 1]  # seat 1: influence short; seat 0: could not pay the Drought


def test_neutral_citizen_events_expel_ignore_when_none_left_and_respect_lying_colours():
    palace = {f"P{v}": 0 for v in range(1, 7)}
    s = position(2, to_move=0, queue=["succession"], spaces=palace)
    before = s.neutral_reserve
    resolve_events(s)
    assert s.neutral_reserve == before - 1 and s.spaces[:6].count(NEUTRAL) == 1
    assert s.lying[0] == 1 << 0  # the seat-0 citizen it replaced lies on the Palace
    s = position(2, to_move=0, queue=["succession"], spaces=palace)
    s.lying[0] = 1 << 0
    s.supply[0] -= 1
    resolve_events(s)  # any value would expel seat 0 a second time: nothing happens
    assert s.spaces[:6] == [0] * 6 and s.neutral_reserve == before
    assert [e.public["result"] for e in s.events if e.kind == "neutral_citizen"][-1] == "blocked"
    s = position(2, to_move=0, queue=["wayfarers"], spaces={})
    s.neutral_reserve = 0
    resolve_events(s)
    assert s.spaces.count(NEUTRAL) == 0  # all eight are in play: ignored
    assert [e.public["result"] for e in s.events if e.kind == "neutral_citizen"][-1] == "none_left"


def test_traveling_builders_and_interrupted_work_on_the_cathedral():
    s = position(2, to_move=0, queue=["builders"])
    s.cathedral = [0, -1, 1, -1, -1, -1] + [0] + [-1] * 11
    resolve_events(s)
    assert s.cathedral[1] == NEUTRAL  # lowest level, lowest empty value
    s = position(2, to_move=0, queue=["interrupted"])
    s.cathedral = [0, 1, -1, 0, -1, 1] + [-1, 0, -1, -1, -1, -1] + [-1] * 6
    resolve_events(s)
    assert s.cathedral[6 + 1] == -1  # the highest level's highest value goes
    assert s.cathedral[5] == 1


def test_support_puts_gray_cubes_on_the_two_events_to_its_left_and_can_counter_them():
    s = position(2, to_move=0, queue=["brigands", "skirmishes", "support"], vp={0: 0, 1: 0})
    brigands = s.queue[1]
    banners = s.comp.events[brigands][6]
    s.ev_cubes[1] = (0,) * (banners - 1)
    resolve_events(s)
    assert brigands not in s.queue  # countered by the gray cube: seat 0 leads
    first, second = s.comp.events[brigands][7]
    assert s.vp[0] == first and s.won[0] == (brigands,)
    assert s.ev_cubes[s.queue.index(event_id(s, "skirmishes"))] == (NEUTRAL,)
    assert s.ev_cubes[0] == ()  # Marauding is not among the two nearest


def test_black_dice_never_exceed_the_six_in_the_box():
    s = position(2, to_move=1, queue=["war", "normans", "brigands", "brigands", "skirmishes"],
                 dice={0: "w1", 1: "w2"}, passed=[1, 0])
    s.red_deck = [event_id(s, "skirmishes", 1)]
    s.white_deck, s.yellow_deck = [event_id(s, "heresy")], [event_id(s, "drought")]
    s.rounds = 4
    play(s, "pass")
    assert [e.public["dice"] for e in s.events if e.kind == "black_dice"][-1].__len__() == 6


# -- combat ----------------------------------------------------------------------------------
def combat(s, black, seat=0):
    s.phase = COMBAT
    s.black = sorted(black, reverse=True)
    s.fighter = seat
    s.stack = []
    s._legal = None
    next_black(s)


def test_combat_a_player_who_can_beat_the_die_must():
    s = position(2, to_move=0, dice={0: "y5 w1", 1: "r6"}, influence={0: 4})
    combat(s, [4])
    options = legal(s)
    assert "concede" not in options and "def y5" in options and "reroll w1" in options
    play(s, "def w1")
    assert legal(s) == ["def y5"]  # no influence once a die is set against it
    play(s, "def y5", "counter")
    assert s.phase == ACTIONS


def test_combat_influence_before_countering_can_turn_a_loss_around():
    s = position(2, to_move=0, dice={0: "y1 w2", 1: "r6"}, influence={0: 4}, vp={0: 4})
    combat(s, [6])
    assert set(legal(s)) == {"reroll y1", "reroll w2", "flip", "recruit", "concede"}
    play(s, "flip", "flip y1", "done")  # y1 -> y6
    assert "concede" not in legal(s) and "def y6" in legal(s)


def test_combat_every_influence_spending_before_countering_recruiting_too():
    """■影響力: 「黒ダイスを迎撃する前、またはあるアクションを実行する前に」 any of the three
    spendings, the citizen for 2 included; at 20 influence recruiting first keeps the point the
    black die brings."""
    s = position(2, to_move=0, dice={0: "r6", 1: "w1"}, influence={0: 20})
    combat(s, [5])
    assert "recruit" in legal(s)
    supply = s.supply[0]
    play(s, "recruit", "def r6", "counter")
    assert s.supply[0] == supply + 1 and s.influence[0] == 20 - 2 + 1


def test_combat_never_buys_dice_or_uses_delayed_cubes():
    s = position(2, to_move=0, dice={0: "y3", 1: "r6 r6"}, influence={0: 0})
    give_cube(s, "W2", 0, "confession")
    combat(s, [3])
    assert legal(s) == ["def y3"]


def test_combat_order_goes_clockwise_from_the_start_player_highest_first():
    s = position(3, to_move=0, dice={0: "r6", 1: "r6", 2: "r6"}, start=1)
    combat(s, [2, 5, 4], seat=1)
    assert s.to_move == 1 and s.black[0] == 5
    play(s, "def r6", "counter")
    assert s.to_move == 2 and s.black == [4, 2]
    play(s, "def r6", "counter")
    assert s.to_move == 0 and s.black == [2]


# -- actions: dice groups ----------------------------------------------------------------------
def test_a_group_is_one_colour_and_at_most_three_dice():
    s = position(2, to_move=0, dice={0: "y1 y2 y3 y4 r6"}, money={0: 0})
    play(s, "farm")
    assert not any(a.endswith("r6") for a in legal(s))
    play(s, "die 1y1", "die 1y2", "die 1y3")  # the third die ends the group by itself
    assert s.money[0] == 3 and s.dice[0 * 18 + 2 * 6 + 3] == 1


def test_a_die_is_offered_only_when_the_group_stays_affordable():
    s = position(2, to_move=0, dice={0: "y1", 1: "y6 y5"}, money={0: 4, 1: 0})
    play(s, "farm")
    play(s, "die 2y6")
    # a second foreign die would make both cost 4: 8 > 4
    assert "die 2y5" not in legal(s) and "die 1y1" in legal(s)


def test_a_fight_may_earn_nothing_the_dice_are_spent():
    """The rulebook asks for at least one result only when a tradesman is hired: a fight with
    dice too low for a cube is allowed (burning dice is a tactic) and says so in the log."""
    s = position(2, to_move=0, dice={0: "w1", 1: "w1"}, money={0: 0}, queue=["theology"])
    assert s.comp.events[s.queue[1]][5] > 1  # the event's divisor: a white 1 earns no cube
    assert "event 2" in legal(s)
    play(s, "event 2", "die 1w1", "go")
    assert s.ev_cubes == [(), ()] and sum(s.dice[:18]) == 0 and s.to_move == 1
    fights = [e for e in s.events if e.kind == "fight"]
    assert fights[-1].public["cubes"] == 0


# -- placing a citizen -------------------------------------------------------------------------
def test_palace_placement_expels_the_occupant():
    s = position(2, to_move=0, dice={0: "r4", 1: "w1"}, spaces={"P4": 1}, supply=[1, 0])
    play(s, "place P", "die 1r4")
    assert s.spaces[3] == 0 and s.lying[0] == 1 << 1


def test_row_placement_shifts_right_fills_gaps_and_expels_off_the_end():
    s = position(2, to_move=0, dice={0: "w1", 1: "w6"}, spaces={"B1.1": 1})
    play(s, "place B", "die 1w1")
    assert s.spaces[6:8] == [0, 1] and s.lying[1] == 0  # the empty space took the shift
    s = position(2, to_move=0, dice={0: "w2", 1: "w6"}, spaces={"B1.1": 1, "B1.2": NEUTRAL})
    play(s, "place B", "die 1w2")
    assert s.spaces[6:8] == [0, 1] and s.lying[1] == 1 << NEUTRAL  # the gray one fell off the end
    s = position(2, to_move=0, dice={0: "w2", 1: "w6"}, spaces={"B1.1": 1, "B1.2": 0})
    play(s, "place B", "die 1w2")
    assert "from B1.2" in legal(s) and "from B1.1" not in legal(s)
    play(s, "from B1.2")  # moving its own citizen to the front leaves nobody expelled
    assert s.spaces[6:8] == [0, 1] and s.lying[1] == 0


def test_no_placement_may_expel_a_colour_already_lying_there():
    s = position(2, to_move=0, dice={0: "r4 r5", 1: "w1"}, spaces={"P4": 1, "P5": 1},
                 supply=[2, 0])
    play(s, "place P", "die 1r4")
    assert s.lying[0] == 1 << 1
    s.turn = 0
    s.stack = [(3, 0)]
    s._legal = None
    assert "place P" not in legal(s)  # the red 5 would expel seat 1 again: nothing is left


def test_moving_an_own_citizen_and_the_general_supply_only_when_the_supply_is_empty():
    s = position(2, to_move=0, dice={0: "y5", 1: "w1"}, spaces={"P2": 0, "C1.1": 0},
                 supply=[0, 0], influence={0: 4})
    play(s, "place C", "die 1y5")
    options = legal(s)
    assert "from reserve" in options and "from P2" in options and "from C1.1" in options
    assert "from supply" not in options
    play(s, "from P2")
    assert s.spaces[1] == -1 and s.spaces[16] == 0  # C3.1 holds the value 5 row
    s2 = position(2, to_move=0, dice={0: "y5", 1: "w1"}, spaces={"P2": 0}, supply=[1, 0])
    play(s2, "place C", "die 1y5")
    assert "from reserve" not in legal(s2)


# -- activity cards -----------------------------------------------------------------------------
def test_hiring_a_tradesman_pays_the_cost_takes_the_best_space_and_forces_an_activation():
    s = position(2, to_move=0, dice={0: "y6 y6", 1: "w1"}, money={0: 10}, cards={"Y1": "merchant"},
                 spaces={"P1": 0})
    card = s.comp.cards[s.comp.card_id["merchant"]]
    play(s, "card Y1")
    assert legal(s) == ["from supply", "from P1"]
    play(s, "from supply")
    width = s.comp.max_trade_spaces
    best = max(range(len(card[5])), key=lambda k: (card[5][k], -k))
    assert s.trade[slot("Y1") * width + best] == 0
    assert s.money[0] == 10 - card[3]
    assert "go" not in legal(s)  # no activation without dice
    play(s, "die 1y6", "die 1y6", "go")
    uses = 12 // card[4]
    assert s.money[0] == 10 - card[3] + uses * s.comp.fx["merchant"]["deniers"]


def test_a_full_card_takes_the_tradesman_on_its_illustration():
    s = position(4, to_move=3, dice={3: "y6 y6", 0: "w1"}, money={3: 10}, cards={"Y1": "merchant"})
    width = s.comp.max_trade_spaces
    for k in range(3):
        s.trade[slot("Y1") * width + k] = k
        s.reserve[k] -= 1
    play(s, "card Y1")
    if s.stack[-1][0] == 4:
        play(s, legal(s)[0])
    assert s.extra[slot("Y1")] == 1 << 3
    play(s, "die 4y6", "die 4y6", "go")
    assert breakdown_final(s)["tradesmen"][3] == 0


def breakdown_final(s):
    return breakdown(s)


def test_a_card_cannot_be_activated_when_hiring_is_unaffordable():
    s = position(2, to_move=0, dice={0: "y6 y6", 1: "w1"}, money={0: 0}, cards={"Y1": "merchant"})
    assert "card Y1" not in legal(s)


def test_at_least_one_use_only_when_the_tradesman_is_hired():
    """職人を置いたとき、最低1回は活性化: a hire needs a group earning a use; a card whose
    tradesman was already there may take dice that earn nothing (burning dice)."""
    card = "merchant"
    s = position(2, to_move=0, dice={0: "y1", 1: "w1"}, money={0: 10}, cards={"Y1": card})
    assert s.comp.cards[s.comp.card_id[card]][4] > 1  # a yellow 1 earns no use
    assert "card Y1" not in legal(s)  # hiring: one use at least
    staffed = position(2, to_move=0, dice={0: "y1", 1: "w1"}, money={0: 10}, cards={"Y1": card})
    give_tradesman(staffed, "Y1", 0, card)
    assert "card Y1" in legal(staffed)
    money = staffed.money[0]
    play(staffed, "card Y1", "die 1y1", "go")
    assert staffed.money[0] == money and staffed.to_move == 1  # the die is spent for nothing
    activations = [e for e in staffed.events if e.kind == "activate"]
    assert activations[-1].public["uses"] == 0


def test_delayed_card_cubes_and_one_cube_per_action():
    s = position(2, to_move=0, dice={0: "w6 w6 y1", 1: "w1"}, money={0: 0}, cards={"W2": "confession"},
                 round=2)
    give_tradesman(s, "W2", 0, "confession")
    play(s, "card W2", "die 1w6", "die 1w6", "go")
    divisor = s.comp.cards[s.comp.card_id["confession"]][4]
    assert s.cubes[slot("W2") * 4] == 12 // divisor
    s.stack = [(3, 0)]
    s.turn = 0
    s._legal = None
    play(s, "farm")
    assert legal(s) == ["nocube", "cube W2"]
    play(s, "cube W2", "die 1y1", "go")  # 1 + 2 = 3 -> 1 denier
    assert s.money[0] == 1 and s.cubes[slot("W2") * 4] == 12 // divisor - 1


def test_blacksmith_adds_5_to_red_groups_but_not_for_the_palace():
    s = position(2, to_move=0, dice={0: "r1 r2", 1: "w1"}, queue=["brigands"], round=2)
    give_cube(s, "Y2", 0, "blacksmith")
    play(s, "event 2")
    assert legal(s) == ["nocube", "cube Y2"]
    play(s, "cube Y2", "die 1r1", "go")  # 1 + 5 = 6: two cubes at divisor 3
    assert s.ev_cubes[1] == (0, 0)
    s.stack = [(3, 0)]
    s._legal = None
    play(s, "place P")
    assert s.stack[-1][4] == -2  # no cube asked: the Blacksmith cannot place in the Palace


def test_militiaman_uses_yellow_dice_as_red_even_for_the_palace():
    s = position(2, to_move=0, dice={0: "y3", 1: "w1"}, round=2, spaces={})
    give_cube(s, "Y2", 0, "militiaman")
    play(s, "place P")
    assert "die 1y3" in legal(s)  # the only way: the cube is used at once
    play(s, "die 1y3")
    assert s.spaces[2] == 0


def test_monk_one_white_die_as_three_yellow_dice_bought_for_2():
    s = position(2, to_move=0, dice={1: "w4", 0: "y1"}, money={0: 5, 1: 0}, round=1)
    give_cube(s, "W1", 0, "monk")
    play(s, "farm", "cube W1", "die 2w4")  # 3 x 4 = 12 -> 6 deniers, the die costs 2
    assert s.money == [5 - 2 + 6, 2]


def test_priest_adds_3_per_yellow_die_not_for_city_hall():
    s = position(2, to_move=0, dice={0: "y2", 1: "w1"}, money={0: 0}, supply=[1, 0])
    give_cube(s, "W1", 0, "priest")
    play(s, "farm", "cube W1", "die 1y2", "go")  # 2 + 3 = 5 -> 2 deniers
    assert s.money[0] == 2
    s.cubes[slot("W1") * 4] = 1
    s.stack = [(3, 0)]
    s.dice[0 * 18 + 2 * 6 + 1] = 1
    s._legal = None
    play(s, "place C")
    assert s.stack[-1][4] == -2  # the Priest is never offered for City Hall


def test_apprenticeship_makes_every_die_a_5_any_colours_not_for_the_cathedral():
    s = position(2, to_move=0, dice={0: "r1 w1 y1", 1: "w2"}, money={0: 0}, round=2)
    give_cube(s, "W2", 0, "apprenticeship")
    play(s, "farm", "cube W2", "die 1r1", "die 1w1", "die 1y1")  # 15 -> 7 deniers
    assert s.money[0] == 7
    s.cubes[slot("W2") * 4] = 1
    s.dice[0 * 18 + 6] = 1
    s.stack = [(3, 0)]
    s._legal = None
    play(s, "cathedral")
    assert s.stack[-1][4] == -2


def test_templar_one_white_die_as_two_red_dice():
    s = position(2, to_move=0, dice={0: "w3", 1: "y1"}, queue=["brigands"], round=2)
    give_cube(s, "W2", 0, "templar")
    play(s, "event 2")
    assert legal(s) == ["die 1w3"]  # only the Templar's cube makes it possible: used at once
    assert s.cubes[slot("W2") * 4] == 0
    play(s, "die 1w3")  # 2 x 3 = 6: two cubes at divisor 3
    assert s.ev_cubes[1] == (0, 0)


def test_pilgrimage_takes_dice_of_any_colours():
    s = position(2, to_move=0, dice={0: "r6 w5 y4", 1: "w1"}, round=3, vp={0: 0})
    give_tradesman(s, "W3", 0, "pilgrimage")
    play(s, "card W3", "die 1r6", "die 1w5", "die 1y4")
    divisor = s.comp.cards[s.comp.card_id["pilgrimage"]][4]
    assert s.vp[0] == 15 // divisor * s.comp.fx["pilgrimage"]["vp"]


def joust_position(players, dice):
    s = position(players, to_move=0, round=3, dice=dice, money={0: 30}, vp=dict.fromkeys(range(players), 0))
    give_tradesman(s, "R3", 0, "joust")
    assert 8 // s.comp.cards[s.comp.card_id["joust"]][4] == 2  # the two red 4s: two uses
    return s


def test_joust_pays_nobody_when_the_activator_is_not_highest():
    """[RB] Joust: "Gain 2 VP if the total value of red dice in your district is higher than
    ... each other player's district"; only a tie for highest lets the tied players score."""
    s = joust_position(3, {0: "r4 r4 r1", 1: "r6", 2: "r2"})
    play(s, "card R3", "die 1r4", "die 1r4", "go")  # left: seat 0 red 1, seat 1 red 6
    assert s.vp == [0, 0, 0]


def test_joust_a_tie_for_highest_pays_every_tied_player():
    """[RB] Joust: "If you are tied for highest, each tied player gains 2 VP"."""
    s = joust_position(3, {0: "r4 r4 r5", 1: "r2 r3", 2: "r1"})
    play(s, "card R3", "die 1r4", "die 1r4", "go")  # left: 5, 5 and 1
    assert s.vp == [4, 4, 0]


def test_joust_with_no_red_dice_left_anywhere_everyone_is_tied_for_highest():
    """[RB] Joust names no least total (unlike the Procession's "at least 1 die"): when every
    player's red total is 0, all are tied for highest and each gains the VP."""
    s = joust_position(2, {0: "r4 r4 y1", 1: "w2"})
    play(s, "card R3", "die 1r4", "die 1r4", "go")
    assert s.vp == [4, 4]


def test_paid_uses_one_at_a_time_and_may_stop():
    s = position(2, to_move=0, dice={0: "r6 r6 r6", 1: "w1"}, round=3, vp={0: 0}, influence={0: 7})
    give_tradesman(s, "R3", 0, "troubadour")
    play(s, "card R3", "die 1r6", "die 1r6", "go")
    assert legal(s) == ["use", "stop"]  # staffed before: every use optional, as a free card's
    play(s, "use")
    assert "stop" in legal(s)
    play(s, "stop")
    assert s.vp[0] == 2 and s.influence[0] == 4


def test_hiring_a_paid_cards_tradesman_makes_its_first_use():
    """The activation that hires the tradesman must earn a use, so its first paid use is made
    (and must be affordable for the card to be offered)."""
    s = position(2, to_move=0, dice={0: "y6 y6", 1: "w1"}, money={0: 10}, influence={0: 1},
                 cards={"Y1": "artisan"})
    play(s, "card Y1")
    if s.stack[-1][0] == 4:  # where the tradesman comes from
        play(s, legal(s)[0])
    play(s, "die 1y6", "die 1y6", "go")
    assert legal(s) == ["use"]  # three uses earned; the first must be made
    poor = position(2, to_move=0, dice={0: "y6 y6", 1: "w1"}, money={0: 10}, influence={0: 0},
                    cards={"Y1": "artisan"})
    assert "card Y1" not in legal(poor)  # hiring, and the first use (1 influence) unaffordable


def test_a_staffed_paid_card_takes_dice_when_no_use_is_affordable_as_a_free_card_does():
    """Issue 35: like a staffed free card, which takes dice that earn no use, a staffed card
    whose uses cost influence (Artisan) or deniers (Innkeeper) is offered when not one use can
    be paid; the dice are spent and no use is made."""
    for card, money, influence in (("artisan", 0, 0), ("innkeeper", 0, 0)):
        s = position(2, to_move=0, dice={0: "y6 y6", 1: "w1"}, money={0: money},
                     influence={0: influence}, cards={"Y1": card})
        give_tradesman(s, "Y1", 0, card)
        assert "card Y1" in legal(s), card
        play(s, "card Y1", "die 1y6", "die 1y6", "go")
        assert s.to_move == 1 and (s.money[0], s.influence[0]) == (money, influence), card
        activations = [e for e in s.events if e.kind == "activate"]
        assert activations[-1].public["uses"] == 0, card


def test_diplomat_pays_first_then_places_the_cubes():
    s = position(2, to_move=0, dice={0: "r6 r6", 1: "w1"}, influence={0: 2}, queue=["brigands"])
    give_tradesman(s, "R1", 0, "diplomat")
    play(s, "card R1", "die 1r6", "die 1r6", "go", "use", "use")
    assert s.influence[0] == 0 and legal(s) == ["target 1", "target 2"]
    play(s, "target 2", "target 2")
    assert s.ev_cubes[1] == (0, 0) and s.influence[0] == 2


def test_archer_rolls_each_use_and_chivalry_counts_red_dice_left():
    s = position(2, to_move=0, dice={0: "r6 r6 r1 r2", 1: "w1"}, queue=["brigands"])
    give_tradesman(s, "R1", 0, "chivalry")
    divisor = s.comp.cards[s.comp.card_id["chivalry"]][4]
    assert 12 // divisor == 2
    play(s, "card R1", "die 1r6", "die 1r6", "go")
    assert s.stack[-1][2] == 2 * 2  # two uses x two red dice left
    s2 = position(2, to_move=0, dice={0: "r6 r6", 1: "w1"}, queue=["brigands"])
    give_tradesman(s2, "R1", 0, "archer")
    play(s2, "card R1", "die 1r6", "die 1r6", "go")
    rolls = [e.public["value"] for e in s2.events if e.kind == "archer"]
    assert all(1 <= v <= 6 for v in rolls) and rolls


def test_miller_tax_collector_procession_glassblower_captain():
    s = position(3, to_move=0, dice={0: "y6 y6 w1", 1: "w1 w2", 2: "w3"}, money={0: 0, 1: 5, 2: 0},
                 spaces={"P1": 0, "B1.1": 0, "B2.1": 0, "C1.1": 1, "C2.1": 1, "C3.1": NEUTRAL})
    give_tradesman(s, "Y1", 0, "miller")
    play(s, "card Y1", "die 1y6", "die 1y6", "go")
    play(s, *["mill B"] * (12 // s.comp.cards[s.comp.card_id["miller"]][4]))
    assert s.money[0] == 12 // s.comp.cards[s.comp.card_id["miller"]][4] * 2 * 2
    from palio.games.troyes.rules.cards import activate

    s.stack = []
    before = s.money[:]
    s.slot_card[slot("R2")] = s.comp.card_id["tax_collector"]
    activate(s, 0, slot("R2"), 1)
    assert s.money[0] == before[0] + 2 + 1 and s.money[1] == before[1] - 2
    s.slot_card[slot("W3")] = s.comp.card_id["procession"]
    vp = s.vp[:]
    activate(s, 0, slot("W3"), 2)  # seat 1 has the most dice left
    assert s.vp[1] == vp[1] + 4 and s.vp[0] == vp[0]
    s.cathedral = [0] * 5 + [-1] * 13
    s.slot_card[slot("W3")] = s.comp.card_id["glassblower"]
    activate(s, 0, slot("W3"), 1)
    assert s.vp[0] == vp[0] + 2
    s.ev_cubes = [(0,)] + [()] * (len(s.queue) - 1)
    s.slot_card[slot("R3")] = s.comp.card_id["captain"]
    activate(s, 0, slot("R3"), 3)
    assert s.vp[0] == vp[0] + 2 + 3


# -- influence, limits, passing ---------------------------------------------------------------------
def test_influence_is_capped_at_20_and_vp_never_drop_below_0():
    s = position(2, to_move=0, dice={0: "w6 w6 w5", 1: "r1"}, influence={0: 18, 1: 0}, vp={0: 1})
    play(s, "cathedral", "die 1w6", "die 1w6", "die 1w5")
    assert s.influence[0] == 20
    s.vp[1] = 1
    s.black = [6]
    s.phase = COMBAT
    s.fighter = 1
    s.stack = []
    next_black(s)
    assert s.vp[1] == 0


def test_recruit_a_citizen_for_2_influence():
    s = position(2, to_move=0, dice={0: "w1", 1: "r1"}, influence={0: 2})
    supply, reserve = s.supply[0], s.reserve[0]
    play(s, "recruit")
    assert s.supply[0] == supply + 1 and s.reserve[0] == reserve - 1 and s.influence[0] == 0


def test_the_round_ends_when_no_die_is_left_and_the_start_player_moves_left():
    s = position(2, to_move=0, dice={0: "y2"}, start=0)
    s.rounds = 3
    play(s, "farm", "die 1y2", "go")
    assert s.round == 2 and s.start == 1


# -- the end -----------------------------------------------------------------------------------
def test_final_scoring_categories_and_the_floor_at_zero():
    s = position(2, to_move=0, vp={0: 3, 1: 0}, money={0: 0, 1: 0}, influence={0: 0, 1: 0})
    s.chars = [(), ()]
    s.cathedral = [0, -1, -1, -1, -1, -1] + [-1] * 12  # seat 0: levels 2 and 3 missing
    s.ev_cubes = [(0,)] + [()] * (len(s.queue) - 1)
    width = s.comp.max_trade_spaces
    s.trade = [-1] * (9 * width)
    s.trade[0] = 0
    s.extra = [0] * 9
    s.phase = OVER
    rows = breakdown(s)
    space_vp = s.comp.cards[s.slot_card[0]][5][0]
    assert rows["tokens"] == [3, 0] and rows["events"] == [1, 0]
    assert rows["tradesmen"] == [space_vp, 0] and rows["cathedral"] == [-4, -6]
    assert final_scores(s) == [max(0, 3 + 1 + space_vp - 4), 0]
    assert rows["floor"][1] == 6


def test_ties_share_the_place_the_rules_give_no_tie_break():
    s = position(2, to_move=0)
    s.phase = OVER
    s.chars = [(), ()]
    s.vp = [5, 5]
    s.cathedral = [0, 1] + [-1] * 4 + [0, 1] + [-1] * 4 + [0, 1] + [-1] * 4
    s.ev_cubes = [()] * len(s.queue)
    s.trade = [-1] * len(s.trade)
    s.extra = [0] * 9
    assert s.scores() == [5.0, 5.0] and s.ranks() == [1, 1] and s.returns() == [0.5, 0.5]


def test_a_whole_game_ends_after_the_last_red_event_round():
    s = GAME.setup(2, 11)
    rng = random.Random(1)
    rounds = set()
    while not s.is_over:
        rounds.add(s.round)
        s.apply(rng.choice(s.legal_actions()))
    assert rounds == {1, 2, 3, 4} and s.phase == OVER and s.to_move is None
    assert s.observe(1)["players"][0]["characters"] == list(s.chars[0])  # revealed at the end


# -- bad input -----------------------------------------------------------------------------------
def test_illegal_and_malformed_input_is_refused_and_changes_nothing():
    s = position(2, to_move=0, dice={0: "y2", 1: "w1"}, money={0: 0})
    before = s.observe(0)
    for text in ("die 9y2", "card Z9", "event 0", "from nowhere", "mill C", "flip r7"):
        with pytest.raises(IllegalAction):
            s.apply(text)
    with pytest.raises(IllegalAction, match="not legal"):
        s.apply("cathedral")
    assert s.observe(0) == before


def test_bonus_cards_option_adds_the_bonus_cards_and_resistance():
    pools = set()
    for seed in range(40):
        s = GAME.setup(4, seed, {"bonus_cards": True})
        pools |= {s.comp.cards[k][0] for k in s.slot_card}
        pools |= {s.comp.events[k][0] for k in s.red_deck + s.red_box}
    assert {"baker", "prior", "banquet", "resistance"} <= pools
    plain = GAME.setup(4, 1)
    assert all(not s.comp.cards[k][6] for k in plain.slot_card)


def test_resistance_calls_a_second_red_event_and_removes_the_last_cubes():
    s = position(2, to_move=1, dice={0: "w1", 1: "w2"}, passed=[1, 0], queue=["brigands"])
    s.bonus = True
    res = event_id(s, "resistance")
    s.red_deck = [res]
    s.red_box = [event_id(s, "war")]
    s.ev_cubes[1] = (0, 1)
    s.ev_cubes[0] = (1,)
    s.rounds = 3
    play(s, "pass")
    assert s.queue[2:4] == [res, event_id(s, "war")]
    assert s.ev_cubes[1] == (0,) and s.ev_cubes[0] == ()


def test_draft_frames_are_the_only_decisions_before_round_one():
    s = GAME.setup(4, 2)
    assert s.stack[-1][0] == F_DRAFT and all(a.startswith("start ") for a in legal(s))
    assert len(legal(s)) == s.comp.n_spaces and s.phase == 0 and s.money == [5] * 4


def test_turn_key_holds_within_a_turn_and_changes_with_each_new_one():
    s = position(2, to_move=0, dice={0: "y1 y2", 1: "w1"}, passed=[0, 1], influence={0: 3})
    key = GAME.turn_key(s)
    play(s, "farm", "die 1y1")
    assert GAME.turn_key(s) == key  # inside the same action
    play(s, "go")  # seat 1 has passed: seat 0 begins a new turn
    assert s.to_move == 0 and GAME.turn_key(s) != key
    key = GAME.turn_key(s)
    play(s, "reroll y2")  # a roll begins something undo must not cross
    assert GAME.turn_key(s) != key
    draft = GAME.setup(2, 1)
    before = GAME.turn_key(draft)
    draft.apply(legal(draft)[0])
    assert GAME.turn_key(draft) != before
