"""The game service in-process: rebuilding from the database, listings, the undo rule."""

from __future__ import annotations

import json
import random
import threading
from pathlib import Path
from typing import Any

import pytest
from sqlalchemy import JSON, bindparam, event, select, text

import palio.games as registry
from palio.core import describe
from palio.core.i18n import Translator
from palio.server.base.db import make_engine, now, upgrade
from palio.server.play.recent import changed_paths
from palio.server.play.service import ApiError, GameService
from palio.server.play.tables import ActionRow, SeatRow
from tests.server.conftest import database_url


def play_out(service: GameService, game_id: str, rng: random.Random, limit: int = 10_000) -> None:
    live = service.get(game_id)
    for _ in range(limit):
        if live.state.is_over:
            return
        seat = live.state.to_move
        move = rng.choice(live.state.legal_actions())
        service.act(game_id, seat, {"action": str(move), "move_number": live.move_number})


def humans(service: GameService, game: str, players: int, seed: int) -> str:
    live = service.create({"game": game, "players": players, "seed": seed,
                           "seats": [{"kind": "human"}] * players})
    for seat in range(players):
        service.join(live.id, seat, {"name": f"P{seat}"})
    return live.id


def test_rebuild_and_listing_from_rows(tmp_path: Path) -> None:
    url = f"sqlite:///{tmp_path / 'palio.db'}"
    first = GameService(url)
    done = humans(first, "san-gimignano", 2, seed=4)
    play_out(first, done, random.Random(1))
    running = humans(first, "tiletum", 3, seed=5)
    live = first.get(running)
    for _ in range(25):
        first.act(running, live.state.to_move,
                  {"action": str(live.state.legal_actions()[0]), "move_number": live.move_number})
    expected = {g["id"]: g for g in first.list_games({"status": "all"})[0]}
    # the lobby reads rows only; its entries are what the live games say of themselves
    assert expected[running] == first.get(running).summary()
    assert expected[done] == first.get(done).summary()
    first.close()

    second = GameService(url)  # a fresh cache: games are rebuilt from the committed rows
    listed = {g["id"]: g for g in second.list_games({"status": "finished"})[0]}
    assert listed[done] == expected[done] and not second.live
    assert running not in listed
    again = second.get(running)
    assert again.state.observe(None) == live.state.observe(None)
    assert again.state.notation_history() == live.state.notation_history()
    assert second.list_games({"status": "running"})[0][0] == expected[running]
    second.close()


def test_undo_rule_in_every_game(tmp_path: Path) -> None:
    """Over random play, undo is offered exactly when the rule allows it, and undoing restores
    the previous position for every seat."""
    service = GameService(f"sqlite:///{tmp_path / 'palio.db'}")
    rng = random.Random(7)
    allowed = refused_revealing = 0
    for game, players in (("san-gimignano", 2), ("tiletum", 2)):
        game_id = humans(service, game, players, seed=3)
        live = service.get(game_id)
        while not live.state.is_over and live.move_number < 150:
            seat = live.state.to_move
            before = [live.state.observe(s) for s in [None, *range(players)]]
            move = str(rng.choice(live.state.legal_actions()))
            service.act(game_id, seat, {"action": move, "move_number": live.move_number})
            others = [s for s in range(players) if s != seat]
            assert not any(live.can_undo(s) for s in others)
            if live.can_undo(seat):
                allowed += 1
                assert live.state.to_move == seat and live.actors[-1] == seat
                assert live.turns[-2] == live.turns[-1]  # the decision began no new turn
                service.undo(game_id, seat, {"move_number": live.move_number})
                assert [live.state.observe(s) for s in [None, *range(players)]] == before
                service.act(game_id, seat, {"action": move, "move_number": live.move_number})
            else:
                if live.state.to_move == seat and not live.state.is_over:
                    refused_revealing += 1
                with pytest.raises(ApiError) as refused:
                    service.undo(game_id, seat, {"move_number": live.move_number})
                assert refused.value.code == "undo_not_allowed"
    assert allowed > 5 and refused_revealing > 0
    service.close()


