"""What every page the server writes shares: the clients' own words in the reader's language
(``/api/i18n``), the page shell, error pages, the static pages' files and the favicon.

The language of a request: ``?lang=`` first, then the ``palio_lang`` cookie (the language
chooser sets it, along with localStorage), then the browser's ``Accept-Language``; English
otherwise. The JavaScript pages also add ``?lang=`` to every API call and WebSocket.
"""

from __future__ import annotations

import html
from functools import cache
from pathlib import Path
from typing import Any

from fastapi import APIRouter, Request
from fastapi.responses import FileResponse, HTMLResponse, JSONResponse
from starlette.concurrency import run_in_threadpool

from palio.core.i18n import (
    DEFAULT_LANGUAGE,
    LANGUAGES,
    Translator,
    load_catalog,
    normalize_language,
    server_domains,
)
from palio.core.words import msg

STATIC = Path(__file__).resolve().parent.parent / "static"  # palio/server/static
LANGUAGE_COOKIE = "palio_lang"

router = APIRouter()


# -- language ---------------------------------------------------------------------------------
def known_language(text: str | None) -> str | None:
    """``text`` as one of our language codes (``ja``, ``ja-JP``...), or ``None``."""
    code = (text or "").strip().lower().replace("_", "-").split("-")[0]
    return code if code in LANGUAGES else None


def page_language(request: Request) -> str:
    """``?lang=``, then the chooser's cookie, then ``Accept-Language``; English otherwise."""
    for given in (request.query_params.get("lang"), request.cookies.get(LANGUAGE_COOKIE)):
        if known_language(given):
            return str(known_language(given))
    return normalize_language(request.headers.get("accept-language"))


def ui_messages(lang: str) -> dict[str, Any]:
    """Every message of the ``ui`` domain and of each server concern's domain
    (``palio/server/*/locale``) in ``lang`` (English where ``lang`` lacks one); plural messages
    as the list of their forms."""
    out: dict[str, Any] = {}
    for domain in ["ui", *server_domains()]:
        english = load_catalog(domain, DEFAULT_LANGUAGE)
        wanted = load_catalog(domain, lang)
        for key in english.texts if english is not None else {}:
            if not key.startswith(domain + "."):
                continue  # palio/locale also holds the "core" domain, which the server renders
            text = wanted.texts.get(key) if wanted is not None else None
            text = text or english.texts[key]
            out[key] = list(text) if isinstance(text, tuple) else text
    return out


@cache
def words_for(lang: str) -> dict[str, Any]:
    """The catalogs are read once; so are the words built from them."""
    return {"lang": lang, "languages": LANGUAGES, "messages": ui_messages(lang)}


@router.get("/api/i18n")
async def get_words(request: Request) -> Any:
    """The clients' words in the request's language (see :func:`page_language`)."""
    return await run_in_threadpool(words_for, page_language(request))


@router.get("/api/i18n/{lang}")
async def get_words_in(lang: str) -> Any:
    if lang not in LANGUAGES:
        known = ", ".join(LANGUAGES)
        return JSONResponse({"error": {"code": "no_such_language",
                                       "message": f"no language {lang!r}; known: {known}"}},
                            status_code=404)
    return await run_in_threadpool(words_for, lang)


# -- HTML the server writes -------------------------------------------------------------------
def say(lang: str, key: str, **params: Any) -> str:
    """A ``ui`` message as HTML-escaped text."""
    return html.escape(Translator(lang)(msg(key, **params)))


def shell(lang: str, title: str, body: str, page_class: str = "plain-page") -> str:
    """A whole page in Palio's look, with the language chooser (``/static/page.js``)."""
    return (
        f'<!doctype html>\n<html lang="{lang}">\n<head>\n<meta charset="utf-8">\n'
        '<meta name="viewport" content="width=device-width, initial-scale=1">\n'
        f"<title>{title} - Palio</title>\n"
        '<link rel="icon" href="/static/favicon.svg" type="image/svg+xml">\n'
        '<link rel="stylesheet" href="/static/style.css">\n'
        '<script type="module" src="/static/page.js"></script>\n'
        f'</head>\n<body class="{page_class}" data-lang="{lang}">\n'
        '<header class="top"><a class="brand" href="/">Palio</a>'
        f'<span class="title">{title}</span></header>\n'
        f"<main>\n{body}\n</main>\n</body>\n</html>\n"
    )


def game_message(game_id: str) -> str:
    """The message id of a game's name: ``ui.game_name.<id>`` with '-' as '_'."""
    return "ui.game_name." + game_id.replace("-", "_")


def link(href: str, text: str, cls: str = "button") -> str:
    return f'<a class="{cls}" href="{html.escape(href, quote=True)}">{text}</a>'


def error_page(request: Request, status: int, what: str, *, game_id: str | None = None,
               watch: bool = False) -> HTMLResponse:
    """A page for a person who followed a wrong link: what went wrong and where to go next
    (the lobby, and watching the game when only the token was wrong). ``what`` names the
    ``ui.error_page.<what>`` messages (a title and a text)."""
    lang = page_language(request)
    links = [link(f"/?lang={lang}", say(lang, "ui.nav.lobby"), "button primary")]
    if watch and game_id is not None:
        links.append(link(f"/games/{game_id}?lang={lang}", say(lang, "ui.nav.watch")))
    body = (f'<section class="panel error-page" id="error" data-status="{status}">'
            f'<h2>{say(lang, f"ui.error_page.{what}.title")}</h2>'
            f'<p>{say(lang, f"ui.error_page.{what}.text")}</p>'
            f'<p class="row">{" ".join(links)}</p></section>')
    title = say(lang, f"ui.error_page.{what}.title")
    return HTMLResponse(shell(lang, title, body), status_code=status)


def wants_page(request: Request) -> bool:
    """A person's browser asking for a page, not a program asking the API."""
    path = request.url.path
    return not path.startswith(("/api/", "/ws/", "/static/"))


# -- the static pages, checked first ----------------------------------------------------------
def static_page(name: str) -> FileResponse:
    return FileResponse(STATIC / name, headers={"Cache-Control": "no-cache"})


@router.get("/favicon.ico", include_in_schema=False)
async def favicon() -> Any:
    return FileResponse(STATIC / "favicon.svg", media_type="image/svg+xml")
