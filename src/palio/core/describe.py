"""A position in words for one viewer: the choices, the prompt, the log and the scores.

The terminal client and the server both build what a person reads through these functions,
from ``state.observe``-safe sources only: the legal actions of the seat to move (shown only to
that seat), the game's prompt, ``events_for(viewer)`` and, where the game shows them, scores.
"""

from __future__ import annotations

from typing import Any

from palio.core.game import State
from palio.core.i18n import Translator


def choices(state: State, tr: Translator) -> list[dict[str, Any]]:
    """The legal actions of the seat to move, each with its words (for that seat only)."""
    game = state.game
    out = []
    for action in state.legal_actions():
        words = game.words.action(state, action)
        out.append({
            "index": game.action_index(action), "notation": str(action),
            "label": tr.kept(words.label), "explain": tr.kept(words.explain),
            "group": tr.kept(words.group),
        })
    return out


def prompt(state: State, viewer: int | None, tr: Translator) -> dict[str, Any] | None:
    """What is being decided now, said to ``viewer``; ``None`` once the game is over."""
    if state.is_over:
        return None
    said = state.game.words.prompt(state)
    return {"text": tr(said.for_viewer(viewer, state.to_move)), "section": said.section}


def log(state: State, viewer: int | None, tr: Translator, start: int = 0,
        full: bool = False) -> list[dict[str, Any]]:
    """Log lines from event ``start`` as ``viewer`` may see them (``full``: everything, for
    finished games only). Each line keeps the index of its event and the acting seat."""
    words = state.game.words
    events = state.log.to_list()[start:]
    out = []
    for offset, event in enumerate(events):
        view = event.full() if full else event.view(viewer)
        line = words.event(view)
        if line is not None:
            out.append({"event": start + offset, "seat": view.get("seat"), "text": tr(line)})
    return out


def score_table(state: State, tr: Translator) -> dict[str, Any]:
    """The score breakdown: one row per category, then the totals and the places."""
    rows = state.game.words.scores(state)
    return {
        "rows": [{"category": tr(row.category), "points": list(row.points)} for row in rows],
        "totals": [_whole(s) for s in state.scores()],
        "ranks": state.ranks(),
    }


def _whole(value: float) -> int | float:
    return int(value) if float(value).is_integer() else value
