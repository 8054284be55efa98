"""The life of a tournament (palio.server.tournaments.service) with the ManualClock: create,
register and withdraw, the start at its time, rounds paired when the previous one finished or
by its deadline, time-outs, finishing; a whole Swiss played out by random legal moves. On
SQLite and (with ``PALIO_TEST_POSTGRES_URL``) PostgreSQL."""

from __future__ import annotations

import json
import random
from collections import Counter
from datetime import timedelta
from itertools import combinations
from typing import Any

import pytest
from sqlalchemy import func, select

from palio.server.accounts.store import AccountStore
from palio.server.base.errors import ApiError
from palio.server.base.pages import say
from palio.server.mail.tables import OutboxRow
from palio.server.play import timing
from palio.server.play.service import GameService
from palio.server.play.tables import GameRow, SeatRow
from palio.server.tournaments.routes import history_html
from palio.server.tournaments.service import Tournaments
from palio.server.tournaments.tables import RoundRow, TableRow
from palio.tournament import PRESETS
from tests.server.tournaments.conftest import MOMENT

PASSWORD = "correct horse battery"


def accounts(service: GameService, n: int) -> list[tuple[int, str]]:
    store = AccountStore(service.sessions, service.clock)
    return [(store.create(f"Player{i}", PASSWORD).id, f"Player{i}") for i in range(n)]


def new(tournaments: Tournaments, organiser: int, **extra: Any) -> int:
    body = {"name": "Spring Swiss", "game": "tiletum", "players": 3, "rounds": 3,
            "bots": True, "starts_at": (MOMENT + timedelta(days=1)).isoformat(), **extra}
    return tournaments.create(organiser, body)["id"]


def play_out(service: GameService, game_id: str, rng: random.Random) -> None:
    """Random legal moves for every seat (a bot's seat too) until the game ends."""
    for _ in range(20000):
        live = service.get(game_id)
        if live.state.is_over:
            return
        state = live.state
        action = str(rng.choice(state.legal_actions()))
        seat = state.to_move
        service.act(game_id, seat, {"action": action, "move_number": live.move_number},
                    bot=live.seats[seat].kind == "bot")
    raise AssertionError("the game did not end")


def test_bad_bodies_are_refused_and_write_nothing(service: GameService,
                                                  tournaments: Tournaments) -> None:
    (ada, _), = accounts(service, 1)
    for bad in ({"game": "no-such-game"}, {"players": 7}, {"players": 5},
                {"rounds": 0}, {"format": "arena"}, {"options": {"nope": True}},
                {"starts_at": (MOMENT - timedelta(hours=1)).isoformat()},
                {"starts_at": "2026-03-02T12:00:00"},  # no time zone
                {"timing": {"kind": "turn", "per_move_s": 1}}):
        with pytest.raises(ApiError) as refused:
            new(tournaments, ada, **bad)
        assert 400 <= refused.value.status < 500 and refused.value.message
    assert tournaments.listing() == []


