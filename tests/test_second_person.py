"""English with a player named "You": the terminal calls its player "You", so every message
about that seat must read in the second person ("You place", "your district"), never "You
places" or "the district of You".

Two checks, over random and progress-policy games of every game and player count:

* every log message that takes a player, said once with each of its seats as "You";
* everything the "You" seat reads in a game (its log, prompts, choices and board).
"""

from __future__ import annotations

import random
import re

import pytest

import palio
from palio.core import describe
from palio.core.i18n import Translator
from palio.core.words import Msg, Player
from tests.contract import progress_game, random_game

GAMES = list(palio.games())
CASES = [(g, p) for g in GAMES
         for p in sorted({palio.get_game(g).info.min_players, palio.get_game(g).info.max_players})]

# a verb in the third person after "You" ("You places", "You has"), "of You", "You's"
WRONG = [
    (re.compile(r"\bYou (?!always\b|perhaps\b)([a-z]*[a-rt-z]s)\b"), "a third-person verb after You"),
    (re.compile(r"\bof You\b"), "'of You' instead of 'your'"),
    (re.compile(r"\bYou's\b"), "'You's' instead of 'your'"),
]


def names_with_you(players: int, you: int) -> list[str]:
    return ["You" if seat == you else f"Bot {seat + 1}" for seat in range(players)]


def check(text: str, where: str) -> None:
    for pattern, what in WRONG:
        found = pattern.search(text)
        assert not found, f"{where}: {what}: {text!r}"


def messages_in(message: Msg):
    """The message and every message nested in its parameters."""
    yield message
    for value in message.params.values():
        for item in value if isinstance(value, list | tuple) else [value]:
            if isinstance(item, Msg):
                yield from messages_in(item)


def seats_in(message: Msg) -> set[int]:
    return {value.seat for value in message.params.values() if isinstance(value, Player)}


@pytest.mark.parametrize(("game_id", "players"), CASES, ids=[f"{g}-{p}p" for g, p in CASES])
def test_every_log_message_reads_with_a_player_named_you(game_id, players):
    game = palio.get_game(game_id)
    option_sets = [{}] + [{s.name: True} for s in game.info.options if s.choices == (False, True)]
    checked: set[str] = set()
    for seed, options in enumerate(option_sets):
        for play in (random_game, progress_game):
            state = play(game, players, seed, options)
            for event in state.log.to_list():
                said = game.words.event(event.full())
                if said is None:
                    continue
                for message in messages_in(said):
                    for seat in seats_in(message):
                        tr = Translator("en", names_with_you(players, seat), you=seat)
                        check(tr(said), f"{message.id} with seat {seat} as You")
                        checked.add(message.id)
    assert checked, f"{game_id}: no log message takes a player"


@pytest.mark.parametrize(("game_id", "players"), CASES, ids=[f"{g}-{p}p" for g, p in CASES])
def test_what_the_you_seat_reads_is_in_the_second_person(game_id, players):
    game = palio.get_game(game_id)
    for seed, play in enumerate((random_game, progress_game)):
        you = seed % players
        tr = Translator("en", names_with_you(players, you), you=you)
        rng = random.Random(seed)

        def read(state, action, _rng, tr=tr, you=you, rng=rng):
            if rng.random() > 0.2:
                return
            said = describe.prompt(state, you, tr)
            if said is not None:
                check(said["text"], "prompt")
            if state.to_move == you:
                for choice in describe.choices(state, tr):
                    check(choice["label"] + " " + choice["explain"], "choice")
            for line in tr.lines(game.words.board(state, you)).splitlines():
                check(line, "board")

        state = play(game, players, seed, None, on_step=read)
        for line in describe.log(state, you, tr):
            check(line["text"], "log")


def test_the_second_person_variant_falls_back_to_the_message():
    you = Translator("en", ["You", "Bruno"], you=0)
    assert you(Msg("troyes.log.reroll", {"player": Player(0), "die": "x", "new": 3})) == (
        "You reroll a x: 3.")
    # another seat, or a language without the variant, says the message itself
    assert you(Msg("troyes.log.reroll", {"player": Player(1), "die": "x", "new": 3})) == (
        "Bruno rerolls a x: 3.")
    japanese = Translator("ja", ["あなた", "Bruno"], you=0)
    assert japanese(Msg("troyes.log.reroll", {"player": Player(0), "die": "x", "new": 3})) == (
        Translator("ja", ["あなた", "Bruno"])(
            Msg("troyes.log.reroll", {"player": Player(0), "die": "x", "new": 3})))
