"""The bodies and queries of the tables' routes: creating a game, its seats and clocks,
joining, moving, undoing and listing (checked as every body is: ``palio.server.base.models``)."""

# No ``from __future__ import annotations`` here: pydantic then reads each field's type as
# the object Python made, instead of evaluating its text (issue 34: ~1 ms of the import).

from typing import Annotated, Literal

from pydantic import BaseModel, ConfigDict, Field

from palio.server.base.models import MAX_PLAYERS, Body, MoveNumber, Name

MAX_PAGE = 200


class HumanSeat(Body):
    kind: Literal["human"]


class BotSeat(Body):
    kind: Literal["bot"]
    level: Annotated[str, Field(min_length=1, max_length=100)] | None = None
    name: Name | None = None


SeatSpec = Annotated[HumanSeat | BotSeat, Field(discriminator="kind")]
OptionValue = bool | int | str

# Timed tables (palio.server.play.timing): the bounds keep every sum of seconds far inside a day's
# arithmetic and a JSON number
DAY = 86400
MAX_TURN_S = 30 * DAY


class NoTiming(Body):
    kind: Literal["none"]


class RealtimeTiming(Body):
    """A chess clock per player: ``base_s`` at the start, ``increment_s`` added per decision."""

    kind: Literal["realtime"]
    base_s: Annotated[int, Field(ge=10, le=DAY)]
    increment_s: Annotated[int, Field(ge=0, le=3600)] = 0


class TurnTiming(Body):
    """A limit per decision, and a bank drawn on when a decision takes longer (default: one
    more ``per_move_s``)."""

    kind: Literal["turn"]
    per_move_s: Annotated[int, Field(ge=60, le=MAX_TURN_S)]
    bank_s: Annotated[int, Field(ge=0, le=MAX_TURN_S)] | None = None


TimingSpec = Annotated[NoTiming | RealtimeTiming | TurnTiming, Field(discriminator="kind")]


class TimeoutBot(Body):
    kind: Literal["bot"]
    level: Annotated[str, Field(min_length=1, max_length=100)] | None = None


class TimeoutLast(Body):
    kind: Literal["last"]


OnTimeout = Annotated[TimeoutBot | TimeoutLast, Field(discriminator="kind")]


class CreateGame(Body):
    game: Annotated[str, Field(min_length=1, max_length=64)]
    players: Annotated[int, Field(ge=1, le=MAX_PLAYERS)] | None = None
    options: dict[Annotated[str, Field(max_length=64)], OptionValue] | None = None
    seed: Annotated[int, Field(ge=0, lt=2**63)] | None = None
    seats: Annotated[list[SeatSpec], Field(max_length=MAX_PLAYERS)] | None = None
    spectator_chat: bool | None = None  # may spectators use the table chat (chat.py)
    timing: TimingSpec | None = None  # none: no clock
    rated: bool | None = None
    practice: bool | None = None
    on_timeout: OnTimeout | None = None  # none: a medium bot plays on


class JoinSeat(Body):
    name: Name | None = None


class Act(Body):
    action: Annotated[str, Field(min_length=1, max_length=200)]
    move_number: MoveNumber


class Undo(Body):
    move_number: MoveNumber


class ListGames(BaseModel):
    """``GET /api/games`` query parameters (text, so not strict: ``limit=20`` is a number)."""

    model_config = ConfigDict(extra="forbid", frozen=True, defer_build=True)  # as Body's

    # none: the live tables (open and running); "recent": finished and expired; "all"
    status: Literal["open", "running", "finished", "expired", "recent", "all"] | None = None
    game: Annotated[str, Field(min_length=1, max_length=64)] | None = None
    limit: Annotated[int, Field(ge=1, le=MAX_PAGE)] = 50
    before: Annotated[str, Field(min_length=1, max_length=32)] | None = None