def test_register_withdraw_and_the_start_at_its_time(service: GameService,
                                                     tournaments: Tournaments) -> None:
    people = accounts(service, 4)
    tid = new(tournaments, people[0][0], players=2, bots=False, game="san-gimignano")
    for account, name in people:
        tournaments.register(tid, account, name)
    with pytest.raises(ApiError) as twice:
        tournaments.register(tid, *people[0])
    assert twice.value.code == "already_registered"
    tournaments.withdraw(tid, people[3][0])
    with pytest.raises(ApiError) as gone:
        tournaments.withdraw(tid, people[3][0])
    assert gone.value.code == "not_registered"
    assert tournaments.sweep() == []  # not yet its time
    assert tournaments.detail(tid)["status"] == "planned"
    service.clock.advance(86400)
    games = tournaments.sweep()
    detail = tournaments.detail(tid)
    assert detail["status"] == "running" and len(games) == 1
    (first,) = detail["rounds"]
    assert len(first["byes"]) == 1  # three entrants at two-seat tables, no bots: one sits out
    assert tournaments.sweep() == []  # the round is being played: nothing more
    # each seat is the account's: seat_of_account finds it, its name is the account's
    live = service.get(games[0])
    assert {s.account_id for s in live.seats} <= {a for a, _ in people[:3]}
    assert all(s.taken and s.kind == "human" for s in live.seats)
    # the profile's history: the tournament, under way, with the entrant's rank so far
    (entry,) = tournaments.history(people[0][0])
    assert entry["id"] == tid and entry["status"] == "running" and entry["entrants"] == 4
    # nobody has played: the one who sat out leads with a bye's points, the others share 2nd
    bye = detail["rounds"][0]["byes"][0]
    assert entry["rank"] == (1 if bye == people[0][1] else 2)
    assert "account" not in json.dumps(tournaments.detail(tid))  # ids are never shown
    rank = entry["rank"]
    for lang, says in (("en", f"{rank} of 4"), ("ja", f"4人中{rank}位")):
        assert says in history_html(lang, [entry])


def time_out_everyone(service: GameService, game_id: str, rng: random.Random) -> None:
    """Nobody moves: each seat to move runs out of time and a bot plays it, to the end."""
    for _ in range(20000):
        live = service.get(game_id)
        if live.state.is_over:
            return
        seat = live.state.to_move
        if live.seats[seat].kind == "human":
            service.clock.advance(2 * 3600 + 1)  # the move's hour and the bank's
            assert game_id in timing.sweep(service)
        else:
            action = str(rng.choice(live.state.legal_actions()))
            service.act(game_id, seat, {"action": action, "move_number": live.move_number},
                        bot=True)
    raise AssertionError("the game did not end")


def test_unfinished_tables_at_the_deadline_and_two_timeouts_withdraw(
        service: GameService, tournaments: Tournaments) -> None:
    people = accounts(service, 3)
    tid = new(tournaments, people[0][0], round_days=1, rounds=3,
              timing={"kind": "turn", "per_move_s": 3600})
    for account, name in people:
        tournaments.register(tid, account, name)
    service.clock.advance(86400)
    (first,) = tournaments.sweep()
    assert tournaments.sweep() == []  # not finished and before the round's deadline
    service.clock.advance(86400)
    # the deadline came, but all three are still at their table: nobody is seated at a
    # second one, so the round waits for it (test_deadline.py: those free play on)
    assert tournaments.sweep() == []
    detail = tournaments.detail(tid)
    assert len(detail["rounds"]) == 1
    assert detail["rounds"][0]["tables"][0]["places"] is None  # not (yet) a result
    rng = random.Random(3)
    time_out_everyone(service, first, rng)  # the first table ends late: its time-outs count
    assert [tournaments.entrant_of(tid, a)["timeouts"] for a, _ in people] == [1, 1, 1]
    (late,) = tournaments.detail(tid)["rounds"][0]["tables"]
    assert late["places"] is not None and late["late"]
    (second,) = tournaments.sweep()
    time_out_everyone(service, second, rng)
    assert all(tournaments.entrant_of(tid, a) == {"withdrawn": True, "timeouts": 2}
               for a, _ in people)
    assert tournaments.sweep() == []  # nobody left to pair: the tournament ends
    assert tournaments.detail(tid)["status"] == "finished"
    with pytest.raises(ApiError) as over:
        tournaments.register(tid, *people[0])
    assert over.value.code == "tournament_over"


BASE_S = 600  # each player's clock at a live table


