"""The game service: create, join, act and undo, persisted first, then held in a live cache.

Every change follows one path: take the game's lock, check, write and COMMIT the row(s), then
change the cached state. A crash between the commit and the cache update loses nothing: the
state is rebuilt from the committed rows on the next load. Views for a seat are built only
from ``observe(seat)`` and ``events_for(seat)``, so hidden information never leaves the state
through this module.

Several processes on one PostgreSQL database (``shared``): the database orders each game's
changes. A writer first locks the game's row (``SELECT ... FOR UPDATE``, so writers of one game
in any process wait for each other), brings its cached copy up to the row's ``revision`` (a
counter of changes), checks, writes, bumps the revision and sends ``NOTIFY palio_games`` with
``"<game id> <revision>"``, which PostgreSQL delivers to every listening process on commit. A
move skips the lock when it can: it is checked on the cached copy and written by one statement
that changes the row only if it is still at the copy's revision (``move_statement``); if it is
not, the move is decided on the locked row as above (``GameService.act_as``). A reader compares
the row's revision with its cached copy's and catches up first, so any process answers for any
game. SQLite serves one process: its cache is the only copy and needs no check.
"""

from __future__ import annotations

import contextlib
import functools
import hashlib
import json
import logging
import random
import secrets
import threading
import time
from collections import OrderedDict
from collections.abc import Callable, Hashable
from dataclasses import dataclass, field
from datetime import datetime, timedelta
from types import ModuleType
from typing import Any, cast

from sqlalchemy import and_, bindparam, delete, event, func, insert, or_, select, text, update
from sqlalchemy.engine import Connection, CursorResult, Engine
from sqlalchemy.exc import IntegrityError
from sqlalchemy.orm import Session, SessionTransaction, sessionmaker

import palio.games as registry
from palio.core import describe
from palio.core.errors import OptionError, PalioError
from palio.core.game import Game, State
from palio.core.i18n import Translator, lookup
from palio.core.record import GameRecord
from palio.core.words import msg
from palio.server.accounts.store import account_named_like
from palio.server.base.clock import Clock, SystemClock
from palio.server.base.cluster import CHANNEL
from palio.server.base.db import is_sqlite, make_engine, upgrade, utc
from palio.server.base.errors import ApiError
from palio.server.base.models import parse
from palio.server.base.names import look_alike
from palio.server.play import headlines, models, timing
from palio.server.play.recent import changed_paths
from palio.server.play.tables import ActionRow, GameRow, SeatRow

__all__ = ["ApiError", "GameService", "LiveGame", "bot_move", "bot_names",
           "fallback_move"]

BOT_LEVELS = ["easy", "medium", "hard", "expert"]
UNDO_SAMPLES = 6  # determinizations used to decide whether an action revealed something
GAMES = GameRow.__table__
ACTIONS = ActionRow.__table__
SEATS = SeatRow.__table__
# A move's statements, built once, their values given as parameters: building them for each
# move (the values' binds and SQLAlchemy's cache key of each statement, from which it finds
# the compiled SQL) was about a third of the CPU of a move's writes (docs/performance.md).
READ_REVISION = select(GAMES.c.revision).where(GAMES.c.id == bindparam("game_"))
LOCK_REVISION = READ_REVISION.with_for_update()
INSERT_ACTION = insert(ACTIONS)  # the columns: the parameters' keys
UPDATE_GAME = update(GAMES).where(GAMES.c.id == bindparam("game_"))  # SET: the parameters'
# PostgreSQL: the same, telling the other processes (NOTIFY, delivered on commit) in the same
# statement: one round trip fewer per change
UPDATE_GAME_NOTIFY = UPDATE_GAME.returning(func.pg_notify(CHANNEL, bindparam("payload_")))
ACTION_COLUMNS = ("game_id", "n", "seat", "notation", "created_at")
# A copy's catching up (``GameService._refresh``), built once as the move's are: the game's
# row and seats as plain rows (the ORM's loading of them was a third of a catch-up's CPU), and
# the moves after number ``after_`` each with the game's revision, read in one statement so
# both come from one snapshot of the database
READ_GAME = select(GAMES).where(GAMES.c.id == bindparam("game_"))
READ_SEATS = select(SEATS).where(SEATS.c.game_id == bindparam("game_")).order_by(SEATS.c.seat)
READ_MOVES_AFTER = (
    select(GAMES.c.revision, ACTIONS.c.notation, ACTIONS.c.seat)
    .select_from(GAMES.outerjoin(ACTIONS, and_(ACTIONS.c.game_id == GAMES.c.id,
                                               ACTIONS.c.n > bindparam("after_"))))
    .where(GAMES.c.id == bindparam("game_")).order_by(ACTIONS.c.n))


def _dumps(value: Any) -> str:
    """JSON as the REST answers write it: compact, UTF-8 as is, no NaN."""
    return json.dumps(value, ensure_ascii=False, allow_nan=False, separators=(",", ":"))


@functools.cache
def move_statement(columns: tuple[str, ...]) -> Any:
    """PostgreSQL: a move's whole write as one statement (one round trip instead of a row
    lock, an INSERT and an UPDATE): the game's row gets the next revision and ``columns``
    (parameters ``<column>_``) only if it is still at ``old_revision_``, tells the other
    processes (NOTIFY, delivered on commit), and the action's row is inserted only if the
    game's row was. Its row count says which (1: written, 0: the row had moved on)."""
    bumped = (update(GAMES)
              .where(GAMES.c.id == bindparam("game_"),
                     GAMES.c.revision == bindparam("old_revision_"))
              .values({name: bindparam(name + "_", type_=GAMES.c[name].type)
                       for name in columns})
              .returning(GAMES.c.id, func.pg_notify(CHANNEL, bindparam("payload_")))
              .cte("bumped"))
    return insert(ACTIONS).from_select(list(ACTION_COLUMNS), select(
        bumped.c.id, *(bindparam(name + "_", type_=ACTIONS.c[name].type)
                       for name in ACTION_COLUMNS[1:]))).execution_options(
        preserve_rowcount=True)  # SQLAlchemy keeps an INSERT's row count only when asked
SEATED = "palio.seated"  # a session's info: the tables it seated, told after its commit
log = logging.getLogger("palio.server")


def _bots() -> ModuleType:
    """``palio.bots``, imported where first used (a table with a bot seat, a bot process):
    it imports numpy and the learned bot's network (~0.3 CPU-s), which a server start and
    every ``--workers`` process need not pay before their first bot."""
    import palio.bots

    return palio.bots


def hints_allowed(row: Any) -> bool:
    """Hints only at practice tables that are not rated: the rule of
    :func:`palio.review.hints_allowed`, on this concern's own columns (``palio.review`` imports
    the bots and numpy; tests/server/test_imports.py checks the two agree). Works
    before and after the ``practice`` and ``rated`` columns exist: without them, no hints."""
    return bool(getattr(row, "practice", False)) and not bool(getattr(row, "rated", False))


def hash_token(token: str) -> str:
    return hashlib.sha256(token.encode("utf-8")).hexdigest()


def creator_key(address: str) -> str:
    """What the database keeps of a client's address for the per-minute limit: a hash."""
    return hashlib.sha256(f"palio-creator:{address}".encode()).hexdigest()[:32]


def is_game_id(text: str) -> bool:
    """Game ids are short and alphanumeric; anything else (a NUL byte, which PostgreSQL
    rejects outright) is simply no game."""
    return len(text) <= 32 and text.isascii() and text.isalnum()


def bot_names() -> list[str]:
    """Levels offered to people first, then any other registered bot by name."""
    return BOT_LEVELS + [name for name in _bots().names() if name not in BOT_LEVELS]


def new_game_id() -> str:
    return secrets.token_urlsafe(6).replace("-", "x").replace("_", "y")


