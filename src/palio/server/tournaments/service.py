"""The life of a tournament: create, register, withdraw, start at its time, each round's
tables created through the tables' service when the previous round has finished (or its
deadline came), results read from the finished games' places, finishing. An arena has no
rounds: from its start to its end, whoever waits is seated as soon as a table's worth waits
(``Tournaments._arena``).

Every change is one transaction. A round is written whole (its row, its tables' games and
rows, its byes) or not at all: a process killed mid-round leaves the last committed round,
and the next sweep (of any process) carries on from the rows. A finished game's places are
written by the finish hook in the game's own transaction, so no result is lost either.
"""

from __future__ import annotations

import logging
import random
import threading
from collections.abc import Iterable, Sequence
from datetime import datetime, timedelta
from typing import TYPE_CHECKING, Annotated, Any, Literal

from pydantic import AwareDatetime, Field
from sqlalchemy import func, select, update
from sqlalchemy.exc import IntegrityError
from sqlalchemy.orm import Session

import palio.games as registry
from palio.core.errors import OptionError
from palio.core.i18n import Translator
from palio.core.words import msg
from palio.server.accounts.store import mail_target
from palio.server.base.db import utc
from palio.server.base.errors import ApiError
from palio.server.base.models import Body, parse
from palio.server.mail.turns import new_stop_token, queue
from palio.server.play.models import OnTimeout, OptionValue, TimingSpec
from palio.server.play.service import GameService

if TYPE_CHECKING:  # the finish hook hands the rows over; no table of play's is read here
    from palio.server.play.tables import GameRow, SeatRow
from palio.server.tournaments.tables import (
    ByeRow,
    EntrantRow,
    RoundRow,
    TableRow,
    TournamentRow,
)
from palio.tournament import (
    PRESETS,
    Bye,
    Entrant,
    History,
    TableResult,
    TournamentError,
    standings,
)

log = logging.getLogger("palio.server.tournaments")
TIMEOUTS_OUT = 2  # a player who times out of this many tables is withdrawn
TIE_BREAKS = ("buchholz", "wins", "game_score")  # in this order; game_score since issue 38
BOT_LEVEL = "medium"  # the bots' level when the organiser names none
MAX_ROUNDS = 30
MAX_ARENA_HOURS = 24 * 30
MAX_ENTRANTS = 500
HISTORY = 50  # tournaments shown on a player's profile


class CreateTournament(Body):
    name: Annotated[str, Field(min_length=1, max_length=80)]
    game: Annotated[str, Field(min_length=1, max_length=64)]
    players: Annotated[int, Field(ge=2, le=5)]  # seats at each table
    options: dict[Annotated[str, Field(max_length=64)], OptionValue] | None = None
    timing: TimingSpec | None = None
    on_timeout: OnTimeout | None = None
    format: Literal["swiss", "roundrobin", "arena"] = "swiss"
    scoring: Literal["bga", "lichess", "podium"] = "bga"
    rounds: Annotated[int, Field(ge=1, le=MAX_ROUNDS)] | None = None  # swiss, roundrobin
    arena_hours: Annotated[int, Field(ge=1, le=MAX_ARENA_HOURS)] | None = None  # arena only
    bots: bool = False
    # the level of the bots that fill short tables: any a table's bot seat takes (as
    # ``POST /api/games``: GameService.check_bot_level); kept even where bots are not allowed
    bot_level: Annotated[str, Field(min_length=1, max_length=100)] = BOT_LEVEL
    rated: bool = False
    starts_at: Annotated[AwareDatetime, Field(strict=False)]  # ISO 8601 with its zone
    round_days: Annotated[int, Field(ge=1, le=60)] = 7


def table_body(t: TournamentRow, players: int) -> dict[str, Any]:
    body: dict[str, Any] = {"game": t.game, "players": players, "options": t.options,
                            "rated": t.rated}
    if t.timing is not None:
        body["timing"] = t.timing
    if t.on_timeout is not None:
        body["on_timeout"] = t.on_timeout
    return body


