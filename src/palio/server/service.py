"""The game service: create, join, act and undo, persisted first, then held in a live cache.

Every change follows one path: check under the game's lock, write and COMMIT the row(s), then
change the cached state. A crash between the commit and the cache update loses nothing: the
state is rebuilt from the committed rows on the next load. Views for a seat are built only
from ``observe(seat)`` and ``events_for(seat)``, so hidden information never leaves the state
through this module.
"""

from __future__ import annotations

import hashlib
import random
import secrets
import threading
from collections.abc import Hashable
from dataclasses import dataclass, field
from datetime import UTC, datetime
from typing import Any

from sqlalchemy import delete, func, select, update
from sqlalchemy.engine import Engine
from sqlalchemy.exc import IntegrityError
from sqlalchemy.orm import sessionmaker

import palio.games as registry
from palio import bots
from palio.core import describe
from palio.core.errors import IllegalAction, OptionError, PalioError
from palio.core.game import Game, State
from palio.core.i18n import Translator, lookup
from palio.core.record import GameRecord
from palio.core.words import msg
from palio.server.db import ActionRow, GameRow, SeatRow, make_engine, now, upgrade
from palio.server.recent import changed_paths

BOT_LEVELS = ["easy", "medium", "hard", "expert"]
# Until every level is registered in palio.bots, a level falls back to a simple bot.
LEVEL_FALLBACK = {"easy": "random", "medium": "greedy", "hard": "greedy", "expert": "greedy"}
UNDO_SAMPLES = 6  # determinizations used to decide whether an action revealed something


class ApiError(Exception):
    """An error with an HTTP status and a short code; its message never holds hidden facts."""

    def __init__(self, status: int, code: str, message: str) -> None:
        super().__init__(message)
        self.status = status
        self.code = code
        self.message = message


def utc(moment: datetime) -> datetime:
    """SQLite returns naive datetimes; every time stored here is UTC."""
    return moment if moment.tzinfo is not None else moment.replace(tzinfo=UTC)


def hash_token(token: str) -> str:
    return hashlib.sha256(token.encode("utf-8")).hexdigest()


def is_game_id(text: str) -> bool:
    """Game ids are short and alphanumeric; anything else (a NUL byte, which PostgreSQL
    rejects outright) is simply no game."""
    return len(text) <= 32 and text.isascii() and text.isalnum()


def is_name(value: Any) -> bool:
    """A seat name: a short string without control characters (PostgreSQL refuses NUL)."""
    return isinstance(value, str) and len(value) <= 64 and value.isprintable()


def bot_names() -> list[str]:
    """Levels offered to people first, then any other registered bot by name."""
    return BOT_LEVELS + [name for name in bots.names() if name not in BOT_LEVELS]


def resolve_bot(level: str) -> str:
    if level in bots.names():
        return level
    return LEVEL_FALLBACK.get(level, level)


