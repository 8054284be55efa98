"""Every worked example of the rulebook (shared/seeds/aquileia.ja.md), through the public API.

The examples' players sit in the order the stadium example plays them: Stefan (blue, seat 0,
start player), Walter (green, 1), Giorgio (yellow, 2), Kiko (red, 3). Each position is built at
the end of a placement phase (``scenario.position``); the last tiebreaker starts the action
phase, and every decision the example makes is played as an action. Dice the example reports
are rolled first (``dice``: g gold, s silver, b bronze faces).
"""

from __future__ import annotations

import random
from itertools import product

from palio.games.aquileia import GAME
from palio.games.aquileia.scenario import position
from palio.games.aquileia.scoring import laurel_points
from palio.games.aquileia.state import CAT_ARENA, OVER

STEFAN, WALTER, GIORGIO, KIKO = range(4)
TIEBREAKERS = {STEFAN: 1, KIKO: 2, WALTER: 3}  # Giorgio places last, on space 4


def legal(s):
    return [str(a) for a in s.legal_actions()]


def bronze(s, seat):
    return s.coins_of(seat)[2]


def arena_example(dice_after: str = ""):
    """闘技場での戦いの例: Stefan on a strength-1 field, Giorgio on the 2, Kiko on a 1;
    Giorgio holds the blue dice; Kiko is on space 2 of the tiebreaker track, Giorgio on 4."""
    return position(
        4, fields={"arena1": STEFAN, "arena3": GIORGIO, "arena2": KIKO, "potentia": GIORGIO},
        coins={s: "b0" for s in range(4)},
        hands={GIORGIO: "weapon_2 slave_1", KIKO: "weapon_2"},
        tiebreaker=TIEBREAKERS, to_move=GIORGIO,
        # red dice in turn order: Stefan one bronze, Giorgio none, Kiko three; then Giorgio's
        # two blue dice, one bronze
        dice="bgs gsg bbb" + " bg" + dice_after)


def test_arena_example_strengths_tie_break_and_prizes():
    s = arena_example()
    s.apply("tiebreaker")
    assert s.tb[GIORGIO] == 3  # space 4
    assert s.strength[STEFAN] == 2 and s.strength[GIORGIO] == 2 and s.strength[KIKO] == 4
    # Stefan has no card: Giorgio plays first, a two-weapon card and a one-slave card
    assert s.to_move == GIORGIO
    assert sorted(legal(s)) == ["done", "play slave_1", "play weapon_2"]
    s.apply("play weapon_2")
    s.apply("play slave_1")
    assert s.strength[GIORGIO] == 5
    # Kiko plays their two-weapon card: strength 6
    assert s.to_move == KIKO
    s.apply("play weapon_2")
    assert s.strength[KIKO] == 6
    # Giorgio chooses two of their four blue dice and rolls them together: one bronze,
    # strength 6; two are kept (the example's "used 2 of them; one bronze came up")
    assert s.to_move == GIORGIO and legal(s) == ["roll 1", "roll 2", "roll 3", "roll 4", "done"]
    s.apply("roll 2")
    assert s.strength[GIORGIO] == 6 and s.blue_left == 2
    assert s.to_move != GIORGIO or "roll 1" not in legal(s)  # one decision, not one per die
    # tied at 6: Kiko is further forward on the tiebreaker track (2 against 4) and wins
    assert s.to_move == KIKO and sorted(legal(s)) == ["prize slave", "prize vp"]
    assert (bronze(s, KIKO), bronze(s, GIORGIO), bronze(s, STEFAN)) == (3, 2, 1)
    hand_before = len(s.hand[GIORGIO])
    s.apply("prize vp")
    assert s.vp[KIKO] == 12 and s.vp_cat[6 * KIKO + CAT_ARENA] == 12  # twice strength 6
    assert len(s.hand[GIORGIO]) == hand_before + 1  # Giorgio takes the slave card
    assert s.vp[GIORGIO] == 0 and s.vp[STEFAN] == 0


