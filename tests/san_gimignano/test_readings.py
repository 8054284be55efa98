"""Readings of the rulebook chosen after the audit (issue 16), and the public facts of pending
decisions that every view must carry. Each reading is argued in ``docs/coverage/san-gimignano.md``.
"""

from collections import Counter

from palio.games.san_gimignano import components as C
from tests.san_gimignano.table import table, texts

L, J = C.LUXURY, C.JOUSTING


def play(s, *moves):
    for move in moves:
        s.apply(move)
    return s


def views(s):
    return [s.observe(seat) for seat in (None, 0, 1)]


# -- (a) a donation "can be used" (使うことができます): the builder may decline it ----------------
def test_the_builder_may_decline_an_8_9_or_10_donation():
    s = table(hands=([8, 8, 8], [5]), market=[6, 7, 9, 10], deck=[5, 5, 5])
    play(s, "build 8,8,8")
    assert s.to_move == 0 and texts(s) == {"use", "decline"}
    play(s, "decline")
    assert s.hands[0] == [] and s.to_move == 1 and s.events[-1].kind == "decline"
    s = table(hands=([8, 8, 8], [5]), market=[6, 7, 9, 10], deck=[5, 5, 5])
    play(s, "build 8,8,8", "use")
    assert s.frames[-1][:3] == ("draw", 0, 3)


def test_a_10_is_no_longer_forced_onto_the_builders_own_tower():
    s = table(hands=([10, 10, 10, 8], [6]), market=[6, 6, 6, 6], towers=((0, (7, 8, 9), False),))
    play(s, "build 10,10,10")
    assert texts(s) == {"use", "decline"}
    play(s, "decline")
    assert [t.cards for t in s.towers] == [(7, 8, 9), (10, 10, 10)] and s.to_move == 1


def test_a_9_is_declined_before_the_opponent_is_asked():
    s = table(hands=([9, 9, 9, 5], [6, 7]), market=[5, 5, 5, 5])
    play(s, "build 9,9,9")
    assert s.to_move == 0 and texts(s) == {"use", "decline"}
    play(s, "decline")
    assert s.hands == [[5], [6, 7]] and s.to_move == 1


def test_no_question_when_the_donation_could_do_nothing():
    # a 10 with no tower it could collapse
    s = table(hands=([10, 10, 10], [6]), market=[6, 6, 6, 6])
    play(s, "build 10,10,10")
    assert s.to_move == 1 and not s.frames
    # 5s, 6s and 7s have no effect to decide on
    s = table(hands=([7, 7, 7], [6]), market=[6, 6, 6, 6])
    play(s, "build 7,7,7")
    assert s.to_move == 1 and not s.frames


# -- (b) the 7's bonus is its donation (恩寵): none for a 7-tower started in the end phase ------
def test_a_7_tower_started_in_the_end_phase_earns_no_grace():
    s = table(hands=([7, 7, 7], [7, 7, 7]), market=[], deck=[], end_phase=True)
    play(s, "build 7,7,7", "pass")
    assert s.towers[0].in_end_phase
    assert s.observe(None)["players"][0]["towers"][0]["end_phase"] is True
    play(s, "pass")
    from palio.games.san_gimignano import score_breakdown

    assert score_breakdown(s)[0]["grace"] == 0
    # the same tower built before the end phase keeps its grace, levels added later included
    s = table(hands=([7, 7, 7, 7], [6]), market=[5, 5, 5, 5])
    play(s, "build 7,7,7", "pass")
    s.end_phase = True
    s._legal = None
    play(s, "extend 1 7", "done", "pass", "pass")
    assert score_breakdown(s)[0]["grace"] == 8


# -- (c) a luxury stone carries every donation 5-10, the 5's cancel included -----------------
def test_a_luxury_stone_cancels_a_9_as_a_5_would():
    s = table(nobles=True, hands=([9, 9, 9], [L, 8, 10]), market=[6, 6, 6, 6], deck=[7, 7])
    play(s, "build 9,9,9", "use")
    assert s.to_move == 1 and texts(s) == {"allow", "cancel L"}
    play(s, "cancel L")
    assert s.to_move == 0 and texts(s) == {"allow"}  # a noble card: the builder may joust it
    play(s, "allow")
    assert L in s.front[1] and s.nobles_used == [0, 1] and sorted(s.hands[1]) == [8, 10]
    assert s.deck == [7, 7] and s.to_move == 1 and not s.frames