def test_undo_never_crosses_into_a_new_turn(tmp_path: Path) -> None:
    """A seat that ends its turn and is first to move in the next one (Tiletum's turn order
    allows it) may not take the ending back, even when it revealed nothing."""
    service = GameService(f"sqlite:///{tmp_path / 'palio.db'}")
    crossings = 0
    for seed in range(6):  # random games until one hands a new turn to the same seat
        if crossings:
            break
        game_id = humans(service, "tiletum", 2, seed=seed)
        live = service.get(game_id)
        rng = random.Random(seed)
        while not live.state.is_over:
            seat = live.state.to_move
            move = str(rng.choice(live.state.legal_actions()))
            service.act(game_id, seat, {"action": move, "move_number": live.move_number})
            n = live.move_number
            if live.state.to_move != seat or live.turns[n - 1] == live.turns[n]:
                continue
            if live.action_revealed(n):
                continue  # refused for that reason already
            crossings += 1
            assert not live.can_undo(seat)
            with pytest.raises(ApiError) as refused:
                service.undo(game_id, seat, {"move_number": n})
            assert refused.value.code == "undo_not_allowed"
    assert crossings > 0, "no game handed a new turn to the seat that ended the last"
    service.close()


def test_sqlite_commits_are_synced_to_disk(tmp_path: Path) -> None:
    """Every pooled SQLite connection runs in WAL mode with synchronous=FULL: a commit (and so
    an acknowledged move) is fsync'd before the response, surviving a power cut too."""
    service = GameService(f"sqlite:///{tmp_path / 'palio.db'}")
    connections = [service.engine.connect() for _ in range(3)]  # distinct pooled connections
    try:
        for connection in connections:
            assert connection.execute(text("PRAGMA journal_mode")).scalar() == "wal"
            assert connection.execute(text("PRAGMA synchronous")).scalar() == 2  # FULL
            assert connection.execute(text("PRAGMA foreign_keys")).scalar() == 1
    finally:
        for connection in connections:
            connection.close()
        service.close()


def test_racing_submissions_apply_once(tmp_path: Path) -> None:
    """Two tabs, different moves, the same move number, at the same time: one is applied; and
    a second writer on the same database (say, a second process) is stopped by the rows."""
    url = f"sqlite:///{tmp_path / 'palio.db'}"
    service = GameService(url)
    game_id = humans(service, "tiletum", 2, seed=1)
    moves = [str(a) for a in service.get(game_id).state.legal_actions()][:8]
    codes: list[str] = []
    start = threading.Barrier(len(moves))

    def submit(move: str) -> None:
        start.wait()
        try:
            service.act(game_id, 0, {"action": move, "move_number": 0})
            codes.append("ok")
        except ApiError as exc:
            codes.append(exc.code)

    threads = [threading.Thread(target=submit, args=(move,)) for move in moves]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert sorted(codes) == ["ok"] + ["stale_move"] * (len(moves) - 1)
    assert service.get(game_id).move_number == 1

    other = GameService(url)  # its cache is loaded now, at move 1, like the first one's
    live = service.get(game_id)
    seat, move = live.state.to_move, str(live.state.legal_actions()[0])
    other.get(game_id)
    service.act(game_id, seat, {"action": move, "move_number": 1})
    with pytest.raises(ApiError) as second:
        other.act(game_id, seat, {"action": move, "move_number": 1})
    assert second.value.code == "stale_move"
    with service.sessions() as session:
        assert session.query(ActionRow).filter_by(game_id=game_id).count() == 2
    other.close()
    service.close()


