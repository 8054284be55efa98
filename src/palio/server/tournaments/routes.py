"""The tournaments' routes: the JSON API (``GET``/``POST /api/tournaments``, ``GET
/api/tournaments/{id}``, ``POST /api/tournaments/{id}/register`` and ``/withdraw``) and the
pages ``/tournaments`` and ``/tournaments/{id}`` (drawn here; ``/static/tournaments.js``
registers and withdraws). Writes need a signed-in account from our own pages (the CSRF rule
of palio.server.accounts.web)."""

from __future__ import annotations

import html
from typing import Any

from fastapi import APIRouter, Request
from fastapi.responses import HTMLResponse, JSONResponse
from starlette.concurrency import run_in_threadpool

import palio.games as registry
from palio.core.i18n import Translator, lookup
from palio.core.words import msg
from palio.server.accounts.routes import ProfilePart
from palio.server.accounts.web import required, signed_in
from palio.server.base import pages
from palio.server.base.errors import ApiError
from palio.server.base.http import json_body
from palio.server.base.pages import game_message, say
from palio.server.play.service import BOT_LEVELS
from palio.server.tournaments.service import BOT_LEVEL, Tournaments

router = APIRouter()


def tournaments(request: Request) -> Tournaments:
    return request.app.state.tournaments


def tournament_id(text: str) -> int:
    if not text.isdigit() or len(text) > 12:
        raise ApiError(404, "no_such_tournament", "there is no such tournament")
    return int(text)


@router.get("/api/tournaments", tags=["tournaments"])
async def list_tournaments(request: Request) -> Any:
    """Every tournament (the 200 latest by start), planned, running and finished."""
    return {"tournaments": await run_in_threadpool(tournaments(request).listing)}


@router.post("/api/tournaments", tags=["tournaments"], status_code=201)
async def create_tournament(request: Request) -> Any:
    """A new tournament, organised by the signed-in account (body: ``CreateTournament``)."""
    account = await required(request)
    body = await json_body(request)
    made = await run_in_threadpool(tournaments(request).create, account.id, body)
    return JSONResponse(made, status_code=201)


@router.get("/api/tournaments/{tid}", tags=["tournaments"])
async def get_tournament(tid: str, request: Request) -> Any:
    """A tournament: its settings, standings (with the tie-breaks by name) and rounds; with
    ``"you"`` (registered, withdrawn, time-outs) for a signed-in entrant."""
    number = tournament_id(tid)
    detail = await run_in_threadpool(tournaments(request).detail, number)
    account = await signed_in(request)
    if account is not None:
        detail["you"] = await run_in_threadpool(tournaments(request).entrant_of, number,
                                                account.id)
    return detail


@router.post("/api/tournaments/{tid}/register", tags=["tournaments"])
async def register(tid: str, request: Request) -> Any:
    """Enter the signed-in account (before the start, or during: from the next round)."""
    account = await required(request)
    return await run_in_threadpool(tournaments(request).register, tournament_id(tid),
                                   account.id, account.name)


@router.post("/api/tournaments/{tid}/withdraw", tags=["tournaments"])
async def withdraw(tid: str, request: Request) -> Any:
    """Withdraw the signed-in account: no further round pairs it."""
    account = await required(request)
    return await run_in_threadpool(tournaments(request).withdraw, tournament_id(tid),
                                   account.id)


# -- the pages -----------------------------------------------------------------------------------
def status_word(lang: str, status: str) -> str:
    return say(lang, f"tournaments.status.{status}")


def level_word(lang: str, level: str) -> str:
    """A bot level in the reader's words, as the tables name their bots (``ui.level.*``); a
    level without words (a bot's spec such as ``mcts:iterations=50``) as it is written. Plain
    text: the caller escapes it."""
    key = f"ui.level.{level.partition(':')[0]}"
    return Translator(lang)(msg(key)) if lookup(key, lang) else level