class Tournaments:
    """Tournaments of one server, on the tables' service's database and clock."""

    def __init__(self, service: GameService, mail_url: str | None = None) -> None:
        """``mail_url``: the server's public address, when it sends mail (a mail then tells
        each entrant a new round paired of their table); None: no mail."""
        self.service = service
        self.mail_url = mail_url
        self.clock = service.clock
        self.lock = threading.Lock()  # one pairing at a time in this process

    # -- the organiser and the players ---------------------------------------------------------
    def create(self, organiser_id: int, body: Any) -> dict[str, Any]:
        request = parse(CreateTournament, body)
        check_format(request)
        try:
            game = registry.get(request.game)
        except OptionError as exc:
            raise ApiError(422, "bad_options", str(exc)) from None
        if not game.info.min_players <= request.players <= game.info.max_players:
            raise ApiError(422, "bad_options", f"{game.info.id} seats {game.info.min_players} "
                                               f"to {game.info.max_players} players")
        table: dict[str, Any] = {"game": game.info.id, "players": request.players,
                                 "options": request.options or {}, "rated": request.rated}
        if request.timing is not None:
            table["timing"] = request.timing.model_dump()
        if request.on_timeout is not None:
            table["on_timeout"] = request.on_timeout.model_dump()
        options = self.service.check_table(table)
        self.service.check_bot_level(request.bot_level, "bot_level")
        now = self.clock.now()
        if request.starts_at < now:
            raise ApiError(422, "bad_start", "starts_at: a tournament starts now or later")
        with self.service.sessions.begin() as session:
            row = TournamentRow(
                name=request.name, game=game.info.id, seats=request.players, options=options,
                timing=table.get("timing"), on_timeout=table.get("on_timeout"),
                format=request.format, scoring=request.scoring, rounds=request.rounds or 0,
                bots=request.bots, bot_level=request.bot_level, rated=request.rated,
                organiser_id=organiser_id,
                starts_at=request.starts_at, round_days=request.round_days, status="planned",
                ends_at=None if request.arena_hours is None
                else request.starts_at + timedelta(hours=request.arena_hours),
                seed=int(now.timestamp()) % 2**31, created_at=now)
            session.add(row)
            session.flush()
            tid = row.id
        return self.detail(tid)

    def register(self, tid: int, account_id: int, name: str) -> dict[str, Any]:
        """Enter (before the start or during; a late entrant plays from the next round, or in
        an arena waits for the next table the sweep seats)."""
        with self.service.sessions.begin() as session:
            t = self._locked(session, tid)
            if t.status not in ("planned", "running"):
                raise ApiError(409, "tournament_over", "this tournament has finished")
            if t.ends_at is not None and utc(t.ends_at) <= self.clock.now():
                raise ApiError(409, "tournament_over", "this arena has ended: its last tables "
                                                       "are being played")
            entrant = session.get(EntrantRow, (tid, account_id))
            if entrant is not None and not entrant.withdrawn:
                raise ApiError(409, "already_registered", "you are already registered")
            if entrant is not None:
                if entrant.timeouts >= TIMEOUTS_OUT:
                    raise ApiError(409, "timed_out", "you timed out of two tables of this "
                                                     "tournament and may not enter again")
                entrant.withdrawn = False
            else:
                count = session.scalar(select(func.count()).select_from(EntrantRow).where(
                    EntrantRow.tournament_id == tid))
                if count >= MAX_ENTRANTS:
                    raise ApiError(409, "tournament_full", "this tournament is full")
                session.add(EntrantRow(tournament_id=tid, account_id=account_id, name=name,
                                       withdrawn=False, timeouts=0,
                                       registered_at=self.clock.now()))
        return self.detail(tid)

    def withdraw(self, tid: int, account_id: int) -> dict[str, Any]:
        """Leave: no further round pairs the entrant (a table being played goes on)."""
        with self.service.sessions.begin() as session:
            t = self._locked(session, tid)
            if t.status not in ("planned", "running"):
                raise ApiError(409, "tournament_over", "this tournament has finished")
            entrant = session.get(EntrantRow, (tid, account_id))
            if entrant is None or entrant.withdrawn:
                raise ApiError(409, "not_registered", "you are not registered")
            entrant.withdrawn = True
        return self.detail(tid)

    @staticmethod
    def _locked(session: Session, tid: int) -> TournamentRow:
        row = session.scalar(select(TournamentRow).where(TournamentRow.id == tid)
                             .with_for_update())
        if row is None:
            raise ApiError(404, "no_such_tournament", f"there is no tournament {tid}")
        return row

    # -- results -------------------------------------------------------------------------------
    def game_finished(self, session: Session, row: GameRow, seats: list[SeatRow],
                      ranks: list[int], now: datetime, scores: list[float] | None = None
                      ) -> None:
        """The finish hook (in the game's transaction): the table's places and each seat's
        final game score (for the game-score tie-break), and the time-outs
        of its seats (a second one withdraws the entrant). In an arena, the table's players
        wait again and are seated at once where a table's worth waits (players only: a game
        made here is not handed to the bot runner, so bots are seated by the sweep); a
        failure there is logged and left to the sweep, never undoing the game's finish.

        The tournament's row is locked first, as ``register`` and the sweep lock it before
        any other row of the tournament: one order, so no deadlock."""
        table = session.get(TableRow, row.id)
        if table is None:
            return
        round_row = session.get(RoundRow, table.round_id)
        t = self._locked(session, round_row.tournament_id)
        table.places = [s.place if s.place is not None else ranks[s.seat] for s in seats]
        table.scores = None if scores is None else list(scores)
        table.finished_at = now
        for entry in row.forfeits or ():
            account = table.seats[int(entry["seat"])]
            if entry.get("reason") != "timeout" or account is None:
                continue
            entrant = session.get(EntrantRow, (round_row.tournament_id, account))
            if entrant is not None:
                entrant.timeouts += 1
                if entrant.timeouts >= TIMEOUTS_OUT:
                    entrant.withdrawn = True
        if t.format == "arena":
            try:
                with session.begin_nested():  # a savepoint: a failure undoes only the seating
                    self._arena(session, t, now, bots=False)
            except Exception:
                log.exception("seating arena %s failed; the next sweep tries again", t.id)

    # -- the sweep -----------------------------------------------------------------------------
    def sweep(self) -> list[str]:
        """Start the tournaments whose time came, pair the rounds that may be paired, finish
        the tournaments that played their rounds. The new games' ids (for the push and the
        bots). Of several processes, each round is created by one (the unique round number)."""
        now = self.clock.now()
        with self.service.sessions() as session:
            ids = list(session.scalars(select(TournamentRow.id).where(
                (TournamentRow.status == "running")
                | ((TournamentRow.status == "planned") & (TournamentRow.starts_at <= now)))))
        created: list[str] = []
        for tid in ids:
            try:
                created += self.advance(tid)
            except Exception:  # one tournament never stops the others
                log.exception("advancing tournament %s failed; the next sweep tries again", tid)
        return created

    def advance(self, tid: int) -> list[str]:
        with self.lock:
            try:
                with self.service.sessions.begin() as session:
                    return self._advance(session, tid)
            except IntegrityError:  # another process wrote this round first
                return []

    def _advance(self, session: Session, tid: int) -> list[str]:
        now = self.clock.now()
        t = self._locked(session, tid)
        if t.status == "finished" or t.status == "cancelled":
            return []
        if t.status == "planned" and utc(t.starts_at) > now:
            return []
        if t.format == "arena":
            return self._arena(session, t, now, bots=True)
        rounds = list(session.scalars(select(RoundRow).where(RoundRow.tournament_id == tid)
                                      .order_by(RoundRow.number)))
        if rounds:
            last = rounds[-1]
            unfinished = session.scalar(select(func.count()).select_from(TableRow).where(
                TableRow.round_id == last.id, TableRow.places.is_(None)))
            if unfinished and utc(last.deadline_at) > now:
                return []
        number = len(rounds) + 1
        entrants, results, withdrawn = self._history(session, t, rounds)
        if number > t.rounds:
            self._finish(session, t, now)
            return []
        # still at an unfinished table of an earlier round (its deadline passed): not seated
        # again until it finishes; they sit this round out, with no points
        busy = self._playing(session, rounds)
        playing = [e.id for e in entrants if e.id in busy and e.id not in withdrawn]
        free = [e for e in entrants if e.id not in withdrawn and e.id not in busy]
        if len(free) < 2 and not (t.bots and free):
            if not playing:
                self._finish(session, t, now)
            return []  # (else the round waits for a table to finish)
        game = registry.get(t.game)
        # lazy: the pairing (its searches, audit and table sizes: ~4 ms of CPU at import) is
        # loaded when a round is first paired, not by every server start (issue 34)
        from palio.tournament.pairing import pair_round

        try:
            paired = pair_round(t.format, entrants, results, seats=t.seats,
                                min_players=t.seats if t.bots else game.info.min_players,
                                bots=t.bots, withdrawn=withdrawn, rules=PRESETS[t.scoring],
                                seed=t.seed, rounds=t.rounds, playing=playing,
                                round_number=number)
        except TournamentError as exc:
            if playing:  # those free cannot be paired alone: wait for the tables being played
                return []
            log.warning("tournament %s cannot pair round %s: %s", tid, number, exc)
            self._finish(session, t, now)
            return []
        if not paired.tables:
            if not playing:
                self._finish(session, t, now)
            return []
        if playing and rematch(paired.tables, results, t.seats):
            return []  # none without a rematch while some are late: wait for their tables
        # the round's row first: a second process writing the same round fails here
        round_row = RoundRow(tournament_id=tid, number=number, started_at=now,
                             deadline_at=now + timedelta(days=t.round_days))
        session.add(round_row)
        session.flush()
        games = self._seat(session, t, round_row, paired.tables)
        for account in paired.sitting_out:
            session.add(ByeRow(round_id=round_row.id, account_id=account))
        for account in playing:
            session.add(ByeRow(round_id=round_row.id, account_id=account, playing=True))
        if t.status == "planned":
            t.status = "running"
        return games

    def _seat(self, session: Session, t: TournamentRow, round_row: RoundRow,
              tables: Sequence[Sequence[int | None]]) -> list[str]:
        """The games of ``tables`` (account ids in seat order, None for a bot), their rows and
        their mails, in the caller's transaction. Their ids."""
        names = {e.account_id: e.name for e in session.scalars(
            select(EntrantRow).where(EntrantRow.tournament_id == t.id))}
        games = []
        for seats in tables:
            holders = [None if a is None else (a, names[a]) for a in seats]
            game_id = self.service.create_seated(session, table_body(t, len(seats)), holders,
                                                 bot_level=t.bot_level)
            session.add(TableRow(game_id=game_id, round_id=round_row.id, seats=list(seats)))
            games.append(game_id)
            for seat, account in enumerate(seats):
                if account is not None and self.mail_url is not None:
                    self._mail_paired(session, t, round_row.number, account, game_id, seat)
        return games

    def _arena(self, session: Session, t: TournamentRow, now: datetime, *,
               bots: bool) -> list[str]:
        """An arena, on its locked row: from its start to its end, seat everyone waiting at
        tables of ``t.seats`` (``arena_tables``: the longest-waiting first, within a window
        of the standings, avoiding recent opponents); while other tables are being played, a
        table of the same players straight after their last one together is held back (the
        others' end may bring them new opponents); where fewer wait while no table is being
        played, bots fill their table (``bots``: the sweep only, and if the organiser allowed
        them). After the end nobody is seated; once no table is being played (or those left
        are past their ``round_days``) the arena is over. The new games' ids.

        Nothing is kept outside the rows: the waiting are the entrants not withdrawn and not
        seated at an unfinished table of the arena, so a restart loses nothing. Each call
        holds the tournament's row lock (``_locked``: the sweep, the finish hook and
        ``register``/``withdraw`` all take it first), so with PostgreSQL and ``--workers N``
        one process at a time reads the waiting and seats them: a table is made once, and
        nobody is seated at two. Each batch of tables is a numbered ``tournament_rounds`` row
        (unique number): should two writers ever race (SQLite has no row lock; its writers
        are serialised by the database), the second one's batch fails whole."""
        if t.status == "planned":
            t.status = "running"
        rounds = list(session.scalars(select(RoundRow).where(RoundRow.tournament_id == t.id)
                                      .order_by(RoundRow.number)))
        deadline = {r.id: utc(r.deadline_at) for r in rounds}
        tables = list(session.scalars(select(TableRow).where(
            TableRow.round_id.in_(deadline)))) if rounds else []
        playing = [x for x in tables if x.places is None]
        if now >= utc(t.ends_at):
            if all(deadline[x.round_id] <= now for x in playing):
                self._finish(session, t, now, played=bool(rounds))
            return []
        entrants, results, withdrawn = self._history(session, t, rounds)
        waiting = arena_waiting(t, session.scalars(select(EntrantRow).where(
            EntrantRow.tournament_id == t.id)), tables)
        ranking = [s.entrant for s in standings(entrants, results, PRESETS[t.scoring], t.seats,
                                                TIE_BREAKS, withdrawn=withdrawn)]
        number = len(rounds) + 1
        # lazy, as in _advance: the pairing is loaded when an arena first seats a table
        from palio.tournament.pairing import arena_tables, same_table_again
        from palio.tournament.seating import seat_order

        paired, left = arena_tables(waiting, ranking, results, seats=t.seats,
                                    seed=t.seed + number)
        new = list(paired.tables)
        if playing:  # no rematch at once while others play: they may soon bring new opponents
            history = History.of(t.seats, results)
            new = [table for table in new if not same_table_again(table, history)]
        if bots and t.bots and left and not playing and not new:
            history = History.of(t.seats, results)
            new.append(seat_order(left, t.seats, history, random.Random(f"{t.seed}:{number}")))
        if not new:
            return []
        # the batch's row first: a second writer of the same batch fails here
        round_row = RoundRow(tournament_id=t.id, number=number, started_at=now,
                             deadline_at=now + timedelta(days=t.round_days))
        session.add(round_row)
        session.flush()
        return self._seat(session, t, round_row, new)

    def _mail_paired(self, session: Session, t: TournamentRow, number: int, account_id: int,
                     game_id: str, seat: int) -> None:
        """Queue (in the round's transaction) a mail telling the entrant of their new table,
        if their account takes turn mails (the same setting and stop link)."""
        account = mail_target(session, account_id)
        if account is None:
            return
        tr = Translator(account.lang or "en")
        base = str(self.mail_url).rstrip("/")
        token, stop_hash = new_stop_token()
        title = tr(msg("ui.game_name." + t.game.replace("-", "_")))
        words = "tournaments.arena_mail" if t.format == "arena" else "tournaments.mail"
        body = tr(msg(words + ".body", name=account.name, tournament=t.name,
                      round=number, game=title, link=f"{base}/games/{game_id}?seat={seat}",
                      standings=f"{base}/tournaments/{t.id}", stop=f"{base}/mail/stop/{token}"))
        queue(session, key=f"tournament:{t.id}:{number}:{account_id}", kind="tournament",
              to_address=account.email, now=self.clock.now(), account_id=account_id,
              subject=tr(msg(words + ".subject", tournament=t.name, round=number)),
              body=body, stop_hash=stop_hash)

    @staticmethod
    def _finish(session: Session, t: TournamentRow, now: datetime,
                played: bool | None = None) -> None:
        """Over: ``finished``, or ``cancelled`` if nothing was ever played (``played``; by
        default, whether it ever started a round)."""
        played = t.status == "running" if played is None else played
        session.execute(update(TournamentRow).where(TournamentRow.id == t.id).values(
            status="finished" if played else "cancelled", finished_at=now))

    @staticmethod
    def _playing(session: Session, rounds: list[RoundRow]) -> set[int]:
        """The accounts seated at an unfinished table of ``rounds``."""
        if not rounds:
            return set()
        return {a for seats in session.scalars(select(TableRow.seats).where(
                    TableRow.round_id.in_([r.id for r in rounds]),
                    TableRow.places.is_(None)))
                for a in seats if a is not None}

    @staticmethod
    def _history(session: Session, t: TournamentRow, rounds: list[RoundRow]
                 ) -> tuple[list[Entrant], list[TableResult | Bye], set[int]]:
        rows = list(session.scalars(select(EntrantRow).where(EntrantRow.tournament_id == t.id)
                                    .order_by(EntrantRow.registered_at, EntrantRow.account_id)))
        entrants = [Entrant(r.account_id) for r in rows]
        withdrawn = {r.account_id for r in rows if r.withdrawn}
        number = {r.id: r.number for r in rounds}
        results: list[TableResult | Bye] = []
        if number:
            for table in session.scalars(select(TableRow).where(
                    TableRow.round_id.in_(number))):
                if table.places is not None:  # unfinished (yet): counts once it finishes
                    results.append(TableResult(
                        number[table.round_id], tuple(table.seats), tuple(table.places),
                        None if table.scores is None else tuple(table.scores)))
            for bye in session.scalars(select(ByeRow).where(ByeRow.round_id.in_(number),
                                                            ByeRow.playing.is_(False))):
                results.append(Bye(number[bye.round_id], bye.account_id))
        return entrants, results, withdrawn

    # -- what readers see ----------------------------------------------------------------------
    def listing(self) -> list[dict[str, Any]]:
        with self.service.sessions() as session:
            rows = list(session.scalars(select(TournamentRow).order_by(
                TournamentRow.starts_at.desc(), TournamentRow.id.desc()).limit(200)))
            counts = dict(session.execute(
                select(EntrantRow.tournament_id, func.count())
                .where(EntrantRow.withdrawn.is_(False))
                .group_by(EntrantRow.tournament_id)).all())
        return [{**summary(t), "entrants": counts.get(t.id, 0)} for t in rows]

    def detail(self, tid: int, *, accounts: bool = False) -> dict[str, Any]:
        """What ``GET /api/tournaments/{id}`` answers; ``accounts``: each standing also names
        its account's id (for this concern's own use: ids are never shown)."""
        with self.service.sessions() as session:
            t = session.get(TournamentRow, tid)
            if t is None:
                raise ApiError(404, "no_such_tournament", f"there is no tournament {tid}")
            rows = list(session.scalars(select(EntrantRow).where(
                EntrantRow.tournament_id == tid)))
            rounds = list(session.scalars(select(RoundRow).where(RoundRow.tournament_id == tid)
                                          .order_by(RoundRow.number)))
            entrants, results, withdrawn = self._history(session, t, rounds)
            by_round: dict[int, list[TableRow]] = {r.id: [] for r in rounds}
            byes: dict[int, list[int]] = {r.id: [] for r in rounds}
            still: dict[int, list[int]] = {r.id: [] for r in rounds}  # sat out, still playing
            if rounds:
                for table in session.scalars(select(TableRow).where(
                        TableRow.round_id.in_(by_round)).order_by(TableRow.game_id)):
                    by_round[table.round_id].append(table)
                for bye in session.scalars(select(ByeRow).where(ByeRow.round_id.in_(byes))
                                           .order_by(ByeRow.account_id)):
                    (still if bye.playing else byes)[bye.round_id].append(bye.account_id)
        names = {r.account_id: r.name for r in rows}
        deadline = {r.id: utc(r.deadline_at) for r in rounds}
        playing: dict[int, int] = {}  # each entrant's tables being played
        for x in (x for tables in by_round.values() for x in tables if x.places is None):
            for a in x.seats:
                if a is not None:
                    playing[a] = playing.get(a, 0) + 1
        table = standings(entrants, results, PRESETS[t.scoring], t.seats, TIE_BREAKS,
                          withdrawn=withdrawn)
        arena: dict[str, Any] = {}
        if t.format == "arena":  # who waits for a table now, the next to be seated first
            arena["waiting"] = [] if t.status != "running" else [names[a] for a in arena_waiting(
                t, rows, [x for tables in by_round.values() for x in tables])]
        return {**arena,
            **summary(t), "entrants": len(entrants) - len(withdrawn),
            "tie_breaks": list(TIE_BREAKS),
            "standings": [{"rank": s.rank, "name": names[s.entrant],
                           **({"account": s.entrant} if accounts else {}), "points": s.points,
                           "tie_breaks": s.tie_breaks, "played": s.played,
                           "playing": playing.get(s.entrant, 0),
                           "withdrawn": s.entrant in withdrawn} for s in table],
            "rounds": [{"number": r.number, "started_at": utc(r.started_at).isoformat(),
                        "deadline_at": utc(r.deadline_at).isoformat(),
                        "tables": [{"game_id": x.game_id,
                                    "seats": [None if a is None else names.get(a)
                                              for a in x.seats],
                                    "places": x.places,
                                    # finished once its round's deadline had come: counted late
                                    "late": x.finished_at is not None
                                    and utc(x.finished_at) >= deadline[r.id]}
                                   for x in by_round[r.id]],
                        "byes": [names.get(a) for a in byes[r.id]],
                        "still_playing": [names.get(a) for a in still[r.id]]}
                       for r in rounds],
        }

    def history(self, account_id: int) -> list[dict[str, Any]]:
        """The tournaments an account entered, latest first, with its place in each (the
        tournaments part of a player's profile)."""
        with self.service.sessions() as session:
            ids = list(session.scalars(
                select(EntrantRow.tournament_id).where(EntrantRow.account_id == account_id)
                .order_by(EntrantRow.registered_at.desc()).limit(HISTORY)))
        out = []
        for tid in ids:
            detail = self.detail(tid, accounts=True)
            mine = next((s for s in detail["standings"] if s.get("account") == account_id),
                        None)
            out.append({"id": tid, "name": detail["name"], "game": detail["game"],
                        "status": detail["status"], "entrants": len(detail["standings"]),
                        "rank": None if mine is None or detail["status"] == "planned"
                        else mine["rank"],
                        "points": None if mine is None else mine["points"]})
        return out

    def entrant_of(self, tid: int, account_id: int) -> dict[str, Any] | None:
        with self.service.sessions() as session:
            row = session.get(EntrantRow, (tid, account_id))
            return None if row is None else {"withdrawn": row.withdrawn,
                                             "timeouts": row.timeouts}


