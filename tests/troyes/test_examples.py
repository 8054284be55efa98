"""The rulebook's worked examples and stated numbers, reproduced through the public API.

Sources: the rule summary ``shared/seeds/troyes.ja.md`` (section names in the test names'
docstrings) and the full rules facts of ``shared/reference/troyes.md`` ([RB]). Where a card's
printed number is provisional the test reads it from the components, so it checks the rule,
not our guess.
"""

from __future__ import annotations

from palio.games.troyes.scenario import event_id, position
from palio.games.troyes.state import COMBAT, F_COMBAT, NEUTRAL


def play(s, *notations):
    for text in notations:
        assert text in [str(a) for a in s.legal_actions()], (text, [str(a) for a in s.legal_actions()])
        s.apply(text)


def test_buying_dice_costs_2_4_6_by_the_groups_size():
    """■フェイズ4: 1 die 2d, 2 dice 4d each, 3 dice 6d each; neutral dice paid to the bank."""
    s = position(3, to_move=0, dice={0: "y6", 1: "y5 y1", 2: "y2", "n": "y4"},
                 money={0: 20, 1: 20, 2: 20})
    play(s, "farm", "die 1y6", "die 2y5", "die ny4")  # three dice: 6 each for two foreign ones
    assert s.money == [20 - 6 - 6 + (6 + 5 + 4) // 2, 26, 20]
    s = position(3, to_move=0, dice={0: "y6", 1: "y5", 2: "w1"}, money={0: 20, 1: 20})
    play(s, "farm", "die 2y5", "die 1y6", "go")  # two dice: 4 for the foreign one
    assert s.money[:2] == [20 - 4 + 5, 24]
    s = position(3, to_move=0, dice={1: "y5", 2: "w1"}, money={0: 20, 1: 20})
    play(s, "farm", "die 2y5", "go")  # one die: 2
    assert s.money[:2] == [20 - 2 + 2, 22]


def test_tithe_example_three_yellow_dice_one_from_each_of_two_players_free():
    """[RB] Tithe: "a group of 3 yellow dice by taking 1 die from each of 2 other players and
    1 die from your district" costs nothing."""
    s = position(3, to_move=0, dice={0: "y3", 1: "y5", 2: "y4", "n": "w1"}, money={0: 10, 1: 10, 2: 10},
                 cards={"W1": "tithe"})
    s.cubes[3 * 4 + 0] = 1  # a cube of seat 0 on the Tithe (slot W1)
    play(s, "farm", "cube W1", "die 2y5", "die 3y4", "die 1y3")
    assert s.money == [10 + (5 + 4 + 3) // 2, 10, 10]
    assert s.cubes[3 * 4] == 0


def test_joust_activated_twice_gives_4_vp():
    """[RB] note: activate Joust twice to gain 4 VP instead of only 2."""
    s = position(2, to_move=0, round=3, cards={"R3": "joust"},
                 dice={0: "r4 r4 r6 r2", 1: "r3"}, money={0: 30}, vp={0: 0, 1: 0})
    divisor = s.comp.cards[s.comp.card_id["joust"]][4]
    assert 8 // divisor == 2  # the two red 4s give exactly two uses
    width = s.comp.max_trade_spaces
    s.trade[2 * width] = 0  # seat 0 already has its tradesman on the Joust (slot R3)
    s.reserve[0] -= 1
    play(s, "card R3", "die 1r4", "die 1r4", "go")
    # left in the districts: red 6 + red 2 = 8 for seat 0 against red 3 for seat 1
    assert s.vp == [2 * s.comp.fx["joust"]["vp"], 0]


def test_marauding_and_war_bring_three_black_dice():
    """[RB] (French example): 1 black die for Marauding and 2 for War."""
    s = position(2, to_move=1, queue=["war"], dice={0: "w1", 1: "w2"}, passed=[1, 0])
    s.red_deck = [event_id(s, "succession")]  # no black die; calls a yellow card
    s.yellow_deck = [event_id(s, "civil_war")]
    s.white_deck = []
    s.rounds = 3
    play(s, "pass")
    assert s.round == 2
    assert len(s.observe(0)["black"]) == 3


def test_cathedral_gives_1_vp_and_1_or_2_influence_per_cube():
    """アクション「大聖堂の建設」: 1VP+1 influence on columns 1-3, 1VP+2 influence on 4-6."""
    s = position(2, to_move=0, dice={0: "w2 w5 w5", 1: "r1"}, influence={0: 4}, vp={0: 0})
    play(s, "cathedral", "die 1w2", "die 1w5", "die 1w5")
    assert s.vp[0] == 3
    assert s.influence[0] == 4 + 1 + 2 + 2
    c = s.comp
    assert s.cathedral[0 * c.columns + 1] == 0  # column 2, level 1
    assert s.cathedral[0 * c.columns + 4] == 0 and s.cathedral[1 * c.columns + 4] == 0  # column 5, levels 1-2


def test_turning_a_die_over_shows_seven_minus_its_value():
    """■影響力: 4 influence turns 1-3 own dice over; opposite faces add up to 7."""
    s = position(2, to_move=0, dice={0: "r1 w2 y6"}, influence={0: 5})
    play(s, "flip", "flip r1", "flip w2", "flip y6")
    view = s.observe(0)["dice"][0]
    assert view[0 * 6 + 5] == 1 and view[1 * 6 + 4] == 1 and view[2 * 6 + 0] == 1  # r6 w5 y1
    assert s.influence[0] == 1


def test_event_majority_first_and_second():
    """アクション「イベントの対処」: most cubes take the upper VP, second most the lower one."""
    s = position(2, to_move=0, queue=["brigands"], dice={0: "r6", 1: "w1"}, vp={0: 0, 1: 0})
    card = s.queue[1]
    first, second = s.comp.events[card][7]
    banners = s.comp.events[card][6]
    s.ev_cubes[1] = (1,) * (banners - 1)
    divisor = s.comp.events[card][5]
    assert divisor <= 6
    play(s, "event 2", "die 1r6", "go")
    assert card not in s.queue
    assert s.vp == [second, first] and s.won[1] == (card,)


def test_event_tie_for_first_splits_both_values_and_the_first_placer_takes_the_card():
    """注意事項: tied leaders share first + second (rounded down); the card goes to whoever
    placed first."""
    s = position(2, to_move=0, queue=["skirmishes"], dice={0: "r6", 1: "w1"}, vp={0: 0, 1: 0})
    card = s.queue[1]
    first, second = s.comp.events[card][7]
    banners = s.comp.events[card][6]
    assert banners % 2 == 0
    half = banners // 2
    s.ev_cubes[1] = (1,) * half + (0,) * (half - 1)
    play(s, "event 2", "die 1r6", "go")
    share = (first + second) // 2
    assert s.vp == [share, share]
    assert s.won == [(), (card,)]


def test_event_sole_player_takes_both_values():
    """注意事項: the only player with cubes gets the first and the second VP."""
    s = position(2, to_move=0, queue=["brigands"], dice={0: "r6 r6 r6", 1: "w1"}, vp={0: 0, 1: 0})
    card = s.queue[1]
    first, second = s.comp.events[card][7]
    play(s, "event 2", "die 1r6", "die 1r6", "die 1r6")
    assert s.vp[0] == first + second and s.won[0] == (card,)


def test_event_tie_for_second_splits_the_second_value():
    """注意事項: players tied for second share the lower VP (rounded down)."""
    s = position(3, to_move=0, queue=["war"], dice={0: "r6", 1: "w1"}, vp={0: 0, 1: 0, 2: 0})
    card = s.queue[1]
    first, second = s.comp.events[card][7]
    banners = s.comp.events[card][6]
    assert banners == 5
    s.ev_cubes[1] = (0, 1, 2, 0)
    play(s, "event 2", "die 1r6", "go")
    assert s.vp == [first, second // 2, second // 2]


def test_neutral_cubes_count_and_a_neutral_win_discards_the_card():
    """[RB]: the neutral player's cubes count for majorities; if it wins, the card is discarded."""
    s = position(2, to_move=0, queue=["brigands"], dice={0: "r6", 1: "w1"}, vp={0: 0, 1: 0})
    card = s.queue[1]
    first, second = s.comp.events[card][7]
    s.ev_cubes[1] = (NEUTRAL,) * (s.comp.events[card][6] - 1)
    play(s, "event 2", "die 1r6", "go")
    assert card not in s.queue and s.won == [(), ()]
    assert s.vp == [second, 0]


def test_marauding_scores_but_stays_in_play():
    """注意事項: Marauding is never removed; it scores like any event."""
    s = position(2, to_move=0, dice={0: "r6", 1: "w1"}, vp={0: 0, 1: 0})
    card = s.queue[0]
    first, second = s.comp.events[card][7]
    s.ev_cubes[0] = (0,) * (s.comp.events[card][6] - 1)
    play(s, "event 1", "die 1r6", "go")
    assert s.queue[0] == card and s.ev_cubes[0] == ()
    assert s.vp[0] == first + second and s.won[0] == ()


def test_combat_red_dice_count_double_and_extra_black_dice_can_be_beaten_together():
    """■戦闘ルール: red dice count double; a player may beat several black dice at once and
    gains 1 influence per black die beaten."""
    s = position(2, to_move=0, dice={0: "r3 y2", 1: "y1"}, influence={0: 4})
    s.phase = COMBAT
    s.black = [5, 2]
    s.fighter = 0
    s.stack = [(F_COMBAT, 0, (), ())]
    s._legal = None
    assert "concede" not in [str(a) for a in s.legal_actions()]
    play(s, "also 2", "def r3", "def y2", "counter")  # 6 + 2 = 8 >= 5 + 2
    assert s.influence[0] == 6 and s.black == []


def test_combat_a_black_die_not_beaten_costs_2_vp_and_no_die():
    """■戦闘ルール: a player who cannot beat it discards the black die and loses 2 VP."""
    s = position(2, to_move=0, dice={0: "y1 y2", 1: "r6"}, vp={0: 5, 1: 5}, influence={0: 0, 1: 3})
    s.phase = COMBAT
    s.black = [6, 1]
    s.fighter = 0
    s.stack = []
    from palio.games.troyes.rules.combat import next_black

    next_black(s)  # seat 0 cannot reach 6 and has no influence: it concedes at once
    assert s.vp[0] == 3 and s.dice[0 * 18 + 2 * 6] == 1  # kept its yellow 1
    assert s.to_move == 1  # seat 1 faces the 1
    play(s, "def r6", "counter")
    assert s.influence[1] == 4 and s.vp[1] == 5


def test_pass_gives_2_then_1_each_time_around():
    """アクション「パス」: 2 deniers into the district, then 1 more each time the turn comes."""
    s = position(2, to_move=0, dice={0: "y1", 1: "y2 y3 y4"}, money={0: 0, 1: 0})
    play(s, "pass")
    assert s.purse[0] == 2
    play(s, "farm", "die 2y2", "go")  # seat 1 acts; the turn comes round to seat 0 again
    assert s.purse[0] == 3 and s.to_move == 1
    play(s, "pass")  # everyone has passed: the round ends and the districts pay out
    assert s.round == 2 and s.purse == [0, 0]


def test_income_10_then_salaries_1_bishopric_2_palace():
    """フェイズ1: 10 deniers, then 1 per Bishopric citizen and 2 per Palace citizen; what
    cannot be paid costs 2 VP."""
    s = position(2, to_move=1, dice={0: "y1"}, money={0: 0, 1: 0}, vp={0: 4, 1: 4},
                 spaces={"P1": 0, "P2": 0, "P3": 0, "P4": 0, "P5": 0, "P6": 0, "B1.1": 0,
                         "C1.1": 1}, passed=[1, 0])
    s.red_deck = [event_id(s, "succession")]
    s.yellow_deck = [event_id(s, "wayfarers")]
    s.rounds = 3
    s.queue = [s.comp.marauding]
    s.ev_cubes = [()]
    play(s, "pass")
    # seat 0 owes 6 x 2 + 1 = 13 from 10 + 0: pays 10 and loses 2 VP; seat 1 owes nothing
    assert s.round == 2
    events = [e for e in s.events if e.kind == "income"][-2:]
    assert events[0].public["paid"] == 10 and events[0].public["salary"] == 13
    assert events[1].public["paid"] == 0
    penalty = [e for e in s.events if e.kind == "penalty"]
    assert [(e.seat, e.public["reason"], e.public["vp"]) for e in penalty] == [(0, "salary", 2)]


def test_character_thresholds_and_the_two_player_shift():
    """キャラクターカード: 3-4 / 5-6 / 7 for Chrétien and Urbain, one more with 2 players
    ([RB]); all dealt characters score every player."""
    from palio.games.troyes.scoring import character_vp

    s = position(3, to_move=0)
    chretien = [i for i, k in enumerate(s.comp.characters) if k[0] == "chretien"][0]
    for count, vp in ((2, 0), (3, 1), (4, 1), (5, 3), (6, 3), (7, 6), (9, 6)):
        s.spaces = [0] * count + [-1] * (s.comp.n_spaces - count)
        assert character_vp(s, chretien, 0) == vp, count
    s2 = position(2, to_move=0)
    for count, vp in ((3, 0), (4, 1), (5, 1), (6, 3), (7, 3), (8, 6)):
        s2.spaces = [0] * count + [-1] * (s2.comp.n_spaces - count)
        assert character_vp(s2, chretien, 0) == vp, count
    thibaut = [i for i, k in enumerate(s.comp.characters) if k[0] == "thibaut"][0]
    for money, vp in ((5, 0), (6, 1), (11, 1), (12, 3), (17, 3), (18, 6), (40, 6)):
        s.money[1] = money
        assert character_vp(s, thibaut, 1) == vp
