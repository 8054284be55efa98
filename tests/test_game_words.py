"""The words of San Gimignano and Tiletum, checked against the rules they describe.

``tests/test_words.py`` checks every game's words for completeness and plain form; these tests
check that what the words say is true: labels and explanations give the costs and gains the
rulebooks give, reasons for an illegal move never break, the score rows add up, the prompts
link to sections that exist, and Tiletum's table fits a terminal.
"""

from __future__ import annotations

import math
import random
import re
import unicodedata
from pathlib import Path

import pytest

import palio
from palio.core import describe
from palio.core.i18n import Translator
from palio.games.san_gimignano import GAME as SG
from palio.games.san_gimignano import components as SC
from palio.games.san_gimignano import words as sg_words
from palio.games.tiletum import GAME as TL
from palio.games.tiletum import words as tl_words
from palio.games.tiletum.components import CHAR_TILE, CONTRACT_TILE, HELPER, HELPER_EFFECTS
from palio.games.tiletum.scenario import position, rotation_for
from palio.games.tiletum.state import F_ACT, F_DIE, F_STEPS
from tests.san_gimignano.table import table
from tests.test_words import check_text

DOCS = Path(__file__).resolve().parents[1] / "docs" / "rules"
EN = Translator("en", ["Alice", "Bruno", "Chiara", "Dario"])
JA = Translator("ja", ["Alice", "Bruno", "Chiara", "Dario"])


def words(state, notation: str, tr: Translator = EN) -> tuple[str, str, str]:
    action = state.game.parse_action(notation)
    assert action in state.legal_actions(), f"{notation} is not legal here"
    said = state.game.words.action(state, action)
    return tr(said.label), tr(said.explain), tr(said.group)


def slugs(path: Path) -> set[str]:
    """Anchors of a markdown file's headings: the explicit ``{#id}`` a heading ends with (what
    the rules pages use, the same in both languages), else the GitHub-style slug."""
    out = set()
    for line in path.read_text(encoding="utf-8").splitlines():
        if line.startswith("#"):
            explicit = re.search(r"\{#([\w-]+)\}\s*$", line)
            if explicit:
                out.add(explicit.group(1))
                continue
            title = line.lstrip("#").strip().lower()
            out.add(re.sub(r"[^\w\- ]", "", title).replace(" ", "-"))
    return out


@pytest.mark.parametrize(
    ("module", "doc"), [(sg_words, "san-gimignano.md"), (tl_words, "tiletum.md")]
)
def test_prompt_sections_are_headings_of_the_rules_document(module, doc):
    anchors = slugs(DOCS / doc)
    for key, section in module.SECTIONS.items():
        assert section in anchors, f"{key}: no heading #{section} in docs/rules/{doc}"


# -- San Gimignano: labels against the rulebook ---------------------------------------------------
def test_sg_buy_takes_two_cards_and_says_the_hand_after():
    s = table(hands=([5, 6, 7], [8, 8]), market=[9, 9, 10, 10])
    label, explain, group = words(s, "buy")
    assert label == "Buy stone: take 2 cards" and "from 3 to 5 of 7" in explain
    s.deck = s.deck[-1:]  # 石材の購入: with one card left in the deck, only one is taken
    s._legal = None
    assert words(s, "buy")[0] == "Buy stone: take 1 card"
    assert words(s, "buy", JA)[0] == "石材の購入：1枚取る"


def test_sg_build_explains_each_donation_as_the_rulebook_gives_it():
    s = table(
        hands=([7, 7, 7, 8, 8, 8, 9], [5, 6, 6]),
        market=[10],
        towers=((1, (10, 10, 10), False), (1, (6, 6, 6), False)),
    )
    label, explain, _ = words(s, "build 7,7,7")
    assert label == "Build a tower of 7s, 3 high"
    assert "Grace: 2 points per level at the end (6 now)" in explain  # 7【恩寵】 2 per level
    assert "恩寵" in words(s, "build 7,7,7", JA)[1]
    assert "Capital: then draw 3 cards" in words(s, "build 8,8,8")[1]  # 8【増資】 as many as tall
    s.hands[0] = [9, 9, 9, 9]
    s._legal = None
    # 9【取引】: take as many as the tower is tall (Bruno holds 3), give back height - 1
    assert "take 3 cards unseen from Bruno, then give back 3" in words(s, "build 9,9,9,9")[1]
    s.hands[0] = [10, 10, 10]
    s._legal = None
    # 10【陰謀】: the tallest tower no taller than it; the 6-tower is never collapsed
    assert "collapses tower 1 of Bruno (tower of 10s, 3 high)" in words(s, "build 10,10,10")[1]


