"""The bots' level of a tournament (issue 38): the organiser's ``bot_level`` seats bots of that
level at its tables (Swiss and arena), ``medium`` when none is named; a level the tables would
not take is refused with nothing written; the page and the form say it in the reader's
language; migration 0014 goes down and up, the tournaments before it keeping ``medium``. On
SQLite and (with ``PALIO_TEST_POSTGRES_URL``) PostgreSQL."""

from __future__ import annotations

from pathlib import Path

import pytest
from sqlalchemy import func, select

from palio.core.i18n import Translator
from palio.server.base.clock import ManualClock
from palio.server.base.errors import ApiError
from palio.server.play.service import GameService
from palio.server.tournaments.routes import create_form
from palio.server.tournaments.service import Tournaments
from palio.server.tournaments.tables import TournamentRow
from tests.server.conftest import database_url, down_and_up
from tests.server.tournaments.conftest import MOMENT
from tests.server.tournaments.test_arena import new_arena, page, tables_of
from tests.server.tournaments.test_service import accounts, new


def bot_levels(service: GameService, tid: int) -> list[str | None]:
    """The level of every bot seat at the tournament's tables, as the games' seats say."""
    return [s.level for t in tables_of(service, tid) for s in service.get(t.game_id).seats
            if s.kind == "bot"]


def test_a_swiss_seats_bots_of_its_level_and_medium_by_default(
        service: GameService, tournaments: Tournaments) -> None:
    people = accounts(service, 2)
    hard = new(tournaments, people[0][0], bot_level="hard")
    plain = new(tournaments, people[0][0])
    assert tournaments.detail(hard)["bot_level"] == "hard"
    assert tournaments.detail(plain)["bot_level"] == "medium"
    for tid in (hard, plain):
        for account, name in people:
            tournaments.register(tid, account, name)
    service.clock.advance(86400)
    assert len(tournaments.sweep()) == 2  # two entrants at a three-seat table each: one bot
    assert bot_levels(service, hard) == ["hard"]
    assert bot_levels(service, plain) == ["medium"]
    game = tables_of(service, hard)[0].game_id
    names = [s.display_name(Translator("en")) for s in service.get(game).seats
             if s.kind == "bot"]
    assert names == ["Hard bot"]  # unnamed: the tables name it by its level


def test_an_arena_seats_bots_of_its_level(service: GameService,
                                          tournaments: Tournaments) -> None:
    people = accounts(service, 2)
    tid = new_arena(tournaments, people[0][0], bots=True, bot_level="easy")
    for account, name in people:
        tournaments.register(tid, account, name)
    service.clock.advance(86400)
    assert len(tournaments.sweep()) == 1
    assert bot_levels(service, tid) == ["easy"]


def test_a_level_without_bots_is_stored_and_a_bad_one_refused(
        service: GameService, tournaments: Tournaments) -> None:
    (ada, _), = accounts(service, 1)
    for bad, bots in (("nope", True), ("nope", False), ("", True), ("x" * 101, True),
                      ("mcts:time_budget=1000", True),  # longer than a bot may think here
                      ("mcts:nonsense=1", True), (3, True), (None, True)):
        with pytest.raises(ApiError) as refused:
            new(tournaments, ada, bots=bots, bot_level=bad)
        assert refused.value.status in (400, 422), bad
        assert "bot_level" in refused.value.message, refused.value.message
    with service.sessions() as session:
        assert session.scalar(select(func.count()).select_from(TournamentRow)) == 0
    quiet = new(tournaments, ada, bots=False, bot_level="expert")
    assert tournaments.detail(quiet)["bot_level"] == "expert"
    spec = new(tournaments, ada, bot_level="mcts:iterations=50")  # as a table's seat takes it
    assert tournaments.detail(spec)["bot_level"] == "mcts:iterations=50"


def test_the_page_and_the_form_say_the_level(service: GameService,
                                             tournaments: Tournaments) -> None:
    (ada, _), = accounts(service, 1)
    hard = new(tournaments, ada, bot_level="hard")
    quiet = new(tournaments, ada, bots=False, bot_level="hard")
    spec = new(tournaments, ada, bot_level="mcts:iterations=50")
    assert "bots (Hard) fill short tables" in page(tournaments, hard, "en")
    assert "ボット（むずかしい）" in page(tournaments, hard, "ja")
    assert "Hard" not in page(tournaments, quiet, "en")  # no bots: no level to tell
    assert "bots (Search (MCTS)) fill" in page(tournaments, spec, "en")  # as a seat names it
    form = create_form("en")
    assert '<select name="bot_level">' in form and "Bots&#x27; level" in form
    assert '<option value="medium" selected>Medium</option>' in form
    assert '<option value="expert">' in create_form("ja") and "ボットの強さ" in create_form("ja")


@pytest.mark.parametrize("backend", ["sqlite", "postgres"])
def test_migration_0014_goes_down_and_up(tmp_path: Path, backend: str) -> None:
    url = database_url(backend, tmp_path)
    service = GameService(url, clock=ManualClock(MOMENT))
    (ada, _), = accounts(service, 1)
    tid = new(Tournaments(service), ada, bot_level="hard")
    service.close()
    down_and_up(url, "0013", "tournaments", {"bot_level"})
    again = GameService(url, clock=ManualClock(MOMENT))
    # a tournament from before the column: the level its bots always had
    assert Tournaments(again).detail(tid)["bot_level"] == "medium"
    again.close()
