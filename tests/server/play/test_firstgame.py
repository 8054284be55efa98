"""The first game without a browser: replays that say what happened in the third person, the
creator giving a still-empty seat to a bot, and the key's words (issue 22, sections 2-3)."""

from __future__ import annotations

import random
import re
from pathlib import Path
from typing import Any

import pytest

import palio
from palio.core.i18n import Translator
from palio.server.play.service import GameService
from tests.server.conftest import Server
from tests.server.play.test_api import assert_error
from tests.server.play.test_service import humans, play_out

GAMES = list(palio.games())
SECOND_PERSON = {"en": re.compile(r"\b(you|your|yours)\b", re.IGNORECASE),
                 "ja": re.compile(r"あなた")}


def printed_names(game: str, lang: str) -> list[str]:
    """The components' names (a tile's "helper (3 resources of your choice)" addresses no one),
    longest first."""
    tr = Translator(lang)
    names = {tr(entry.name) for entry in palio.get_game(game).words.glossary()}
    names |= {n.split(": ", 1)[1] for n in names if ": " in n}  # "Helper: X" is logged as X
    return sorted((n for n in names if n), key=len, reverse=True)


@pytest.mark.parametrize("game", GAMES)
def test_every_replay_step_says_what_happened_in_the_third_person(tmp_path: Path, game: str) -> None:
    service = GameService(f"sqlite:///{tmp_path / 'palio.db'}")
    info = palio.get_game(game).info
    players = max(info.min_players, min(3, info.max_players))
    game_id = humans(service, game, players, seed=7)
    play_out(service, game_id, random.Random(3))
    for lang in ("en", "ja"):
        names = printed_names(game, lang)
        frames = service.replay(game_id, lang)["frames"]
        assert len(frames) > 20
        for frame in frames[1:]:
            headline = frame["headline"]
            assert headline and headline.strip(), f"step {frame['n']} says nothing"
            spoken = headline
            for name in names:
                spoken = spoken.replace(name, " ")
            assert not SECOND_PERSON[lang].search(spoken), f"step {frame['n']}: {headline!r}"
            # the mover is named: P0, P1... are the seats' names
            assert f"P{frame['seat']}" in headline or frame["log"], (frame["n"], headline)
    service.close()


def test_only_the_creator_gives_an_empty_seat_to_a_bot(server: Server) -> None:
    created = server.create(game="san-gimignano", players=2, seed=3,
                            seats=[{"kind": "human"}, {"kind": "human"}])
    game_id, creator = created["id"], created["creator_token"]
    assert creator and creator not in server.http.get(f"/api/games/{game_id}").text
    player = server.join(game_id, 0, "Ada")
    path = f"/api/games/{game_id}/seats/1/bot"

    def give(token: str | None, seat_path: str = path, **body: str) -> Any:
        headers = {"Authorization": f"Bearer {token}"} if token else {}
        return server.http.post(seat_path, headers=headers, json=body)

    # a player, a spectator (no token), a made-up token, another game's creator: refused
    assert_error(give(player), 403, "not_creator")
    assert_error(give(None), 401, "no_token")
    assert_error(give("not-a-token"), 403, "not_creator")
    other = server.create(game="san-gimignano", players=2, seats=[{"kind": "human"}] * 2)
    assert_error(give(other["creator_token"]), 403, "not_creator")
    # a taken seat, a seat that is not there, a bot that does not exist: refused
    assert_error(give(creator, f"/api/games/{game_id}/seats/0/bot"), 409, "seat_taken")
    assert_error(give(creator, f"/api/games/{game_id}/seats/5/bot"), 404, "no_such_seat")
    assert_error(give(creator, level="nosuchbot"), 422, "bad_options")
    summary = server.http.get(f"/api/games/{game_id}").json()
    assert summary["status"] == "open" and summary["seats"][1]["kind"] == "human"

    given = give(creator, level="random")
    assert given.status_code == 200, given.text
    seat = given.json()["seats"][1]
    assert seat["kind"] == "bot" and seat["level"] == "random" and seat["taken"]
    assert given.json()["status"] == "running"  # the last empty seat: the game starts
    assert_error(give(creator), 409)  # once only
    # the bot plays its turns: the game goes on without anyone else
    token_view = server.view(game_id, player)
    assert token_view["status"] == "running"