def test_a_jousted_stone_leaves_the_9_to_be_answered_again():
    s = table(nobles=True, hands=([9, 9, 9, J], [L, 5, 10]), market=[6, 6, 6, 6], deck=[7, 7])
    play(s, "build 9,9,9", "use", "cancel L", "joust")
    assert s.to_move == 1 and texts(s) == {"allow"}  # no jousting card to answer with
    play(s, "allow")
    assert L in s.removed and s.nobles_used == [1, 0]
    assert s.to_move == 1 and texts(s) == {"allow", "cancel"}  # the 9 is still aimed at seat 1
    play(s, "cancel")
    assert s.deck[0] == 5 and s.hands[1] == [10]


def test_a_stone_cancel_respects_the_usage_limit_and_the_base_game_has_none():
    s = table(nobles=True, hands=([9, 9, 9], [L, 8]), market=[6, 6, 6, 6])
    s.nobles_used = [0, 1]
    play(s, "build 9,9,9", "use")
    assert texts(s) == {"allow"}  # seat 1 is already one noble ahead


# -- (d) noble cards have another back: the taker of a 9 picks backs, cards stay blind -------
def test_the_taker_of_a_9_chooses_tower_or_noble_backs_one_card_at_a_time():
    s = table(nobles=True, hands=([9, 9, 9], [L, J, 6, 8]), market=[5, 5, 5, 5])
    play(s, "build 9,9,9", "use", "allow")
    assert s.to_move == 0 and texts(s) == {"pick tower", "pick noble"}
    play(s, "pick noble", "pick noble")
    assert texts(s) == {"pick tower"} or s.frames[-1][0] == "give"
    assert Counter(c in C.NOBLE_COUNTS for c in s.hands[0]) == {True: 2, False: 1}
    assert sorted(s.hands[0])[:1] in ([6], [8])  # the third card came from the tower backs
    assert s.frames[-1][:3] == ("give", 0, 2)
    trade = [e for e in s.events if e.kind == "trade"][-1]
    assert trade.public == {"count": 3, "nobles": 2}


def test_the_9_trade_is_automatic_when_one_kind_of_back_is_left():
    s = table(hands=([9, 9, 9], [6, 7, 8, 10]), market=[5, 5, 5, 5])
    play(s, "build 9,9,9", "use", "allow")
    assert len(s.hands[0]) == 3 and s.frames[-1][:3] == ("give", 0, 2)


# -- public facts of pending decisions, in every seat's and the spectator's view -----------------
def test_the_view_names_the_tower_a_10_is_aimed_at():
    s = table(hands=([10, 10, 10], [5]), market=[6, 6, 6, 6],
              towers=((1, (7, 8, 9), False), (1, (5, 6, 7), False), (0, (6, 7, 8), False)))
    play(s, "build 10,10,10", "use", "collapse opp 2")
    for view in views(s):
        top = view["pending"][-1]
        assert top["step"] == "defend" and top["number"] == 10
        assert top["tower"] == {"seat": 1, "number": 2}


def test_the_view_lists_the_towers_a_10_may_collapse_and_the_new_9():
    s = table(hands=([10, 10, 10], [5]), market=[6, 6, 6, 6],
              towers=((1, (7, 8, 9), False), (0, (6, 7, 8), False)))
    play(s, "build 10,10,10", "use")
    for view in views(s):
        assert view["pending"][-1]["candidates"] == [{"seat": 1, "number": 1},
                                                     {"seat": 0, "number": 1}]
    s = table(hands=([9, 9, 9], [5]), market=[6, 6, 6, 6], towers=((0, (6, 7, 8), False),))
    play(s, "build 9,9,9")
    for view in views(s):
        assert view["pending"][-1] == {"step": "effect", "seat": 0, "number": 9,
                                       "tower": {"seat": 0, "number": 2}}
    play(s, "use")
    assert all(v["pending"][-1]["tower"] == {"seat": 0, "number": 2} for v in views(s))


def test_the_view_names_the_tower_being_extended_and_the_noble_being_played():
    s = table(nobles=True, hands=([9, L, C.CITY_WALLS], [J]), market=[6, 6, 6, 6],
              towers=((0, (5, 6, 7), False), (0, (9, 9, 9), False)))
    play(s, "extend 2 9")
    for view in views(s):
        assert view["pending"][-1] == {"step": "extend", "seat": 0, "tower": {"seat": 0, "number": 2},
                                       "placed": 1}
    play(s, "extend 2 L")
    for view in views(s):
        window = view["pending"][-1]
        assert window["chain"] == ["L"] and window["concerns"] == "extend"
        assert window["tower"] == {"seat": 0, "number": 2}
    s = table(nobles=True, hands=([C.CITY_WALLS], [J]), market=[6, 6, 6, 6])
    play(s, "play W")
    for view in views(s):
        assert view["pending"][-2] == {"step": "play", "seat": 0, "card": "W"}
        assert view["pending"][-1]["concerns"] == "play"


