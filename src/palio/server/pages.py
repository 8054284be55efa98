"""Pages and words the server gives the browser: the clients' own words in the reader's
language, the rules pages, error pages, the favicon and the routes of the static pages.

The language of a request: ``?lang=`` first, then the ``palio_lang`` cookie (the language
chooser sets it, along with localStorage), then the browser's ``Accept-Language``; English
otherwise. The JavaScript pages also add ``?lang=`` to every API call and WebSocket.

Rules pages are rendered from ``docs/rules/<game>.md`` (English) and ``docs/rules/<game>.ja.md``
(Japanese): those of the source checkout when ``palio`` runs from one (``pip install -e .``,
or ``PYTHONPATH=src``), else the copy a built wheel carries (``setup.py`` puts it there). If
neither is found, ``/rules/<game>`` answers 404 with a page that says where they are. A
heading may end with ``{#section-id}``; prompts name such a section, and the game page links
to ``/rules/<game>?lang=..#section-id``.
"""

from __future__ import annotations

import html
import re
import unicodedata
from functools import cache, lru_cache
from pathlib import Path
from typing import Any

from fastapi import APIRouter, Request
from fastapi.responses import FileResponse, HTMLResponse, JSONResponse, Response
from markdown_it import MarkdownIt
from markdown_it.rules_core import StateCore
from starlette.concurrency import run_in_threadpool

import palio
import palio.games as registry
from palio.core.errors import OptionError
from palio.core.i18n import (
    DEFAULT_LANGUAGE,
    LANGUAGES,
    Translator,
    load_catalog,
    normalize_language,
    server_domains,
)
from palio.core.words import msg
from palio.server.service import ApiError

STATIC = Path(__file__).parent / "static"
LANGUAGE_COOKIE = "palio_lang"
HEADING_ID = re.compile(r"\s*\{#([A-Za-z][\w-]*)\}\s*$")

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
    (``palio/server/locale``) in ``lang`` (English where ``lang`` lacks one); plural messages
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


# -- rules pages ------------------------------------------------------------------------------
def rules_dir() -> Path | None:
    """``docs/rules`` of the source checkout palio runs from (an edit shows at once), else the
    copy a wheel carries in ``palio/docs/rules`` (see setup.py); ``None`` if neither is there."""
    package = Path(palio.__file__).resolve().parent
    for base in (package.parents[1] / "docs" / "rules", package / "docs" / "rules"):
        if base.is_dir():
            return base
    return None


def rules_file(game_id: str, lang: str) -> tuple[Path, str] | None:
    """The rules document of ``game_id`` in ``lang`` (English if none) and its language."""
    base = rules_dir()
    if base is None:
        return None
    for code in dict.fromkeys((lang, DEFAULT_LANGUAGE)):
        name = f"{game_id}.md" if code == DEFAULT_LANGUAGE else f"{game_id}.{code}.md"
        path = base / name
        if path.is_file():
            return path, code
    return None


def slug(text: str) -> str:
    """An id for a heading without an explicit ``{#id}``: lower-case words joined by '-'."""
    words = re.findall(r"\w+", text.lower())
    return "-".join(words) or "section"


def _heading_ids(state: StateCore) -> None:
    """``## Title {#id}`` -> ``<h2 id="id">Title</h2>``; other headings get a slug."""
    tokens = state.tokens
    seen: set[str] = set()
    for index, token in enumerate(tokens):
        if token.type != "heading_open":
            continue
        inline = tokens[index + 1]
        found = HEADING_ID.search(inline.content)
        if found:
            inline.content = inline.content[: found.start()]
            anchor = found.group(1)
        else:
            anchor = slug(inline.content)
        base, n = anchor, 2
        while anchor in seen:
            anchor, n = f"{base}-{n}", n + 1
        seen.add(anchor)
        token.attrSet("id", anchor)


def _links(state: StateCore) -> None:
    """Links between rules documents point to their pages; other relative links (to files of
    the repository) become plain text, since the server does not serve those files."""
    lang = state.env.get("lang", DEFAULT_LANGUAGE)
    for block in state.tokens:
        if block.type != "inline" or not block.children:
            continue
        kept = []
        dropping = 0
        for child in block.children:
            if child.type == "link_open":
                href = str(child.attrGet("href") or "")
                target = re.fullmatch(r"(?:\./)?([a-z0-9-]+?)(?:\.[a-z]{2})?\.md(#[\w-]+)?", href)
                if target:
                    child.attrSet("href", f"/rules/{target.group(1)}?lang={lang}{target.group(2) or ''}")
                elif not re.match(r"(https?:|#)", href):
                    dropping += 1
                    continue
            elif child.type == "link_close" and dropping:
                dropping -= 1
                continue
            kept.append(child)
        block.children = kept


