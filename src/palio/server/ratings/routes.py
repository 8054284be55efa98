"""The ratings' routes: the leaderboard (``GET /api/ratings/{game}`` and the page
``/ratings/{game}``) and the ratings of the seats of listed tables (``GET /api/seat-ratings``),
which the lobby and the table's seat bar show beside the names. The maths is in ratings.py."""

from __future__ import annotations

import html
from typing import Any

from fastapi import APIRouter, Request
from fastapi.responses import HTMLResponse
from starlette.concurrency import run_in_threadpool

import palio.games as registry
from palio.core.errors import OptionError
from palio.core.i18n import Translator, lookup
from palio.core.words import msg
from palio.server.accounts.routes import ProfilePart
from palio.server.base import pages
from palio.server.base.db import utc
from palio.server.base.errors import ApiError
from palio.server.base.pages import game_message, say
from palio.server.play.service import GameService, is_game_id
from palio.server.ratings import ratings

router = APIRouter()
MAX_TABLES = 100  # tables one seat-ratings request may ask about


def known_game(game: str) -> str:
    try:
        return registry.get(game).info.id
    except OptionError:
        raise ApiError(404, "no_such_game", f"there is no game type {game[:64]!r}") from None


def board(service: GameService, game: str) -> dict[str, Any]:
    with service.sessions() as session:
        players = ratings.leaderboard(session, game)
    return {"game": game, "players": players, "bots": ratings.bots_for(game),
            "scale": {"base": ratings.BASE, "per_unit": ratings.SCALE,
                      "formula": "base + per_unit * (mu - 3 * sigma)"}}


def of_tables(service: GameService, ids: list[str]) -> dict[str, dict[int, dict[str, Any]]]:
    games, seats = service.tables_rows(ids)
    with service.sessions() as session:
        return ratings.seat_ratings(session, games, seats)


@router.get("/api/ratings/{game}")
async def get_leaderboard(game: str, request: Request) -> Any:
    """The game's leaderboard: accounts by displayed rating, and the measured bot levels."""
    game = known_game(game)
    return await run_in_threadpool(board, request.app.state.service, game)


@router.get("/api/seat-ratings")
async def get_seat_ratings(request: Request) -> Any:
    """``?games=ID,ID,...``: {game id: {seat: {"rating", "change"}}} for the seats accounts
    hold at rated tables (other tables are left out)."""
    ids = [i for i in request.query_params.get("games", "").split(",") if i]
    if len(ids) > MAX_TABLES or not all(is_game_id(i) for i in ids):
        raise ApiError(400, "bad_query", f"games: at most {MAX_TABLES} game ids, comma-separated")
    return await run_in_threadpool(of_tables, request.app.state.service, ids)


def level_name(lang: str, level: str) -> str:
    key = f"ui.level.{level}"
    return Translator(lang)(msg(key)) if lookup(key, lang) else level


def leaderboard_page(request: Request, game: str) -> HTMLResponse:
    lang = pages.page_language(request)
    try:
        game = known_game(game)
    except ApiError:
        return pages.error_page(request, 404, "no_such_game")
    data = board(request.app.state.service, game)
    title = f'{pages.say(lang, "ratings.title")}: {pages.say(lang, pages.game_message(game))}'
    rows = "".join(
        f'<tr><td class="num">{p["rank"]}</td><td>{html.escape(p["name"] or "?")}</td>'
        f'<td class="num rating">{p["rating"]}</td><td class="num">{p["games"]}</td></tr>'
        for p in data["players"])
    table = (f'<table class="leaderboard" id="leaderboard"><thead><tr>'
             f'<th>#</th><th>{pages.say(lang, "ratings.player")}</th>'
             f'<th>{pages.say(lang, "ratings.rating")}</th>'
             f'<th>{pages.say(lang, "ratings.games")}</th></tr></thead><tbody>{rows}</tbody>'
             f'</table>' if data["players"] else f'<p>{pages.say(lang, "ratings.none")}</p>')
    bots = "".join(
        f'<li data-level="{html.escape(b["level"])}">'
        + pages.say(lang, "ratings.bot_about",
                    level=level_name(lang, b["level"]),
                    rating=b["rating"]) + "</li>"
        for b in data["bots"])
    body = (f'<section class="panel" id="ratings" data-game="{game}">{table}'
            f'<p class="muted">{pages.say(lang, "ratings.explain")}</p>'
            + (f'<h3>{pages.say(lang, "ratings.bots")}</h3><ul id="bot-ratings">{bots}</ul>'
               f'<p class="muted">{pages.say(lang, "ratings.bots_explain")}</p>'
               if bots else "")
            + f'<p>{pages.link(f"/?lang={lang}", pages.say(lang, "ui.nav.lobby"), "button small")}'
            '</p></section>')
    return HTMLResponse(pages.shell(lang, title, body))


@router.get("/ratings/{game}", include_in_schema=False)
async def get_leaderboard_page(game: str, request: Request) -> Any:
    return await run_in_threadpool(leaderboard_page, request, game)


# -- the ratings part of a player's profile (registered with the accounts by the root) ----------
def ratings_html(lang: str, ratings: Any) -> str:
    """The ratings per game, where the ratings concern provides them (``ratings_of``:
    ``{game id: rating}``, a rating a number or a dict with ``"rating"``); else a note."""
    rows = []
    if isinstance(ratings, dict):
        for game_id, value in ratings.items():
            shown = value.get("rating") if isinstance(value, dict) else value
            if isinstance(shown, float):
                shown = round(shown)
            provisional = isinstance(value, dict) and value.get("provisional")
            mark = (f' <span class="badge provisional" title="{say(lang, "ratings.provisional_help")}">'
                    f'{say(lang, "ratings.provisional")}</span>' if provisional else "")
            rows.append(f'<tr data-game="{html.escape(str(game_id))}">'
                        f'<td>{say(lang, game_message(str(game_id)))}</td>'
                        f"<td>{html.escape(str(shown))}{mark}</td></tr>")
    inner = (f'<table class="ratings">{"".join(rows)}</table>' if rows
             else f'<p class="muted">{say(lang, "accounts.profile.no_ratings")}</p>')
    # the ratings concern (palio.server.ratings.ratings) fills this section
    return (f'<section class="panel" id="ratings"><h3>{say(lang, "accounts.profile.ratings")}'
            f"</h3>{inner}</section>")


def with_history(service: GameService, account_id: int) -> dict[str, dict[str, Any]]:
    """``ratings_of`` with each game type's history: its rated games in the order they ended,
    ``[{"game_id", "at", "before", "after"}]`` (the profile draws it as a graph)."""
    with service.sessions() as session:
        out = ratings.ratings_of(session, account_id)
        changes = ratings.changes_for(session, account_id)
    games, _ = service.tables_rows(list(changes))  # the tables' types and dates (play's API)
    for row in sorted(games, key=lambda g: (utc(g.finished_at or g.created_at), g.id)):
        entry = out.get(row.game)
        if entry is not None:
            moment = utc(row.finished_at or row.created_at)
            entry.setdefault("history", []).append(
                {"game_id": row.id, "at": moment.isoformat(), **changes[row.id]})
    for entry in out.values():
        entry.setdefault("history", [])
    return out


def profile_part(service: GameService) -> ProfilePart:
    def data(account_id: int) -> dict[str, dict[str, Any]]:
        return with_history(service, account_id)

    return ProfilePart("ratings", data, ratings_html)