# -- a spectator never sees the cards of a trade --------------------------------------------------
def test_a_spectator_does_not_see_traded_cards_in_known_hands():
    s = table(hands=([9, 9, 9, 6], [7, 8, 10]), market=[5, 5, 5, 5])
    play(s, "build 9,9,9", "use", "allow")
    for _ in range(2):
        play(s, f"give {s.hands[0][0]}")
    spectator = s.observe(None)
    assert spectator["players"][0]["known_hand"] == [] and spectator["players"][1]["known_hand"] == []
    assert s.observe(1)["players"][0]["known_hand"]  # the victim knows what was taken
    # cards taken from the market stay known to everyone
    s = table(hands=([5], [6]), market=[9, 8, 10, 7])
    play(s, "buy", "take 9", "take 8")
    assert s.observe(None)["players"][0]["known_hand"] == ["8", "9"]


# -- the same facts in words: prompts, choices and the log, in both languages --------------------
def said(s, viewer, lang="en"):
    from palio.core import describe
    from palio.core.i18n import Translator

    tr = Translator(lang)
    prompt = describe.prompt(s, viewer, tr)
    choices = [c["label"] for c in describe.choices(s, tr)] if viewer == s.to_move else []
    return prompt["text"] if prompt else "", choices, [line["text"] for line in describe.log(s, viewer, tr)]


def test_words_name_the_tower_a_10_is_aimed_at_for_everyone():
    s = table(hands=([10, 10, 10], [5]), market=[6, 6, 6, 6],
              towers=((1, (7, 8, 9), False), (1, (5, 6, 7), False), (0, (6, 7, 8), False)))
    play(s, "build 10,10,10")
    prompt, choices, _ = said(s, 0)
    assert "Intrigue" in prompt and "Use the Intrigue" in choices and "Decline the Intrigue" in choices
    play(s, "use", "collapse opp 2")
    for viewer in (None, 0, 1):
        prompt, _, log = said(s, viewer)
        assert "tower 2" in prompt
        assert any("aimed at tower 2" in line for line in log)
    assert any("塔2" in line for line in said(s, None, "ja")[2])


def test_words_for_declining_picking_backs_and_a_stone_as_a_5():
    s = table(nobles=True, hands=([9, 9, 9], [L, J, 6, 8]), market=[5, 5, 5, 5])
    play(s, "build 9,9,9", "use")
    _, choices, _ = said(s, 1)
    assert any("luxury stone as a 5" in c for c in choices)
    play(s, "allow")
    prompt, choices, _ = said(s, 0)
    assert "noble back" in prompt and "Take a card with a noble back" in choices
    assert "choosing" in said(s, None)[0]
    play(s, "pick noble", "pick tower", "pick tower")
    assert any("with a noble back" in line for line in said(s, None)[2])
    s = table(hands=([8, 8, 8], [5]), market=[6, 7, 9, 10], deck=[5, 5, 5])
    play(s, "build 8,8,8", "decline")
    assert any("unused" in line for line in said(s, None)[2])
    assert any("使いませんでした" in line for line in said(s, None, "ja")[2])


def test_words_name_the_tower_being_extended_and_the_ordinance_returning_none():
    s = table(hands=([9], [6]), market=[6, 6, 6, 6], towers=((0, (5, 6, 7), False), (0, (9, 9, 9), False)))
    play(s, "extend 2 9")
    assert "tower 2" in said(s, 1)[0] and "tower 2" in said(s, None)[0]
    s = table(nobles=True, hands=([C.ORDINANCE, J, 9], [J, 8]), towers=((0, (7, 7, 7), False),),
              market=[10, 10, 10, 10])
    play(s, "play O", "joust", "joust", "allow")
    assert any("returns none" in line for line in said(s, None)[2])


def test_a_spectator_cannot_tell_which_known_card_a_trade_moved():
    """The victim once took a 9 from the market (everyone saw it). Whether the 9 is among the
    cards taken blind must not show in the spectator's view, nor which card came back."""
    views_after = set()
    for seed in range(12):
        s = table(hands=([9, 9, 9, 5], [6, 7, 8]), market=[9, 10, 10, 10])
        play(s, "pass", "buy", "take 9", "draw")  # seat 1 now holds a 9 everyone saw taken
        assert s.observe(None)["players"][1]["known_hand"] == ["9"]
        s.seed = seed  # another blind draw
        play(s, "build 9,9,9", "use", "allow")
        for _ in range(2):
            play(s, f"give {max(s.hands[0])}")
        spectator = s.observe(None)
        views_after.add(repr((spectator["players"], spectator["pending"])))
    assert len(views_after) == 1