@dataclass
class Seat:
    seat: int
    kind: str
    level: str | None
    name: str | None
    token_hash: str | None
    account_id: int | None = None  # the account holding the seat (palio.server.accounts.store)

    @property
    def taken(self) -> bool:
        return self.kind == "bot" or self.token_hash is not None

    def summary(self) -> dict[str, Any]:
        return {"seat": self.seat, "kind": self.kind, "level": self.level, "name": self.name,
                "taken": self.taken, "account": self.account_id is not None}

    @classmethod
    def of(cls, row: SeatRow) -> Seat:
        return cls(row.seat, row.kind, row.level, row.name, row.token_hash, row.account_id)

    @property
    def unnamed_bot(self) -> bool:
        # games created before bots were named in the reader's words stored "easy bot"
        return self.kind == "bot" and (not self.name or self.name == f"{self.level} bot")

    def display_name(self, tr: Translator | None, numbered: bool = False) -> str | None:
        """The seat's name; an unnamed bot's in ``tr``'s words, with its seat number when
        another bot would have the same name (``numbered``)."""
        if not self.unnamed_bot or tr is None:
            return self.name
        bot = str(self.level).partition(":")[0]  # a spec such as mcts:iterations=50: its bot
        level = tr(msg(f"ui.level.{bot}")) if lookup(f"ui.level.{bot}", tr.lang) else bot
        if numbered:
            return tr(msg("ui.bot_named_n", level=level, n=self.seat + 1))
        return tr(msg("ui.bot_named", level=level))


def seat_names(seats: list[Seat], tr: Translator | None) -> list[str | None]:
    """Every seat's name as :meth:`Seat.display_name` gives it, unnamed bots of the same level
    told apart by their seat numbers (the browser's ``seatName`` does the same)."""
    levels = [s.level for s in seats if s.unnamed_bot]
    return [s.display_name(tr, numbered=s.unnamed_bot and levels.count(s.level) > 1)
            for s in seats]


