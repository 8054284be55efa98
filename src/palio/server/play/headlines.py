"""A replay step's headline: what happened, in the third person.

A step's own log lines already say what happened ("Bot 2 moved a merchant to Koeln"); the
mover's first line is the headline. Some decisions log nothing of their own (Troyes' dice
picks inside an action, Tiletum's skipped bonus, a "done"): their headline names the mover and
the choice made, never the mover's second-person prompt ("Move your merchant"). Labels that
speak to the mover ("your district") get a third-person message of their own here.
"""

from __future__ import annotations

import re
from typing import Any

from palio.core.i18n import Translator, lookup
from palio.core.words import Msg, Player, msg

TROYES_COLOURS = {"r": "red", "w": "white", "y": "yellow"}
TROYES_DIE = re.compile(r"^die ([n1-5])([rwy])([1-6])$")
TROYES_DEFENCE = re.compile(r"^def ([rwy])([1-6])$")


def third_person(game_id: str, notation: str, seat: int) -> Msg | None:
    """A third-person message for a choice whose label speaks to the mover, else None."""
    if game_id != "troyes":
        return None
    picked = TROYES_DIE.match(notation)
    if picked:
        district, colour, value = picked.groups()
        die = msg(f"board.colour.{TROYES_COLOURS[colour]}", value=int(value))
        if district == "n":
            return msg("board.step.troyes.die_neutral", player=Player(seat), die=die)
        owner = int(district) - 1
        if owner == seat:
            return msg("board.step.troyes.die_own", player=Player(seat), die=die)
        return msg("board.step.troyes.die_other", player=Player(seat), die=die,
                   owner=Player(owner))
    defended = TROYES_DEFENCE.match(notation)
    if defended:
        colour, value = defended.groups()
        die = msg(f"board.colour.{TROYES_COLOURS[colour]}", value=int(value))
        return msg("board.step.troyes.defend", player=Player(seat), die=die)
    return None


def headline(game_id: str, notation: str, seat: int, label: str,
             lines: list[dict[str, Any]], tr: Translator) -> str:
    """The step's headline in ``tr``'s words; ``lines`` are its log lines (``seat``, ``text``)."""
    own = [line["text"] for line in lines if line.get("seat") == seat]
    if own:
        return own[0]
    if lines:
        return lines[0]["text"]
    special = third_person(game_id, notation, seat)
    if special is not None and lookup(special.id, tr.lang) is not None:
        return tr(special)
    return tr(msg("board.step.chose", player=Player(seat), choice=label))
