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
    # names, starts and sizes of the blocks, for the Writer (built on first use, rebuilt
    # when a block is added)
    _tables: tuple[tuple[str, ...], tuple[int, ...], tuple[int, ...]] | None = field(
        default=None, init=False, repr=False, compare=False)

    def add(self, name: str, size: int, high: float, meaning: str, low: float = 0.0) -> None:
        if any(b.name == name for b in self.blocks):
            raise ValueError(f"block {name!r} is declared twice")
        self.blocks.append(Block(name, size, float(high), meaning, float(low)))
        self._tables = None

    def tables(self) -> tuple[tuple[str, ...], tuple[int, ...], tuple[int, ...]]:
        """Per block in order, its name, where it starts and its size (what a Writer checks
        against: built once per layout, not per encoding)."""
        tables = self._tables
        if tables is None or len(tables[0]) != len(self.blocks):
            starts, start = [], 0
            for b in self.blocks:
                starts.append(start)
                start += b.size
            tables = (tuple(b.name for b in self.blocks), tuple(starts),
                      tuple(b.size for b in self.blocks))
            self._tables = tables
        return tables

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

    ``put`` takes a block's values in full; the others name only what is not zero, which is
    cheaper for wide, mostly empty blocks (and an encoder runs at every leaf of a search):
    ``value`` a one-float block, ``hot`` and ``hots`` where the ones go, ``bits`` a set of
    ones, ``tally`` counts, ``sparse`` positions with their values. Every position is checked
    against its block (or slot), so an encoder can never write outside it.
    """

    __slots__ = ("_index", "_value", "_names", "_starts", "_sizes", "_count", "_next", "_size")

    def __init__(self, layout: Layout) -> None:
        self._index: list[int] = []
        self._value: list[float] = []
        self._names, self._starts, self._sizes = layout.tables()
        self._count = len(self._names)
        self._next = 0
        self._size = self._starts[-1] + self._sizes[-1] if self._names else 0

    def _open(self, name: str, size: int | None = None) -> tuple[int, int]:
        """Where block ``name`` starts and its size; checks it is the next one in the layout."""
        k = self._next
        if k >= self._count or self._names[k] != name or (size is not None and size != self._sizes[k]):
            self._refuse(name, size)
        self._next = k + 1
        return self._starts[k], self._sizes[k]

    def _refuse(self, name: str, size: int | None) -> None:
        k = self._next
        if k >= self._count:
            raise ValueError(f"encoder wrote {name!r} after the last block of the layout")
        raise ValueError(f"encoder wrote {name!r} ({size} values) where the layout "
                         f"has {self._names[k]!r} ({self._sizes[k]})")

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

    def puts(self, names: tuple[str, ...], values: Sequence[float]) -> None:
        """Several consecutive blocks in one go (``names``, in layout order), ``values`` all
        of their values: one call for a run of small blocks such as a player's counts."""
        k = self._next
        end = k + len(names)
        if not names or self._names[k:end] != names:
            self._refuse(", ".join(names), None)
        start = self._starts[k]
        size = self._starts[end - 1] + self._sizes[end - 1] - start
        if len(values) != size:
            raise ValueError(f"encoder wrote {len(values)} values into {', '.join(names)} ({size})")
        self._next = end
        index, value = self._index, self._value
        for i, v in enumerate(values, start):
            if v:
                index.append(i)
                value.append(float(v))

    def value(self, name: str, v: float) -> None:
        """A block of one float."""
        k = self._next  # _open inlined: the most frequent block
        if k >= self._count or self._names[k] != name or self._sizes[k] != 1:
            self._refuse(name, 1)
        self._next = k + 1
        if v:
            self._index.append(self._starts[k])
            self._value.append(float(v))

    def hot(self, name: str, position: int | None) -> None:
        """A one-hot block: 1 at ``position`` (all zeros for ``None``)."""
        start, size = self._open(name)
        if position is not None:
            self._mark(start, size, position, 1.0)

    def hots(self, name: str, positions: Sequence[int | None], width: int, first: int = 0,
             empty: int | None = None) -> None:
        """One-hots of ``width`` side by side (see :func:`one_hots`), slot ``k`` marking
        ``positions[k]`` less ``first`` (ids counted from ``first``, as a deck's tiles are); a
        ``None`` slot stays all zeros, and so does a slot holding ``empty`` (-1, say)."""
        start, size = self._open(name)
        if len(positions) * width > size:
            raise ValueError(f"encoder wrote {len(positions)} slots of {width} into {name!r} ({size})")
        index, value = self._index, self._value  # _mark inlined: every search leaf runs this
        start -= first
        last = first + width
        for position in positions:
            if position is not None and (empty is None or position != empty):
                if not first <= position < last:
                    raise ValueError(f"encoder marked position {position - first} of a slot of {width}")
                index.append(start + position)
                value.append(1.0)
            start += width

    def mask(self, name: str, mask: int) -> None:
        """A 1 at each bit set in ``mask`` (bit ``i`` at position ``i``; bits past the block's
        end are left out)."""
        start, size = self._open(name)
        if mask:
            for i in range(size):
                if mask >> i & 1:
                    self._index.append(start + i)
                    self._value.append(1.0)

    def bits(self, name: str, positions: Iterable[int]) -> None:
        """A 1 at each of ``positions`` (in any order; one listed twice is still a 1)."""
        start, size = self._open(name)
        ordered = sorted(set(positions))
        if ordered:
            self._check(ordered, size)
            self._index += [start + position for position in ordered]
            self._value += [1.0] * len(ordered)

    def tally(self, name: str, positions: Iterable[int]) -> None:
        """How many times each position of the block occurs in ``positions``."""
        start, size = self._open(name)
        ordered = sorted(positions)
        if ordered:
            self._check(ordered, size)
            index, value = self._index, self._value
            last = -1
            for position in ordered:
                if position == last:
                    value[-1] += 1.0
                else:
                    index.append(start + position)
                    value.append(1.0)
                    last = position

    @staticmethod
    def _check(ordered: list[int], size: int) -> None:
        """Sorted positions lie within a block of ``size``."""
        for position in (ordered[0], ordered[-1]):
            if not 0 <= position < size:
                raise ValueError(f"encoder marked position {position} of a block of {size}")

    def sparse(self, name: str, entries: Iterable[tuple[int, float]]) -> None:
        """(position, value) pairs of the block, positions strictly increasing; a zero value
        is left out, as it would be from the full block."""
        start, size = self._open(name)
        index, value = self._index, self._value
        last = -1
        for position, v in entries:
            if not last < position < size:
                raise ValueError(f"encoder marked position {position} of a block of {size} "
                                 f"(positions must increase: the one before was {last})")
            last = position
            if v:
                index.append(start + position)
                value.append(float(v))

    def _mark(self, start: int, size: int, position: int, value: float) -> None:
        if not 0 <= position < size:
            raise ValueError(f"encoder marked position {position} of a block of {size}")
        self._index.append(start + position)
        self._value.append(value)

    def done(self) -> Encoded:
        if self._next != self._count:
            raise ValueError(f"encoder stopped before block {self._names[self._next]!r}")
        return Encoded(self._size, self._index, self._value)


def set_bits(mask: int, size: int) -> list[int]:
    """The positions below ``size`` of the bits set in ``mask``, lowest first (quick for the
    empty mask, the usual one)."""
    if mask == 0:
        return []
    return [i for i in range(size) if mask >> i & 1]


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
