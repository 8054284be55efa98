"""Component data: what every game with printed values shares.

A game keeps its printed values in one JSON-shaped dict (``DATA`` in its ``components.py``):
sections of fields, each section with a ``source``. A person who owns the game may correct
that data with a components file of the same shape. This module reads such a file and merges
it over the built-in data, with a :class:`ComponentsError` naming the problem; what the values
mean, and how they are checked, stays with each game.
"""

from __future__ import annotations

import copy
import json
from abc import ABC, abstractmethod
from collections.abc import Callable, Iterable
from pathlib import Path
from typing import Any, Self

from palio.core.errors import ComponentsError


def read_components_file(path: str | Path) -> Any:
    """What a components file holds (parsed JSON, not yet checked)."""
    try:
        return json.loads(Path(path).read_text(encoding="utf-8"))
    except OSError as exc:
        raise ComponentsError(f"cannot read components file {path}: {exc}") from exc
    except json.JSONDecodeError as exc:
        raise ComponentsError(f"components file {path} is not valid JSON: {exc}") from exc


def merge_sections(builtin: dict[str, Any], given: Any) -> dict[str, Any]:
    """A copy of ``builtin`` with the sections of ``given`` merged in: a section given
    replaces only the fields it names; sections it leaves out keep the built-in values.

    ``given`` must be a dict of known sections, each a dict; ``builtin`` is never modified.
    """
    if not isinstance(given, dict):
        raise ComponentsError("a components file must hold a JSON object of sections")
    unknown = sorted(set(given) - set(builtin))
    if unknown:
        raise ComponentsError(f"unknown section(s) {', '.join(unknown)}; known: {', '.join(builtin)}")
    merged = copy.deepcopy(builtin)
    for name, section in given.items():
        if not isinstance(section, dict):
            raise ComponentsError(f"section {name} must be an object")
        merged[name].update(copy.deepcopy(section))
    return merged


class ComponentTables(ABC):
    """One game's component data compiled into the tables its rules read, checked on the way;
    never changed after construction. ``data`` keeps the data it was compiled from."""

    def __init__(self, data: dict[str, Any]) -> None:
        self.data = data
        try:
            self._compile(data)
        except ComponentsError:
            raise
        except (KeyError, TypeError, ValueError, IndexError, AttributeError) as exc:
            raise ComponentsError(f"components data is malformed: {type(exc).__name__}: {exc}") from exc

    @abstractmethod
    def _compile(self, data: dict[str, Any]) -> None:
        """Set the tables from ``data``; a :class:`ComponentsError` for values the game cannot
        use (any other error a malformed file causes is reported as malformed)."""

    @abstractmethod
    def provisional(self) -> list[str]:
        """One line per provisional value of ``data`` (what ``--components`` lists)."""

    def corrected(self, path: str | Path) -> Self:
        """These tables with a corrected components file merged over their data, checked."""
        return type(self)(merge_sections(self.data, read_components_file(path)))


def check(ok: bool, message: str) -> None:
    """A :class:`ComponentsError` with ``message`` unless ``ok``."""
    if not ok:
        raise ComponentsError(message)


def components_json(data: dict[str, Any]) -> str:
    """Component data as the JSON a components file holds: a starting point to correct."""
    return json.dumps(data, indent=1, ensure_ascii=False)


def provisional_section(
    name: str,
    section: dict[str, Any],
    *,
    reason: str = "note",
    detail: Callable[[dict[str, Any], str], str | None] | None = None,
    entries: Callable[[str, dict[str, Any], str, Any], Iterable[str]] | None = None,
) -> list[str]:
    """The lines listing what section ``name`` marks provisional, in the order of its keys.

    The whole section when its ``source`` is ``provisional`` (with the text of its ``reason``
    field); each field whose ``<field>_source`` is ``provisional`` (followed by
    ``detail(section, field)`` where that gives more); and, key by key, the lines
    ``entries(name, section, key, value)`` gives for entries marked inside a value (each game
    marks its list entries its own way).
    """
    out = []
    if section.get("source") == "provisional":
        out.append(f"{name}: {section.get(reason, 'whole section')}")
    for key, value in section.items():
        if key.endswith("_source") and value == "provisional":
            field = key.removesuffix("_source")
            more = detail(section, field) if detail else None
            out.append(f"{name}.{field}" + (f": {more}" if more else ""))
        if entries:
            out.extend(entries(name, section, key, value))
    return out