def run_out_of_time(service: GameService, game_id: str, account: int,
                    rng: random.Random) -> None:
    """A live-clock table to its end where ``account`` never moves: when its seat is to move
    the clock passes its time (the others move at once, so only it runs out) and the sweep
    applies the table's rule; the others, and the bot then playing its seat, move at random."""
    timed_out = False
    for _ in range(20000):
        live = service.get(game_id)
        if live.state.is_over:
            assert timed_out
            return
        seat = live.state.to_move
        if live.seats[seat].account_id == account and live.seats[seat].kind == "human":
            service.clock.advance(BASE_S + 1)  # never moved: its whole clock, and a second
            assert game_id in timing.sweep(service)
            timed_out = True
            continue
        action = str(rng.choice(live.state.legal_actions()))
        service.act(game_id, seat, {"action": action, "move_number": live.move_number},
                    bot=live.seats[seat].kind == "bot")
    raise AssertionError("the game did not end")


def test_a_player_out_of_time_at_two_live_tables_is_withdrawn(
        service: GameService, tournaments: Tournaments) -> None:
    """Live clocks (``realtime``) and the rule ``last``: the entrant who runs out of time at a
    table is ranked last there and the weakest bot plays the seat on; at a second table the
    entrant is withdrawn (``TIMEOUTS_OUT``) and paired no more, while the others' rounds go on
    to the end with standings that count both tables as lost."""
    people = accounts(service, 4)
    names = dict(people)
    tid = new(tournaments, people[0][0], players=2, game="san-gimignano", bots=False,
              rounds=3, timing={"kind": "realtime", "base_s": BASE_S},
              on_timeout={"kind": "last"})
    for account, name in people:
        tournaments.register(tid, account, name)
    service.clock.advance(86400)
    victim = people[1][0]
    rng = random.Random(12)
    for number in (1, 2):
        games = tournaments.sweep()
        assert len(games) == 2  # four entrants at two tables: the victim is paired again
        seats = {g: list(service.get(g).seats) for g in games}
        (theirs,) = [g for g in games if any(s.account_id == victim for s in seats[g])]
        for game_id in games:  # the other table first: the victim's timing moves the clock
            if game_id != theirs:
                play_out(service, game_id, rng)
        run_out_of_time(service, theirs, victim, rng)
        live = service.get(theirs)
        seat = next(s.seat for s in live.seats if s.account_id == victim)
        assert live.seats[seat].kind == "bot" and live.seats[seat].level == timing.WEAKEST_BOT
        assert [(e["seat"], e["reason"], e["rule"]) for e in live.table.forfeits] == [
            (seat, "timeout", "last")]
        detail = tournaments.detail(tid)
        (table,) = [x for x in detail["rounds"][number - 1]["tables"] if x["game_id"] == theirs]
        assert table["places"][seat] == 2  # ranked last at a table of two
        assert tournaments.entrant_of(tid, victim) == {"withdrawn": number == 2,
                                                       "timeouts": number}
    # round 3: three left at two-seat tables without bots, the victim not among them
    games = tournaments.sweep()
    detail = tournaments.detail(tid)
    third = detail["rounds"][2]
    assert len(games) == 1 and len(third["byes"]) == 1
    paired = [n for x in third["tables"] for n in x["seats"]] + third["byes"]
    assert sorted(paired) == sorted(n for a, n in people if a != victim)
    play_out(service, games[0], rng)
    assert tournaments.sweep() == []
    detail = tournaments.detail(tid)
    assert detail["status"] == "finished"
    table = detail["standings"]
    assert table[-1]["name"] == names[victim] and table[-1]["withdrawn"]
    assert table[-1]["points"] == 0 and table[-1]["played"] == 2
    assert not any(row["withdrawn"] for row in table[:-1])
    assert [row["played"] for row in table[:-1]].count(3) == 2  # one of them had the bye
    # the points are the places' (bga: 1 a win, 1/2 a draw, 0 a loss; 1/2 a bye)
    got: Counter = Counter()
    for r in detail["rounds"]:
        for x in r["tables"]:
            for name, p in zip(x["seats"], PRESETS["bga"].table_points(x["places"]),
                               strict=True):
                got[name] += p
        for name in r["byes"]:
            got[name] += PRESETS["bga"].bye_points(2)
    assert {row["name"]: row["points"] for row in table} == {
        n: got[n] for n in names.values()}


