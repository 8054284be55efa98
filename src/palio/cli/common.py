"""Helpers shared by the CLI commands: option parsing and clear exits."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import typer

import palio.games as registry
from palio.core.errors import OptionError, PalioError
from palio.core.game import Game
from palio.core.i18n import Translator
from palio.core.words import Msg


def parse_options(pairs: list[str] | None) -> dict[str, Any]:
    """``["nobles", "variant=x", "n=3"]`` -> ``{"nobles": True, "variant": "x", "n": 3}``."""
    options: dict[str, Any] = {}
    for pair in pairs or []:
        key, sep, raw = pair.partition("=")
        if not key:
            raise typer.BadParameter(f"option {pair!r} needs a name")
        options[key] = _value(raw) if sep else True
    return options


def _value(raw: str) -> Any:
    lowered = raw.lower()
    if lowered in ("true", "yes", "on"):
        return True
    if lowered in ("false", "no", "off"):
        return False
    try:
        return int(raw)
    except ValueError:
        return raw


def fail(error: PalioError | OSError | str, tr: Translator | None = None) -> typer.Exit:
    """Print an error the user can act on and return the exit to raise. An error that
    carries words is said in the reader's language (``tr``); others in English."""
    words = getattr(error, "words", None)
    text = tr(words) if tr is not None and isinstance(words, Msg) else str(error)
    typer.secho(f"error: {text}", err=True, fg=typer.colors.RED)
    return typer.Exit(2)


def split_names(text: str | None) -> list[str]:
    return [name.strip() for name in text.split(",") if name.strip()] if text else []


def load_game(game_id: str, components_file: Path | None = None) -> Game:
    """The registered game, or a copy of it on a corrected components file (validated)."""
    game = registry.get(game_id)
    if components_file is None:
        return game
    loader = getattr(type(game), "with_components", None)
    if loader is None:
        raise OptionError(f"{game.info.name} has no component data to replace")
    return loader(components_file)