def test_postgres_moves_on_a_copy_behind_the_row_are_decided_on_the_row(tmp_path: Path) -> None:
    """Two services on one PostgreSQL database (two processes). A move is first decided on
    the copy as it is and written only if the row is still at the copy's revision, in one
    statement; when another process has changed the game, it is decided again on the locked
    row: refused if that number was played (the attempt wrote nothing), accepted if it is
    the next move; and racing writers of one move number through both are served once."""
    url = database_url("postgres", tmp_path)
    service, other = GameService(url), GameService(url)
    game_id = humans(service, "tiletum", 2, seed=3)

    def rows() -> list[tuple[int, str]]:
        with service.sessions() as session:
            return [(row.n, row.notation) for row in session.query(ActionRow)
                    .filter_by(game_id=game_id).order_by(ActionRow.n)]

    def legal(n: int) -> list[str]:
        return [str(a) for a in service.get(game_id).state.legal_actions()][:n]

    # a current copy: the move is one statement between BEGIN and COMMIT (no row lock read)
    statements: list[str] = []
    event.listen(other.engine, "before_cursor_execute",
                 lambda _c, _k, statement, *_a: statements.append(statement.split()[0]))
    seat, first = other.get(game_id).state.to_move, legal(1)[0]
    statements.clear()
    other.act(game_id, seat, {"action": first, "move_number": 0})
    assert statements == ["WITH"]
    assert rows() == [(1, first)]

    # other's copy is behind (service moved): its move of the same number is refused, and
    # the attempt on the old revision wrote nothing
    live = service.get(game_id)
    seat, (mine, theirs) = live.state.to_move, legal(2)
    service.act(game_id, seat, {"action": mine, "move_number": 1})
    statements.clear()
    with pytest.raises(ApiError) as refused:
        other.act(game_id, seat, {"action": theirs, "move_number": 1})
    assert refused.value.code == "stale_move"
    assert statements[:2] == ["WITH", "SELECT"] and statements.count("WITH") == 1
    assert rows()[-1] == (2, mine) and len(rows()) == 2

    # behind again: the next move, which its copy would refuse, is accepted from the row
    live = service.get(game_id)
    service.act(game_id, live.state.to_move, {"action": legal(1)[0], "move_number": 2})
    after = service.get(game_id)
    seat, following = after.state.to_move, legal(1)[0]
    assert other.live[game_id].move_number == 2  # behind: it does not know move 3 yet
    other.act(game_id, seat, {"action": following, "move_number": 3})
    assert [n for n, _ in rows()] == [1, 2, 3, 4] and rows()[-1] == (4, following)
    assert other.live[game_id].move_number == 4 and service.get(game_id).move_number == 4

    # racing writers of one number through both services: exactly one is served
    live = service.get(game_id)
    seat, moves = live.state.to_move, legal(8)
    codes: list[str] = []
    start = threading.Barrier(len(moves))

    def submit(through: GameService, move: str) -> None:
        start.wait()
        try:
            through.act(game_id, seat, {"action": move, "move_number": 4})
            codes.append("ok")
        except ApiError as exc:
            codes.append(exc.code)

    threads = [threading.Thread(target=submit, args=((service, other)[i % 2], move))
               for i, move in enumerate(moves)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert sorted(codes) == ["ok"] + ["stale_move"] * (len(moves) - 1)
    assert len(rows()) == 5
    assert service.get(game_id).move_number == other.get(game_id).move_number == 5
    assert service.get(game_id).view(None) == other.get(game_id).view(None)

    # a move hook runs in the move's transaction (it sees the move's own transaction id),
    # and so do a game end's places
    seen: list[Any] = []
    other.move_hooks.append(lambda session, *args: seen.append(
        (args, session.scalar(text("SELECT txid_current_if_assigned()")))))
    play_out(other, game_id, random.Random(5))
    assert seen and all(txid is not None for _, txid in seen)
    assert [args[-1] for args, _ in seen] == list(range(6, len(rows()) + 1))
    with service.sessions() as session:
        places = session.scalars(select(SeatRow.place).where(SeatRow.game_id == game_id)).all()
    assert sorted(places) in ([1, 2], [1, 1])
    assert service.get(game_id).status == other.get(game_id).status == "finished"
    other.close()
    service.close()


def test_postgres_a_copy_catches_up_reading_only_what_changed(tmp_path: Path) -> None:
    """Two services on one PostgreSQL database (two processes). A copy behind the rows reads
    only the moves a change since its revision can have touched (a revision takes back at
    most one move), and comes out equal to the rows whatever happened meanwhile: new moves,
    a decision taken back and another played in its place, several of those between two
    reads. It fails if the window trusts a move an undo replaced."""
    url = database_url("postgres", tmp_path)
    service, other = GameService(url), GameService(url)
    game_id = humans(service, "san-gimignano", 2, seed=3)
    afters: list[int] = []
    event.listen(other.engine, "before_cursor_execute",
                 lambda _c, _k, _s, params, *_a: afters.append(params["after_"])
                 if isinstance(params, dict) and "after_" in params else None)
    rng = random.Random(11)
    replaced = seen = 0
    other.get(game_id)
    while not service.get(game_id).state.is_over:
        for _ in range(rng.randint(1, 4)):  # the other process makes a few changes
            live = service.get(game_id)
            if live.state.is_over:
                break
            seat = live.state.to_move
            legal = [str(a) for a in live.state.legal_actions()]
            move = rng.choice(legal)
            service.act(game_id, seat, {"action": move, "move_number": live.move_number})
            if live.can_undo(seat) and len(legal) > 1:  # taken back, another in its place
                if rng.random() < 0.5:
                    other.get(game_id)  # after the copy has seen the move taken back
                    seen += 1
                service.undo(game_id, seat, {"move_number": live.move_number})
                instead = rng.choice([m for m in legal if m != move])
                service.act(game_id, seat, {"action": instead, "move_number": live.move_number})
                replaced += 1
        mine, theirs = service.get(game_id), other.get(game_id)
        assert theirs.revision == mine.revision
        assert theirs.notations == mine.notations
        assert theirs.state.observe(None) == mine.state.observe(None)
        assert theirs.view(0) == mine.view(0)
    assert replaced > 3 and seen > 1
    assert afters and max(afters) > 0  # a window, not the whole game, was read
    other.close()
    service.close()


@pytest.mark.parametrize("backend", ["sqlite", "postgres"])
def test_migration_fills_the_new_columns_of_existing_games(tmp_path: Path, backend: str) -> None:
    """A database from before revision 0002 (games, seats and moves only) is upgraded in
    place: move numbers, who is to move and revisions are filled in from the moves."""
    url = database_url(backend, tmp_path)
    engine = make_engine(url)
    upgrade(engine, "0001")
    game = __import__("palio").get_game("tiletum")
    state = game.setup(2, 7, None)
    moves = []
    rng = random.Random(2)
    for _ in range(9):
        move = rng.choice(state.legal_actions())
        moves.append((state.to_move, str(move)))
        state.apply(move)
    with engine.begin() as connection:
        connection.execute(text(
            "INSERT INTO games (id, game, version, players, options, seed, status, created_at) "
            "VALUES ('old1', 'tiletum', '1', 2, :options, 7, 'running', :at)")
            .bindparams(bindparam("options", type_=JSON)),
            {"options": {"action_tiles": False}, "at": now()})
        for seat in range(2):
            connection.execute(text("INSERT INTO seats (game_id, seat, kind, name, token_hash) "
                                    "VALUES ('old1', :seat, 'human', 'P', 'x')"), {"seat": seat})
        for n, (seat, notation) in enumerate(moves, 1):
            connection.execute(text("INSERT INTO actions (game_id, n, seat, notation, created_at) "
                                    "VALUES ('old1', :n, :seat, :notation, :at)"),
                               {"n": n, "seat": seat, "notation": notation, "at": now()})
    engine.dispose()

    service = GameService(url)  # upgrades to the newest revision
    with service.engine.connect() as connection:  # no row was lost on the way
        assert connection.execute(text("SELECT count(*) FROM actions")).scalar() == 9
        if backend == "sqlite":
            assert connection.execute(text("PRAGMA foreign_keys")).scalar() == 1
    [listed], _ = service.list_games()
    assert listed["move_number"] == 9 and listed["to_move"] == state.to_move
    assert listed == service.get("old1").summary()
    assert service.get("old1").revision == 9
    seat = state.to_move
    service.act("old1", seat, {"action": str(state.legal_actions()[0]), "move_number": 9})
    assert service.list_games()[0][0]["move_number"] == 10
    service.close()


def test_kept_log_lines_follow_undo_and_names(tmp_path: Path) -> None:
    """Views keep each reader's log lines between moves; an undo (then another move), and a
    name that changes, must show in them exactly as in a game loaded afresh."""
    url = f"sqlite:///{tmp_path / 'palio.db'}"
    service = GameService(url)
    live = service.create({"game": "san-gimignano", "players": 2, "seed": 11,
                           "seats": [{"kind": "human"}] * 2})
    live.view(None)  # kept lines written with the names before anyone joined
    for seat in range(2):
        service.join(live.id, seat, {"name": f"Name{seat}"})
    assert live.view(None)["log"] == GameService(url).get(live.id).view(None)["log"]
    rng = random.Random(5)
    undone = 0
    for _ in range(120):
        if live.state.is_over:
            break
        seat = live.state.to_move
        for reader in (None, 0, 1):
            live.view(reader)  # fill the kept lines
        service.act(live.id, seat, {"action": str(rng.choice(live.state.legal_actions())),
                                    "move_number": live.move_number})
        if live.can_undo(seat):
            service.undo(live.id, seat, {"move_number": live.move_number})
            undone += 1
            options = [str(a) for a in live.state.legal_actions()]
            service.act(live.id, seat, {"action": options[-1], "move_number": live.move_number})
        fresh = GameService(url).get(live.id)
        for reader in (None, 0, 1):
            assert live.view(reader)["log"] == fresh.view(reader)["log"]
    assert undone > 0
    service.close()


def test_finished_games_and_replays_leave_memory_and_come_back_the_same(tmp_path: Path) -> None:
    """A long-running server keeps only the most recently used finished games and replays in
    memory; one it dropped is rebuilt from the rows, unchanged. Running games always stay."""
    service = GameService(f"sqlite:///{tmp_path / 'palio.db'}", finished_cached=1,
                          replays_cached=1)
    running = humans(service, "san-gimignano", 2, seed=9)
    first, second = (humans(service, "san-gimignano", 2, seed=seed) for seed in (1, 2))
    play_out(service, first, random.Random(1))
    before = service.get(first).view(0), service.replay(first)
    play_out(service, second, random.Random(2))
    service.replay(second)
    service.get(second)  # used after the first: the first is the one to go
    service.get(running)
    humans(service, "san-gimignano", 2, seed=3)  # a load drops what is over the limit
    assert first not in service.live and second in service.live and running in service.live
    assert list(service.replays) == [(second, "en", None)]  # a spectator's replay
    again = service.get(first)
    assert again is not None and first in service.live and second not in service.live
    assert (again.view(0), service.replay(first)) == before
    assert running in service.live  # never dropped: its copy is the one moves change
    service.close()


def test_a_game_stored_under_earlier_rules_replays_as_it_was_played(tmp_path: Path) -> None:
    """Aquileia's rules version 1 ended one's henchmen with the tiebreaker (now the option
    ``tiebreaker_ends``): a table stored then is loaded with that option, so its moves replay
    and its record, written under today's version, replays too."""
    url = f"sqlite:///{tmp_path / 'palio.db'}"
    game = registry.get("aquileia")
    old = game.options_of_version("1", {})
    assert old != {}  # the rule did change between the versions
    state = game.setup(3, 31, old)
    rng = random.Random(5)
    moves = []
    while not state.is_over and len(moves) < 400:  # far into placement and beyond
        move = rng.choice(state.legal_actions())
        moves.append((state.to_move, str(move)))
        state.apply(move)
    service = GameService(url)
    with service.engine.begin() as connection:
        connection.execute(text(
            "INSERT INTO games (id, game, version, players, options, seed, status, created_at) "
            "VALUES ('aq1', 'aquileia', '1', 3, :options, 31, 'running', :at)")
            .bindparams(bindparam("options", type_=JSON)), {"options": {}, "at": now()})
        for seat in range(3):
            connection.execute(text("INSERT INTO seats (game_id, seat, kind, name, token_hash) "
                                    "VALUES ('aq1', :seat, 'human', 'P', 'x')"), {"seat": seat})
        for n, (seat, notation) in enumerate(moves, 1):
            connection.execute(text("INSERT INTO actions (game_id, n, seat, notation, created_at) "
                                    "VALUES ('aq1', :n, :seat, :notation, :at)"),
                               {"n": n, "seat": seat, "notation": notation, "at": now()})
    live = service.get("aq1")
    assert live.options == old and live.state.move_number == len(moves)
    assert live.state.observe(None) == state.observe(None)

def test_a_finished_game_keeps_each_seats_place_as_the_result_shows_it(tmp_path: Path) -> None:
    """seats.place (the profile's "2 of 3") is the result's place, ties shared."""
    service = GameService(f"sqlite:///{tmp_path / 'palio.db'}")
    game_id = humans(service, "tiletum", 3, seed=6)
    with service.sessions() as session:
        assert session.scalars(select(SeatRow.place).where(SeatRow.game_id == game_id)).all() == [None] * 3
    play_out(service, game_id, random.Random(2))
    view = service.get(game_id).view(None)
    with service.sessions() as session:
        places = session.scalars(select(SeatRow.place).where(SeatRow.game_id == game_id)
                                 .order_by(SeatRow.seat)).all()
    assert places == view["score_table"]["ranks"] and sorted(places)[0] == 1
    service.close()


@pytest.mark.parametrize("game", ["san-gimignano", "tiletum"])
def test_views_kept_per_revision_are_each_seats_and_languages_own(tmp_path: Path,
                                                                  game: str) -> None:
    """What a view keeps between seats and languages of one revision (the score table, the
    run's start as each seat observed it, the undo test's position after the latest action)
    gives every (seat, language) the view a fresh copy of the game builds for it alone, in
    another order: a table kept for the wrong language or an observation for the wrong seat
    would show."""
    url = f"sqlite:///{tmp_path / 'palio.db'}"
    service = GameService(url)
    game_id = humans(service, game, 2, seed=7)
    live = service.get(game_id)
    rng = random.Random(3)
    readers = [(seat, lang) for seat in (0, 1, None) for lang in ("en", "ja")]
    undone = 0
    for turn in range(30):
        if live.state.is_over:
            break
        seat = live.state.to_move
        move = rng.choice(live.state.legal_actions())
        service.act(game_id, seat, {"action": str(move), "move_number": live.move_number})
        with live.lock:
            for reader in readers[turn % 3:]:  # some views of the move before it built
                live.view_text(*reader)
        if turn % 3 == 2 and live.can_undo(seat):  # the log replayed: its JSON written anew
            service.undo(game_id, seat, {"move_number": live.move_number})
            undone += 1
        with live.lock:
            texts = {reader: live.view_text(*reader) for reader in readers}
            # each text is its view's JSON, the log's lines kept from earlier revisions
            # (``LiveGame._log_json``) included
            for reader in readers:
                assert texts[reader] == json.dumps(live.view(*reader), ensure_ascii=False,
                                                   allow_nan=False, separators=(",", ":"))
        fresh = GameService(url)  # its own copy, nothing kept: each view built on its own
        alone = fresh.get(game_id)
        for reader in reversed(readers):
            # forget what the other readers' views kept
            alone.views_revision, alone.run_observed, alone.revealed = -1, (None, {}), {}
            assert alone.view_text(*reader) == texts[reader], reader
        # the undo test of the latest action from the position after it as played here, and
        # from a replay of the game from its set-up (no position kept)
        n, kept = alone.move_number, alone.before_last
        alone.before_last, alone.revealed = None, {}
        assert alone.action_revealed(n) == live.action_revealed(n)
        alone.before_last = kept
        fresh.close()
        for (seat, lang), words in texts.items():  # and each part as built on its own
            view = json.loads(words)
            tr = Translator(lang)
            tr.names = live.names(tr)
            assert view["score_table"] == describe.score_table(live.state, tr)
            assert view["recent"] == {
                "seat": live.actors[-1], "since": live.run_start.move_number,
                "paths": changed_paths(live.run_start.observe(seat), live.state.observe(seat))}
        # the languages' tables differ, the seats' hidden parts differ
        assert texts[(0, "en")] != texts[(0, "ja")]
        assert texts[(0, "en")] != texts[(1, "en")]
    assert undone > 0
    service.close()


def test_a_views_log_json_reuses_only_the_same_lines(tmp_path: Path) -> None:
    """A view's log in JSON keeps what it wrote of each reader's lines (``_log_json``) and
    writes only new lines: a log of other lines (rebuilt after an undo or a new name, even of
    the same length) or another reader's is written anew, never taken from the kept text."""
    service = GameService(f"sqlite:///{tmp_path / 'palio.db'}")
    live = service.get(humans(service, "san-gimignano", 2, seed=1))

    def dumps(value: Any) -> str:
        return json.dumps(value, ensure_ascii=False, allow_nan=False, separators=(",", ":"))

    first = [{"n": 0, "seat": None, "text": "Player 2 draws"}]
    grown = [*first, {"n": 1, "seat": 1, "text": "Player 2 plays"}]
    renamed = [{"n": 0, "seat": None, "text": "Bea draws"}, {"n": 1, "seat": 1, "text": "Bea plays"}]
    for key, log in [((0, "en"), first), ((0, "en"), grown), ((0, "en"), renamed),
                     ((0, "en"), renamed[:1]), ((1, "en"), grown), ((0, "ja"), []),
                     ((0, "ja"), first), ((0, "en"), [renamed[0], grown[1]])]:
        assert live._log_json(key, log) == dumps(log), (key, log)
    service.close()
