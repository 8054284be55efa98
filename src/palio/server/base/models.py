"""How every body and query the API accepts is checked: one behaviour for every concern.

One behaviour for every route: a body is a JSON object whose fields have exactly the types
below (``1`` is not ``true``, ``"2"`` is not ``2``, ``[]`` is not an object); an unknown field
is refused; an optional field may be left out or given as ``null``, both meaning its default.
Anything else is 400 ``bad_body`` (or ``bad_query``) with a message naming the field and what
it must be; a message never repeats the value that was sent, which may be huge.

Each concern declares its own bodies as :class:`Body` subclasses (the tables' bodies are in
``palio.server.play.models``). What depends on the game (is this a game id, a player count or
option value it accepts, a bot it knows) is checked by the game service afterwards, as 422
``bad_options``.
"""

from __future__ import annotations

from typing import Annotated, Any, TypeVar

from pydantic import AfterValidator, BaseModel, ConfigDict, Field, ValidationError

from palio.server.base.errors import ApiError

MAX_MOVE_NUMBER = 1_000_000_000  # far beyond any game; keeps n + 1 inside a 32-bit column
MAX_PLAYERS = 16  # seats of a table, in any game


def _printable_name(value: str) -> str:
    if not value.isprintable() or not value.strip():
        raise ValueError("must be printable characters, not only spaces")
    return value


Name = Annotated[str, Field(min_length=1, max_length=64), AfterValidator(_printable_name)]
MoveNumber = Annotated[int, Field(ge=0, le=MAX_MOVE_NUMBER)]


class Body(BaseModel):
    # defer_build: a model's validator (and its JSON schema) is built when it is first used,
    # not when its class is made, so a server start and every ``--workers`` process do not
    # build the 20 or so bodies a request may never send (issue 34; pydantic's own setting)
    model_config = ConfigDict(extra="forbid", strict=True, frozen=True, defer_build=True)


M = TypeVar("M", bound=BaseModel)

# pydantic's words where they would be unclear to a client; the rest are used as they are
PLAIN = {
    "missing": "is required",
    "extra_forbidden": "is not a known field",
    "model_type": "must be a JSON object",
    "model_attributes_type": "must be a JSON object",
    "dict_type": "must be a JSON object",
    "list_type": "must be a list",
    "int_type": "must be a whole number",
    "int_parsing": "must be a whole number",
    "string_type": "must be a string",
    "bool_type": "must be true or false",
    "string_too_short": "must not be empty",
    "string_too_long": "must be at most {max_length} characters",
    "too_long": "must have at most {max_length} entries",
    "greater_than_equal": "must be at least {ge}",
    "less_than_equal": "must be at most {le}",
    "less_than": "must be less than {lt}",
    "union_tag_invalid": "must be {expected_tags}",
    "union_tag_not_found": "needs a 'kind'",
}
UNION_MEMBERS = {"bool", "int", "str", "human", "bot", "function-after[_printable_name(), str]",
                 "none", "realtime", "turn", "last"}


def where(loc: tuple[Any, ...]) -> str:
    """``("seats", 1, "kind")`` -> ``seats[1].kind``, shortened: a key may be anything."""
    out = ""
    for part in loc:
        if isinstance(part, int):
            out += f"[{part}]"
        else:
            text = str(part)
            text = text if len(text) <= 40 and text.isprintable() else repr(text[:40]) + "..."
            out += ("." if out else "") + text
    return out or "the body"


def explain(error: ValidationError) -> str:
    """One line for the first problem: the field and what it must be, never its value."""
    first = error.errors(include_input=False, include_url=False)[0]
    # the labels pydantic gives union members and validators are not fields: drop them
    loc = tuple(p for p in first["loc"] if not (isinstance(p, str) and p in UNION_MEMBERS))
    kind, ctx = first["type"], first.get("ctx") or {}
    if kind == "value_error":
        message = str(ctx.get("error", first["msg"]))
    elif loc[:1] == ("options",) and len(loc) == 2 and kind.endswith("_type"):
        message = "must be true, false, a whole number or a string"
    elif kind == "union_tag_invalid":
        loc = (*loc, ctx.get("discriminator", "").strip("'"))
        message = f"must be one of {ctx.get('expected_tags', '')}"
    elif kind in PLAIN:
        message = PLAIN[kind].format_map({k: str(v) for k, v in ctx.items()})
    else:
        message = first["msg"].replace("Input should be", "must be")
    return f"{where(loc)}: {message}"[:300]


def parse(model: type[M], data: Any, *, code: str = "bad_body") -> M:
    """``data`` (parsed JSON, or a model already) as ``model``; ApiError 400 otherwise."""
    if isinstance(data, model):
        return data
    try:
        return model.model_validate(data)
    except ValidationError as exc:
        raise ApiError(400, code, explain(exc)) from None