def arena_waiting(t: TournamentRow, entrants: Iterable[EntrantRow],
                  tables: Sequence[TableRow]) -> list[int]:
    """An arena's waiting pool, the longest-waiting first (ties by account id): the entrants
    not withdrawn and not seated at an unfinished table of ``tables`` (the arena's). Each
    waits since its last table's end, else since the start (or its entry, if later)."""
    seated = {a for x in tables if x.places is None for a in x.seats}
    since: dict[int, datetime] = {}
    for x in tables:
        if x.places is not None and x.finished_at is not None:
            for a in x.seats:
                if a is not None:
                    since[a] = max(since.get(a, utc(x.finished_at)), utc(x.finished_at))
    start = utc(t.starts_at)
    return [e.account_id for e in sorted(
        (e for e in entrants if not e.withdrawn and e.account_id not in seated),
        key=lambda e: (since.get(e.account_id, max(start, utc(e.registered_at))), e.account_id))]


def rematch(tables: Sequence[Sequence[int | None]], results: Sequence[TableResult | Bye],
            seats: int) -> bool:
    """Whether two entrants at one of ``tables`` have met at a table of ``results``."""
    history = History.of(seats, results)
    return any(history.met(a, b) for table in tables
               for i, a in enumerate(table) if a is not None
               for b in table[i + 1:] if b is not None)