def create_form(lang: str) -> str:
    """The organiser's form (a signed-in reader's; ``/static/tournaments.js`` sends it)."""
    games = "".join(
        f'<option value="{g}">{say(lang, game_message(g))}</option>'
        for g in registry.available())

    def field(key: str, control: str) -> str:
        return f"<label><span>{say(lang, key)}</span> {control}</label>"

    choices = {
        "format": "".join(f'<option value="{f}">{say(lang, "tournaments.format." + f)}</option>'
                          for f in ("swiss", "roundrobin", "arena")),
        "scoring": "".join(f'<option value="{p}">{say(lang, "tournaments.scoring." + p)}'
                           "</option>" for p in ("bga", "lichess", "podium")),
        "bot_level": "".join(f'<option value="{v}"{" selected" if v == BOT_LEVEL else ""}>'
                             f'{html.escape(level_word(lang, v))}</option>' for v in BOT_LEVELS),
    }
    return (
        f'<h3>{say(lang, "tournaments.new")}</h3><form id="tournament-form"><div class="row">'
        + field("tournaments.col.name", '<input name="name" required maxlength="80">')
        + field("tournaments.col.game", f'<select name="game">{games}</select>')
        + field("tournaments.col.seats",
                '<input name="players" type="number" min="2" max="5" value="3" required>')
        + field("tournaments.col.format", f'<select name="format">{choices["format"]}</select>')
        + field("tournaments.rounds",
                '<input name="rounds" type="number" min="1" max="30" value="4">')
        + field("tournaments.arena_hours",
                '<input name="arena_hours" type="number" min="1" max="720" value="72">')
        + field("tournaments.scoring", f'<select name="scoring">{choices["scoring"]}</select>')
        + field("tournaments.col.starts",
                '<input name="starts_at" type="datetime-local" required>')
        + field("tournaments.per_move_days",
                '<input name="per_move_days" type="number" min="1" max="30" value="3">')
        + field("tournaments.round_days",
                '<input name="round_days" type="number" min="1" max="60" value="7">')
        + f'<label><input name="bots" type="checkbox" checked> {say(lang, "tournaments.bots")}'
        + "</label>" + field("tournaments.bot_level",
                             f'<select name="bot_level">{choices["bot_level"]}</select>')
        + "<label>"
        + f'<input name="rated" type="checkbox"> {say(lang, "tournaments.rated")}'
        + '</label></div><button type="submit" id="tournament-create">'
        + f'{say(lang, "tournaments.create")}</button></form>')


def list_page(request: Request, signed: bool) -> HTMLResponse:
    lang = pages.page_language(request)
    rows = "".join(
        f'<tr data-id="{t["id"]}"><td><a href="/tournaments/{t["id"]}?lang={lang}">'
        f'{html.escape(t["name"])}</a></td><td>{say(lang, game_message(t["game"]))}</td>'
        f'<td class="num">{t["players"]}</td><td>{say(lang, "tournaments.format." + t["format"])}'
        f'</td><td class="num">{t["entrants"]}</td><td>{status_word(lang, t["status"])}</td>'
        f'<td><time datetime="{t["starts_at"]}">{t["starts_at"][:16].replace("T", " ")} UTC'
        f'</time></td></tr>' for t in tournaments(request).listing())
    head = "".join(f"<th>{say(lang, 'tournaments.col.' + c)}</th>" for c in
                   ("name", "game", "seats", "format", "entrants", "status", "starts"))
    table = (f'<div class="scroll"><table id="tournaments"><thead><tr>{head}</tr></thead>'
             f'<tbody>{rows}</tbody></table></div>' if rows
             else f'<p id="tournaments">{say(lang, "tournaments.none")}</p>')
    body = (f'<section class="panel">{table}'
            f'<p class="muted">{say(lang, "tournaments.explain")}</p>'
            + (create_form(lang) if signed else
               f'<p class="muted">{say(lang, "tournaments.sign_in_create")}</p>')
            + f'<p>{pages.link(f"/?lang={lang}", say(lang, "ui.nav.lobby"), "button small")}'
            '</p></section><script type="module" src="/static/tournaments.js"></script>')
    return HTMLResponse(pages.shell(lang, say(lang, "tournaments.title"), body))


