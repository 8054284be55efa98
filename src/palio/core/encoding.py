"""Fixed-size numeric encodings of observations (the tensor side of the engine contract).

A game that offers an encoding describes it as a :class:`Layout`: named blocks of floats in
order, each with its size, bounds and meaning. Its encoder writes the blocks, in that order,
through a :class:`Writer`, which checks every block's name and size as it goes, so layout
and encoder can never drift apart silently, and keeps only the nonzero entries (an
:class:`Encoded`): most of an observation is empty one-hots, and a network reads the rest. Encoders read only ``state.observe(seat)`` (see
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


class Encoded:
    """One finished encoding, kept as its nonzero entries: most of an observation is zeros
    (one-hots, empty slots), so a network reads only ``index`` and ``value``; ``dense()``
    gives the full vector of ``size`` floats."""

    __slots__ = ("size", "index", "value")

    def __init__(self, size: int, index: list[int], value: list[float]) -> None:
        self.size = size
        self.index = index
        self.value = value

    def dense(self) -> list[float]:
        out = [0.0] * self.size
        for i, v in zip(self.index, self.value, strict=True):
            out[i] = v
        return out


class Writer:
    """Collects one encoding block by block, checking each against the layout.

    ``put`` takes a block's values in full; ``hot``, ``hots`` and ``tally`` name only where
    the ones (or counts) go, which is cheaper for wide, mostly empty blocks.
    """

    __slots__ = ("_index", "_value", "_blocks", "_next", "_start")

    def __init__(self, layout: Layout) -> None:
        self._index: list[int] = []
        self._value: list[float] = []
        self._blocks = layout.blocks
        self._next = 0
        self._start = 0

    def _open(self, name: str, size: int | None = None) -> tuple[int, int]:
        """Where block ``name`` starts and its size; checks it is the next one in the layout."""
        if self._next >= len(self._blocks):
            raise ValueError(f"encoder wrote {name!r} after the last block of the layout")
        block = self._blocks[self._next]
        if block.name != name or (size is not None and size != block.size):
            raise ValueError(f"encoder wrote {name!r} ({size} values) where the layout "
                             f"has {block.name!r} ({block.size})")
        start = self._start
        self._next += 1
        self._start += block.size
        return start, block.size

    def put(self, name: str, values: Sequence[float], padded: bool = False) -> None:
        """The block's values, all of them; with ``padded``, only its first ones (slots filled
        from the front), the rest being zeros."""
        if padded:
            start, size = self._open(name)
            if len(values) > size:
                raise ValueError(f"encoder wrote {len(values)} values into {name!r} ({size})")
        else:
            start, _ = self._open(name, len(values))
        index, value = self._index, self._value
        for i, v in enumerate(values, start):
            if v:
                index.append(i)
                value.append(float(v))

    def hot(self, name: str, position: int | None) -> None:
        """A one-hot block: 1 at ``position`` (all zeros for ``None``)."""
        start, size = self._open(name)
        if position is not None:
            self._mark(start, size, position, 1.0)

    def hots(self, name: str, positions: Sequence[int | None], width: int) -> None:
        """One-hots of ``width`` side by side (see :func:`one_hots`)."""
        start, size = self._open(name)
        if len(positions) * width > size:
            raise ValueError(f"encoder wrote {len(positions)} slots of {width} into {name!r} ({size})")
        index, value = self._index, self._value  # _mark inlined: every search leaf runs this
        for k, position in enumerate(positions):
            if position is not None:
                if not 0 <= position < width:
                    raise ValueError(f"encoder marked position {position} of a slot of {width}")
                index.append(start + k * width + position)
                value.append(1.0)

    def tally(self, name: str, positions: Iterable[int]) -> None:
        """How many times each position of the block occurs in ``positions``."""
        start, size = self._open(name)
        seen: dict[int, int] = {}
        for position in positions:
            seen[position] = seen.get(position, 0) + 1
        for position in sorted(seen):
            self._mark(start, size, position, float(seen[position]))

    def _mark(self, start: int, size: int, position: int, value: float) -> None:
        if not 0 <= position < size:
            raise ValueError(f"encoder marked position {position} of a block of {size}")
        self._index.append(start + position)
        self._value.append(value)

    def done(self) -> Encoded:
        if self._next != len(self._blocks):
            raise ValueError(f"encoder stopped before block {self._blocks[self._next].name!r}")
        return Encoded(self._start, self._index, self._value)


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
