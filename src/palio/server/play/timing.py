"""Timed tables, leaving and expiry: clocks, deadlines, the deadline sweep and forfeits.

A table's timing is chosen at creation (``models.CreateGame.timing``):

* ``none``: no clock. A running table with no move for ``Limits.idle_days`` is handled as if
  the seat to move ran out of time.
* ``realtime``: a chess clock per player, ``base_s`` at the start, ``increment_s`` added after
  each decision of that player.
* ``turn``: ``per_move_s`` for each decision, and a bank per player (``bank_s``, by default one
  more ``per_move_s``) that pays for a decision taking longer; the bank never refills.

The server's clock (``service.clock``) is the only truth. Each seat's time is kept in the
``clocks`` column as ``{"remaining": [seconds per seat], "started": ISO time}``: what every
seat had left when the current decision began (for ``turn``: its bank). A move charges the mover
(in the same transaction as the move) and starts the next decision; a bot's thinking is charged
to nobody (bots have no clock). ``deadline_at`` is when the seat to move runs out (or when an
open table expires, or an idle untimed one is handled); it is stored with the game, so it
survives restarts, and is NULL while a bot is to move and once the game has ended.

Every server process sweeps due deadlines (``sweep``). Each due game is claimed by a
conditional UPDATE on its ``revision`` and ``deadline_at``: of several processes (or a move
arriving meanwhile) exactly one changes the row, and only that one acts.

When a player runs out of time or leaves, the table's rule (``on_timeout``) applies: ``bot``: a
bot of the chosen level plays the seat for the rest of the game; ``last``: the player is ranked
last in the result, and the weakest bot plays the seat so that the others play on. Either way
the seat is recorded in ``forfeits``; ratings rate those seats last (:func:`forfeited_seats`).
"""

from __future__ import annotations

import logging
from dataclasses import dataclass, field, replace
from datetime import datetime, timedelta
from typing import TYPE_CHECKING, Any

from sqlalchemy import select, text, update
from sqlalchemy.orm import Session

from palio.core.i18n import Translator, lookup
from palio.core.words import msg
from palio.server.base.cluster import CHANNEL
from palio.server.base.db import utc as db_utc
from palio.server.base.errors import ApiError
from palio.server.play import models
from palio.server.play.tables import GameRow, SeatRow

if TYPE_CHECKING:
    from palio.server.play.service import GameService, LiveGame, Seat

log = logging.getLogger("palio.server")
DEFAULT_ON_TIMEOUT = {"kind": "bot", "level": "medium"}
WEAKEST_BOT = "easy"  # plays a seat ranked last, so that the others play on
NO_TIMING = {"kind": "none"}
SWEEP_BATCH = 500  # due games acted on per sweep at most (the next sweep takes the rest)


@dataclass(frozen=True)
class Limits:
    """Server settings (``--open-expiry-hours``, ``--idle-days``): read when a deadline is set,
    so a changed setting applies to every deadline set afterwards, with no restart of games."""

    open_expiry_hours: float = 72.0
    idle_days: float = 30.0


def utc(moment: datetime | None) -> datetime | None:
    """``db.utc``, letting a missing time through."""
    return None if moment is None else db_utc(moment)


@dataclass(frozen=True)
class Table:
    """A game's timing, rules for leaving, clocks and forfeits (its row's columns)."""

    timing: dict[str, Any] = field(default_factory=lambda: dict(NO_TIMING))
    rated: bool = False
    practice: bool = False
    on_timeout: dict[str, Any] = field(default_factory=lambda: dict(DEFAULT_ON_TIMEOUT))
    clocks: dict[str, Any] | None = None
    deadline_at: datetime | None = None
    forfeits: tuple[dict[str, Any], ...] = ()

    @classmethod
    def of(cls, row: GameRow) -> Table:
        return cls(timing=row.timing or dict(NO_TIMING), rated=bool(row.rated),
                   practice=bool(row.practice),
                   on_timeout=row.on_timeout or dict(DEFAULT_ON_TIMEOUT),
                   clocks=row.clocks, deadline_at=utc(row.deadline_at),
                   forfeits=tuple(row.forfeits or ()))

    @property
    def kind(self) -> str:
        return self.timing.get("kind", "none")

    def columns(self) -> dict[str, Any]:
        """Every column, for a new row."""
        return {"timing": self.timing, "rated": self.rated, "practice": self.practice,
                "on_timeout": self.on_timeout, **self.changing_columns()}

    def changing_columns(self) -> dict[str, Any]:
        """The columns a move, a join, a forfeit may change."""
        return {"clocks": self.clocks, "deadline_at": self.deadline_at,
                "forfeits": list(self.forfeits)}

    def remaining(self, seat: int) -> float:
        return float((self.clocks or {}).get("remaining", [])[seat])

    @property
    def started(self) -> datetime | None:
        started = (self.clocks or {}).get("started")
        return datetime.fromisoformat(started) if started else None


