"""Fixed-size numeric encodings of observations (the tensor side of the engine contract).

A game that offers an encoding describes it as a :class:`Layout`: named blocks of floats in
order, each with its size, bounds and meaning. Its encoder writes the blocks, in that order,
through a :class:`Writer`, which checks every block's name and size as it goes, so layout
and encoder can never drift apart silently. Encoders read only ``state.observe(seat)`` (see
``Game.observation_tensor``), so an encoding can never hold what the seat may not see.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field


@dataclass(frozen=True)
class Block:
    """``size`` floats, each within ``low``..``high``; ``meaning`` says what they hold."""

    name: str
    size: int
    high: float
    meaning: str
    low: float = 0.0


@dataclass
class Layout:
    """The blocks of one encoding, in order; built once per game (and player count)."""

    blocks: list[Block] = field(default_factory=list)

    def add(self, name: str, size: int, high: float, meaning: str, low: float = 0.0) -> None:
        if any(b.name == name for b in self.blocks):
            raise ValueError(f"block {name!r} is declared twice")
        self.blocks.append(Block(name, size, float(high), meaning, float(low)))

    @property
    def size(self) -> int:
        return sum(b.size for b in self.blocks)

    @property
    def shape(self) -> tuple[int]:
        return (self.size,)

    def bounds(self) -> tuple[list[float], list[float]]:
        """Per element, the lowest and highest value it may take."""
        low: list[float] = []
        high: list[float] = []
        for b in self.blocks:
            low += [b.low] * b.size
            high += [b.high] * b.size
        return low, high

    def span(self, name: str) -> slice:
        """Where block ``name`` lies in the vector."""
        start = 0
        for b in self.blocks:
            if b.name == name:
                return slice(start, start + b.size)
            start += b.size
        raise KeyError(name)

    def table(self) -> str:
        """The layout as a Markdown table (for docs)."""
        rows = ["| offset | block | size | range | meaning |", "|---|---|---|---|---|"]
        start = 0
        for b in self.blocks:
            rows.append(f"| {start} | `{b.name}` | {b.size} | {b.low:g}..{b.high:g} | {b.meaning} |")
            start += b.size
        return "\n".join(rows)


class Writer:
    """Collects one encoding block by block, checking each against the layout."""

    __slots__ = ("out", "_blocks", "_next")

    def __init__(self, layout: Layout) -> None:
        self.out: list[float] = []
        self._blocks = layout.blocks
        self._next = 0

    def put(self, name: str, values: Sequence[float]) -> None:
        block = self._blocks[self._next]
        if block.name != name or len(values) != block.size:
            raise ValueError(f"encoder wrote {name!r} ({len(values)} values) where the layout "
                             f"has {block.name!r} ({block.size})")
        self.out += values
        self._next += 1

    def done(self) -> list[float]:
        if self._next != len(self._blocks):
            raise ValueError(f"encoder stopped before block {self._blocks[self._next].name!r}")
        return self.out


def one_hot(index: int | None, size: int) -> list[float]:
    """``size`` zeros with a 1 at ``index`` (all zeros for ``None``)."""
    out = [0.0] * size
    if index is not None:
        out[index] = 1.0
    return out


def one_hots(indices: Sequence[int | None], width: int, slots: int) -> list[float]:
    """``slots`` one-hots of ``width`` side by side, slot ``k`` marking ``indices[k]``; a
    ``None`` index and the slots past the end of ``indices`` stay all zeros."""
    out = [0.0] * (width * slots)
    for k, index in enumerate(indices):
        if index is not None:
            out[k * width + index] = 1.0
    return out


def tally(indices: Iterable[int], size: int) -> list[float]:
    """How many times each position ``0..size-1`` occurs in ``indices``."""
    out = [0.0] * size
    for i in indices:
        out[i] += 1.0
    return out


def counts(items: Iterable[object], index: dict[object, int], size: int) -> list[float]:
    """How many of ``items`` fall on each index (``index`` maps an item to its position)."""
    return tally((index[item] for item in items), size)