def check_format(request: CreateTournament) -> None:
    """Rounds for Swiss and round robin, a length in hours for an arena (422 ``bad_format``);
    a Swiss or round robin without rounds is refused as before (400, the body's rule)."""
    if request.format == "arena":
        if request.rounds is not None:
            raise ApiError(422, "bad_format", 'rounds: format "arena" has no rounds; it runs '
                                              "for arena_hours")
        if request.arena_hours is None:
            raise ApiError(422, "bad_format", 'arena_hours: format "arena" needs its length '
                                              f"in hours (1 to {MAX_ARENA_HOURS})")
    elif request.arena_hours is not None:
        raise ApiError(422, "bad_format", f'arena_hours: only format "arena" runs for a set '
                                          f"time; {request.format} plays rounds")
    elif request.rounds is None:
        raise ApiError(400, "bad_body", "rounds: is required")


def summary(t: TournamentRow) -> dict[str, Any]:
    return {"id": t.id, "name": t.name, "game": t.game, "players": t.seats,
            "options": t.options, "timing": t.timing, "on_timeout": t.on_timeout,
            "format": t.format, "scoring": t.scoring,
            "rounds_planned": None if t.format == "arena" else t.rounds,
            "ends_at": None if t.ends_at is None else utc(t.ends_at).isoformat(),
            "bots": t.bots, "bot_level": t.bot_level, "rated": t.rated, "starts_at": utc(t.starts_at).isoformat(),
            "round_days": t.round_days, "status": t.status,
            "finished_at": None if t.finished_at is None else utc(t.finished_at).isoformat()}