def test_sg_extend_draws_as_many_as_placed_except_in_the_end_phase():
    s = table(hands=([8, 8, 5], [5]), towers=((0, (8, 8, 8), False),))
    assert words(s, "extend 1 8")[1] == (
        "The tower becomes 4 high. Takes the tallest-tower token "
        "(+10 points). When you finish, draw 1 card"
    )
    s.apply("extend 1 8")
    assert "draw 2 cards" in words(s, "extend 1 8")[1]
    s = table(
        hands=([8], [5]), towers=((0, (8, 8, 8), False), (1, (9, 9, 9, 9), False)), end_phase=True
    )
    assert "No cards are drawn in the end phase" in words(s, "extend 1 8")[1]


def test_sg_defence_is_always_asked_and_the_prompt_to_others_reveals_nothing():
    s = table(hands=([9, 9, 9, 5], [6, 7]))
    s.apply("build 9,9,9")
    s.apply("use")  # the builder may decline a donation (docs/rules/san-gimignano.md)
    assert s.to_move == 1 and [str(a) for a in s.legal_actions()] == ["allow"]  # no 5 held
    said = SG.words.prompt(s)
    assert EN(said.to_others) == "Bruno decides whether to cancel the Trade"
    assert (
        EN(said.to_mover)
        == "The Trade of Alice takes 2 cards from your hand: play a 5 to cancel it, or let it happen"
    )


def test_sg_why_illegal_gives_the_rulebook_reasons():
    s = table(hands=([5, 6, 7, 8, 9, 10, 10], [5]), market=[9])
    why = SG.words.why_illegal
    assert (
        EN(why(s, SG.parse_action("buy")))
        == "Buying 2 cards would take your hand of 7 over its limit of 7."
    )
    assert (
        EN(why(s, SG.parse_action("declare")))
        == "You need 4 completed towers to declare the end; you have 0."
    )
    assert EN(why(s, SG.parse_action("build 9,9,9"))) == "You lack 9, 9 for that tower."
    s = table(hands=([5], [5]), towers=((0, (8, 8, 8), True),), end_phase=True)
    assert (
        EN(why(s, SG.parse_action("complete 1"))) == "Towers cannot be completed in the end phase."
    )
    s = table(
        hands=([9, 9, 9, 9], [5]),
        front=([], [SC.ORDINANCE]),
        nobles=True,
        towers=((1, (6, 6, 6), False),),
    )
    assert (
        JA(why(s, SG.parse_action("build 9,9,9,9")))
        == "Bruno\u306e高さ制限令により、3段より高い塔は持てません。"
    )


def test_sg_score_rows_follow_the_rulebook_example_categories():
    # the rulebook's example: Adso 63 = 15 + 33 + 5 + 10 (no 7-tower)
    s = table(
        towers=(
            (0, (10, 10, 10), True),
            (0, (9, 9, 9), True),
            (0, (8, 8, 8), True),
            (0, (6, 6, 6, 6, 6), False),
            (0, (5, 6, 7, 8, 9), False),
            (1, (7, 7, 7), True),
        ),
        token=0,
    )
    rows = {EN(r.category): r.points[0] for r in SG.words.scores(s)}
    assert rows["Completed towers"] == 15 and rows["Multi-number towers"] == 5
    assert rows["Tallest tower"] == 10 and sum(rows.values()) == s.scores()[0]


# -- Tiletum: labels against the rulebook -------------------------------------------------------
def test_tl_die_label_gives_the_area_ap_and_the_shift_cost():
    s = position(2, to_move=0, dice=[(3, "i")], res={0: "g4"})
    s.rotation = rotation_for(s, 1, "architect")
    label, explain, group = words(s, "die 3i>1")
    # 7 - 1 = 6 AP; two pips of shift cost 2 gold each
    assert label == "Take the iron die 3, turned to 1 for 4 gold: Architect, 6 AP"
    assert group == "Architect · dice showing 1 · 6 AP"
    assert explain.startswith(
        "Pay 4 gold to turn it (you have 4). Gain 1 iron. Then the Architect action with 6 AP"
    )
    assert (
        words(s, "die 3i")[0]
        == "Take the iron die 3: " + words(s, "die 3i")[2].split(" · ")[0] + ", 4 AP"
    )
    assert words(s, "die 3i>1", JA)[0] == "鉄のダイス3を1に変えて取る（黄金4）：建築士・6AP"


