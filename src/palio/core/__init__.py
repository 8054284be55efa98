"""The engine contract shared by every Palio game (see ``palio.core.game``)."""

from palio.core.errors import (
    ComponentsError,
    IllegalAction,
    NotationError,
    OptionError,
    PalioError,
    RecordError,
)
from palio.core.events import Chain, Event
from palio.core.game import Action, Game, GameInfo, OptionSpec, State
from palio.core.record import GameRecord

__all__ = [
    "Action",
    "Chain",
    "ComponentsError",
    "Event",
    "Game",
    "GameInfo",
    "GameRecord",
    "IllegalAction",
    "NotationError",
    "OptionError",
    "OptionSpec",
    "PalioError",
    "RecordError",
    "State",
]