def test_stadium_example_sides_horses_leftover_blue_dice_and_prizes():
    """競技場での戦いの例, played on from the arena example: Giorgio still has two blue dice."""
    s = position(
        4, fields={"arena3": GIORGIO, "potentia": GIORGIO, "silver1": STEFAN, "gold2": WALTER,
                   "silver2": GIORGIO, "gold3": KIKO},
        coins={s: "b0" for s in range(4)},
        hands={STEFAN: "horse_silver_2", GIORGIO: "horse_silver_1 horse_silver_1"},
        tiebreaker=TIEBREAKERS, to_move=GIORGIO, stadium="laurel_blue", stadium_top="laurel_vp_5",
        # the arena first (Giorgio alone, rolls nothing useful, rolls two blue dice and stops),
        # then the race: Stefan two silver, Walter one gold, Giorgio one silver, Kiko two gold;
        # Giorgio's two blue dice left: one silver
        dice="ggs" + "gg" + "ssb gbb sgb ggs" + "sb")
    s.apply("tiebreaker")
    s.apply("done")  # Giorgio's hidden cards are horses: he plays none in the arena
    s.apply("roll 2")  # two blue dice kept for the race
    s.apply("prize slave")
    assert s.blue_left == 2
    assert [s.strength[p] for p in range(4)] == [3, 3, 3, 4]
    assert s.to_move == STEFAN and legal(s) == ["play horse_silver_2", "done"]
    s.apply("play horse_silver_2")  # Stefan: 5; Walter and Kiko hold no horse
    assert s.to_move == GIORGIO
    s.apply("play horse_silver_1")
    s.apply("play horse_silver_1")  # Giorgio: 5, then the leftover blue dice: one silver, 6
    assert [s.strength[p] for p in range(4)] == [5, 3, 6, 4] and s.blue_left == 0
    # Giorgio 3 silver, Stefan 2 silver, Kiko 1 gold (their own sides), Walter nothing
    assert s.coins_of(GIORGIO)[1] == 3 and s.coins_of(STEFAN) == [0, 2, 0]
    assert s.coins_of(KIKO) == [1, 0, 0] and s.coins_of(WALTER) == [0, 0, 0]
    # Giorgio looks at the top card (only they see it) and keeps one; Stefan gets the other
    assert s.to_move == GIORGIO and legal(s) == ["laurel open", "laurel hidden"]
    assert s.observe(GIORGIO)["peek"] == "laurel_vp_5"
    assert "peek" not in s.observe(STEFAN) and "peek" not in s.observe(None)
    s.apply("laurel hidden")
    keys = GAME.components.type_key
    ctype = GAME.components.card_type
    assert [keys[ctype[c]] for c in s.hand[GIORGIO] if keys[ctype[c]].startswith("laurel")] == ["laurel_vp_5"]
    assert [keys[ctype[c]] for c in s.hand[STEFAN]] == ["laurel_blue"]
    # the face-down card need not be shown: Stefan and Walter do not see it
    assert "laurel_vp_5" not in s.observe(STEFAN)["players"][GIORGIO]["cards"]
    assert s.observe(STEFAN)["players"][GIORGIO]["hidden"]["stadium"] == 1