# -- creating ----------------------------------------------------------------------------------
def new_table(request: models.CreateGame, players: int, check_bot: Any) -> Table:
    """The table a ``CreateGame`` body asks for; ApiError 422 for a combination refused.
    ``check_bot(index, level)`` checks a bot level as the seats' bots are checked."""
    timing = request.timing.model_dump() if request.timing is not None else dict(NO_TIMING)
    rated, practice = bool(request.rated), bool(request.practice)
    if rated and practice:
        raise ApiError(422, "bad_options", "a practice table is never rated: choose rated or "
                                           "practice, not both")
    if practice and timing["kind"] == "realtime":
        raise ApiError(422, "bad_options", "a practice table has no real-time clock: choose no "
                                           "limit or a limit per move")
    on_timeout = (request.on_timeout.model_dump() if request.on_timeout is not None
                  else dict(DEFAULT_ON_TIMEOUT))
    if on_timeout["kind"] == "bot":
        on_timeout["level"] = on_timeout.get("level") or DEFAULT_ON_TIMEOUT["level"]
        try:
            check_bot(0, on_timeout["level"])
        except ApiError as exc:
            raise ApiError(422, "bad_options",
                           "on_timeout" + exc.message.removeprefix("seats[0]")) from None
    clocks = None
    if timing["kind"] == "realtime":
        clocks = {"remaining": [float(timing["base_s"])] * players, "started": None}
    elif timing["kind"] == "turn":
        if timing.get("bank_s") is None:
            timing["bank_s"] = timing["per_move_s"]
        clocks = {"remaining": [float(timing["bank_s"])] * players, "started": None}
    return Table(timing=timing, rated=rated, practice=practice, on_timeout=on_timeout,
                 clocks=clocks)


# -- deadlines -------------------------------------------------------------------------------
def deadline(table: Table, status: str, to_move: int | None, seats: list[Seat],
             now: datetime, limits: Limits, created: datetime | None = None) -> datetime | None:
    """When the table is next acted on by the sweep, if nothing happens before."""
    if status == "open":
        return (created or now) + timedelta(hours=limits.open_expiry_hours)
    if status != "running" or to_move is None or seats[to_move].kind == "bot":
        return None
    started = table.started or now
    if table.kind == "realtime":
        return started + timedelta(seconds=table.remaining(to_move))
    if table.kind == "turn":
        return started + timedelta(seconds=table.timing["per_move_s"] + table.remaining(to_move))
    return now + timedelta(days=limits.idle_days)


def restarted(table: Table, now: datetime) -> dict[str, Any] | None:
    """The clocks with the next decision starting ``now``."""
    if table.clocks is None:
        return None
    return {**table.clocks, "started": now.isoformat()}


def on_create(table: Table, status: str, to_move: int | None, seats: list[Seat],
              now: datetime, limits: Limits) -> Table:
    table = replace(table, clocks=restarted(table, now) if status == "running" else table.clocks)
    return replace(table, deadline_at=deadline(table, status, to_move, seats, now, limits, now))


def on_join(live: LiveGame, status: str, now: datetime, limits: Limits) -> Table:
    """A seat was taken: the clocks start when the last one is."""
    table = live.table
    if status != "running":
        return table
    table = replace(table, clocks=restarted(table, now))
    return replace(table, deadline_at=deadline(table, status, live.state.to_move, live.seats,
                                               now, limits))