def _wide(char: str) -> bool:
    """A character of a script written without spaces (Japanese, Chinese) or its punctuation."""
    return unicodedata.east_asian_width(char) in ("W", "F")


def _join_wide_lines(state: StateCore) -> None:
    """A line break inside Japanese text is no space: the source wraps its lines at 100
    characters, and a soft break between two wide characters would show as a stray gap."""
    for block in state.tokens:
        children = block.children or []
        for index, child in enumerate(children):
            if child.type != "softbreak" or not 0 < index < len(children) - 1:
                continue
            before, after = children[index - 1].content, children[index + 1].content
            if before and after and (_wide(before[-1]) or _wide(after[0])):
                child.type, child.content = "text", ""


@cache
def markdown() -> MarkdownIt:
    md = MarkdownIt("commonmark", {"html": False}).enable("table")
    md.core.ruler.before("inline", "heading_ids", _heading_ids)
    md.core.ruler.after("inline", "rules_links", _links)
    md.core.ruler.after("rules_links", "wide_lines", _join_wide_lines)
    return md


def render_rules(text: str, lang: str) -> tuple[str, list[tuple[str, str]]]:
    """The document as HTML, and its contents (id and text of each second-level heading)."""
    md = markdown()
    env = {"lang": lang}
    tokens = md.parse(text, env)
    contents = [(token.attrGet("id"), tokens[i + 1].content) for i, token in enumerate(tokens)
                if token.type == "heading_open" and token.tag == "h2"]
    return md.renderer.render(tokens, md.options, env), [(str(a), t) for a, t in contents]


@lru_cache(maxsize=64)
def rendered_file(path: str, mtime: float, lang: str) -> tuple[str, list[tuple[str, str]]]:
    """A rules document rendered once per version of the file (``mtime`` is in the key, so an
    edited document shows at once)."""
    return render_rules(Path(path).read_text(encoding="utf-8"), lang)


def rules_page(request: Request, game_id: str) -> HTMLResponse:
    lang = page_language(request)
    try:
        game = registry.get(game_id)
    except OptionError:
        return error_page(request, 404, "no_such_rules")
    if rules_dir() is None:
        return error_page(request, 404, "rules_not_installed")
    found = rules_file(game.info.id, lang)
    if found is None:  # a game whose rules document is not written yet
        return error_page(request, 404, "no_rules_yet")
    title = say(lang, "ui.rules.title", game=msg(game_message(game.info.id)))
    path, written_in = found
    body_html, contents = rendered_file(str(path), path.stat().st_mtime, written_in)
    note = "" if written_in == lang else f'<p class="message info">{say(lang, "ui.rules.not_translated")}</p>'
    toc = "".join(f'<li><a href="#{html.escape(anchor)}">{html.escape(text)}</a></li>'
                  for anchor, text in contents)
    body = (
        f'<div class="rules-layout" data-game="{html.escape(game.info.id)}" data-written-in="{written_in}">'
        f'<nav class="panel rules-toc"><h3>{say(lang, "ui.rules.contents")}</h3><ol>{toc}</ol>'
        f'<p>{link(f"/?lang={lang}", say(lang, "ui.nav.lobby"), "button small")}</p></nav>'
        f'<article class="panel rules" id="rules" lang="{written_in}">{note}{body_html}</article></div>'
    )
    return HTMLResponse(shell(lang, title, body, "rules-page"))


@router.get("/rules/{game_id}", include_in_schema=False)
async def get_rules(game_id: str, request: Request) -> Any:
    return await run_in_threadpool(rules_page, request, game_id)


# -- the static pages, checked first ----------------------------------------------------------
def static_page(name: str) -> FileResponse:
    return FileResponse(STATIC / name, headers={"Cache-Control": "no-cache"})


@router.get("/", include_in_schema=False)
async def lobby() -> Any:
    return static_page("index.html")


async def _game_or_error(request: Request, game_id: str, check_token: bool) -> Response | None:
    """An error page when the game does not exist or the token opens no seat of it."""
    service = request.app.state.service
    try:
        live = await run_in_threadpool(service.get, game_id)
        if check_token:
            live.seat_of_token(request.query_params.get("token"))
    except ApiError as exc:
        if exc.code == "bad_token":
            return error_page(request, 403, "bad_token", game_id=game_id, watch=True)
        return error_page(request, 404, "no_such_game")
    return None


@router.get("/games/{game_id}", include_in_schema=False)
async def game_page(game_id: str, request: Request) -> Any:
    return await _game_or_error(request, game_id, check_token=True) or static_page("game.html")


@router.get("/games/{game_id}/replay", include_in_schema=False)
async def replay_page(game_id: str, request: Request) -> Any:
    return await _game_or_error(request, game_id, check_token=False) or static_page("replay.html")


@router.get("/favicon.ico", include_in_schema=False)
async def favicon() -> Any:
    return FileResponse(STATIC / "favicon.svg", media_type="image/svg+xml")