def test_tl_king_steps_are_one_choice_that_says_where_the_marker_lands():
    s = position(2, to_move=0, dice=[(4, "i")])
    s.rotation = rotation_for(s, 4, "king")
    s.apply("die 4i")
    vps = s.comp.king_vp
    start = s.king_pos[0]
    label, explain, _ = words(s, "king")
    assert label == "Advance 3 spaces on the King track"
    start_vp, end_vp = EN(tl_words.signed(vps[start])), EN(tl_words.signed(vps[start + 3]))
    assert f"from the {start_vp} space to the {end_vp} space" in explain
    s = position(2, to_move=0, stack=[(F_DIE,), (F_ACT, 4, 3, 0, 0)])
    s.king_pos[0] = len(vps) - 2
    s._legal = None
    label, explain, _ = words(s, "king")
    assert label == "Advance 1 space on the King track" and "2 AP are lost" in explain


def test_tl_fulfil_gives_the_contract_vp_plus_the_space_vp():
    s = position(2, to_move=0, res={0: "i5"})
    tile = next(
        i for i, t in enumerate(s.comp.tiles) if t[0] == CONTRACT_TILE and t[1] == ((4, 5),)
    )
    s.store[0] = [tile]
    label, explain, group = words(s, "fulfil 1")
    vp = s.comp.tiles[tile][2]
    space = s.comp.contract_space_vp[0]
    assert (
        f"Pay 5 iron. +{vp + space} VP: {vp} for the contract, {space} for the contract space"
        in explain
    )
    assert "The pillar on that contract space joins your supply" in explain
    assert "King marker moves up one space" in explain  # the 5-iron contract's extra
    assert group == "Duties, any time in your turn"


def test_tl_character_room_costs_its_floor_in_ap():
    s = position(2, to_move=0, stack=[(F_DIE,), (F_ACT, 2, 5, 0, 1)])
    s.store[0] = [next(i for i, t in enumerate(s.comp.tiles) if t[0] == CHAR_TILE)]
    s._legal = None
    assert words(s, "room 1 b1 f3")[1].startswith("3 AP, 2 left after")
    assert words(s, "room 1 b1 f1")[1].startswith("1 AP, 4 left after")


def test_tl_helper_label_names_its_ability():
    s = position(2, to_move=0)
    tile = next(
        i
        for i, t in enumerate(s.comp.tiles)
        if t[0] == HELPER and HELPER_EFFECTS[t[1]] == "any" and t[2] == 3
    )
    s.store[0] = [tile]
    s._legal = None
    assert words(s, "helper 1")[0] == "Use the helper: 3 resources of your choice"
    assert words(s, "helper 1", JA)[0] == "助手を使う：任意の資源3"


def test_tl_why_illegal_names_the_missing_gold_and_the_distance():
    s = position(
        2, to_move=0, dice=[(3, "i")], res={0: "g1"}, architect={0: "Praha"}, stack=[(F_DIE,)]
    )
    why = TL.words.why_illegal
    assert EN(why(s, TL.parse_action("die 3i>1"))) == "Turning it to 1 costs 4 gold; you have 1."
    assert EN(why(s, TL.parse_action("die 5g"))) == "There is no gold die showing 5 on the wheel."
    s.stack = [(F_DIE,), (F_ACT, 0, 3, 0, 1)]
    s._legal = None
    assert EN(why(s, TL.parse_action("move arch London"))) == (
        "London is not next to Praha, where your architect stands."
    )
    assert EN(why(s, TL.parse_action("pillar Paris"))) == "Your architect is not in Paris."