def on_move(live: LiveGame, seat: int, to_move: int | None, over: bool, now: datetime,
            limits: Limits) -> Table:
    """Charge ``seat`` for the decision it just made and start the next one."""
    table = live.table
    clocks = table.clocks
    if clocks is not None and live.seats[seat].kind != "bot":
        remaining = list(clocks["remaining"])
        elapsed = max(0.0, (now - (table.started or now)).total_seconds())
        if table.kind == "realtime":
            remaining[seat] = max(0.0, remaining[seat] - elapsed) + table.timing["increment_s"]
        elif table.kind == "turn":
            remaining[seat] = max(0.0, remaining[seat] - max(0.0, elapsed
                                                             - table.timing["per_move_s"]))
        clocks = {**clocks, "remaining": remaining}
    table = replace(table, clocks=clocks)
    table = replace(table, clocks=restarted(table, now))
    status = "finished" if over else live.status
    return replace(table, deadline_at=deadline(table, status, to_move, live.seats, now, limits))


def on_undo(live: LiveGame, seat: int, to_move: int | None, now: datetime,
            limits: Limits) -> Table:
    """An undone decision takes back the increment it earned (else undoing would buy time);
    the time spent since the decision began keeps running."""
    table = live.table
    if table.kind == "realtime" and table.clocks is not None:
        remaining = list(table.clocks["remaining"])
        remaining[seat] = max(0.0, remaining[seat] - table.timing["increment_s"])
        table = replace(table, clocks={**table.clocks, "remaining": remaining})
    return replace(table, deadline_at=deadline(table, live.status, to_move, live.seats, now,
                                               limits))


def check_in_time(live: LiveGame, now: datetime) -> None:
    """A decision after the deadline is refused: the table's rule applies instead (the sweep
    acts within its period)."""
    due = live.table.deadline_at
    if live.status == "running" and due is not None and now >= due:
        raise ApiError(409, "out_of_time", "the time for this decision has run out")


def check_joinable(live: LiveGame, now: datetime) -> None:
    due = live.table.deadline_at
    if live.status == "expired" or (live.status == "open" and due is not None and now >= due):
        raise ApiError(409, "expired", "this table expired: nobody joined it in time")


# -- forfeits ----------------------------------------------------------------------------------
def forfeited_seats(row: GameRow) -> set[int]:
    """Seats whose player left or ran out of time (ratings rate them last)."""
    return {int(entry["seat"]) for entry in row.forfeits or ()}


def forfeit(table: Table, live: LiveGame, seat: int, reason: str, now: datetime,
            limits: Limits) -> tuple[Table, str]:
    """The table after ``seat`` forfeits (``reason`` "timeout" or "left"), and the bot level
    that plays the seat from now on."""
    rule = table.on_timeout.get("kind", "bot")
    level = table.on_timeout.get("level") or DEFAULT_ON_TIMEOUT["level"]
    if rule == "last":
        level = WEAKEST_BOT
    entry = {"seat": seat, "reason": reason, "move": live.move_number, "rule": rule,
             "level": level, "name": live.seats[seat].name, "at": now.isoformat()}
    clocks = table.clocks
    if clocks is not None and reason == "timeout":
        remaining = list(clocks["remaining"])
        remaining[seat] = 0.0
        clocks = {**clocks, "remaining": remaining}
    table = replace(table, clocks=clocks, forfeits=(*table.forfeits, entry))
    seats = [s if s.seat != seat else replace(s, kind="bot", level=level) for s in live.seats]
    due = deadline(table, live.status, live.state.to_move, seats, now, limits)
    return replace(table, deadline_at=due), level


def _write_forfeit(service: GameService, session: Session, live: LiveGame, seat: int,
                   level: str) -> None:
    # the seat keeps its name and token: its player may still watch it from their seat
    session.execute(update(SeatRow).where(SeatRow.game_id == live.id, SeatRow.seat == seat)
                    .values(kind="bot", level=level))


def _after_forfeit(live: LiveGame, table: Table, seat: int, level: str, revision: int) -> None:
    live.seats[seat] = replace(live.seats[seat], kind="bot", level=level)
    live.table = table
    live.revision = revision
    live.forget_log()


def leave(service: GameService, game_id: str, seat: int | None, wanted: int) -> LiveGame:
    """``seat`` (opened by the caller's credentials) leaves the running table ``game_id``."""
    if seat is None:
        raise ApiError(401, "no_token", "leaving needs the seat's token")
    if seat != wanted:
        raise ApiError(403, "not_your_seat", f"only seat {wanted}'s player may leave it")
    live = service._cached(game_id)
    with live.lock:
        with service.sessions.begin() as session:
            service._lock_row(session, live)
            if live.status != "running" or live.state.is_over:
                raise ApiError(409, "not_running", f"the game is {live.status}, not running")
            if live.seats[seat].kind == "bot":
                raise ApiError(409, "already_left", "a bot already plays this seat")
            now = service.clock.now()
            table, level = forfeit(live.table, live, seat, "left", now, service.limits)
            _write_forfeit(service, session, live, seat, level)
            revision = service._bump(session, live, **table.changing_columns())
        _after_forfeit(live, table, seat, level, revision)
    return live