def detail_page(request: Request, tid: str, you: dict[str, Any] | None,
                signed: bool) -> HTMLResponse:
    lang = pages.page_language(request)
    try:
        t = tournaments(request).detail(tournament_id(tid))
    except ApiError:
        return pages.error_page(request, 404, "not_found")
    breaks = "".join(f"<th>{say(lang, 'tournaments.tie_break.' + n)}</th>"
                     for n in t["tie_breaks"])
    standings = "".join(
        f'<tr{" class=withdrawn" if s["withdrawn"] else ""}><td class="num">{s["rank"]}</td>'
        f'<td>{html.escape(s["name"])}</td><td class="num">{s["points"]:g}</td>'
        + "".join(f'<td class="num">{s["tie_breaks"][n]:g}</td>' for n in t["tie_breaks"])
        + f'<td class="num">{s["played"]}</td><td class="num">{s["playing"]}</td></tr>'
        for s in t["standings"])
    bot = say(lang, "tournaments.bot")

    def table_item(x: dict[str, Any]) -> str:
        return (f'<li><a href="/games/{x["game_id"]}?lang={lang}">'
                + ", ".join(html.escape(name) if name else bot for name in x["seats"])
                + "</a>" + ("" if x["places"] is None else
                            " — " + say(lang, "tournaments.places",
                                        places=", ".join(map(str, x["places"]))))
                + (f' <span class="muted late">({say(lang, "tournaments.late")})</span>'
                   if x["late"] else "")
                + "</li>")

    if t["format"] == "arena":  # no rounds: the tables being played, who waits, the rest
        batches = [r["tables"] for r in reversed(t["rounds"])]
        playing = "".join(table_item(x) for b in batches for x in b if x["places"] is None)
        done = "".join(table_item(x) for b in batches for x in b if x["places"] is not None)
        waiting = (say(lang, "tournaments.waiting",
                       names=", ".join(html.escape(n) for n in t["waiting"]))
                   if t["waiting"] else say(lang, "tournaments.waiting_none"))
        rounds = (f'<h3>{say(lang, "tournaments.playing")}</h3>'
                  f'<ul class="round" id="playing">{playing}</ul>'
                  + (f'<p class="muted" id="waiting">{waiting}</p>'
                     if t["status"] == "running" else "")
                  + (f'<h3>{say(lang, "tournaments.played_tables")}</h3>'
                     f'<ul class="round" id="played">{done}</ul>' if done else ""))
    else:
        rounds = "".join(
            f'<h3>{say(lang, "tournaments.round", n=r["number"])}</h3><ul class="round">'
            + "".join(table_item(x) for x in r["tables"])
            + "".join(f'<li class="muted">{say(lang, "tournaments.bye", name=name or "?")}'
                      "</li>" for name in r["byes"])
            + "".join(f'<li class="muted still-playing">'
                      f'{say(lang, "tournaments.still_playing", name=name or "?")}</li>'
                      for name in r["still_playing"])
            + "</ul>" for r in reversed(t["rounds"]))
    action = ""
    if t["status"] in ("planned", "running") and signed:
        entered = you is not None and not you["withdrawn"]
        kind = "withdraw" if entered else "register"
        action = (f'<p><button class="button" id="tournament-action" data-id="{t["id"]}" '
                  f'data-action="{kind}">{say(lang, "tournaments." + kind)}</button></p>')
    elif t["status"] in ("planned", "running"):
        action = f'<p class="muted">{say(lang, "tournaments.sign_in")}</p>'
    if t["format"] == "arena":
        shape = say(lang, "tournaments.facts_arena", seats=t["players"],
                    ends=f'{t["ends_at"][:16].replace("T", " ")} UTC')
    else:
        shape = (say(lang, "tournaments.facts", seats=t["players"], rounds=t["rounds_planned"])
                 + f' · {say(lang, "tournaments.format." + t["format"])}')
    if t["bots"]:
        shape += " · " + say(lang, "tournaments.facts_bots",
                             level=level_word(lang, t["bot_level"]))
    facts = (f'<p id="facts">{say(lang, game_message(t["game"]))} · {shape} · '
             f'{status_word(lang, t["status"])} · {t["starts_at"][:16].replace("T", " ")} UTC</p>')
    body = (f'<section class="panel" id="tournament" data-id="{t["id"]}">{facts}{action}'
            f'<h3>{say(lang, "tournaments.standings")}</h3>'
            f'<div class="scroll"><table id="standings"><thead><tr><th>#</th>'
            f'<th>{say(lang, "tournaments.col.player")}</th>'
            f'<th>{say(lang, "tournaments.col.points")}</th>{breaks}'
            f'<th>{say(lang, "tournaments.col.played")}</th>'
            f'<th>{say(lang, "tournaments.col.playing")}</th></tr></thead>'
            f'<tbody>{standings}</tbody></table></div>{rounds}'
            f'<p>{pages.link(f"/tournaments?lang={lang}", say(lang, "tournaments.title"), "button small")}'
            f'</p></section><script type="module" src="/static/tournaments.js"></script>')
    return HTMLResponse(pages.shell(lang, html.escape(t["name"]), body))


@router.get("/tournaments", include_in_schema=False)
async def tournaments_page(request: Request) -> Any:
    account = await signed_in(request)
    return await run_in_threadpool(list_page, request, account is not None)


@router.get("/tournaments/{tid}", include_in_schema=False)
async def tournament_page(tid: str, request: Request) -> Any:
    account = await signed_in(request)
    you = None
    if account is not None and tid.isdigit() and len(tid) <= 12:
        you = await run_in_threadpool(tournaments(request).entrant_of, int(tid), account.id)
    return await run_in_threadpool(detail_page, request, tid, you, account is not None)


# -- the tournaments part of a player's profile (registered with the accounts by the root) ------
def history_html(lang: str, entries: list[dict[str, Any]]) -> str:
    rows = "".join(
        f'<li data-id="{e["id"]}"><a href="/tournaments/{e["id"]}?lang={lang}">'
        f'{html.escape(e["name"])}</a> ({say(lang, game_message(e["game"]))}) · '
        + (say(lang, "tournaments.history.place", rank=e["rank"], of=e["entrants"])
           if e["rank"] is not None else status_word(lang, e["status"]))
        + "</li>" for e in entries)
    inner = (f'<ul class="tournament-history">{rows}</ul>' if rows
             else f'<p class="muted">{say(lang, "tournaments.history.none")}</p>')
    return (f'<section class="panel" id="tournament-history"><h3>'
            f'{say(lang, "tournaments.title")}</h3>{inner}</section>')


def profile_part(tournaments: Tournaments) -> ProfilePart:
    return ProfilePart("tournaments", tournaments.history, history_html)