# -- every game: reasons never break, rows add up, the board fits --------------------------------
def positions(game_id: str, players: int, seed: int, every: int):
    game = palio.get_game(game_id)
    options = {"nobles": True} if game_id == "san-gimignano" else {}
    state = game.setup(players, seed, options)
    rng = random.Random(seed)
    step = 0
    while not state.is_over:
        if step % every == 0:
            yield state
        busy = [a for a in state.legal_actions() if str(a) not in ("pass", "end", "done")]
        state.apply_unchecked(
            rng.choice(busy if busy and rng.random() < 0.9 else state.legal_actions())
        )
        step += 1
    yield state


@pytest.mark.parametrize(
    ("game_id", "players"), [("san-gimignano", 2), ("tiletum", 2), ("tiletum", 4)]
)
def test_why_illegal_never_breaks_and_reads_plainly(game_id, players):
    game = palio.get_game(game_id)
    space = game.all_actions()
    rng = random.Random(7)
    for state in positions(game_id, players, seed=players, every=17):
        legal = set(state.legal_actions())
        before = state.observe(None)
        for action in rng.sample(space, 60):
            if action in legal:
                continue
            reason = game.words.why_illegal(state, action)
            if reason is not None:
                for tr in (EN, JA):
                    check_text(tr(reason), tr.lang, f"why {action}", set())
        assert state.observe(None) == before  # asking changes nothing


@pytest.mark.parametrize("players", [2, 3, 4])
def test_tiletum_score_rows_come_from_the_log_and_add_up(players):
    for state in positions("tiletum", players, seed=10 + players, every=40):
        rows = TL.words.scores(state)
        keys = [row.category.id for row in rows]
        assert "tiletum.score.other" not in keys, "a VP gain the log does not show"
        for seat in range(players):
            assert sum(row.points[seat] for row in rows) == state.vp[seat]


def screen_rows(text: str, width: int = 100) -> int:
    def cells(line: str) -> int:
        return sum(2 if unicodedata.east_asian_width(ch) in "WF" else 1 for ch in line)

    return sum(max(1, math.ceil(cells(line) / width)) for line in text.splitlines())


@pytest.mark.parametrize("tr", [EN, JA], ids=["en", "ja"])
def test_tiletum_board_fits_50_rows_of_a_100_column_terminal_at_four_players(tr):
    for seed in (1, 2):
        for state in positions("tiletum", 4, seed=seed, every=25):
            text = TL.render(state, state.to_move, tr)
            assert screen_rows(text) <= 50, text
            assert "Seat" not in text and "completed 3" not in text


def test_choices_name_every_legal_action_differently():
    """Two legal actions with the same label and group would be indistinguishable buttons."""
    for game_id, players in (("san-gimignano", 2), ("tiletum", 3)):
        for state in positions(game_id, players, seed=5, every=9):
            if state.is_over:
                continue
            seen = {}
            for choice in describe.choices(state, EN):
                key = (choice["group"], choice["label"])
                assert key not in seen, f"{choice['notation']} and {seen[key]} both read {key}"
                seen[key] = choice["notation"]


def test_a_rejected_move_carries_its_reason_in_words():
    """State.apply's errors say why in the catalogs' words, for clients in any language."""
    from palio.core.errors import IllegalAction, NotationError

    s = table(hands=([5, 6, 7], [8]))
    with pytest.raises(IllegalAction) as caught:
        s.apply("declare")
    assert EN(caught.value.words) == "You need 4 completed towers to declare the end; you have 0."
    with pytest.raises(NotationError) as caught:
        s.apply("fly away")
    assert JA(caught.value.words) == "このゲームの手ではありません。"
    t = position(2, to_move=0)
    with pytest.raises(IllegalAction) as caught:
        t.apply("exchange g w")
    assert EN(caught.value.words) == "Take a die first."


def test_tl_a_placement_costs_an_ap_only_inside_the_action():
    """商人アクション: a house costs 1 AP; the step-and-house character's house is free."""
    s = position(2, to_move=0, merchant={0: "Paris"}, stack=[(F_DIE,), (F_ACT, 1, 3, 0, 1)])
    assert words(s, "house Paris.1")[1].startswith("1 AP, 2 left after")
    s = position(2, to_move=0, merchant={0: "Paris"}, stack=[(F_DIE,), (F_STEPS, 1, 1, 1, 0)])
    assert words(s, "house Paris.1")[1].startswith("A bonus. Houses on the map: 2")
