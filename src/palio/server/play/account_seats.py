"""The tables of a signed-in account: the seat it holds at a table, its guest seats made its
own at sign-up or sign-in, its games (``GET /api/me/games``, and the games part of its public
profile), and the tables waiting for the reader's move (``GET /api/turns``: the header's "your
turn" count on every page). The accounts concern calls the claim and the profile part through the hooks the
composition root registers; this module asks the accounts concern only who is signed in."""

from __future__ import annotations

import html
import secrets
from typing import Any

from fastapi import APIRouter, Request
from fastapi.responses import JSONResponse
from sqlalchemy import select, update
from starlette.concurrency import run_in_threadpool

from palio.core.i18n import Translator
from palio.core.words import msg
from palio.server.accounts.routes import ProfilePart
from palio.server.accounts.store import PRIVATE, Account, Claim
from palio.server.accounts.web import required, signed_in
from palio.server.base.db import utc
from palio.server.base.errors import ApiError
from palio.server.base.pages import game_message, say
from palio.server.play.service import (
    GameService,
    Seat,
    hash_token,
    is_game_id,
    row_summary,
    seat_names,
)
from palio.server.play.tables import GameRow, SeatRow

router = APIRouter()


def seat_of_account(live: Any, account: Account | None) -> int | None:
    """The seat ``account`` holds at this table, or None (a spectator)."""
    if account is None:
        return None
    for seat in live.seats:
        if seat.account_id == account.id:
            return seat.seat
    return None


def claim_seats(service: GameService, account: Account, claims: list[Claim]) -> list[dict[str, Any]]:
    """Make the guest seats whose tokens this browser holds the account's own (named as the
    account). A wrong token, a seat another account holds, or a second seat at a table where
    the account already sits is skipped. The claimed seats, as ``{"game", "seat"}``."""
    claimed = []
    for claim in claims:
        try:
            live = service._cached(claim.game)
        except ApiError:
            continue
        with live.lock:
            with service.sessions.begin() as session:
                service._lock_row(session, live)  # several processes: the newest seats
                if not 0 <= claim.seat < live.players:
                    continue
                target = live.seats[claim.seat]
                if (target.token_hash is None or target.account_id is not None
                        or not secrets.compare_digest(target.token_hash, hash_token(claim.token))
                        or seat_of_account(live, account) is not None):
                    continue
                changed = session.execute(
                    update(SeatRow).where(SeatRow.game_id == live.id, SeatRow.seat == claim.seat,
                                          SeatRow.account_id.is_(None))
                    .values(account_id=account.id, name=account.name)).rowcount
                if changed != 1:
                    continue
                revision = service._bump(session, live)
            target.account_id, target.name = account.id, account.name
            live.forget_log()  # the log names players
            live.revision = revision
        claimed.append({"game": live.id, "seat": claim.seat})
    return claimed


def games_of(service: GameService, account_id: int) -> list[dict[str, Any]]:
    """The account's games, newest first (at most 200): lobby entries with its seat."""
    with service.sessions() as session:
        held = session.execute(
            select(GameRow, SeatRow.seat, SeatRow.place).join(SeatRow, SeatRow.game_id == GameRow.id)
            .where(SeatRow.account_id == account_id)
            .order_by(GameRow.created_at.desc(), GameRow.id.desc()).limit(200)).all()
        ids = [row.id for row, _, _ in held]
        seats: dict[str, list[SeatRow]] = {game_id: [] for game_id in ids}
        if ids:
            for seat in session.scalars(select(SeatRow).where(SeatRow.game_id.in_(ids))
                                        .order_by(SeatRow.seat)):
                seats[seat.game_id].append(seat)
        # a finished game: when it ended and the account's place (the profile lists them)
        return [{**row_summary(row, seats[row.id]), "seat": seat, "place": place,
                 "finished_at": utc(row.finished_at).isoformat() if row.finished_at else None}
                for row, seat, place in held]