def test_theatre_auction_example():
    """劇場でのオークションの例: Walter opens with a silver; Giorgio matches and adds a silver;
    Kiko passes; Stefan matches and adds a bronze; Walter has no bronze and must pass; Giorgio
    passes; Stefan pays 2 silver and 1 bronze to Walter."""
    s = position(4, fields={"theatrum": WALTER},
                 coins={STEFAN: "s2 b1", WALTER: "s3", GIORGIO: "s3 b1", KIKO: "s3"},
                 tiebreaker={STEFAN: 1, KIKO: 2, GIORGIO: 3}, to_move=WALTER,
                 theatre_top="theatre_blue_yellow")
    s.apply("tiebreaker")
    assert s.observe(KIKO)["theatre_card"] == "theatre_blue_yellow"  # shown to everyone
    assert s.to_move == WALTER and legal(s) == ["bid s", "pass"]
    s.apply("bid s")
    assert s.to_move == GIORGIO and "bid s" in legal(s)  # 1 silver matched, + 1 silver
    s.apply("bid s")
    assert s.to_move == KIKO and legal(s) == ["bid s", "pass"]
    s.apply("pass")
    assert s.to_move == STEFAN and legal(s) == ["bid b", "pass"]
    s.apply("bid b")
    assert s.bid == [0, 2, 1]
    # Walter has silver enough but no bronze: he cannot match and is out without being asked
    assert s.to_move == GIORGIO and legal(s) == ["bid s", "pass"]
    assert [e["seat"] for e in s.events_for(None) if e["kind"] == "auction_pass"] == [KIKO, WALTER]
    s.apply("pass")
    assert s.coins_of(STEFAN) == [0, 0, 0] and s.coins_of(WALTER) == [0, 5, 1]
    assert s.coins_of(GIORGIO) == [0, 3, 1] and s.coins_of(KIKO) == [0, 3, 0]  # losers keep theirs
    keys = [GAME.components.type_key[GAME.components.card_type[c]] for c in s.hand[STEFAN]]
    assert keys == ["theatre_blue_yellow"]
    assert "theatre_blue_yellow" in s.observe(KIKO)["players"][STEFAN]["cards"]


def test_forum_example_blue_villa_paid_with_four_slaves_scores_ten():
    """フォーラムでの建築の例: the blue villa worth 10 costs 2 bronze, 2 silver, 1 gold and 3
    slaves; Kiko has only two 2-slave cards, pays every coin and 4 slaves, and on field 2 scores
    its 10 VP at once."""
    s = position(4, fields={"forum2": KIKO}, coins={KIKO: "g1 s2 b2"}, hands={KIKO: "slave_2 slave_2"},
                 tiebreaker={STEFAN: 1, WALTER: 2, GIORGIO: 3}, to_move=KIKO)
    villa = next(p for p, name in enumerate(GAME.legend()["plots"])
                 if name["colour"] == "blue" and name["vp"] == 10) + 1
    s.apply("tiebreaker")
    assert s.to_move == KIKO
    assert f"build {villa} 2" in legal(s)
    assert f"build {villa} 1" not in legal(s) and f"build {villa}" not in legal(s)
    s.apply(f"build {villa} 2")
    assert s.coins_of(KIKO) == [0, 0, 0] and s.hand[KIKO] == []
    assert s.plot_owner[villa - 1] == KIKO and s.houses[KIKO] == 8
    assert s.vp[KIKO] == 10


def test_forum_each_building_is_paid_separately():
    """Two buildings on field 3: one needing 3 slaves, one needing 1; two 2-slave cards pay
    the first (4 slaves) and nothing is left for the second: a card is never split."""
    s = position(4, fields={"forum3": KIKO}, coins={KIKO: "g2 s2 b4"}, hands={KIKO: "slave_2 slave_2"},
                 tiebreaker={STEFAN: 1, WALTER: 2, GIORGIO: 3}, to_move=KIKO)
    plots = GAME.legend()["plots"]
    three = next(p for p, x in enumerate(plots) if x["slaves"] == 3 and x["cost"] == {"silver": 1, "gold": 1}) + 1
    s.apply("tiebreaker")
    s.apply(f"build {three} 2")
    assert s.to_move is None or not any(a.startswith("build") for a in legal(s))
    assert s.houses[KIKO] == 8