# -- the sweep ---------------------------------------------------------------------------------
def due_games(service: GameService, now: datetime,
              limit: int = SWEEP_BATCH) -> list[tuple[str, int, datetime]]:
    """(game id, revision, deadline as stored) of games whose deadline has come, soonest first."""
    with service.sessions() as session:
        rows = session.execute(
            select(GameRow.id, GameRow.revision, GameRow.deadline_at)
            .where(GameRow.deadline_at <= now).order_by(GameRow.deadline_at).limit(limit)).all()
    return [(row.id, row.revision, row.deadline_at) for row in rows]


def fire(service: GameService, game_id: str, revision: int, due: datetime) -> bool:
    """Act on one due deadline if this call wins the claim: expire an open table, or apply
    the table's rule to the seat to move. False when another process (or a move) got there
    first."""
    live = service._cached(game_id)
    with live.lock:
        if live.revision != revision:  # another process changed the game: catch up first
            with service.sessions() as session:
                service._refresh(live, session)
            if live.revision != revision:
                return False
        now = service.clock.now()
        values: dict[str, Any]
        seat = live.state.to_move
        if live.status == "open":
            table = replace(live.table, deadline_at=None)
            values = {"status": "expired", "finished_at": now, **table.changing_columns()}
            level = None
        elif live.status == "running" and seat is not None and live.seats[seat].kind != "bot":
            table, level = forfeit(live.table, live, seat, "timeout", now, service.limits)
            values = table.changing_columns()
        else:  # nothing to do (a safeguard): clear the deadline
            table, level = replace(live.table, deadline_at=None), None
            values = table.changing_columns()
        with service.sessions.begin() as session:
            # the claim: first statement of the transaction (SQLite then takes its write lock
            # before reading anything), and on PostgreSQL it locks the row
            claimed = session.execute(
                update(GameRow)
                .where(GameRow.id == game_id, GameRow.revision == revision,
                       GameRow.deadline_at == due)
                .values(revision=revision + 1, updated_at=now, **values)).rowcount
            if claimed != 1:
                return False
            if level is not None and seat is not None:
                _write_forfeit(service, session, live, seat, level)
            if service.shared:
                session.execute(text("SELECT pg_notify(:channel, :payload)"),
                                {"channel": CHANNEL, "payload": f"{game_id} {revision + 1}"})
        if level is not None and seat is not None:
            _after_forfeit(live, table, seat, level, revision + 1)
        else:
            live.table, live.revision = table, revision + 1
            if values.get("status") == "expired":
                live.status = "expired"
    return True


def sweep(service: GameService, limit: int = SWEEP_BATCH) -> list[str]:
    """Act on every due deadline this process wins; the ids of the games it changed."""
    fired = []
    for game_id, revision, due in due_games(service, service.clock.now(), limit):
        try:
            if fire(service, game_id, revision, due):
                fired.append(game_id)
        except Exception:  # one game that cannot be loaded here never stops the others
            log.exception("acting on the deadline of game %s failed; the next sweep tries "
                          "again", game_id)
    return fired


# -- what readers see ------------------------------------------------------------------------
def forfeit_text(entry: dict[str, Any], tr: Translator) -> str:
    player = entry.get("name") or tr(msg("ui.player_n", n=int(entry["seat"]) + 1))
    level = str(entry.get("level") or "").partition(":")[0]
    level_name = tr(msg(f"ui.level.{level}")) if lookup(f"ui.level.{level}", tr.lang) else level
    bot = tr(msg("ui.bot_named", level=level_name))
    key = f"timing.log.{'left' if entry['reason'] == 'left' else 'timeout'}_{entry['rule']}"
    return tr(msg(key, player=player, bot=bot))


def ranking_with_forfeits(ranking: list[int], table: Table) -> list[int]:
    """Seats that forfeited at a table whose rule is "last" go to the end, the earliest to
    forfeit last of all; the others keep the game's order."""
    last = [int(e["seat"]) for e in table.forfeits if e.get("rule") == "last"]
    last = list(dict.fromkeys(reversed(last)))
    return [s for s in ranking if s not in last] + last