def games_html_section(lang: str, games: list[dict[str, Any]], status: str) -> str:
    tr = Translator(lang)
    rows = []
    for game in games:
        if (game["status"] == "finished") != (status == "finished"):
            continue
        seats = [Seat(s["seat"], s["kind"], s["level"], s["name"], None)
                 for s in game["seats"]]
        names = [name or tr(msg("ui.player_n", n=n + 1))
                 for n, name in enumerate(seat_names(seats, tr))]
        target = f"/games/{game['id']}" + ("/replay" if status == "finished" else "")
        ended = ""  # a finished game: the day it ended and the player's place
        if status == "finished" and game.get("finished_at"):
            ended += f' <time datetime="{html.escape(game["finished_at"])}">{game["finished_at"][:10]}</time>'
        if status == "finished" and game.get("place"):
            ended += f' <span class="place">{say(lang, "ui.result.place_n", n=game["place"])}</span>'
        rows.append(
            f'<li class="game-row" data-game="{html.escape(game["id"])}">'
            f'<a href="{html.escape(target, quote=True)}">'
            f'{say(lang, game_message(game["game"]))}</a> '
            f'<code>{html.escape(game["id"])}</code> '
            f'<span class="seat-names">{html.escape(" · ".join(names))}</span>{ended}</li>')
    title = say(lang, f"accounts.profile.{status}")
    listed = f'<ul class="player-games">{"".join(rows)}</ul>' if rows else (
        f'<p class="muted">{say(lang, "accounts.profile.no_games")}</p>')
    return f'<section class="panel" id="games-{status}"><h3>{title}</h3>{listed}</section>'


def games_html(lang: str, games: list[dict[str, Any]]) -> str:
    return games_html_section(lang, games, "running") + games_html_section(lang, games, "finished")


def profile_part(service: GameService) -> ProfilePart:
    """The games part of a player's profile (registered with the accounts by the root)."""
    return ProfilePart("games", lambda account_id: games_of(service, account_id), games_html)


@router.get("/api/me/games", tags=["accounts"])
async def my_games(request: Request) -> Any:
    account = await required(request)
    games = await run_in_threadpool(games_of, request.app.state.service, account.id)
    return JSONResponse({"games": games}, headers=PRIVATE)


MAX_ASKED = 50  # guest seats one turns request may ask about (the lobby keeps 50)


def parse_seats(text: str) -> list[tuple[str, int]]:
    """``ID:SEAT,ID:SEAT``: the guest seats a browser holds (their tokens stay in the browser:
    whose turn it is is public, as in the lobby)."""
    asked = []
    for part in (p for p in text.split(",") if p):
        game_id, _, seat = part.partition(":")
        if not is_game_id(game_id) or not seat.isdigit() or int(seat) > 9:
            raise ApiError(400, "bad_query", "seats: at most 50 of ID:SEAT, comma-separated")
        asked.append((game_id, int(seat)))
    if len(asked) > MAX_ASKED:
        raise ApiError(400, "bad_query", "seats: at most 50 of ID:SEAT, comma-separated")
    return asked


def turns_of(service: GameService, account_id: int | None,
             asked: list[tuple[str, int]]) -> dict[str, Any]:
    """The running tables where the seat to move is the account's or one of ``asked``, and
    played by a person (a seat a bot took over after a time-out waits for nobody), the one
    waiting longest first."""
    wanted = set(asked)
    with service.sessions() as session:
        found: dict[tuple[str, int], tuple[GameRow, SeatRow]] = {}
        queries = []
        if account_id is not None:
            queries.append(select(GameRow, SeatRow).join(SeatRow, SeatRow.game_id == GameRow.id)
                           .where(SeatRow.account_id == account_id))
        if wanted:
            queries.append(select(GameRow, SeatRow).join(SeatRow, SeatRow.game_id == GameRow.id)
                           .where(GameRow.id.in_({game_id for game_id, _ in wanted})))
        for query in queries:
            for row, seat in session.execute(
                    query.where(GameRow.status == "running", SeatRow.seat == GameRow.to_move,
                                SeatRow.kind == "human")):
                if (account_id is not None and seat.account_id == account_id) or \
                        (row.id, seat.seat) in wanted:
                    found[(row.id, seat.seat)] = (row, seat)
    waiting = sorted(found.values(), key=lambda pair: (
        utc(pair[0].updated_at or pair[0].created_at), pair[0].id))
    games = [{"id": row.id, "game": row.game, "seat": seat.seat,
              "since": utc(row.updated_at or row.created_at).isoformat(),
              "account": seat.account_id is not None}
             for row, seat in waiting]
    return {"count": len(games), "games": games}


@router.get("/api/turns", tags=["play"])
async def my_turns(request: Request) -> Any:
    """``?seats=ID:SEAT,...`` (a guest's seats, kept in the browser) and, when signed in, the
    account's seats: the tables waiting for this reader's move, the longest waiting first."""
    asked = parse_seats(request.query_params.get("seats", ""))
    account = await signed_in(request)
    found = await run_in_threadpool(turns_of, request.app.state.service,
                                    account.id if account else None, asked)
    return JSONResponse(found, headers=PRIVATE)
