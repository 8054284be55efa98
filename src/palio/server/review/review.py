"""Reviews of finished games and hints at practice tables, on the server.

Review: ``POST /api/games/{id}/review`` asks for one (a running game is refused: its record
would show hidden cards), ``GET`` tells its status and progress and, once done, the review in
the reader's words, ``DELETE`` cancels it. A review is a row of ``reviews`` and is computed
once: the first request queues it; any server process (``--workers N`` on PostgreSQL) claims
a queued row with one ``UPDATE ... WHERE status = 'queued'`` (only one process's update
matches) and sends it to a review process: a process of the bot pool's kind, one per server
process, at a lower priority than the bot processes, so live games' bots always have their own
processes and the CPU first. The review process writes its progress and a heartbeat to the
row after every decision and stops when the row is no longer its own (cancelled); a running
row whose heartbeat is older than ``STALE_SECONDS`` (its process died) is queued again. At
most ``MAX_QUEUE`` reviews wait or run at once: beyond that a request is answered 503.

Own view: ``GET /api/games/{id}/review/seat`` gives the finished game as the asking seat saw it
(its token, or the signed-in account's seat): its own cards in its own review, never another
seat's, never for a running game. ``_in_words`` adds the game report (report.py).

Hint: ``POST /api/games/{id}/hint`` by the seat to move, at a practice table only
(:func:`palio.server.play.service.hints_allowed`): the bot's three best choices searched from
that seat's view, with words. The game row's ``hints_used`` is set, and the table's log says so.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import os
import secrets
import signal
from datetime import timedelta
from types import ModuleType
from typing import TYPE_CHECKING, Any

from fastapi import FastAPI, Request
from fastapi.responses import JSONResponse
from sqlalchemy import func, select, update
from sqlalchemy.exc import IntegrityError
from sqlalchemy.orm import sessionmaker
from starlette.concurrency import run_in_threadpool

from palio.core.game import State
from palio.core.i18n import Translator
from palio.core.record import GameRecord
from palio.core.words import msg
from palio.server.base.clock import clock_from_env
from palio.server.base.db import make_engine
from palio.server.base.errors import ApiError
from palio.server.base.http import json_body, language_of
from palio.server.base.outage import LoopOutage
from palio.server.play.botplay import BOT_NICENESS, _die_with_parent
from palio.server.play.routes import seat_of
from palio.server.play.service import GameService, LiveGame
from palio.server.review.judges import judge_process_init
from palio.server.review.report import game_report
from palio.server.review.tables import ReviewRow

if TYPE_CHECKING:  # palio.review is imported where first used (_engine_reviews)
    from concurrent.futures import ProcessPoolExecutor  # and the pool at the first review

    from palio.review import Budget, Engine

log = logging.getLogger("palio.server")



def _engine_reviews() -> ModuleType:
    """``palio.review``, imported where first used (a review, a hint, a review's words): it
    imports the bots and numpy (~0.3 CPU-s), which a server start and every ``--workers``
    process need not pay before the first review."""
    import palio.review

    return palio.review


# per decision; PALIO_REVIEW_ITERATIONS overrides (tests use small budgets); None: the
# defaults of palio.review (iterations_for the game, HINT_ITERATIONS), read when first needed
REVIEW_ITERATIONS = int(os.environ["PALIO_REVIEW_ITERATIONS"]) \
    if os.environ.get("PALIO_REVIEW_ITERATIONS") else None
HINT_BUDGET = int(os.environ["PALIO_HINT_ITERATIONS"]) \
    if os.environ.get("PALIO_HINT_ITERATIONS") else None
MAX_QUEUE = int(os.environ.get("PALIO_REVIEW_QUEUE", 8))
# processes that judge one review's decisions (palio.review.review's ``workers``), started by
# the review process and at its priority; 1 (the default): the review process judges alone,
# leaving the other cores to live games' bots
REVIEW_WORKERS = int(os.environ.get("PALIO_REVIEW_WORKERS", 1))
if REVIEW_WORKERS < 1:
    raise ValueError(f"PALIO_REVIEW_WORKERS must be at least 1, not {REVIEW_WORKERS}")
STALE_SECONDS = 120.0
POLL_SECONDS = 2.0
REVIEW_NICENESS = BOT_NICENESS + 5  # below the bot processes: live games first
ACTIVE = ("queued", "running")


def judge_for(state: State) -> Engine:
    """The judge of reviews and hints for this game and player count: the strongest, by the
    ``expert`` level's rule (``palio.bots.LEVELS``): the shipped ``learned`` model where its
    card measured it at least level with the strongest search without a network
    (``proven=0.5``), else that search (``mcts``, or ``puct`` where
    ``palio.bots.SEARCH_BY_GAME`` names it) unless ``palio.review.JUDGE_BY_GAME`` names a
    judge with steadier verdicts (``mcts`` in three-player Troyes, the shipped network in
    two-player Tiletum). It is
    :meth:`palio.review.Engine.strongest`, which :func:`palio.review.review` and
    :func:`palio.review.hint` use; named here so the server's choice is tested
    (tests/server/review/test_review_report.py)."""
    return _engine_reviews().Engine.strongest(state)


def review_iterations(state: State) -> int:
    """A new review's iterations per decision: ``PALIO_REVIEW_ITERATIONS`` where set, else
    the review's own for the game and player count (:func:`palio.review.iterations_for`)."""
    return REVIEW_ITERATIONS or _engine_reviews().iterations_for(state.game.info.id,
                                                                  state.players)


def budget(iterations: int) -> Budget:
    """A review's or hint's budget: iterations per decision (repeatable with the seed), any
    seconds limit counted in CPU time (``cpu_time=true``, as the bots)."""
    return _engine_reviews().Budget(iterations=iterations, cpu_time=True)


# -- the review process -------------------------------------------------------------------
_engine: Any = None


def _review_process_init() -> None:
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    with contextlib.suppress(OSError):
        os.nice(REVIEW_NICENESS)
    _die_with_parent()


def review_job(db_url: str, game_id: str, me: str, record: dict[str, Any], seed: int,
               iterations: int, workers: int = 1) -> str:
    """Run in a review process: review the game (its decisions judged in ``workers``
    processes), writing progress to its row while the row is this claim's; store the result.
    Returns the final status."""
    global _engine
    if _engine is None:
        _engine = make_engine(db_url)
    sessions = sessionmaker(_engine)
    clock = clock_from_env()
    mine = (ReviewRow.game_id == game_id, ReviewRow.claimed_by == me,
            ReviewRow.status == "running")
    lost = False

    def progress(done: int, total: int) -> None:
        nonlocal lost
        with sessions.begin() as session:
            changed = session.execute(update(ReviewRow).where(*mine).values(
                progress=done, total=total, heartbeat_at=clock.now())).rowcount
        lost = changed != 1  # cancelled, or taken over after a stall

    try:
        # the stated result may rank a seat that forfeited last (timing.py), which a replay
        # of the moves cannot check: the moves are what is reviewed
        moves_only = GameRecord(**{**record, "result": None})
        result = _engine_reviews().review(moves_only, budget=budget(iterations), seed=seed,
                                          progress=progress, cancelled=lambda: lost,
                                          workers=workers,
                                          initializer=judge_process_init)
        result["result"] = record.get("result")
    except Exception as exc:  # noqa: BLE001 - the row says what went wrong
        if lost:
            return "cancelled"
        log.exception("review of game %s failed", game_id)
        with sessions.begin() as session:
            session.execute(update(ReviewRow).where(*mine).values(
                status="failed", error=str(exc)[:500], finished_at=clock.now()))
        return "failed"
    with sessions.begin() as session:
        changed = session.execute(update(ReviewRow).where(*mine).values(
            status="done", result=result, finished_at=clock.now(),
            progress=len(record["actions"]))).rowcount
    return "done" if changed == 1 else "cancelled"


def hint_job(state: State, seat: int, seed: int, iterations: int, lang: str,
             names: list[str | None]) -> dict[str, Any]:
    """Run in a bot process: the three best choices for ``seat``, from its view only."""
    return _engine_reviews().hint(state, seat, budget=budget(iterations), seed=seed,
                                  tr=Translator(lang, names))


# -- the service: rows and checks (blocking; called from worker threads) --------------------
class ReviewService:
    def __init__(self, games: GameService) -> None:
        self.games = games
        self.sessions = games.sessions
        self.clock = games.clock

    def _finished(self, game_id: str) -> LiveGame:
        live = self.games.get(game_id)
        with live.lock:
            if not live.state.is_over:
                raise ApiError(409, "game_not_finished",
                               "a game is reviewed once it is over (it would show hidden cards)")
        return live

    def request(self, game_id: str) -> dict[str, Any]:
        """Queue a review of a finished game (once: a queued, running or done one stays)."""
        state = self._finished(game_id).state
        now = self.clock.now()
        try:
            with self.sessions.begin() as session:
                row = session.get(ReviewRow, game_id, with_for_update=True)
                if row is not None and row.status in (*ACTIVE, "done"):
                    return self._status(row)
                active = session.scalar(select(func.count()).select_from(ReviewRow)
                                        .where(ReviewRow.status.in_(ACTIVE)))
                if active >= MAX_QUEUE:
                    raise ApiError(503, "review_queue_full",
                                   f"{active} reviews are waiting; ask again in a few minutes")
                if row is None:
                    row = ReviewRow(game_id=game_id, status="queued", requested_at=now,
                                    seed=secrets.randbits(31),
                                    iterations=review_iterations(state),
                                    progress=0, total=0)
                    session.add(row)
                else:  # cancelled or failed before: again
                    row.status, row.requested_at, row.progress = "queued", now, 0
                    row.claimed_by, row.error, row.heartbeat_at = None, None, None
                session.flush()
                return self._status(row)
        except IntegrityError:  # another request queued it meanwhile
            return self.status(game_id, None)

    def status(self, game_id: str, lang: str | None) -> dict[str, Any]:
        live = self._finished(game_id)
        with self.sessions() as session:
            row = session.get(ReviewRow, game_id)
            if row is None:
                raise ApiError(404, "no_review", "no review of this game was asked for")
            out = self._status(row)
            if row.status == "done" and lang is not None and row.result is not None:
                out["review"] = self._in_words(live, row.result, lang)
        return out

    def cancel(self, game_id: str) -> dict[str, Any]:
        self._finished(game_id)
        with self.sessions.begin() as session:
            row = session.get(ReviewRow, game_id, with_for_update=True)
            if row is None:
                raise ApiError(404, "no_review", "no review of this game was asked for")
            if row.status not in ACTIVE:
                raise ApiError(409, "review_not_running", f"the review is {row.status}")
            row.status, row.claimed_by, row.finished_at = "cancelled", None, self.clock.now()
            session.flush()
            return self._status(row)

    @staticmethod
    def _status(row: ReviewRow) -> dict[str, Any]:
        return {"status": row.status, "progress": row.progress, "total": row.total,
                "iterations": row.iterations}

    def _in_words(self, live: LiveGame, result: dict[str, Any], lang: str) -> dict[str, Any]:
        tr = Translator(lang)
        tr.names = live.names(tr)
        record = self.games.record(live.id)
        words = _engine_reviews().add_words({**result, "decisions": [
            {**d, "played": dict(d["played"]), "best": dict(d["best"])}
            for d in result["decisions"]]}, GameRecord(**record), tr, live.game)
        words["lang"] = tr.lang
        words["report"] = game_report(words, len(record["actions"]), tr)
        return words

    def seat_frames(self, game_id: str, seat: int | None) -> dict[str, Any]:
        """The finished game as ``seat`` saw it: its own observation before each decision and
        at the end (its own cards shown, never another seat's), for that seat's review. A
        running game is refused (``_finished``); no seat (no token, not signed in to a seat)
        is refused too."""
        live = self._finished(game_id)
        if seat is None:
            raise ApiError(403, "no_seat", "your own view of a game needs that seat's token "
                                           "or its signed-in account")
        record = self.games.record(game_id)
        state = live.game.setup(live.players, live.seed, live.options)
        frames = [state.observe(seat)]
        for notation in record["actions"]:
            state.apply(notation)
            frames.append(state.observe(seat))
        return {"seat": seat, "frames": frames}

    def record_of(self, game_id: str) -> dict[str, Any]:
        return self.games.record(game_id)

    def claim_next(self, me: str) -> tuple[str, int, int] | None:
        """Claim the oldest queued review for this process, first queuing again any running
        one whose process stopped writing; ``(game id, seed, iterations)`` or None."""
        now = self.clock.now()
        with self.sessions.begin() as session:
            session.execute(update(ReviewRow).where(
                ReviewRow.status == "running",
                ReviewRow.heartbeat_at < now - timedelta(seconds=STALE_SECONDS),
            ).values(status="queued", claimed_by=None))
        with self.sessions.begin() as session:
            oldest = session.execute(select(ReviewRow.game_id, ReviewRow.seed,
                                            ReviewRow.iterations)
                                     .where(ReviewRow.status == "queued")
                                     .order_by(ReviewRow.requested_at).limit(1)).first()
            if oldest is None:
                return None
            # only one process's update finds the row still queued
            claimed = session.execute(update(ReviewRow).where(
                ReviewRow.game_id == oldest.game_id, ReviewRow.status == "queued",
            ).values(status="running", claimed_by=me, heartbeat_at=now)).rowcount
        return (oldest.game_id, oldest.seed, oldest.iterations) if claimed == 1 else None

    # -- hints ------------------------------------------------------------------------
    def hint_position(self, game_id: str, seat: int | None, body: Any) -> tuple[State, int]:
        """Check a hint request; mark the table's ``hints_used`` (once, as a change that
        bumps the revision, so every view shows it). A copy of the position to search."""
        live = self.games._cached(game_id)
        with live.lock:
            if seat is None:
                raise ApiError(401, "no_token", "a hint needs the seat's token")
            with self.sessions.begin() as session:
                self.games._lock_row(session, live)
                state = live.state
                if live.status != "running" or state.is_over:
                    raise ApiError(409, "not_running", f"the game is {live.status}, not running")
                if not live.hints_allowed:  # fixed at creation (practice, unrated)
                    raise ApiError(403, "hints_not_allowed",
                                   "hints are given at unrated practice tables only")
                if state.to_move != seat:
                    raise ApiError(403, "not_your_turn", "a hint is for the seat to move")
                number = body.get("move_number") if isinstance(body, dict) else None
                if number is not None and number != state.move_number:
                    raise ApiError(409, "stale_move", "the position changed meanwhile")
                changed = not live.hints_used
                if changed:
                    revision = self.games._bump(session, live, hints_used=True)
            if changed:
                live.hints_used = True
                live.revision = revision
            return state.copy(), state.move_number


def hint_log_line(live: LiveGame, tr: Translator) -> dict[str, Any]:
    """The table log's line saying that hints were used (service.py adds it to views)."""
    return {"n": live.move_number, "seat": None, "text": tr(msg("review.log.hints_used"))}


# -- the runner: one per server process ----------------------------------------------------
class ReviewRunner:
    def __init__(self, service: ReviewService, db_url: str) -> None:
        self.service = service
        self.db_url = db_url
        self.me = f"{os.getpid()}-{secrets.token_hex(4)}"
        self.pool: ProcessPoolExecutor | None = None
        self.task: asyncio.Task[None] | None = None
        self.wake_up = asyncio.Event()
        self.closing = False

    def _pool(self) -> ProcessPoolExecutor:
        if self.pool is None:
            # lazy: multiprocessing and the process pool's module (~4 ms of CPU, issue 34) are
            # imported at the first review, not by every server start and --workers process
            import multiprocessing
            from concurrent.futures import ProcessPoolExecutor

            self.pool = ProcessPoolExecutor(
                1, mp_context=multiprocessing.get_context("spawn"),
                initializer=_review_process_init)
        return self.pool

    def start(self) -> None:
        self.task = asyncio.get_running_loop().create_task(self._run())

    def wake(self) -> None:
        self.wake_up.set()

    async def _run(self) -> None:
        failures = LoopOutage("looking for reviews to run", log)
        while not self.closing:
            try:
                claimed = await run_in_threadpool(self.service.claim_next, self.me)
                failures.worked()
                if claimed is not None:
                    await self._review(*claimed)
                    continue
            except asyncio.CancelledError:
                raise
            except Exception as exc:  # a database outage: one line (base/outage.py)
                failures.failed(exc)
            with contextlib.suppress(TimeoutError):
                await asyncio.wait_for(self.wake_up.wait(), POLL_SECONDS)
            self.wake_up.clear()

    async def _review(self, game_id: str, seed: int, iterations: int) -> None:
        record = await run_in_threadpool(self.service.record_of, game_id)
        loop = asyncio.get_running_loop()
        log.info("reviewing game %s (%d iterations a decision)", game_id, iterations)
        try:
            status = await loop.run_in_executor(self._pool(), review_job, self.db_url, game_id,
                                                self.me, record, seed, iterations,
                                                REVIEW_WORKERS)
            log.info("review of game %s: %s", game_id, status)
        except Exception:
            log.exception("the review process failed (game %s); it will be retried", game_id)
            self.pool = None  # a broken pool: a new one next time; the row goes stale

    async def close(self) -> None:
        self.closing = True
        if self.task is not None:
            self.task.cancel()
        if self.pool is not None:
            for process in list(getattr(self.pool, "_processes", {}).values()):
                process.terminate()
            self.pool.shutdown(wait=False, cancel_futures=True)


# -- routes --------------------------------------------------------------------------------
def install(app: FastAPI, server: Any) -> None:
    """The review and hint routes; ``server`` is the app's Server (its ``reviews`` runner,
    ``service``, ``bots`` and ``changed``)."""
    def reviews() -> ReviewService:
        return server.reviews.service

    @app.post("/api/games/{game_id}/review")
    async def request_review(game_id: str) -> Any:
        answer = await run_in_threadpool(reviews().request, game_id)
        server.reviews.wake()
        return JSONResponse(answer, status_code=202 if answer["status"] in ACTIVE else 200)

    @app.get("/api/games/{game_id}/review")
    async def get_review(game_id: str, request: Request) -> Any:
        return await run_in_threadpool(reviews().status, game_id, language_of(request))

    @app.delete("/api/games/{game_id}/review")
    async def cancel_review(game_id: str) -> Any:
        return await run_in_threadpool(reviews().cancel, game_id)

    @app.get("/api/games/{game_id}/review/seat")
    async def own_view(game_id: str, request: Request) -> Any:
        # the seat a token opens; without one, the signed-in account's seat
        _, seat = await seat_of(server.service, game_id, request)
        return await run_in_threadpool(reviews().seat_frames, game_id, seat)

    @app.post("/api/games/{game_id}/hint")
    async def ask_hint(game_id: str, request: Request) -> Any:
        # the seat a token opens; without one, the signed-in account's seat (as for actions)
        live, seat = await seat_of(server.service, game_id, request)
        body = await json_body(request)
        state, number = await run_in_threadpool(reviews().hint_position, game_id, seat, body)
        server.changed(game_id)  # the log now says hints were used
        lang = language_of(request)
        names = live.names(Translator(lang))
        loop = asyncio.get_running_loop()
        # a fresh seed, never the game's (which shuffled the hidden cards)
        given = await loop.run_in_executor(server.bots._pool(), hint_job, state, seat,
                                           secrets.randbits(32),
                                           HINT_BUDGET or _engine_reviews().HINT_ITERATIONS,
                                           lang, names)
        return {**given, "move_number": number}
