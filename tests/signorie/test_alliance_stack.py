"""When the alliance stack runs out (issue 22: it emptied in 1 of 450 four-player progress
games): a helper that gives a face-down tile gives nothing, a city slot the stack cannot refill
stays empty, and the log says so in both languages."""

from __future__ import annotations

from palio.core import describe
from palio.core.i18n import Translator
from palio.games.signorie.scenario import position, set_city_tile, set_helpers
from tests.signorie.helpers import YELLOW, Y, play
from tests.signorie.test_scenarios import all_pass


def empty_stack(s) -> None:
    s.removed = s.removed + tuple(s.alliance)
    s.alliance = []
    s._legal = None


def log_text(s, lang: str) -> str:
    names = ["Ada", "Bo", "Cy", "Di"][:s.players]
    return "\n".join(line["text"] for line in describe.log(s, None, Translator(lang, names)))


def test_a_helper_with_no_tile_to_give_says_so():
    s = position(4, to_move=YELLOW, florins={YELLOW: 5}, pool="y6")
    set_helpers(s, YELLOW, Y, 0b010)  # yellow slot 2: a face-down alliance tile
    empty_stack(s)
    play(s, "die y6", "florins")
    assert s.to_move != YELLOW and not any(s.rows_down[YELLOW * 4 + r] for r in range(4))
    assert "gives nothing: the alliance stack is empty" in log_text(s, "en")
    assert "同盟タイルの山が尽きている" in log_text(s, "ja")
    you = Translator("en", ["You", "Bo", "Cy", "Di"], you=YELLOW)
    assert "One of your helpers" in "\n".join(line["text"] for line in describe.log(s, None, you))


def test_a_city_slot_the_stack_cannot_refill_stays_empty():
    s = position(2, to_move=0, clear=False, pool="")
    city = s.cities[0]
    set_city_tile(s, city, "marriage", None)
    empty_stack(s)
    s.dice = [6, 5, 4, 0, 0] * 2
    s._legal = None
    all_pass(s)
    assert s.round == 2 and s.marriage_tile[city] == -1  # nothing to refill it with
    assert "The alliance stack is empty: 1 city slot stays without a tile." in log_text(s, "en")
    assert "同盟タイルの山が尽きた" in log_text(s, "ja")