def ranks_with_forfeits(ranks: list[int], ranking: list[int], table: Table) -> list[int]:
    """1-based places after :func:`ranking_with_forfeits`: the others keep their places among
    themselves (ties included), the forfeited seats follow in that order."""
    last = {int(e["seat"]) for e in table.forfeits if e.get("rule") == "last"}
    out = [1 + sum(1 for other in range(len(ranks)) if other not in last and ranks[other] < rank)
           for rank in ranks]
    for place, seat in enumerate(ranking_with_forfeits(ranking, table), 1):
        if seat in last:
            out[seat] = place
    return out


def _last_count(table: Table) -> int:
    return len({int(e["seat"]) for e in table.forfeits if e.get("rule") == "last"})


def clock_view(table: Table, seats: list[Seat]) -> dict[str, Any]:
    """The clocks as of the current decision's start; a page counts down from ``started``
    with the server's ``now`` sent beside each view."""
    out: dict[str, Any] = {**table.timing}
    if table.clocks is not None:
        out["remaining"] = [None if s.kind == "bot" else table.remaining(s.seat) for s in seats]
        out["started"] = table.clocks.get("started")
    out["deadline"] = table.deadline_at.isoformat() if table.deadline_at else None
    return out


def amend_view(live: LiveGame, view: dict[str, Any], tr: Translator) -> dict[str, Any]:
    """Add the table's timing and forfeits to a freshly built view: the clocks, the forfeit
    lines in the log, and a result that ranks "last" forfeits last."""
    table = live.table
    lines = [{"n": int(e["move"]), "seat": int(e["seat"]), "text": forfeit_text(e, tr)}
             for e in table.forfeits]
    view["table"] = {
        "timing": table.timing, "rated": table.rated, "practice": table.practice,
        "on_timeout": table.on_timeout, "clock": clock_view(table, live.seats),
        # "at": when it happened (forfeits recorded before it was kept have none)
        "forfeits": [{**{k: e[k] for k in ("seat", "reason", "move", "rule", "level")},
                      "at": e.get("at"), "text": line["text"]}
                     for e, line in zip(table.forfeits, lines, strict=True)],
    }
    if lines:
        log = list(view["log"])
        for line in lines:  # after every line of its move number
            at = next((i for i, entry in enumerate(log) if entry["n"] > line["n"]), len(log))
            log.insert(at, line)
        view["log"] = log
    if view.get("ranking") is not None and _last_count(table):
        old = view["ranking"]
        view["ranking"] = ranking_with_forfeits(old, table)
        if view.get("score_table") and view["score_table"].get("ranks"):
            view["score_table"] = {**view["score_table"], "ranks": ranks_with_forfeits(
                view["score_table"]["ranks"], old, table)}
    return view


def amend_record(live: LiveGame, record: dict[str, Any]) -> dict[str, Any]:
    """The record's result says who forfeited, and ranks "last" forfeits last."""
    table = live.table
    if table.forfeits and record.get("result"):
        result = dict(record["result"])
        result["ranking"] = ranking_with_forfeits(result["ranking"], table)
        result["forfeits"] = [{k: e[k] for k in ("seat", "reason", "move", "rule", "level")}
                              for e in table.forfeits]
        record["result"] = result
    return record


def amend_replay(live: LiveGame, frames: list[dict[str, Any]], tr: Translator) -> None:
    """Each forfeit's line in the replay frame of the move it happened at."""
    for entry in live.table.forfeits:
        frame = frames[min(int(entry["move"]), len(frames) - 1)]
        frame["log"] = [*frame["log"], forfeit_text(entry, tr)]


def summary_fields(table: Table) -> dict[str, Any]:
    """What the lobby shows of a table's timing (the same from a row and a live game)."""
    return {"timing": table.timing, "rated": table.rated, "practice": table.practice,
            "on_timeout": table.on_timeout, "deadline_at": table.deadline_at.isoformat() if table.deadline_at else None,
            "forfeits": len(table.forfeits),
            # which seats, and why: the lobby and "My games" say "timed out", not "playing"
            "forfeited": [{"seat": int(e["seat"]), "reason": e["reason"], "rule": e.get("rule")}
                          for e in table.forfeits]}