@dataclass
class LiveGame:
    """One game in memory: its set-up, seats, and the state after every accepted action."""

    id: str
    game: Game
    players: int
    options: dict[str, Any]
    seed: int
    status: str
    created_at: str
    seats: list[Seat]
    state: State
    revision: int = 0  # the games row's revision this copy shows
    actors: list[int] = field(default_factory=list)  # seat of action n at index n-1
    notations: list[str] = field(default_factory=list)  # notation of action n at index n-1
    marks: list[int] = field(default_factory=lambda: [0])  # len(log) after n actions (n = 0: set-up)
    turns: list[Hashable] = field(default_factory=list)  # game.turn_key after n actions
    revealed: dict[int, bool] = field(default_factory=dict)  # memo: did action n reveal?
    before_last: State | None = None  # the position before the latest action (for undo)
    # the position before the latest run of one seat's decisions (what the board highlights)
    run_start: State | None = None
    lock: threading.RLock = field(default_factory=threading.RLock)
    # views of the current revision by (seat, language): a move's REST answer and its push
    # to the same seat are built once
    views: dict[tuple[int | None, str], dict[str, Any]] = field(default_factory=dict)
    # the same views in JSON, by (seat, language), of the same revision: a move's REST
    # answer and its push to the same seat are serialised once
    view_texts: dict[tuple[int | None, str], str] = field(default_factory=dict)
    views_revision: int = -1
    # each language's score table of the same revision: it holds only what every seat knows
    # (``describe.score_table`` takes no seat), so the seats' views share it
    score_tables: dict[str, dict[str, Any]] = field(default_factory=dict)
    # ``run_start`` and what each seat observed of it (``recent``): a state is never changed
    # once replaced, so its observation stays exact while it is the run's start
    run_observed: tuple[State | None, dict[int | None, Any]] = field(
        default_factory=lambda: (None, {}))
    spectator_chat: bool = False  # may spectators read and write the table chat (chat.py)
    used: float = 0.0  # time.monotonic() when last asked for (which finished games stay cached)
    # log lines in words by (seat, language): (events described, lines)
    log_cache: dict[tuple[int | None, str], tuple[int, list[dict[str, Any]]]] = field(
        default_factory=dict)
    # those lines in JSON, by (seat, language): (the lines, their JSON members): a view's
    # JSON adds only the new lines' (``_log_json``)
    log_json: dict[tuple[int | None, str], tuple[list[dict[str, Any]], str]] = field(
        default_factory=dict)
    table: timing.Table = field(default_factory=timing.Table)  # clocks, forfeits (timing.py)
    # hints (palio.server.review.review): may a seat ask for one here, has one been asked for
    hints_allowed: bool = False
    hints_used: bool = False

    @property
    def move_number(self) -> int:
        return self.state.move_number

    def seat_of_token(self, token: str | None) -> int | None:
        """The seat a token opens; None for no token; ApiError 403 for a wrong one."""
        if token is None or token == "":
            return None
        digest = hash_token(token)
        for seat in self.seats:
            if seat.token_hash is not None and secrets.compare_digest(seat.token_hash, digest):
                return seat.seat
        raise ApiError(403, "bad_token", "this token does not open a seat of this game")

    def summary(self) -> dict[str, Any]:
        state = self.state
        return {
            "id": self.id, "game": self.game.info.id, "players": self.players,
            "options": self.options, "status": self.status, "move_number": state.move_number,
            "to_move": None if state.is_over else state.to_move, "created_at": self.created_at,
            "seats": [s.summary() for s in self.seats], "spectator_chat": self.spectator_chat,
            **timing.summary_fields(self.table),
        }

    def apply_cached(self, action: Any, seat: int, after: State | None = None) -> None:
        """Record an accepted action; ``after`` is the position after it, if already made."""
        if after is None:
            after = self.state.copy()
            after.apply(action)
        if not self.actors or self.actors[-1] != seat:
            self.run_start = self.state  # states are never changed once replaced
        self.before_last = self.state
        self.state = after
        self.actors.append(seat)
        self.notations.append(str(action))  # stored notation is canonical already
        self.marks.append(len(after.log))
        self.turns.append(self.game.turn_key(after))

    def replay(self, moves: list[tuple[str, int]]) -> None:
        """Rebuild the state from set-up through ``moves`` (notation, seat)."""
        self.state = self.game.setup(self.players, self.seed, self.options)
        self.actors, self.notations, self.marks = [], [], [len(self.state.log)]
        self.turns = [self.game.turn_key(self.state)]
        self.revealed, self.before_last, self.run_start = {}, None, None
        self.forget_log()
        for notation, seat in moves:
            self.apply_cached(notation, seat)

    def event_move(self, index: int) -> int:
        """The move number during which event ``index`` was logged (0 = set-up)."""
        lo, hi = 0, len(self.marks) - 1
        while lo < hi:  # smallest n with marks[n] > index
            mid = (lo + hi) // 2
            if self.marks[mid] > index:
                hi = mid
            else:
                lo = mid + 1
        return lo

    # -- undo ---------------------------------------------------------------------------
    def action_revealed(self, n: int) -> bool:
        """Did action ``n`` tell its mover anything they could not know before it?

        Two tests, either is enough: an event of that action carries a secret for the mover,
        or the action's outcome depends on hidden information (applied to several
        determinizations of the position before it, from the mover's point of view, it
        yields different observations for the mover or for a spectator).
        """
        if n in self.revealed:
            return self.revealed[n]
        seat = self.actors[n - 1]
        history = self.state.history.to_list()
        action = history[n - 1]
        if n == self.move_number and self.before_last is not None:
            # the latest action: the position after it is the current one (``apply_cached``
            # made it from ``before_last``; states are never changed once replaced)
            before, after = self.before_last, self.state
        else:
            before = self.game.setup(self.players, self.seed, self.options)
            for earlier in history[: n - 1]:
                before.apply_unchecked(earlier)
            after = before.copy()
            after.apply_unchecked(action)
        result = any(
            event.secret and seat in event.audience for event in after.log.to_list()[len(before.log):]
        )
        if not result:
            want = (after.observe(seat), after.observe(None))
            rng = random.Random(n)
            for _ in range(UNDO_SAMPLES):
                sample = before.determinize(seat, rng)
                if action not in sample.legal_actions():
                    result = True
                    break
                sample.apply_unchecked(action)
                # the mover's first: when it differs, the spectator's need not be built
                if sample.observe(seat) != want[0] or sample.observe(None) != want[1]:
                    result = True
                    break
        self.revealed[n] = result
        return result

    def can_undo(self, seat: int | None) -> bool:
        """The undo rule (docs/server.md): this seat's own last decision, still its turn,
        the decision began no new turn, nothing revealed by it, game running."""
        n = self.move_number
        if seat is None or self.status != "running" or n == 0 or self.state.is_over:
            return False
        if self.actors[n - 1] != seat or self.state.to_move != seat:
            return False
        if self.turns[n - 1] != self.turns[n]:  # it ended a turn: the next one is not undone
            return False
        if self.seats[seat].kind != "human":
            return False
        return not self.action_revealed(n)

    # -- views --------------------------------------------------------------------------
    def names(self, tr: Translator | None = None) -> list[str | None]:
        """Each seat's name; a bot without one is named by its level in ``tr``'s language,
        a person without one is left to the translator ("Player 2")."""
        return seat_names(self.seats, tr)

    def recent(self, seat: int | None, observed: Any = None) -> dict[str, Any] | None:
        """The latest run of one seat's decisions, and what of ``seat``'s view it changed;
        ``observed``: ``self.state.observe(seat)`` when the caller has it already."""
        if self.run_start is None or not self.actors:
            return None
        if observed is None:
            observed = self.state.observe(seat)
        start, seen = self.run_observed
        if start is not self.run_start:
            start, seen = self.run_start, {}
            self.run_observed = start, seen
        if seat not in seen:
            seen[seat] = start.observe(seat)
        return {"seat": self.actors[-1], "since": start.move_number,
                "paths": changed_paths(seen[seat], observed)}

    def view(self, seat: int | None, lang: str = "en") -> dict[str, Any]:
        """What ``seat`` (``None``: a spectator) may see, in words of ``lang``. Every change
        bumps the revision, so a view kept for this revision is still exact (and shared:
        callers only read it)."""
        if self.views_revision != self.revision:  # the revision last: see cached_texts
            self.view_texts, self.views, self.score_tables = {}, {}, {}
            self.views_revision = self.revision
        key = (seat, lang)
        if key not in self.views:
            self.views[key] = self._build_view(seat, lang)
        return self.views[key]

    def view_text(self, seat: int | None, lang: str = "en") -> str:
        """:meth:`view` in JSON, written as the REST answers write JSON (compact, UTF-8 as
        is), once per revision, seat and language (under the game's lock, as ``view``)."""
        view = self.view(seat, lang)
        key = (seat, lang)
        text = self.view_texts.get(key)
        if text is None:
            # the view's members around its log, and the log's JSON kept per reader: the
            # same text as ``json.dumps(view, ...)``, the log's old lines not written again
            members = list(view.items())
            at = next(i for i, (name, _) in enumerate(members) if name == "log")
            head, tail = _dumps(dict(members[:at])), _dumps(dict(members[at + 1:]))
            text = self.view_texts[key] = (
                head[:-1] + ("," if at else "") + '"log":' + self._log_json(key, view["log"])
                + ("," if at + 1 < len(members) else "") + tail[1:])
        return text

    def _log_json(self, key: tuple[int | None, str], log: list[dict[str, Any]]) -> str:
        """``log`` in JSON (as :func:`_dumps` writes it), the lines already written for this
        reader (``key``) taken as written: log lines never change once made (a new list
        holds the same line objects, and the new ones after them), so a line that is the
        same object as one written before has the same JSON."""
        kept, members = self.log_json.get(key, ([], ""))
        if len(kept) > len(log) or any(a is not b for a, b in zip(kept, log, strict=False)):
            kept, members = [], ""  # another log (forgotten, rebuilt): written anew
        new = ",".join(_dumps(line) for line in log[len(kept):])
        members = members + ("," if members and new else "") + new
        self.log_json[key] = (log, members)
        return "[" + members + "]"

    def cached_texts(self, readers: set[tuple[int | None, str]]
                     ) -> tuple[int, dict[tuple[int | None, str], str]] | None:
        """Every reader's view text (:meth:`view_text`) of the current position, if all were
        built already (by the move's own request, palio.server.play.routes), with their
        revision; else None. Reads without the lock, so the event loop can push without
        handing work to a thread: texts are only built under the lock, into a fresh dict per
        revision, after that revision is recorded, so a dict whose revision reads the same
        before and after, and is the game's current one, holds texts of exactly that
        position."""
        revision, texts = self.views_revision, self.view_texts
        if revision != self.views_revision or revision != self.revision:
            return None
        if not all(reader in texts for reader in readers):
            return None
        return revision, {reader: texts[reader] for reader in readers}

    def _log_lines(self, seat: int | None, tr: Translator) -> list[dict[str, Any]]:
        """The seat's log in words. Events never change once logged, so each reader's lines
        are kept and only new events are described (a whole log per view would cost more
        with every move); ``forget_log`` drops them when the history or a name changes."""
        key = (seat, tr.lang)
        done, lines = self.log_cache.get(key, (0, []))
        events = len(self.state.log)
        if done < events:
            lines = lines + [  # a new list: views already sent keep theirs
                {"n": self.event_move(line["event"]), "seat": line["seat"], "text": line["text"]}
                for line in describe.log(self.state, seat, tr, done)]
            self.log_cache[key] = (events, lines)
        return lines

    def forget_log(self) -> None:
        self.log_cache, self.log_json = {}, {}

    def _score_table(self, tr: Translator) -> dict[str, Any]:
        """``describe.score_table`` of the current position in ``tr``'s language, built once
        per revision and language (``view`` clears them with the views): every seat's names
        in ``tr`` are the same (``names``), and the table holds no seat's secrets."""
        table = self.score_tables.get(tr.lang)
        if table is None:
            table = self.score_tables[tr.lang] = describe.score_table(self.state, tr)
        return table

    def _build_view(self, seat: int | None, lang: str) -> dict[str, Any]:
        state = self.state
        game = self.game
        tr = Translator(lang)
        tr.names = self.names(tr)
        over = state.is_over
        to_move = None if over else state.to_move
        yours = (seat is not None and seat == to_move and self.status == "running"
                 and self.seats[seat].kind == "human")  # a seat left to a bot has no choices
        log = self._log_lines(seat, tr)
        observation = state.observe(seat)  # once: the view's, and what ``recent`` compares
        if self.hints_used:  # the table's log says so (palio.server.review.review)
            log = [*log, {"n": state.move_number, "seat": None,
                          "text": tr(msg("review.log.hints_used"))}]
        return timing.amend_view(self, {
            "id": self.id, "game": game.info.id, "players": self.players, "status": self.status,
            "seat": seat, "lang": tr.lang, "move_number": state.move_number,
            "revision": self.revision, "to_move": to_move,
            "is_over": over, "observation": observation,
            "legal": describe.choices(state, tr) if yours else [],
            "prompt": describe.prompt(state, seat, tr), "log": log,
            "scores": state.scores() if over else None,
            "ranking": state.ranking() if over else None,
            # during play too: a game's score rows hold only what every seat knows
            "score_table": self._score_table(tr),
            "seats": [s.summary() for s in self.seats],
            "can_undo": self.can_undo(seat),
            "recent": self.recent(seat, observation),
            "text": game.render(state, seat, tr), "spectator_chat": self.spectator_chat,
            "hints": {"allowed": self.hints_allowed, "used": self.hints_used},
        }, tr)


