"""Seats after creation: the creator gives a still-empty seat to a bot.

Whoever creates a game gets a creator's token in the reply (``creator_token``), kept nowhere
but in that reply and, hashed, in ``games.creator_token``. It is not a seat's token: a player
who joined, a spectator, or anyone else is refused. The seat must still be empty and the game
still waiting for players; when the bot fills the last empty seat the game starts.
"""

from __future__ import annotations

import secrets
from typing import Annotated, Any

from pydantic import Field
from sqlalchemy import update

from palio.server.base import models
from palio.server.base.errors import ApiError
from palio.server.play.service import GameService, LiveGame, hash_token
from palio.server.play.tables import GameRow, SeatRow


class SeatToBot(models.Body):
    level: Annotated[str, Field(min_length=1, max_length=100)] | None = None


def new_creator_token() -> tuple[str, str]:
    """A fresh creator's token and the hash the database keeps."""
    token = secrets.token_urlsafe(24)
    return token, hash_token(token)


def give_to_bot(service: GameService, game_id: str, seat: int, token: str | None,
                body: Any) -> LiveGame:
    """Seat ``seat`` of ``game_id`` becomes a bot, if ``token`` is the creator's."""
    request = models.parse(SeatToBot, body)
    if not token:
        raise ApiError(401, "no_token", "giving a seat to a bot needs the creator's token")
    live = service._cached(game_id)
    with live.lock:
        if not 0 <= seat < live.players:
            raise ApiError(404, "no_such_seat", f"seats of this game are 0-{live.players - 1}")
        level = request.level or "easy"
        service._check_bot(seat, level)
        with service.sessions.begin() as session:
            service._lock_row(session, live)
            kept = session.get(GameRow, game_id, populate_existing=True).creator_token
            if kept is None or not secrets.compare_digest(kept, hash_token(token)):
                raise ApiError(403, "not_creator", "only the game's creator may give a seat to a bot")
            if live.status != "open":
                raise ApiError(409, "not_open", f"the game is {live.status}: its seats are set")
            if live.seats[seat].taken:
                raise ApiError(409, "seat_taken", f"seat {seat} is taken")
            changed = session.execute(
                update(SeatRow)
                .where(SeatRow.game_id == game_id, SeatRow.seat == seat,
                       SeatRow.kind == "human", SeatRow.token_hash.is_(None))
                .values(kind="bot", level=level, name=None)).rowcount
            if changed != 1:
                raise ApiError(409, "seat_taken", f"seat {seat} is taken")
            status = "running" if all(s.taken or s.seat == seat for s in live.seats) else "open"
            revision = service._bump(session, live, status=status)
        target = live.seats[seat]
        target.kind, target.level, target.name = "bot", level, None
        live.forget_log()  # the log names players
        live.status = status
        live.revision = revision
    return live
