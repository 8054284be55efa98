"""Server-side bots: they think in a pool of processes, never in the server's interpreter.

After every change the server calls ``kick(game_id)``; one task per game then plays while a
bot is to move: it waits ``bot_delay``, takes one of ``bot_processes`` thinking slots (first
come, first served, so no game starves), claims the move (``cluster``: on PostgreSQL an
advisory lock, so one process thinks for it), sends a copy of the position to a bot process
(which runs at a lower priority than the server), and submits the answer through the same
path as a person's move (move-number and revision check, commit, push).

A bot that fails plays a uniformly random legal move instead (logged), so a game never hangs.
A task that finds the claim taken leaves the move to its holder, which looks again after
releasing it; and every ``SWEEP_SECONDS`` each process looks for games whose bot has waited
longer than that (a process died holding the move, or a task failed) and plays them.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import os
import secrets
import signal
from concurrent.futures import BrokenExecutor
from typing import TYPE_CHECKING, Any

from starlette.concurrency import run_in_threadpool

from palio.server.base.errors import ApiError
from palio.server.base.outage import LoopOutage
from palio.server.play.service import GameService, bot_move, fallback_move

if TYPE_CHECKING:
    from concurrent.futures import ProcessPoolExecutor

log = logging.getLogger("palio.server")
SWEEP_SECONDS = 5.0
BOT_NICENESS = 10  # bot processes yield the CPU to the server's request path


def _bot_process_init() -> None:
    """In each bot process: a lower priority, and Ctrl-C is the server's to handle."""
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    with contextlib.suppress(OSError):
        os.nice(BOT_NICENESS)
    _die_with_parent()


def _die_with_parent() -> None:
    """Linux: end this process when the server process ends, even by ``kill -9``."""
    try:
        import ctypes

        libc = ctypes.CDLL("libc.so.6", use_errno=True)
        libc.prctl(1, signal.SIGTERM)  # PR_SET_PDEATHSIG
        if os.getppid() == 1:  # the parent died before prctl took effect
            os._exit(0)
    except (OSError, AttributeError):
        pass