def row_summary(row: GameRow, seats: list[SeatRow]) -> dict[str, Any]:
    """A lobby entry from the rows alone; the same as ``LiveGame.summary()`` of that game."""
    return {
        "id": row.id, "game": row.game, "players": row.players, "options": row.options,
        "status": row.status, "move_number": row.move_number,
        "to_move": None if row.status == "finished" else row.to_move,
        "created_at": utc(row.created_at).isoformat(),
        "seats": [Seat.of(s).summary() for s in seats],
        "spectator_chat": bool(row.spectator_chat),
        **timing.summary_fields(timing.Table.of(row)),
    }


@dataclass
class Move:
    """A move decided against a game's copy (``GameService._decide``), before it is written."""

    seat: int
    action: Any
    after: State  # the position after it
    number: int  # its move number, 1-based: the action row's ``n``
    values: dict[str, Any]  # the game row's columns it changes, besides revision and time
    table: timing.Table  # the table's clocks and deadline after it


class GameService:
    """All games: the database and the live cache. Thread-safe; every method is blocking.

    ``games_per_minute``: games one creator may start per minute (0: no limit);
    ``bot_seconds``: the most a bot spec may ask to think per move;
    ``finished_cached`` and ``replays_cached``: how many finished games, and how many built
    replays, stay in memory (least recently used beyond that are dropped and read again from the
    database when asked for: a finished game never changes, so its copy can go at any time).
    """

    def __init__(self, url: str, *, games_per_minute: int = 0, bot_seconds: float = 10.0,
                 finished_cached: int = 64, replays_cached: int = 16,
                 clock: Clock | None = None, limits: timing.Limits | None = None) -> None:
        self.clock = clock or SystemClock()  # the one source of time (palio.server.base.clock)
        # called in each accepted move's transaction: (session, game id, game, the seat that
        # moved or None when a full table starts, seat now to move or None, move number);
        # e.g. palio.server.mail.turns queues a turn mail
        self.move_hooks: list[Callable[[Session, str, str, int | None, int | None, int], Any]] = []
        # called in the transaction that finishes a game: (session, its games row, its seats'
        # rows in seat order, each seat's place, the moment, each seat's final game score);
        # e.g. the ratings rate a rated table (palio.server.ratings.ratings.rate_finished)
        self.finish_hooks: list[Callable[[Session, GameRow, list[SeatRow], list[int], datetime,
                                          list[float]], Any]] = []
        # called once the transaction that seated accounts at a new table (``create_seated``)
        # has committed: (its game id, the account of each seat in seat order, None for a
        # bot); the root pushes it to those accounts' open pages (push.Hub.seated). SQLite
        # only: with PostgreSQL the transaction's NOTIFY ``"<id> seated <accounts>"`` tells
        # every process's Listener instead (base/cluster.py), so each process hears it once
        self.seated_hooks: list[Callable[[str, list[int | None]], Any]] = []
        self.limits = limits or timing.Limits()  # expiry and idle limits (timing.py)
        self.engine: Engine = make_engine(url)
        upgrade(self.engine)
        self.shared = not is_sqlite(url)
        self.games_per_minute = games_per_minute
        self.bot_seconds = bot_seconds
        self.sessions = sessionmaker(self.engine, expire_on_commit=False)
        # one-statement reads outside any transaction (``get``'s revision check): on
        # PostgreSQL one round trip instead of three (BEGIN, the SELECT, the ROLLBACK that
        # returning a connection to the pool sends, which also drops psycopg's prepared
        # statements of that connection); a lone SELECT sees the same committed rows either way
        self.reads = self.engine.execution_options(isolation_level="AUTOCOMMIT")
        event.listen(self.sessions, "after_commit", self._tell_seated)
        event.listen(self.sessions, "after_soft_rollback", self._forget_seated)
        event.listen(self.sessions, "after_transaction_end", self._end_seated)
        # games by id; running games always stay (their copy is the one a move changes under
        # its lock), the least recently used finished ones beyond finished_cached go
        self.live: dict[str, LiveGame] = {}
        self.live_lock = threading.Lock()
        self.finished_cached = finished_cached
        self.replays: OrderedDict[tuple[str, str, int | None], dict[str, Any]] = OrderedDict()
        self.replays_cached = replays_cached

    def close(self) -> None:
        self.engine.dispose()

    # -- loading --------------------------------------------------------------------------
    def get(self, game_id: str) -> LiveGame:
        """The game, up to date with the database (another process may have changed it)."""
        live = self._cached(game_id)
        if self.shared:
            with self.reads.connect() as connection:
                revision = connection.scalar(READ_REVISION, {"game_": game_id})
            if revision != live.revision:
                with live.lock, self.sessions() as session:
                    self._refresh(live, session)
        return live

    def _cached(self, game_id: str) -> LiveGame:
        """The game as this process holds it, loaded if need be; a change brings it up to
        date itself, under the row's lock (``_lock_row``)."""
        live = self.live.get(game_id)
        if live is None:
            with self.live_lock:
                live = self.live.get(game_id)
                if live is None:  # loaded under the lock: never two copies in this process
                    live = self.live[game_id] = self._load(game_id)
                    live.used = time.monotonic()  # the newest: not the one to drop
                    self._drop_finished()
        live.used = time.monotonic()
        return live

    def _drop_finished(self) -> None:
        """Forget the least recently used finished games beyond ``finished_cached``; the
        caller holds ``live_lock``."""
        finished = sorted((live.used, game_id) for game_id, live in list(self.live.items())
                          if live.status == "finished")
        for _, game_id in finished[:max(0, len(finished) - self.finished_cached)]:
            del self.live[game_id]

    def _load(self, game_id: str) -> LiveGame:
        with self.sessions() as session:
            row = session.get(GameRow, game_id) if is_game_id(game_id) else None
            if row is None:
                raise ApiError(404, "no_such_game", f"there is no game {game_id!r}")
            game = registry.get(row.game)
            # a game stored under an earlier version of its rules replays as it was played
            # (e.g. Aquileia 1: the tiebreaker ended one's henchmen, now an option)
            options = game.options_of_version(row.version, row.options)
            state = game.setup(row.players, row.seed, options)
            live = LiveGame(
                id=row.id, game=game, players=row.players, options=options,
                seed=row.seed, status=row.status, created_at=utc(row.created_at).isoformat(),
                seats=[], state=state, turns=[game.turn_key(state)], marks=[len(state.log)],
                spectator_chat=bool(row.spectator_chat))
            self._refresh(live, session, row)
        return live

    def _refresh(self, live: LiveGame, session: Session, row: GameRow | None = None) -> None:
        """Bring ``live`` to the committed rows: new moves are applied, anything else (an
        undo) replays the game from set-up. The caller holds ``live.lock`` (or owns ``live``).

        The revision is read first: rows read after it are at least as new, so at worst the
        copy is newer than its revision says and the next check refreshes it once more.
        """
        if row is None:
            row = session.execute(READ_GAME, {"game_": live.id}).first()
            if row is None:
                raise ApiError(404, "no_such_game", f"there is no game {live.id!r}")
        revision, status = row.revision, row.status
        seats = session.execute(READ_SEATS, {"game_": live.id}).all()
        known = len(live.notations)
        # Only the moves a change since the copy's revision can have touched are read: a
        # revision removes at most one move (an undo takes back the latest), so of the
        # ``known`` moves the copy holds, all but the last ``revision - live.revision`` are
        # still the rows'. That holds for the rows as of ``revision``; the moves' statement
        # reads the revision again, and if it moved on meanwhile every move is read.
        after = max(0, known - max(0, revision - live.revision))
        seen, moves = self._moves_after(session, live.id, after)

        def holds(moves: list[tuple[str, int]], after: int) -> bool:
            """Whether ``moves`` (those above ``after``) start with the copy's."""
            return [notation for notation, _ in moves[:known - after]] == live.notations[after:]

        if after and (seen != revision or not holds(moves, after)):  # moved on, or an undo
            after, (_, moves) = 0, self._moves_after(session, live.id, 0)  # reached in: all
        if holds(moves, after):
            for notation, seat in moves[known - after:]:
                live.apply_cached(notation, seat)
        else:
            live.replay(moves)
        fresh_seats = [Seat.of(s) for s in seats]
        if [s.name for s in fresh_seats] != live.names():
            live.forget_log()  # the log names players
        live.seats = fresh_seats
        live.table = timing.Table.of(row)
        live.status = "finished" if live.state.is_over else status  # "finished": a safeguard
        live.hints_allowed = hints_allowed(row)
        live.hints_used = bool(getattr(row, "hints_used", False))
        live.revision = revision

    @staticmethod
    def _moves_after(session: Session, game_id: str, after: int
                     ) -> tuple[int, list[tuple[str, int]]]:
        """The game's revision and its moves numbered above ``after`` (notation, seat), in
        order, from one statement (one snapshot)."""
        rows = session.execute(READ_MOVES_AFTER, {"game_": game_id, "after_": after}).all()
        if not rows:
            raise ApiError(404, "no_such_game", f"there is no game {game_id!r}")
        return rows[0].revision, [(r.notation, r.seat) for r in rows if r.notation is not None]

    def _lock_row(self, session: Session, live: LiveGame) -> None:
        """Before a change: on a shared database, lock the game's row (writers of this game in
        every process queue here) and catch the cached copy up to it."""
        if not self.shared:
            return
        revision = session.scalar(LOCK_REVISION, {"game_": live.id})
        if revision != live.revision:
            self._refresh(live, session)

    def _bump(self, session: Session | Connection, live: LiveGame, **values: Any) -> int:
        """Write a change to the games row with the next revision; tell the other processes
        (NOTIFY is delivered when, and only if, the transaction commits)."""
        revision = live.revision + 1
        # a Core UPDATE of the table (not the ORM's bulk update, which compiles, autoflushes
        # and synchronises the session each time: ~10% of the server's CPU per move); a row
        # a session's transaction loaded before is expired, so a later read (a finish hook)
        # sees it
        params = {"game_": live.id, "revision": revision, "updated_at": self.clock.now(),
                  **values}
        if self.shared:
            session.execute(UPDATE_GAME_NOTIFY, {**params, "payload_": f"{live.id} {revision}"})
        else:
            session.execute(UPDATE_GAME, params)
        if isinstance(session, Session):
            self._expire_row(session, live.id)
        return revision

    @staticmethod
    def _expire_row(session: Session, game_id: str) -> None:
        """After a Core UPDATE of a game's row: a copy of it this transaction loaded before is
        expired, so a later read (a finish hook) sees the row as written."""
        loaded = session.identity_map.get(session.identity_key(GameRow, game_id))
        if loaded is not None:
            session.expire(loaded)

    def list_games(self, query: Any = None) -> tuple[list[dict[str, Any]], str | None]:
        """A page of lobby entries, newest first, and the cursor of the next page (or None).

        Read from the rows alone, so listing never loads or replays a game.
        """
        query = parse(models.ListGames, query or {}, code="bad_query")
        with self.sessions() as session:
            select_rows = select(GameRow)
            # by default the live tables; "recent": the ended ones (timing.py expires tables)
            wanted = {None: ["open", "running"], "recent": ["finished", "expired"],
                      "all": None}.get(query.status, [query.status])
            if wanted is not None:
                select_rows = select_rows.where(GameRow.status.in_(wanted))
            if query.game is not None:
                select_rows = select_rows.where(GameRow.game == query.game)
            if query.before is not None:
                anchor = session.get(GameRow, query.before) if is_game_id(query.before) else None
                if anchor is None:
                    raise ApiError(400, "bad_query", "before: there is no such game")
                select_rows = select_rows.where(or_(
                    GameRow.created_at < anchor.created_at,
                    and_(GameRow.created_at == anchor.created_at, GameRow.id < anchor.id)))
            rows = list(session.scalars(select_rows.order_by(
                GameRow.created_at.desc(), GameRow.id.desc()).limit(query.limit + 1)))
            more = len(rows) > query.limit
            rows = rows[: query.limit]
            seats: dict[str, list[SeatRow]] = {row.id: [] for row in rows}
            if rows:
                for seat in session.scalars(select(SeatRow).where(SeatRow.game_id.in_(seats))
                                            .order_by(SeatRow.seat)):
                    seats[seat.game_id].append(seat)
        page = [row_summary(row, seats[row.id]) for row in rows]
        return page, (rows[-1].id if more else None)

    def bot_turns(self, idle_seconds: float = 0.0) -> list[str]:
        """Running games with a bot to move whose last change is at least this old."""
        query = (select(GameRow.id)
                 .join(SeatRow, and_(SeatRow.game_id == GameRow.id, SeatRow.seat == GameRow.to_move))
                 .where(GameRow.status == "running", SeatRow.kind == "bot"))
        if idle_seconds > 0:
            query = query.where(GameRow.updated_at < self.clock.now() - timedelta(seconds=idle_seconds))
        with self.sessions() as session:
            return list(session.scalars(query))

    # -- changes --------------------------------------------------------------------------
    def create(self, body: Any, *, creator: str | None = None,
               creator_token: str | None = None) -> LiveGame:
        """A new game from a ``CreateGame`` body; ``creator`` (a client's address) counts
        towards the per-minute limit; ``creator_token`` (a hash, palio/server/play/seating.py) lets
        the creator give an empty seat to a bot later."""
        request = parse(models.CreateGame, body)
        try:
            game = registry.get(request.game)
        except OptionError as exc:
            raise ApiError(422, "bad_options", str(exc)) from None
        players = game.info.min_players if request.players is None else request.players
        options = self._checked_options(game, players, request.options or {})
        seats = self._seats(request.seats, players)
        table = timing.new_table(request, players, self._check_bot)
        seed = secrets.randbits(63) if request.seed is None else request.seed
        try:
            state = game.setup(players, seed, options)  # fails here, not later, if it cannot
        except PalioError as exc:
            raise ApiError(422, "bad_options", str(exc)) from None
        row_id = new_game_id()
        everyone_seated = all(s.kind == "bot" for s in seats)
        created = self.clock.now()
        key = creator_key(creator) if creator else None
        status = "running" if everyone_seated else "open"
        table = timing.on_create(table, status, state.to_move, seats, created, self.limits)
        with self.sessions.begin() as session:
            if key is not None and self.games_per_minute > 0:
                self._check_rate(session, key, created)
            session.add(GameRow(
                id=row_id, game=game.info.id, version=game.info.version, players=players,
                options=options, seed=seed, status=status,
                created_at=created, updated_at=created, revision=0, move_number=0,
                to_move=state.to_move, creator=key, creator_token=creator_token,
                **table.columns(), spectator_chat=bool(request.spectator_chat)))
            session.flush()
            for s in seats:
                session.add(SeatRow(game_id=row_id, seat=s.seat, kind=s.kind, level=s.level,
                                    name=s.name))
        return self.get(row_id)

    def create_seated(self, session: Session, body: Any,
                      holders: list[tuple[int, str] | None], *, bot_level: str = "medium") -> str:
        """A running game written in the caller's transaction (a tournament's round: its
        games and its own rows commit together or not at all). ``body`` as ``create``'s (its
        ``seats`` are not read); ``holders`` in seat order: an account's ``(id, name)``, or
        None for a bot of ``bot_level``. An account plays its seat signed in (the seat's token
        is never shown to anyone). Nothing is cached until asked for; after the commit the
        caller pushes the new games and lets their bots move. Returns the game's id."""
        request = parse(models.CreateGame, body)
        try:
            game = registry.get(request.game)
        except OptionError as exc:
            raise ApiError(422, "bad_options", str(exc)) from None
        players = len(holders)
        options = self._checked_options(game, players, request.options or {})
        seats = []
        for index, holder in enumerate(holders):
            if holder is None:
                self._check_bot(index, bot_level)
                seats.append(Seat(index, "bot", bot_level, None, None))
            else:
                seats.append(Seat(index, "human", None, holder[1],
                                  hash_token(secrets.token_urlsafe(24)), holder[0]))
        table = timing.new_table(request, players, self._check_bot)
        seed = secrets.randbits(63) if request.seed is None else request.seed
        try:
            state = game.setup(players, seed, options)
        except PalioError as exc:
            raise ApiError(422, "bad_options", str(exc)) from None
        row_id = new_game_id()
        created = self.clock.now()
        table = timing.on_create(table, "running", state.to_move, seats, created, self.limits)
        session.add(GameRow(
            id=row_id, game=game.info.id, version=game.info.version, players=players,
            options=options, seed=seed, status="running", created_at=created,
            updated_at=created, revision=0, move_number=0, to_move=state.to_move,
            **table.columns(), spectator_chat=bool(request.spectator_chat)))
        session.flush()
        for s in seats:
            session.add(SeatRow(game_id=row_id, seat=s.seat, kind=s.kind, level=s.level,
                                name=s.name, token_hash=s.token_hash, account_id=s.account_id))
        session.flush()
        for hook in self.move_hooks:  # the first turn begins (a turn mail, as at a join)
            hook(session, row_id, game.info.id, None, state.to_move, 0)
        self._seated(session, row_id, [None if h is None else h[0] for h in holders])
        return row_id

    def _seated(self, session: Session, game_id: str, accounts: list[int | None]) -> None:
        """A table seated in ``session``'s transaction: told after its commit (never if it,
        or the savepoint it was made in, rolls back)."""
        if self.shared:  # delivered when, and only if, the transaction commits
            payload = ",".join("-" if a is None else str(a) for a in accounts)
            session.execute(text("SELECT pg_notify(:channel, :payload)"),
                            {"channel": CHANNEL, "payload": f"{game_id} seated {payload}"})
            return
        made_in = session.get_nested_transaction() or session.get_transaction()
        session.info.setdefault(SEATED, []).append((made_in, game_id, accounts))

    def _tell_seated(self, session: Session) -> None:
        if session.get_nested_transaction() is not None:  # a savepoint released: not yet
            return
        for _, game_id, accounts in session.info.pop(SEATED, ()):
            for hook in self.seated_hooks:
                try:
                    hook(game_id, accounts)
                except Exception:  # the tables are made; a push failing never undoes them
                    log.exception("telling of the new table %s failed", game_id)

    @staticmethod
    def _forget_seated(session: Session, previous: SessionTransaction) -> None:
        """A rollback (of a savepoint, or the whole): the tables made in it never were."""
        def inside(made_in: SessionTransaction | None) -> bool:
            while made_in is not None:
                if made_in is previous:
                    return True
                made_in = made_in.parent
            return False

        if SEATED in session.info:
            session.info[SEATED] = [e for e in session.info[SEATED] if not inside(e[0])]

    @staticmethod
    def _end_seated(session: Session, transaction: SessionTransaction) -> None:
        if transaction.parent is None:  # the whole transaction ended: nothing carries over
            session.info.pop(SEATED, None)

    def check_table(self, body: Any) -> dict[str, Any]:
        """The options a ``CreateGame`` body (players, options, timing, time-out rule) would
        get, with defaults filled in; ApiError as ``create`` would raise. Writes nothing."""
        request = parse(models.CreateGame, body)
        try:
            game = registry.get(request.game)
        except OptionError as exc:
            raise ApiError(422, "bad_options", str(exc)) from None
        players = game.info.min_players if request.players is None else request.players
        options = self._checked_options(game, players, request.options or {})
        timing.new_table(request, players, self._check_bot)
        return options

    def _check_rate(self, session: Session, key: str, moment: datetime) -> None:
        since = moment - timedelta(minutes=1)
        made = session.scalar(select(func.count()).select_from(GameRow).where(
            GameRow.creator == key, GameRow.created_at > since))
        if made >= self.games_per_minute:
            raise ApiError(429, "too_many_games",
                           f"one address may create {self.games_per_minute} games a minute; "
                           "try again in a minute")

    @staticmethod
    def _checked_options(game: Game, players: int, given: dict[str, Any]) -> dict[str, Any]:
        """Options with defaults filled in. A value must be one of the option's choices and
        of the same JSON type: ``1`` is not ``true``."""
        for spec in game.info.options:
            if spec.name in given:
                value = given[spec.name]
                if not any(value == c and type(value) is type(c) for c in spec.choices):
                    raise ApiError(422, "bad_options",
                                   f"option {spec.name} of {game.info.id} takes one of "
                                   f"{json.dumps(list(spec.choices))}, not {json.dumps(value)}")
        try:
            return game.validate_options(players, given)
        except OptionError as exc:
            raise ApiError(422, "bad_options", str(exc)) from None

    def _seats(self, given: list[Any] | None, players: int) -> list[Seat]:
        if given is None:
            given = [models.HumanSeat(kind="human")] * players
        if len(given) != players:
            raise ApiError(400, "bad_body", f"seats: must list {players} seats, one per player")
        seats = []
        for index, entry in enumerate(given):
            if isinstance(entry, models.BotSeat):
                level = entry.level or "medium"
                self._check_bot(index, level)
                seats.append(Seat(index, "bot", level, entry.name, None))  # unnamed: by its level
            else:
                seats.append(Seat(index, "human", None, None, None))
        return seats

    def _check_bot(self, index: int, level: str) -> str:
        return self.check_bot_level(level, f"seats[{index}]")

    def check_bot_level(self, level: str, where: str = "level") -> str:
        """A bot level, name or spec (``mcts:iterations=50``) this server can play at its
        tables; its name. Otherwise ApiError 422 ``bad_options``, its message starting with
        ``where`` (the field that named the level)."""
        try:
            bots = _bots()
            name, options = bots.parse_spec(level)
            bots.get(level)
        except OptionError as exc:
            raise ApiError(422, "bad_options", f"{where}: {exc}") from None
        budget = options.get("time_budget")
        if isinstance(budget, int | float) and budget > self.bot_seconds:
            raise ApiError(422, "bad_options", f"{where}: a bot may think at most "
                                               f"{self.bot_seconds:g} s a move on this server")
        return name[:40]

    def join(self, game_id: str, seat: int, body: Any,
             account: Any = None) -> tuple[LiveGame, str]:
        """Take a free seat: a guest's (named as asked), or ``account``'s (a signed-in
        browser's; named as the account, one seat per account and table)."""
        request = parse(models.JoinSeat, body)
        name = request.name or None  # none: "Player N" in each reader's language
        account_id = None if account is None else account.id
        if account is not None:
            name = account.name
        live = self._cached(game_id)
        with live.lock:
            if not 0 <= seat < live.players:
                raise ApiError(404, "no_such_seat", f"seats of this game are 0-{live.players - 1}")
            token = secrets.token_urlsafe(24)
            digest = hash_token(token)
            with self.sessions.begin() as session:
                self._lock_row(session, live)
                target = live.seats[seat]
                if target.kind == "bot":
                    raise ApiError(409, "seat_taken", f"seat {seat} is a bot")
                if target.taken:
                    raise ApiError(409, "seat_taken", f"seat {seat} is taken")
                if account_id is not None and any(s.account_id == account_id for s in live.seats):
                    raise ApiError(409, "already_seated", "you already hold a seat at this table")
                if account_id is None and name is not None:
                    self._check_guest_name(session, live, name)
                now = self.clock.now()
                timing.check_joinable(live, now)
                status = "running" if all(s.taken or s.seat == seat for s in live.seats) else "open"
                changed = session.execute(
                    update(SeatRow)
                    .where(SeatRow.game_id == game_id, SeatRow.seat == seat,
                           SeatRow.token_hash.is_(None))
                    .values(token_hash=digest, name=name, account_id=account_id)).rowcount
                if changed != 1:
                    raise ApiError(409, "seat_taken", f"seat {seat} is taken")
                table = timing.on_join(live, status, now, self.limits)
                revision = self._bump(session, live, status=status, **table.changing_columns())
                if status == "running":  # the table is full: the first turn begins
                    for hook in self.move_hooks:
                        hook(session, game_id, live.game.info.id, None, live.state.to_move,
                             live.move_number)
            target.token_hash = digest
            target.name = name
            target.account_id = account_id
            live.table = table
            live.forget_log()  # the log names players
            live.status = status
            live.revision = revision
        return live, token

    @staticmethod
    def _check_guest_name(session: Session, live: LiveGame, name: str) -> None:
        """A guest's name may not pass for another: one that looks like (but is not) an
        account's name or another seat's name at the table is refused (base/names.py)."""
        owner = account_named_like(session, name)
        if (owner is not None and owner != name) or any(
                s.name is not None and look_alike(name, s.name) for s in live.seats):
            raise ApiError(409, "name_looks_like",
                           "this name looks like another player's; choose another")

    @staticmethod
    def hold_row(session: Session, game_id: str) -> None:
        """Lock a game's row until the caller's transaction ends, so that other writers of
        this table in every process wait (e.g. the chat numbering its messages)."""
        session.execute(select(GameRow.id).where(GameRow.id == game_id).with_for_update())

    @staticmethod
    def rows(session: Session, game_id: str) -> tuple[GameRow, list[SeatRow]]:
        """A game's row and its seats' rows in seat order, read in the caller's transaction
        (what the finish hooks are given)."""
        row = session.get(GameRow, game_id)
        seats = list(session.scalars(select(SeatRow).where(SeatRow.game_id == game_id)
                                     .order_by(SeatRow.seat)))
        return row, seats

    def tables_rows(self, game_ids: list[str]) -> tuple[list[GameRow], list[SeatRow]]:
        """The rows of these games and of their seats (for a concern that shows something beside
        the tables, such as the ratings of their seats)."""
        with self.sessions() as session:
            games = list(session.scalars(select(GameRow).where(GameRow.id.in_(game_ids))))
            seats = list(session.scalars(select(SeatRow).where(SeatRow.game_id.in_(game_ids))))
            session.expunge_all()
        return games, seats

    def act(self, game_id: str, seat: int | None, body: Any, *, bot: bool = False,
            revision: int | None = None) -> LiveGame:
        """Apply one action for ``seat``; the caller has checked the token. A bot passes the
        ``revision`` it decided at: any change since (an undo and a new move at the same
        number) makes its decision stale."""
        return self.act_as(game_id, lambda _live: seat, body, bot=bot, revision=revision)[0]

    def act_as(self, game_id: str, seat_of: Callable[[LiveGame], int | None], body: Any, *,
               bot: bool = False, revision: int | None = None) -> tuple[LiveGame, int | None]:
        """:meth:`act` for the seat ``seat_of(live)`` names (the seat a token or an account
        holds), asked of a copy at the row's revision: the seats are then the newest, with no
        read of the game's revision before (on PostgreSQL one round trip fewer per move than
        ``get`` and then ``act``). The game and the seat.

        On PostgreSQL the move is first decided on the copy as it is, without reading the row,
        and written with one statement that holds only if the row is still at the copy's
        revision (``move_statement``); a move with nothing else to write in its transaction
        (no move hook, not a game's end) is that statement alone, committed by itself
        (autocommit: no ``BEGIN`` and ``COMMIT`` round trips). If another process changed the
        game meanwhile, or the copy refused the move (it may be behind the row), the move is
        decided again as before: in a transaction, on the row locked (``SELECT ... FOR
        UPDATE``: writers of the game in every process queue there) and the copy caught up to
        it, so the answers and the order in which concurrent writers are served are those of
        the lock. A writer that reaches the row while another holds it waits for that one's
        commit either way."""
        request = parse(models.Act, body)
        live = self._cached(game_id)
        with live.lock:
            try:
                move = done = None
                if self.shared:
                    with contextlib.suppress(ApiError):  # decided again on the locked row
                        move = self._decide(live, seat_of, request, bot, revision)
                    if move is not None and not self.move_hooks and not move.after.is_over:
                        with self.reads.connect() as connection:  # autocommit
                            if self._write_move(connection, live, move):
                                done = move
                            else:
                                move = None  # another process changed the game: as below
                elif not self.move_hooks:
                    # SQLite: this copy is the game (one process, under its lock), so the
                    # move is decided on it; one with nothing else to write (no move hook,
                    # not a game's end) is written on a Core connection, without the ORM
                    # session's machinery (a third of a move's writes' CPU)
                    move = self._decide(live, seat_of, request, bot, revision)
                    if not move.after.is_over:
                        with self.engine.begin() as connection:
                            self._write_move(connection, live, move)
                        done = move
                if done is None:
                    done = self._act_in_transaction(live, seat_of, request, bot, revision, move)
            except IntegrityError:  # the row exists: another writer got there first
                raise ApiError(409, "stale_move",
                               f"move {request.move_number} was already played") from None
            live.apply_cached(done.action, done.seat, done.after)
            live.revision += 1
            live.table = done.table
            if done.after.is_over:
                live.status = "finished"
        return live, done.seat

    def _act_in_transaction(self, live: LiveGame, seat_of: Callable[[LiveGame], int | None],
                            request: models.Act, bot: bool, revision: int | None,
                            move: Move | None) -> Move:
        """:meth:`act_as`'s transaction: ``move`` (decided on the copy) written first if
        given; else, or if the row had moved on, the move decided on the locked row and
        written; then the move hooks and, at a game's end, the places and the finish hooks.
        The move written, at the revision after ``live``'s (the caller's to record)."""
        with self.sessions.begin() as session:
            if move is not None and not self._write_move(session, live, move):
                move = None  # another process changed the game
            if move is None:
                self._lock_row(session, live)
                move = self._decide(live, seat_of, request, bot, revision)
                if not self._write_move(session, live, move):
                    raise RuntimeError(f"game {live.id}'s locked row moved on")
            game_id, seat, after = live.id, move.seat, move.after
            for hook in self.move_hooks:
                hook(session, game_id, live.game.info.id, seat, move.values["to_move"],
                     move.number)
            if after.is_over:  # each seat's place, as the result shows it
                ranks = after.ranks()
                ranking = sorted(range(len(ranks)), key=lambda s: (ranks[s], s))
                places = timing.ranks_with_forfeits(ranks, ranking, move.table)
                for each, place in enumerate(places):
                    session.execute(update(SeatRow).where(
                        SeatRow.game_id == game_id, SeatRow.seat == each).values(place=place))
            if after.is_over and self.finish_hooks:
                row, seat_rows = self.rows(session, game_id)
                for finished in self.finish_hooks:
                    finished(session, row, seat_rows, after.ranks(), self.clock.now(),
                             list(after.scores()))
        return move

    def _decide(self, live: LiveGame, seat_of: Callable[[LiveGame], int | None],
                request: models.Act, bot: bool, revision: int | None) -> Move:
        """The move ``request`` asks for, checked against ``live`` as it is (the checks and
        their order are the answers' order); nothing written, ``live`` unchanged."""
        seat = seat_of(live)
        if seat is None:
            raise ApiError(401, "no_token", "acting needs the seat's token")
        if revision is not None and revision != live.revision:
            raise ApiError(409, "stale_move", "the position changed meanwhile")
        self._check_number(live, request.move_number)
        state = live.state
        if live.status != "running" or state.is_over:
            raise ApiError(409, "not_running", f"the game is {live.status}, not running")
        if state.to_move != seat:
            raise ApiError(403, "not_your_turn", f"it is not seat {seat}'s turn")
        if live.seats[seat].kind == "bot" and not bot:
            raise ApiError(403, "bot_seat", "a bot plays this seat")
        now = self.clock.now()
        timing.check_in_time(live, now)
        action = self._legal_action(live, request.action)
        after = state.copy()
        after.apply_unchecked(action)
        number = request.move_number + 1
        values: dict[str, Any] = {"move_number": number, "to_move": after.to_move}
        if after.is_over:
            values.update(status="finished", finished_at=self.clock.now(), to_move=None)
        table = timing.on_move(live, seat, after.to_move, after.is_over, now, self.limits)
        values.update(table.changing_columns())
        return Move(seat, action, after, number, values, table)

    def _write_move(self, session: Session | Connection, live: LiveGame, move: Move) -> bool:
        """Write ``move`` at the revision after ``live``'s: the action's row and the game's.
        SQLite (one process, whose copy is the row): a Core INSERT and UPDATE, always written.
        PostgreSQL: ``move_statement``, written only if the row is still at ``live``'s
        revision; whether it was. A duplicate move number raises IntegrityError."""
        if not self.shared:  # in a transaction: the caller's session or connection
            # a Core INSERT: no unit of work to flush (a duplicate number raises
            # IntegrityError here, as the flush did)
            session.execute(INSERT_ACTION, {
                "game_id": live.id, "n": move.number, "seat": move.seat,
                "notation": str(move.action), "created_at": self.clock.now()})
            self._bump(session, live, **move.values)
            return True
        revision = live.revision + 1
        params = {"game_": live.id, "old_revision_": live.revision,
                  "payload_": f"{live.id} {revision}", "n_": move.number, "seat_": move.seat,
                  "notation_": str(move.action), "created_at_": self.clock.now()}
        columns = {**move.values, "revision": revision, "updated_at": self.clock.now()}
        params.update((name + "_", value) for name, value in columns.items())
        result = cast(CursorResult[Any], session.execute(move_statement(tuple(columns)), params))
        written = result.rowcount == 1
        if isinstance(session, Session):
            self._expire_row(session, live.id)
        return written

    @staticmethod
    def _check_number(live: LiveGame, number: int) -> None:
        current = live.move_number
        if number < current:
            raise ApiError(409, "stale_move", f"move {number} is stale; the game is at move {current}")
        if number > current:
            raise ApiError(409, "future_move",
                           f"move {number} has not been reached; the game is at move {current}")

    @staticmethod
    def _legal_action(live: LiveGame, text: str) -> Any:
        """The legal action whose canonical notation is exactly ``text``.

        One rule for every game: notation is matched exactly as the game writes it (as the
        view's ``legal`` lists it), case and spaces included; nothing is parsed leniently. The
        error names only this seat's own legal moves, and suggests one that differs only in
        case or spacing.
        """
        legal = live.state.legal_by_text()
        action = legal.get(text)
        if action is not None:
            return action
        shown = ", ".join(list(legal)[:12]) + (f" and {len(legal) - 12} more" if len(legal) > 12 else "")
        loose = " ".join(text.split()).casefold()
        near = next((n for n in legal if " ".join(n.split()).casefold() == loose), None)
        hint = f"notation is exact: did you mean {near!r}? " if near else ""
        raise ApiError(422, "illegal_action",
                       f"{text!r} is not a legal move now; {hint}you may play: {shown}")

    def undo(self, game_id: str, seat: int | None, body: Any) -> LiveGame:
        request = parse(models.Undo, body)
        live = self._cached(game_id)
        with live.lock:
            if seat is None:
                raise ApiError(401, "no_token", "undo needs the seat's token")
            with self.sessions.begin() as session:
                self._lock_row(session, live)
                self._check_number(live, request.move_number)
                if not live.can_undo(seat):
                    raise ApiError(409, "undo_not_allowed",
                                   "only your own last decision of this turn can be taken back, "
                                   "and only if it revealed nothing")
                number = request.move_number
                before = live.before_last
                session.execute(delete(ActionRow).where(ActionRow.game_id == game_id,
                                                        ActionRow.n == number))
                to_move = before.to_move if before is not None else None
                table = timing.on_undo(live, seat, to_move, self.clock.now(), self.limits)
                revision = self._bump(session, live, move_number=number - 1, to_move=to_move,
                                      **table.changing_columns())
            # rebuild from the moves that remain (exactly the committed rows)
            revealed = {k: v for k, v in live.revealed.items() if k < number}
            live.replay(list(zip(live.notations[:-1], live.actors[:-1], strict=True)))
            live.revealed = revealed
            live.revision = revision
            live.table = table
        return live

    # -- finished games -------------------------------------------------------------------
    def record(self, game_id: str) -> dict[str, Any]:
        live = self.get(game_id)
        with live.lock:
            if not live.state.is_over:
                raise ApiError(409, "game_not_finished", "the record is shown once the game is over")
            names = [s.name or f"seat {s.seat}" for s in live.seats]
            record = GameRecord.of(live.state, seats=names)
        out = {k: v for k, v in record.__dict__.items() if v is not None}
        return timing.amend_record(live, out)

    def replay(self, game_id: str, lang: str = "en", seat: int | None = None) -> dict[str, Any]:
        """A finished game step by step, each frame as ``seat`` saw it then (its own cards
        included: the caller has checked that the reader held that seat), or as a spectator
        saw it (``seat`` None). Never for a running game: the record is refused until over."""
        key = (game_id, lang, seat)
        with self.live_lock:
            cached = self.replays.get(key)
            if cached is not None:
                self.replays.move_to_end(key)
                return cached
        record = self.record(game_id)  # 409 until over
        live = self.get(game_id)
        game = live.game
        state = game.setup(live.players, live.seed, live.options)
        tr = Translator(lang)
        tr.names = live.names(tr)

        frames = [{"n": 0, "notation": None, "label": None, "seat": None, "headline": None,
                   "observation": state.observe(seat),
                   "log": [line["text"] for line in describe.log(state, seat, tr, 0)]}]
        for n, notation in enumerate(record["actions"], 1):
            start = len(state.log)
            action = game.parse_action(notation)
            label = tr(game.words.action(state, action).label)  # the game is over: all public
            state.apply(action)
            mover = live.actors[n - 1]
            logged = describe.log(state, seat, tr, start)
            frames.append({"n": n, "notation": notation, "label": label, "seat": mover,
                           # what happened, in the third person (the label is the mover's)
                           "headline": headlines.headline(game.info.id, notation, mover, label,
                                                          logged, tr),
                           "observation": state.observe(seat),
                           "log": [line["text"] for line in logged]})
        timing.amend_replay(live, frames, tr)
        out = {"record": record, "frames": frames, "score_table": describe.score_table(state, tr),
               "seat": seat}
        with self.live_lock:
            self.replays[key] = out
            while len(self.replays) > self.replays_cached:
                self.replays.popitem(last=False)
        return out

    # -- bots -------------------------------------------------------------------------------
    def bot_to_move(self, game_id: str) -> tuple[int, str, State, int] | None:
        """(seat, level, a copy of the state, revision) when a bot should move now, else None."""
        live = self.get(game_id)
        with live.lock:
            state = live.state
            if live.status != "running" or state.is_over:
                return None
            seat = state.to_move
            if seat is None or live.seats[seat].kind != "bot":
                return None
            return seat, live.seats[seat].level or "medium", state.copy(), live.revision


def bot_move(level: str, state: State, seat: int, seed: int, max_seconds: float) -> str:
    """A bot's decision; run in a bot process. A bot that can keep to a time budget gets one
    of at most ``max_seconds`` (its own spec's, if smaller)."""
    bots = _bots()
    _, options = bots.parse_spec(level)
    budget = options.get("time_budget")
    budget = max_seconds if not isinstance(budget, int | float) else min(budget, max_seconds)
    for extra in ({"seed": seed, "time_budget": budget}, {"seed": seed}, {}):
        try:
            bot = bots.get(level, **extra)
            break
        except OptionError:
            continue
    else:
        raise OptionError(f"bot {level!r} cannot be built")
    return str(bot.choose(state, seat))


def fallback_move(state: State, seed: int) -> str:
    """A uniformly random legal move, played when a bot fails so the game never hangs."""
    return str(random.Random(seed).choice(state.legal_actions()))
