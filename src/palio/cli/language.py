"""The terminal's language for the commands' words (light: no game, bot or server module)."""

from __future__ import annotations

import os

from palio.core.errors import PalioError
from palio.core.i18n import LANGUAGES, normalize_language
from palio.core.words import msg


def terminal_language(chosen: str | None) -> str:
    """``--lang`` if given (checked), else the locale's language, else English."""
    if chosen is not None:
        if chosen.lower() not in LANGUAGES:
            raise PalioError(
                f"--lang must be one of {', '.join(LANGUAGES)}, not {chosen!r}",
                words=msg("cli.bad_lang", given=chosen, known=", ".join(LANGUAGES)),
            )
        return chosen.lower()
    for variable in ("LC_ALL", "LC_MESSAGES", "LANG"):
        value = os.environ.get(variable)
        if value:
            return normalize_language(value)
    return normalize_language(None)