def test_port_example_thief_then_bronze_silver_gold():
    """港のアクションの例: Walter the thief rolls bronze and gold and takes the coins under Kiko
    (bronze field) and Giorgio (gold field). Kiko pays a bronze of their own and gets a silver and
    a gold from their private bank and 4 VP from their workshop; Stefan pays with the silver on
    the field; Giorgio has no gold left and activates nothing."""
    plots = GAME.legend()["plots"]
    bank = next(p for p, x in enumerate(plots) if x["kind"] == "bank" and x["income"] == {"gold": 1, "silver": 1}) + 1
    workshop = next(p for p, x in enumerate(plots) if x["kind"] == "workshop" and x["yield_vp"] == 4) + 1
    giorgio_shop = next(p for p, x in enumerate(plots) if x["kind"] == "workshop" and x["yield_vp"] == 2) + 1
    s = position(4, fields={"latro": WALTER, "portus_bronze": KIKO, "portus_silver": STEFAN,
                            "portus_gold": GIORGIO},
                 coins={KIKO: "b1", STEFAN: "s0", GIORGIO: "g0", WALTER: "b0"},
                 plots={bank: KIKO, workshop: KIKO, giorgio_shop: GIORGIO},
                 tiebreaker={STEFAN: 1, KIKO: 2, GIORGIO: 3}, to_move=WALTER, dice="bg")
    s.apply("tiebreaker")
    assert s.coins_of(WALTER) == [1, 0, 1]  # the stolen gold and bronze
    assert s.coins_of(KIKO) == [1, 1, 0] and s.vp[KIKO] == 4
    assert s.coins_of(STEFAN) == [0, 0, 0] and s.vp[STEFAN] == 0  # no buildings, but paid
    assert s.vp[GIORGIO] == 0  # no gold: his workshop stays idle
    assert s.port_coin == [0, 0, 0]


def test_villa_end_scoring_example_32_plus_5():
    """別荘の得点の例: Kiko holds a blue stadium card and a blue/yellow theatre card (counted
    blue) and owns the blue villas worth 10 and 6: 2 cards x 16 = 32; his stadium card worth 5
    adds 5."""
    plots = GAME.legend()["plots"]
    blue = [p + 1 for p, x in enumerate(plots) if x["colour"] == "blue" and x["vp"] in (6, 10)]
    s = position(4, round=6, coins={}, hands={KIKO: "laurel_blue theatre_blue_yellow laurel_vp_5"},
                 plots={p: KIKO for p in blue}, tiebreaker={STEFAN: 1, WALTER: 2, GIORGIO: 3},
                 to_move=KIKO)
    s.apply("tiebreaker")
    assert s.phase == OVER and s.is_over
    assert s.vp[KIKO] == 32 + 5
    rows = {row.category.id.rsplit(".", 1)[-1]: row.points[KIKO] for row in GAME.words.scores(s)}
    assert rows["villas"] == 32 and rows["laurels"] == 5


def test_villas_score_nothing_without_a_card_of_their_colour():
    plots = GAME.legend()["plots"]
    blue = [p + 1 for p, x in enumerate(plots) if x["colour"] == "blue"]
    s = position(4, round=6, hands={KIKO: "laurel_white"}, plots={p: KIKO for p in blue},
                 tiebreaker={STEFAN: 1, WALTER: 2, GIORGIO: 3}, to_move=KIKO)
    s.apply("tiebreaker")
    assert s.vp[KIKO] == 0


def test_each_theatre_card_takes_the_colour_that_scores_most():
    """The engine picks every theatre card's colour for its holder: checked against trying every
    combination of picks, on random hands of up to four theatre cards and random villas."""
    plots = GAME.legend()["plots"]
    villas = [p + 1 for p, x in enumerate(plots) if x["colour"]]
    keys = GAME.components.type_key
    theatres = [k for k in keys if k.startswith("theatre_")]
    laurels = [k for k in keys if k.startswith("laurel_") and "_vp_" not in k]
    rng = random.Random(5)
    for _ in range(60):
        hand = rng.sample(theatres, rng.randint(1, 4)) + rng.sample(laurels, rng.randint(0, 2))
        owned = rng.sample(villas, rng.randint(1, 6))
        s = position(4, round=6, coins={}, hands={KIKO: " ".join(hand)},
                     plots={p: KIKO for p in owned}, to_move=KIKO)
        got = laurel_points(s, KIKO)
        comp = s.comp
        values = got["villas"]
        base = [0] * len(comp.colours)
        picks = []
        for card in s.hand[KIKO]:
            t = comp.card_type[card]
            if keys[t].startswith("theatre_"):
                picks.append(comp.type_colours[t])
            else:
                for col in comp.type_colours[t]:
                    base[col] += 1
        best = max(sum(v * (n + pick.count(c)) for c, (v, n) in enumerate(zip(values, base, strict=True)))
                   for pick in product(*picks))
        assert got["villa_vp"] == best
        assert sum(got["cards"]) == len(hand)  # one colour counted for each card