class BotRunner:
    def __init__(self, service: GameService, claims: Any, *, processes: int, delay: float,
                 max_seconds: float, on_move: Any) -> None:
        self.service = service
        self.claims = claims
        self.processes = processes
        self.delay = delay
        self.max_seconds = max_seconds
        self.on_move = on_move  # called with the game id after each bot move (push, kick)
        self.slots = asyncio.Semaphore(processes)
        self.pool: ProcessPoolExecutor | None = None
        self.tasks: dict[str, asyncio.Task[None]] = {}
        self.sweeper: asyncio.Task[None] | None = None
        # the bots' tasks and sweep share one: an outage is one log line, not one per game
        self.outage = LoopOutage("the bots", log)
        self.closing = False

    def _pool(self) -> ProcessPoolExecutor:
        if self.pool is None:
            # lazy: multiprocessing and the process pool's module (~4 ms of CPU, issue 34) are
            # imported at the first bot move, not by every server start and --workers process
            import multiprocessing
            from concurrent.futures import ProcessPoolExecutor

            # spawn: a fresh interpreter, not a fork of a process running threads
            self.pool = ProcessPoolExecutor(
                self.processes, mp_context=multiprocessing.get_context("spawn"),
                initializer=_bot_process_init)
        return self.pool

    def start(self) -> None:
        self.sweeper = asyncio.get_running_loop().create_task(self._sweep())

    def kick(self, game_id: str) -> None:
        """After a change made here: let the game's bots play if one is to move."""
        live = self.service.live.get(game_id)  # this process's copy, just brought up to date
        if live is not None and not any(seat.kind == "bot" for seat in live.seats):
            # no bot sits at the table: no task, no worker thread to ask (a hand over to a
            # thread on every move of every table costs more CPU than the move's own
            # transaction). A change that seats a bot (a creator's, a forfeit) kicks after
            # it, with the bot in this copy.
            return
        self.look(game_id)

    def look(self, game_id: str) -> None:
        """Let the game's bots play if one is to move (no-op if they already are); asks the
        game itself, whatever this process's copy says (the sweep, a start)."""
        if self.closing:
            return
        task = self.tasks.get(game_id)
        if task is not None and not task.done():
            return
        task = asyncio.get_running_loop().create_task(self._play(game_id))
        self.tasks[game_id] = task
        task.add_done_callback(lambda done: self._forget(game_id, done))

    def _forget(self, game_id: str, task: asyncio.Task[None]) -> None:
        if self.tasks.get(game_id) is task:
            del self.tasks[game_id]

    async def _play(self, game_id: str) -> None:
        while not self.closing:
            try:
                if await run_in_threadpool(self.service.bot_to_move, game_id) is None:
                    return
                if self.delay > 0:
                    await asyncio.sleep(self.delay)
                async with self.slots, self.claims.claim(game_id) as mine:
                    if not mine:  # the holder looks again after its move
                        log.debug("bot move of game %s is being played by another process",
                                  game_id)
                        return
                    await self._move(game_id)
            except asyncio.CancelledError:
                raise
            except Exception as exc:  # a database outage: one line for all games
                self.outage.failed(exc)
                return

    async def _move(self, game_id: str) -> None:
        """One bot decision, if a bot is still to move once the claim is held."""
        turn = await run_in_threadpool(self.service.bot_to_move, game_id)
        if turn is None:
            return
        seat, level, state, revision = turn
        seed = secrets.randbits(32)
        log.debug("bot thinks: game %s move %d seat %d", game_id, state.move_number, seat)
        notation = await self._think(game_id, level, state, seat, seed)
        body = {"action": notation, "move_number": state.move_number}
        try:
            await run_in_threadpool(lambda: self.service.act(
                game_id, seat, body, bot=True, revision=revision))
        except ApiError as exc:
            if exc.code in ("stale_move", "future_move", "not_running", "not_your_turn"):
                # the position moved on meanwhile (an undo): look again
                log.info("bot move of game %s at move %d was stale: %s", game_id,
                         state.move_number, exc.message)
                return
            raise
        self.on_move(game_id)

    async def _think(self, game_id: str, level: str, state: Any, seat: int, seed: int) -> str:
        loop = asyncio.get_running_loop()
        try:
            return await loop.run_in_executor(self._pool(), bot_move, level, state, seat, seed,
                                              self.max_seconds)
        except BrokenExecutor:  # the pool's BrokenProcessPool: a bot process died
            log.error("a bot process died (game %s); starting new ones, a random move meanwhile",
                      game_id)
            self.pool = None
        except Exception:
            log.exception("bot %s of game %s seat %s failed; playing a random move",
                          level, game_id, seat)
        return fallback_move(state, seed)

    async def _sweep(self) -> None:
        while not self.closing:
            await asyncio.sleep(SWEEP_SECONDS)
            try:
                for game_id in await run_in_threadpool(self.service.bot_turns, SWEEP_SECONDS):
                    self.look(game_id)
                self.outage.worked()
            except Exception as exc:  # a database outage: one line (base/outage.py)
                self.outage.failed(exc)

    def resume_all(self, game_ids: list[str]) -> None:
        for game_id in game_ids:
            self.look(game_id)

    async def close(self) -> None:
        self.closing = True
        if self.sweeper is not None:
            self.sweeper.cancel()
        for task in list(self.tasks.values()):
            task.cancel()
        if self.pool is not None:
            # lazy as in _pool, which imported it when it made the pool (issue 34)
            import multiprocessing

            # a decision under way is not worth waiting for: end the bot processes now
            for process in multiprocessing.active_children():
                process.terminate()
            await run_in_threadpool(lambda: self.pool.shutdown(wait=True, cancel_futures=True))
