"""The rules pages: ``/rules/<game>`` in the reader's language.

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
from typing import TYPE_CHECKING, Any

from fastapi import APIRouter, Request
from fastapi.responses import HTMLResponse
from starlette.concurrency import run_in_threadpool

import palio
import palio.games as registry
from palio.core.errors import OptionError
from palio.core.i18n import DEFAULT_LANGUAGE
from palio.core.words import msg
from palio.server.base.pages import error_page, game_message, link, page_language, say, shell

if TYPE_CHECKING:
    from markdown_it import MarkdownIt
    from markdown_it.rules_core import StateCore

HEADING_ID = re.compile(r"\s*\{#([A-Za-z][\w-]*)\}\s*$")

router = APIRouter()


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
    # markdown-it is imported at the first rules page, not with the server: it costs ~0.1
    # CPU-s that a server start (and every ``--workers`` process) need not pay
    from markdown_it import MarkdownIt

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
