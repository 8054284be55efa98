"""Structured events: what happened, with hidden details kept apart.

An event carries a public part that every seat and spectator may see, and optionally a secret
part that only the seats in ``audience`` may see (for example the value of a card drawn from
the deck). Views, logs and replays of games in progress are always built through
:meth:`Event.view`, so a secret never reaches a seat outside its audience.
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping
from dataclasses import dataclass, field
from typing import Any


@dataclass(slots=True, eq=False)  # not frozen: a frozen dataclass is three times as slow to make
class Event:
    """One logged event. A logged event is shared by every copy of the state that logged it
    (``Chain``), so nothing ever changes one."""

    kind: str
    seat: int | None = None
    public: Mapping[str, Any] = field(default_factory=dict)
    secret: Mapping[str, Any] | None = None
    audience: frozenset[int] = frozenset()

    # pickled as the frozen dataclass it was (a list of the fields), so states pickled by
    # earlier versions load and theirs load ours (OpenSpiel's serialize uses pickle)
    def __getstate__(self) -> list[Any]:
        return [self.kind, self.seat, self.public, self.secret, self.audience]

    def __setstate__(self, state: list[Any]) -> None:
        self.kind, self.seat, self.public, self.secret, self.audience = state

    def view(self, seat: int | None) -> dict[str, Any]:
        """The event as ``seat`` may see it (``None`` is a spectator)."""
        out: dict[str, Any] = {"kind": self.kind, "seat": self.seat, **self.public}
        if self.secret and seat is not None and seat in self.audience:
            out.update(self.secret)
        return out

    def full(self) -> dict[str, Any]:
        """Everything, for finished-game replays and debugging only."""
        out: dict[str, Any] = {"kind": self.kind, "seat": self.seat, **self.public}
        if self.secret:
            out.update(self.secret)
        return out


class Chain:
    """A persistent append-only sequence: O(1) append and O(1) copy.

    States are copied millions of times by search; sharing the history and the event log
    between a copy and its original, instead of copying lists, keeps ``copy`` cheap. Appending
    to one never alters the other because cells are immutable.
    """

    __slots__ = ("_head", "_len")

    def __init__(self) -> None:
        self._head: tuple[Any, Any] | None = None
        self._len = 0

    def append(self, item: Any) -> None:
        self._head = (item, self._head)
        self._len += 1

    def copy(self) -> Chain:
        other = Chain.__new__(Chain)
        other._head = self._head
        other._len = self._len
        return other

    def __len__(self) -> int:
        return self._len

    @property
    def head(self) -> tuple[Any, Any] | None:
        """The last cell, ``(item, the cell before)``: the same object in two chains means
        the same sequence up to there (a bot knows a position follows one it saw)."""
        return self._head

    def __iter__(self) -> Iterator[Any]:
        return iter(self.to_list())

    def __reduce__(self) -> tuple[Any, ...]:
        # pickled as a flat list: the linked cells would nest as deep as the chain is long,
        # past pickle's recursion limit in a long game
        return (_chain_of, (self.to_list(),))

    def to_list(self) -> list[Any]:
        items = []
        cell = self._head
        while cell is not None:
            items.append(cell[0])
            cell = cell[1]
        items.reverse()
        return items


def _chain_of(items: list[Any]) -> Chain:
    chain = Chain()
    for item in items:
        chain.append(item)
    return chain