@dataclass
class Seat:
    seat: int
    kind: str
    level: str | None
    name: str | None
    token_hash: str | None

    @property
    def taken(self) -> bool:
        return self.kind == "bot" or self.token_hash is not None

    def summary(self) -> dict[str, Any]:
        return {"seat": self.seat, "kind": self.kind, "level": self.level, "name": self.name,
                "taken": self.taken}

    @property
    def unnamed_bot(self) -> bool:
        # games created before bots were named in the reader's words stored "easy bot"
        return self.kind == "bot" and (not self.name or self.name == f"{self.level} bot")

    def display_name(self, tr: Translator | None, numbered: bool = False) -> str | None:
        """The seat's name; an unnamed bot's in ``tr``'s words, with its seat number when
        another bot would have the same name (``numbered``)."""
        if not self.unnamed_bot or tr is None:
            return self.name
        level = tr(msg(f"ui.level.{self.level}")) if lookup(f"ui.level.{self.level}", tr.lang) \
            else str(self.level)
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
    actors: list[int] = field(default_factory=list)  # seat of action n at index n-1
    marks: list[int] = field(default_factory=lambda: [0])  # len(log) after n actions
    turns: list[Hashable] = field(default_factory=list)  # game.turn_key after n actions
    revealed: dict[int, bool] = field(default_factory=dict)  # memo: did action n reveal?
    before_last: State | None = None  # the position before the latest action (for undo)
    # the position before the latest run of one seat's decisions (what the board highlights)
    run_start: State | None = None
    lock: threading.RLock = field(default_factory=threading.RLock)

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
            "seats": [s.summary() for s in self.seats],
        }

    def apply_cached(self, action: Any, seat: int) -> None:
        before = self.state.copy()
        self.state.apply(action)
        self.before_last = before
        if not self.actors or self.actors[-1] != seat:
            self.run_start = before
        self.actors.append(seat)
        self.marks.append(len(self.state.log))
        self.turns.append(self.game.turn_key(self.state))

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
        if n == self.move_number and self.before_last is not None:
            before = self.before_last
        else:
            before = self.game.setup(self.players, self.seed, self.options)
            for action in history[: n - 1]:
                before.apply_unchecked(action)
        action = history[n - 1]
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
                if (sample.observe(seat), sample.observe(None)) != want:
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

    def recent(self, seat: int | None) -> dict[str, Any] | None:
        """The latest run of one seat's decisions, and what of ``seat``'s view it changed."""
        if self.run_start is None or not self.actors:
            return None
        return {"seat": self.actors[-1], "since": self.run_start.move_number,
                "paths": changed_paths(self.run_start.observe(seat), self.state.observe(seat))}

    def view(self, seat: int | None, lang: str = "en") -> dict[str, Any]:
        """What ``seat`` (``None``: a spectator) may see, in words of ``lang``."""
        state = self.state
        game = self.game
        tr = Translator(lang)
        tr.names = self.names(tr)
        over = state.is_over
        to_move = None if over else state.to_move
        yours = seat is not None and seat == to_move and self.status == "running"
        log = [{"n": self.event_move(line["event"]), "seat": line["seat"], "text": line["text"]}
               for line in describe.log(state, seat, tr)]
        return {
            "id": self.id, "game": game.info.id, "players": self.players, "status": self.status,
            "seat": seat, "lang": tr.lang, "move_number": state.move_number, "to_move": to_move,
            "is_over": over, "observation": state.observe(seat),
            "legal": describe.choices(state, tr) if yours else [],
            "prompt": describe.prompt(state, seat, tr), "log": log,
            "scores": state.scores() if over else None,
            "ranking": state.ranking() if over else None,
            "score_table": describe.score_table(state, tr) if over else None,
            "seats": [s.summary() for s in self.seats],
            "can_undo": self.can_undo(seat),
            "recent": self.recent(seat),
            "text": game.render(state, seat, tr),
        }