def test_a_round_is_written_once(service: GameService, tournaments: Tournaments) -> None:
    """Two sweeps (as two processes' would) for the same due round: one round, one set of
    games; the second finds the round being played."""
    people = accounts(service, 6)
    tid = new(tournaments, people[0][0])
    for account, name in people:
        tournaments.register(tid, account, name)
    service.clock.advance(86400)
    assert len(tournaments.advance(tid)) == 2
    assert tournaments.advance(tid) == []
    with service.sessions() as session:
        assert session.scalar(select(func.count()).select_from(RoundRow)) == 1
        assert session.scalar(select(func.count()).select_from(TableRow)) == 2
        assert session.scalar(select(func.count()).select_from(GameRow)) == 2


@pytest.mark.slow
def test_a_whole_swiss_of_seven_at_three_seat_tiletum_tables(
        service: GameService, tournaments: Tournaments) -> None:
    people = accounts(service, 7)
    ids = [a for a, _ in people]
    tid = new(tournaments, ids[0], rounds=3)
    for account, name in people:
        tournaments.register(tid, account, name)
    service.clock.advance(86400)
    rng = random.Random(38)
    met: Counter = Counter()
    seat_counts = {a: Counter() for a in ids}
    for number in range(1, 4):
        games = tournaments.sweep()
        detail = tournaments.detail(tid)
        assert len(detail["rounds"]) == number
        with service.sessions() as session:
            rows = list(session.scalars(select(TableRow).where(TableRow.game_id.in_(games))))
            for row in rows:
                seats = list(session.scalars(select(SeatRow).where(
                    SeatRow.game_id == row.game_id).order_by(SeatRow.seat)))
                assert [s.account_id for s in seats] == row.seats  # the round's seat order
                assert all((s.kind == "bot") == (s.account_id is None) for s in seats)
        # seven at tables of three with bots allowed: nobody sits out, bots fill two seats
        seated = [a for row in rows for a in row.seats]
        assert sorted(a for a in seated if a is not None) == sorted(ids)
        assert seated.count(None) == 2
        for row in rows:
            humans = [a for a in row.seats if a is not None]
            for pair in combinations(sorted(humans), 2):
                met[pair] += 1
            for position, a in enumerate(row.seats):
                if a is not None:
                    seat_counts[a][position] += 1
        if number == 2:
            assert max(met.values()) == 1  # two rounds: no repeat
        for game_id in games:
            assert tournaments.sweep() == []  # the round is not over yet
            play_out(service, game_id, rng)
        service.clock.advance(3600)
    assert tournaments.sweep() == []
    detail = tournaments.detail(tid)
    assert detail["status"] == "finished"
    # the pairing keeps a repeat only where the score groups leave no other way (the pure
    # core's property tests, docs/tournaments.md); here at most one pair met twice, and
    # never within the first two rounds (checked as they were paired)
    assert sum(n - 1 for n in met.values()) <= 1
    for counts in seat_counts.values():  # three rounds, three seats: each seat at most twice
        assert max(counts.values()) <= 2
    table = detail["standings"]
    assert len(table) == 7 and all(row["played"] == 3 for row in table)
    # the points are those of the places: a table of three gives 1 + 1/2 + 0 (bga), bots
    # take their places' points with them
    assert [row["rank"] for row in table] == sorted(row["rank"] for row in table)
    assert [row["points"] for row in table] == sorted((r["points"] for r in table), reverse=True)
    assert table[0]["points"] > 0 and detail["tie_breaks"] == ["buchholz", "wins", "game_score"]


