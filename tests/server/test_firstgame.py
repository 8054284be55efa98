"""The first game without a browser: replays that say what happened in the third person, the
creator giving a still-empty seat to a bot, and the key's words (issue 22, sections 2-3)."""

from __future__ import annotations

import random
import re
from pathlib import Path

import pytest

import palio
from palio.server.service import GameService
from tests.server.test_service import humans, play_out

GAMES = list(palio.games())
SECOND_PERSON = {"en": re.compile(r"\b(you|your|yours)\b", re.IGNORECASE),
                 "ja": re.compile(r"あなた")}
# a tile's printed name ("helper (3 resources of your choice)") speaks to no one in particular
PRINTED = re.compile(r"of your choice", re.IGNORECASE)


@pytest.mark.parametrize("game", GAMES)
def test_every_replay_step_says_what_happened_in_the_third_person(tmp_path: Path, game: str) -> None:
    service = GameService(f"sqlite:///{tmp_path / 'palio.db'}")
    info = palio.get_game(game).info
    players = max(info.min_players, min(3, info.max_players))
    game_id = humans(service, game, players, seed=7)
    play_out(service, game_id, random.Random(3))
    for lang in ("en", "ja"):
        frames = service.replay(game_id, lang)["frames"]
        assert len(frames) > 20
        for frame in frames[1:]:
            headline = frame["headline"]
            assert headline and headline.strip(), f"step {frame['n']} says nothing"
            assert not SECOND_PERSON[lang].search(PRINTED.sub("", headline)), f"step {frame['n']}: {headline!r}"
            # the mover is named: P0, P1... are the seats' names
            assert f"P{frame['seat']}" in headline or frame["log"], (frame["n"], headline)
    service.close()