class GameService:
    """All games: the database and the live cache. Thread-safe; every method is blocking."""

    def __init__(self, url: str) -> None:
        self.engine: Engine = make_engine(url)
        upgrade(self.engine)
        self.sessions = sessionmaker(self.engine, expire_on_commit=False)
        self.live: dict[str, LiveGame] = {}
        self.live_lock = threading.Lock()
        self.replays: dict[tuple[str, str], dict[str, Any]] = {}

    def close(self) -> None:
        self.engine.dispose()

    # -- loading --------------------------------------------------------------------------
    def get(self, game_id: str) -> LiveGame:
        live = self.live.get(game_id)
        if live is not None:
            return live
        with self.live_lock:
            live = self.live.get(game_id)
            if live is None:
                live = self._load(game_id)
                self.live[game_id] = live
            return live

    def _load(self, game_id: str) -> LiveGame:
        with self.sessions() as session:
            row = session.get(GameRow, game_id) if is_game_id(game_id) else None
            if row is None:
                raise ApiError(404, "no_such_game", f"there is no game {game_id!r}")
            seats = session.scalars(
                select(SeatRow).where(SeatRow.game_id == game_id).order_by(SeatRow.seat)).all()
            actions = session.scalars(
                select(ActionRow).where(ActionRow.game_id == game_id).order_by(ActionRow.n)).all()
        game = registry.get(row.game)
        state = game.setup(row.players, row.seed, row.options)
        live = LiveGame(
            id=row.id, game=game, players=row.players, options=dict(row.options), seed=row.seed,
            status=row.status, created_at=utc(row.created_at).isoformat(),
            seats=[Seat(s.seat, s.kind, s.level, s.name, s.token_hash) for s in seats],
            state=state, turns=[game.turn_key(state)], marks=[len(state.log)],  # set-up: move 0
        )
        for action in actions:
            live.apply_cached(action.notation, action.seat)
        if live.state.is_over:  # "finished" is written with the last move; this is a safeguard
            live.status = "finished"
        return live

    def running_ids(self) -> list[str]:
        with self.sessions() as session:
            return list(session.scalars(select(GameRow.id).where(GameRow.status == "running")))

    def list_games(self, status: str | None) -> list[dict[str, Any]]:
        if status not in (None, "open", "running", "finished"):
            raise ApiError(400, "bad_status", "status must be open, running or finished")
        with self.sessions() as session:
            query = select(GameRow).order_by(GameRow.created_at.desc())
            if status is not None:
                query = query.where(GameRow.status == status)
            rows = list(session.scalars(query))
            finished = [row.id for row in rows if row.status == "finished" and row.id not in self.live]
            moves = dict(session.execute(
                select(ActionRow.game_id, func.count()).where(ActionRow.game_id.in_(finished))
                .group_by(ActionRow.game_id)).all()) if finished else {}
            seats: dict[str, list[SeatRow]] = {}
            if finished:
                for seat in session.scalars(select(SeatRow).where(SeatRow.game_id.in_(finished))
                                            .order_by(SeatRow.seat)):
                    seats.setdefault(seat.game_id, []).append(seat)
        out = []
        for row in rows:
            if row.id in moves or row.id in seats:
                # a finished game is listed from its rows: no need to replay it into memory
                out.append({
                    "id": row.id, "game": row.game, "players": row.players, "options": row.options,
                    "status": row.status, "move_number": moves.get(row.id, 0), "to_move": None,
                    "created_at": utc(row.created_at).isoformat(),
                    "seats": [Seat(s.seat, s.kind, s.level, s.name, s.token_hash).summary()
                              for s in seats.get(row.id, [])]})
                continue
            live = self.get(row.id)
            with live.lock:
                out.append(live.summary())
        return out

    # -- changes --------------------------------------------------------------------------
    def create(self, body: Any) -> LiveGame:
        if not isinstance(body, dict):
            raise ApiError(400, "bad_body", "the body must be a JSON object")
        unknown = sorted(set(body) - {"game", "players", "options", "seed", "seats"})
        if unknown:
            raise ApiError(400, "bad_body", f"unknown field(s): {', '.join(unknown)}")
        game_id = body.get("game")
        if not isinstance(game_id, str):
            raise ApiError(400, "bad_body", "'game' must be a game id string")
        try:
            game = registry.get(game_id)
        except OptionError as exc:
            raise ApiError(422, "bad_options", str(exc)) from None
        players = body.get("players", game.info.min_players)
        options = body.get("options") or {}
        seed = body.get("seed")
        if not isinstance(players, int) or isinstance(players, bool):
            raise ApiError(400, "bad_body", "'players' must be an integer")
        if not isinstance(options, dict):
            raise ApiError(400, "bad_body", "'options' must be an object")
        if seed is not None and (not isinstance(seed, int) or isinstance(seed, bool)
                                 or not 0 <= seed < 2**63):
            raise ApiError(400, "bad_body", "'seed' must be null or an integer 0..2^63-1")
        try:
            options = game.validate_options(players, options)
        except OptionError as exc:
            raise ApiError(422, "bad_options", str(exc)) from None
        seats = self._parse_seats(body.get("seats"), players)
        if seed is None:
            seed = secrets.randbits(63)
        game.setup(players, seed, options)  # fails here, not later, if set-up cannot happen
        row_id = secrets.token_urlsafe(6).replace("-", "x").replace("_", "y")
        everyone_seated = all(s.kind == "bot" for s in seats)
        with self.sessions.begin() as session:
            session.add(GameRow(
                id=row_id, game=game.info.id, version=game.info.version, players=players,
                options=options, seed=seed, status="running" if everyone_seated else "open",
                created_at=now()))
            session.flush()
            for s in seats:
                session.add(SeatRow(game_id=row_id, seat=s.seat, kind=s.kind, level=s.level,
                                    name=s.name))
        return self.get(row_id)

    def _parse_seats(self, given: Any, players: int) -> list[Seat]:
        if given is None:
            given = [{"kind": "human"} for _ in range(players)]
        if not isinstance(given, list) or len(given) != players:
            raise ApiError(400, "bad_body", f"'seats' must be a list of {players} seats")
        seats = []
        for index, entry in enumerate(given):
            if not isinstance(entry, dict) or entry.get("kind") not in ("human", "bot"):
                raise ApiError(400, "bad_body", f"seat {index}: kind must be 'human' or 'bot'")
            name = entry.get("name")
            if name is not None and not is_name(name):
                raise ApiError(400, "bad_body", f"seat {index}: name must be a short string")
            if entry["kind"] == "bot":
                level = entry.get("level") or "medium"
                if not isinstance(level, str) or resolve_bot(level) not in bots.names():
                    raise ApiError(422, "bad_options",
                                   f"seat {index}: unknown bot level; known: {', '.join(bot_names())}")
                seats.append(Seat(index, "bot", level, name, None))  # unnamed: by its level
            else:
                seats.append(Seat(index, "human", None, None, None))
        return seats

    def join(self, game_id: str, seat: int, body: Any) -> tuple[LiveGame, str]:
        if not isinstance(body, dict):
            raise ApiError(400, "bad_body", "the body must be a JSON object")
        name = body.get("name") or None  # none: "Player N" in each reader's language
        if name is not None and not is_name(name):
            raise ApiError(400, "bad_body",
                           "'name' must be a string of at most 64 printable characters")
        live = self.get(game_id)
        with live.lock:
            if not 0 <= seat < live.players:
                raise ApiError(404, "no_such_seat", f"seats of this game are 0-{live.players - 1}")
            target = live.seats[seat]
            if target.kind == "bot":
                raise ApiError(409, "seat_taken", f"seat {seat} is a bot")
            if target.taken:
                raise ApiError(409, "seat_taken", f"seat {seat} is taken")
            token = secrets.token_urlsafe(24)
            digest = hash_token(token)
            status = "running" if all(s.taken or s.seat == seat for s in live.seats) else "open"
            with self.sessions.begin() as session:
                changed = session.execute(
                    update(SeatRow)
                    .where(SeatRow.game_id == game_id, SeatRow.seat == seat,
                           SeatRow.token_hash.is_(None))
                    .values(token_hash=digest, name=name)).rowcount
                if changed != 1:
                    raise ApiError(409, "seat_taken", f"seat {seat} is taken")
                session.execute(update(GameRow).where(GameRow.id == game_id).values(status=status))
            target.token_hash = digest
            target.name = name
            live.status = status
        return live, token

    def act(self, game_id: str, seat: int | None, body: Any, *, bot: bool = False) -> LiveGame:
        """Apply one action for ``seat``; the caller has checked the token."""
        if not isinstance(body, dict):
            raise ApiError(400, "bad_body", "the body must be a JSON object")
        text = body.get("action")
        number = body.get("move_number")
        if not isinstance(text, str) or not text.strip() or len(text) > 200:
            raise ApiError(400, "bad_body", "'action' must be a notation string")
        if not isinstance(number, int) or isinstance(number, bool):
            raise ApiError(400, "bad_body", "'move_number' must be an integer")
        live = self.get(game_id)
        with live.lock:
            state = live.state
            if seat is None:
                raise ApiError(401, "no_token", "acting needs the seat's token")
            if number != state.move_number:
                raise ApiError(409, "stale_move",
                               f"move {number} is stale; the game is at move {state.move_number}")
            if live.status != "running" or state.is_over:
                raise ApiError(409, "not_running", f"the game is {live.status}, not running")
            if state.to_move != seat:
                raise ApiError(403, "not_your_turn", f"it is not seat {seat}'s turn")
            if live.seats[seat].kind == "bot" and not bot:
                raise ApiError(403, "bot_seat", "a bot plays this seat")
            action = self._legal_action(live, seat, text.strip())
            over = self._would_end(state, action)
            try:
                with self.sessions.begin() as session:
                    session.add(ActionRow(game_id=game_id, n=number + 1, seat=seat,
                                          notation=str(action), created_at=now()))
                    if over:
                        session.execute(update(GameRow).where(GameRow.id == game_id)
                                        .values(status="finished", finished_at=now()))
            except IntegrityError:  # the row exists: another writer got there first
                raise ApiError(409, "stale_move", f"move {number} was already played") from None
            live.apply_cached(action, seat)
            if over:
                live.status = "finished"
        return live

    @staticmethod
    def _would_end(state: State, action: Any) -> bool:
        trial = state.copy()
        trial.apply_unchecked(action)
        return trial.is_over

    @staticmethod
    def _legal_action(live: LiveGame, seat: int, text: str) -> Any:
        """The legal action written ``text``; the error names only this seat's own moves."""
        state = live.state
        legal = state.legal_by_text()
        if text in legal:
            return legal[text]
        try:
            action = live.game.parse_action(text)
        except IllegalAction:
            action = None
        if action is not None and action in state.legal_actions():
            return action
        shown = ", ".join(list(legal)[:12]) + (f" and {len(legal) - 12} more" if len(legal) > 12 else "")
        what = "does not parse" if action is None else "is not legal now"
        raise ApiError(422, "illegal_action", f"{text!r} {what}; you may play: {shown}")

    def undo(self, game_id: str, seat: int | None, body: Any) -> LiveGame:
        if not isinstance(body, dict):
            raise ApiError(400, "bad_body", "the body must be a JSON object")
        number = body.get("move_number")
        if not isinstance(number, int) or isinstance(number, bool):
            raise ApiError(400, "bad_body", "'move_number' must be an integer")
        live = self.get(game_id)
        with live.lock:
            if seat is None:
                raise ApiError(401, "no_token", "undo needs the seat's token")
            if number != live.move_number:
                raise ApiError(409, "stale_move",
                               f"move {number} is stale; the game is at move {live.move_number}")
            if not live.can_undo(seat):
                raise ApiError(409, "undo_not_allowed",
                               "only your own last decision of this turn can be taken back, "
                               "and only if it revealed nothing")
            with self.sessions.begin() as session:
                session.execute(delete(ActionRow).where(ActionRow.game_id == game_id,
                                                        ActionRow.n == number))
            # rebuild from the committed rows: the only source of truth
            fresh = self._load(game_id)
            live.state, live.actors, live.marks = fresh.state, fresh.actors, fresh.marks
            live.turns = fresh.turns
            live.before_last = fresh.before_last
            live.run_start = fresh.run_start
            live.revealed = {k: v for k, v in live.revealed.items() if k < number}
        return live

    # -- finished games -------------------------------------------------------------------
    def record(self, game_id: str) -> dict[str, Any]:
        live = self.get(game_id)
        with live.lock:
            if not live.state.is_over:
                raise ApiError(409, "game_not_finished", "the record is shown once the game is over")
            english = Translator("en")
            english.names = live.names(english)
            names = [english.player(s.seat) for s in live.seats]
            record = GameRecord.of(live.state, seats=names)
        return {k: v for k, v in record.__dict__.items() if v is not None}

    def replay(self, game_id: str, lang: str = "en") -> dict[str, Any]:
        cached = self.replays.get((game_id, lang))
        if cached is not None:
            return cached
        record = self.record(game_id)  # 409 until over
        live = self.get(game_id)
        game = live.game
        state = game.setup(live.players, live.seed, live.options)
        tr = Translator(lang)
        tr.names = live.names(tr)

        def lines(start: int) -> list[str]:
            return [line["text"] for line in describe.log(state, None, tr, start)]

        frames = [{"n": 0, "notation": None, "label": None, "seat": None,
                   "observation": state.observe(None), "log": lines(0)}]
        for n, text in enumerate(record["actions"], 1):
            start = len(state.log)
            action = game.parse_action(text)
            label = tr(game.words.action(state, action).label)  # the game is over: all public
            state.apply(action)
            frames.append({"n": n, "notation": text, "label": label, "seat": live.actors[n - 1],
                           "observation": state.observe(None), "log": lines(start)})
        out = {"record": record, "frames": frames, "score_table": describe.score_table(state, tr)}
        self.replays[(game_id, lang)] = out
        return out

    # -- bots -------------------------------------------------------------------------------
    def bot_to_move(self, game_id: str) -> tuple[int, str, State] | None:
        """(seat, level, a copy of the state) when a bot should move now, else None."""
        live = self.get(game_id)
        with live.lock:
            state = live.state
            if live.status != "running" or state.is_over:
                return None
            seat = state.to_move
            if seat is None or live.seats[seat].kind != "bot":
                return None
            return seat, live.seats[seat].level or "medium", state.copy()


def bot_move(level: str, state: State, seat: int, seed: int) -> str:
    """A bot's decision (a blocking call, run off the event loop)."""
    name = resolve_bot(level)
    try:
        bot = bots.get(name, seed=seed)
    except PalioError:
        bot = bots.get(name)
    return str(bot.choose(state, seat))


def fallback_move(state: State, seed: int) -> str:
    """A uniformly random legal move, played when a bot fails so the game never hangs."""
    return str(random.Random(seed).choice(state.legal_actions()))