def test_a_finished_table_keeps_its_game_scores_for_the_game_score_tie_break(
        service: GameService, tournaments: Tournaments) -> None:
    people = accounts(service, 2)
    tid = new(tournaments, people[0][0], players=2, rounds=1, game="san-gimignano",
              bots=False)
    for account, name in people:
        tournaments.register(tid, account, name)
    service.clock.advance(86400)
    (game_id,) = tournaments.sweep()
    with service.sessions() as session:
        assert session.get(TableRow, game_id).scores is None  # not finished yet
    play_out(service, game_id, random.Random(38))
    final = [float(x) for x in service.get(game_id).state.scores()]
    with service.sessions() as session:
        table = session.get(TableRow, game_id)
        seats, stored = list(table.seats), table.scores
    assert stored == final  # the game's own scores, in seat order
    assert tournaments.sweep() == []
    detail = tournaments.detail(tid)
    assert detail["status"] == "finished"
    assert detail["tie_breaks"] == ["buchholz", "wins", "game_score"]  # the new one last
    by_account = {account: final[seat] for seat, account in enumerate(seats)}
    names = dict(people)
    for row in detail["standings"]:
        account = next(a for a, n in names.items() if n == row["name"])
        assert row["tie_breaks"]["game_score"] == by_account[account]
    for lang in ("en", "ja"):  # shown by its name in both languages, not by its key
        assert "game_score" not in say(lang, "tournaments.tie_break.game_score")
    assert say("en", "tournaments.tie_break.game_score") != say(
        "ja", "tournaments.tie_break.game_score")


def test_a_new_round_mails_each_entrant_who_takes_mails(service: GameService) -> None:
    tournaments = Tournaments(service, mail_url="https://palio.example")
    store = AccountStore(service.sessions, service.clock)
    ada = store.create("Ada", PASSWORD, "ada@example.org")
    bob = store.create("Bob", PASSWORD)  # no address: no mail
    cy = store.create("Cy", PASSWORD, "cy@example.org")
    tid = new(tournaments, ada.id, players=2, game="san-gimignano", bots=False)
    for person in (ada, bob, cy):
        tournaments.register(tid, person.id, person.name)
    service.clock.advance(86400)
    games = tournaments.sweep()
    with service.sessions() as session:
        mails = list(session.scalars(select(OutboxRow).where(OutboxRow.kind == "tournament")))
        seated = {a for g in games for a in session.get(TableRow, g).seats}
    expected = {p.id for p in (ada, cy) if p.id in seated}
    assert {m.account_id for m in mails} == expected and expected
    for mail in mails:
        assert "Spring Swiss" in mail.subject and "round 1" in mail.subject
        assert "https://palio.example/games/" in mail.body and "/mail/stop/" in mail.body
        assert mail.stop_hash
    assert tournaments.sweep() == []  # no second mail: the round is written once
    with service.sessions() as session:
        assert session.scalar(select(func.count()).select_from(OutboxRow).where(
            OutboxRow.kind == "tournament")) == len(expected)


def test_a_crash_while_writing_a_round_leaves_no_half_round(
        service: GameService, tournaments: Tournaments, monkeypatch: pytest.MonkeyPatch) -> None:
    """The process dies (here: raises) after the round's row and its first game: the
    transaction leaves nothing, and the next sweep writes the whole round."""
    people = accounts(service, 6)
    tid = new(tournaments, people[0][0])
    for account, name in people:
        tournaments.register(tid, account, name)
    service.clock.advance(86400)
    real = service.create_seated
    made = []

    def dies_at_the_second(*args: Any, **kwargs: Any) -> str:
        if made:
            raise SystemExit("killed")
        made.append(real(*args, **kwargs))
        return made[-1]

    monkeypatch.setattr(service, "create_seated", dies_at_the_second)
    with pytest.raises(SystemExit):
        tournaments.advance(tid)
    with service.sessions() as session:
        for table in (RoundRow, TableRow, GameRow, SeatRow):
            assert session.scalar(select(func.count()).select_from(table)) == 0, table
    monkeypatch.setattr(service, "create_seated", real)
    assert len(tournaments.sweep()) == 2
    assert tournaments.detail(tid)["status"] == "running"
