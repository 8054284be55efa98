"""What a tournament's pairing reads: entrants, finished tables, byes; and what it gives back.

Entrants are named by any hashable id (the server uses account ids, the simulator numbers).
A bot's seat is ``None``. Places count from 1; tied seats share a place number.
"""

from __future__ import annotations

from collections import Counter, defaultdict
from collections.abc import Collection, Hashable, Iterable, Sequence
from dataclasses import dataclass, field
from functools import lru_cache

from palio.core.errors import PalioError
from palio.core.words import msg
from palio.tournament.seatplan import plan_masks

EntrantId = Hashable
BOT = None  # a seat a bot fills
FORMATS = ("swiss", "roundrobin", "arena")


class TournamentError(PalioError, ValueError):
    """Input a tournament cannot be paired from; nothing was changed."""


def refuse(key: str, english: str, **params: object) -> TournamentError:
    return TournamentError(english, words=msg(f"core.tournament.{key}", **params))


@dataclass(frozen=True)
class Entrant:
    id: EntrantId
    rating: float | None = None


@dataclass(frozen=True)
class TableResult:
    """A finished table: who sat where (seat order, ``None`` for a bot) and each seat's place."""

    round: int
    seats: tuple[EntrantId | None, ...]
    places: tuple[int, ...]
    scores: tuple[float, ...] | None = None  # the game's own scores, for the game-score tie-break

    def __post_init__(self) -> None:
        humans = [p for p in self.seats if p is not BOT]
        if len(self.seats) < 2 or len(self.places) != len(self.seats):
            raise refuse("bad_table", "a table needs two or more seats and one place per seat")
        if len(set(humans)) != len(humans):
            raise refuse("bad_table", "an entrant sits twice at one table")
        if any(not 1 <= place <= len(self.seats) for place in self.places):
            raise refuse("bad_table", "places run from 1 to the number of seats")
        if self.scores is not None and len(self.scores) != len(self.seats):
            raise refuse("bad_table", "one game score per seat")


@dataclass(frozen=True)
class Bye:
    """An entrant who sat out a round while still in the tournament."""

    round: int
    entrant: EntrantId


@dataclass(frozen=True)
class Round:
    """One round's pairing: tables in seat order and who sits out."""

    tables: tuple[tuple[EntrantId | None, ...], ...]
    sitting_out: tuple[EntrantId, ...] = ()

    def to_json(self) -> list[list[EntrantId | None]]:
        return [list(table) for table in self.tables]


@dataclass
class History:
    """What the pairing remembers of the rounds played: seats taken, who met whom, byes."""

    seats: int
    seat_counts: dict[EntrantId, list[int]] = field(default_factory=dict)
    meetings: Counter = field(default_factory=Counter)  # frozenset({a, b}) -> times met
    opponents: dict[EntrantId, list[EntrantId]] = field(default_factory=lambda: defaultdict(list))
    byes: Counter = field(default_factory=Counter)
    played: Counter = field(default_factory=Counter)
    # rounds still to play after the one being paired, when the organiser fixed their number:
    # a seat may then run ahead by more than one while the rounds left can even it out
    left: int | None = None
    # at a round with short tables and the rounds fixed: each seat's sittings a round and the
    # round's players, whose seats are then planned together (``seatplan``, ``for_round``)
    supply: tuple[int, ...] | None = None
    roster: frozenset = frozenset()
    _needs: dict = field(default_factory=dict, repr=False)  # (player, left) -> mask

    @classmethod
    def of(cls, seats: int, results: Iterable[TableResult | Bye]) -> History:
        history = cls(seats)
        for result in sorted(results, key=lambda r: r.round):
            if isinstance(result, Bye):
                history.byes[result.entrant] += 1
                continue
            history.add(result.seats)
        return history

    def add(self, table: Sequence[EntrantId | None]) -> None:
        self._needs.clear()
        humans = [p for p in table if p is not BOT]
        for position, player in enumerate(table):
            if player is BOT:
                continue
            counts = self.counts(player)
            if position < len(counts):
                counts[position] += 1
            self.played[player] += 1
            self.opponents[player].extend(q for q in humans if q != player)
        for i, a in enumerate(humans):
            for b in humans[i + 1:]:
                self.meetings[frozenset((a, b))] += 1

    def copy(self) -> History:
        """An independent copy (what ``add`` changes is copied; much faster than deepcopy)."""
        return History(self.seats, {p: list(c) for p, c in self.seat_counts.items()},
                       Counter(self.meetings),
                       defaultdict(list, {p: list(o) for p, o in self.opponents.items()}),
                       Counter(self.byes), Counter(self.played), self.left, self.supply,
                       self.roster)

    def for_round(self, left: int | None, sizes: Sequence[int],
                  players: Collection[EntrantId]) -> None:
        """Set the seat rule for a round of tables ``sizes`` (bots' seats included) played by
        ``players``, with ``left`` planned rounds after it (``None``: not fixed). At full
        tables each player's seats are judged alone (``left``); at a round with short tables
        the last seat is scarce, so the seats of all who play it are planned together
        (``seatplan``), falling back to the seats taken least where no plan exists."""
        self._needs.clear()
        self.left, self.supply, self.roster = left, None, frozenset()
        if left is not None and any(size < self.seats for size in sizes):
            self.supply = tuple(sum(size > s for size in sizes) for s in range(self.seats))
            self.roster = frozenset(players)

    def counts(self, player: EntrantId) -> list[int]:
        return self.seat_counts.setdefault(player, [0] * self.seats)

    def met(self, a: EntrantId, b: EntrantId) -> int:
        return self.meetings[frozenset((a, b))]

    def needs(self, player: EntrantId) -> int:
        """The seats this player may take and stay balanced, as a bit mask: those with the
        fewest sittings so far (all seats for a newcomer); with ``left`` rounds to come, any
        seat after which those rounds can still bring every count within one of the others."""
        key = (player, self.left)
        if key not in self._needs:
            if self.supply is not None and self.left is not None and player in self.roster:
                self._plan()
            else:
                self._needs[key] = self._mask(player)
        return self._needs[key]

    def _plan(self) -> None:
        """Every roster player's needed seats under a plan of the rounds left (``seatplan``),
        or, without one, the seats they have taken least."""
        assert self.supply is not None and self.left is not None
        field = tuple(sorted(tuple(self.counts(p)) for p in self.roster))
        masks = plan_masks(field, self.left + 1, self.supply)
        for p in self.roster:
            counts = tuple(self.counts(p))
            self._needs[(p, self.left)] = (_seat_mask(counts, None) if masks is None
                                           else masks[counts])

    def planned(self) -> bool:
        """Whether this round's seats are planned for the whole field and a plan exists."""
        if self.supply is None or self.left is None:
            return False
        field = tuple(sorted(tuple(self.counts(p)) for p in self.roster))
        return plan_masks(field, self.left + 1, self.supply) is not None

    def _mask(self, player: EntrantId) -> int:
        return _seat_mask(tuple(self.counts(player)), self.left)


@lru_cache(maxsize=100_000)
def _seat_mask(counts: tuple[int, ...], left: int | None) -> int:
    low = min(counts)
    if left is None:
        return sum(1 << s for s, c in enumerate(counts) if c == low)
    mask = 0
    for s in range(len(counts)):
        after = list(counts)
        after[s] += 1
        top = max(after)
        if sum(max(0, top - 1 - c) for c in after) <= left:
            mask |= 1 << s
    return mask


def check_entrants(entrants: Sequence[Entrant], withdrawn: Collection[EntrantId],
                   what: str = "withdrawn") -> None:
    ids = [e.id for e in entrants]
    if len(set(ids)) != len(ids):
        raise refuse("duplicate_entrant", "an entrant is listed twice")
    unknown = [w for w in withdrawn if w not in set(ids)]
    if unknown:
        raise refuse("unknown_entrant", f"{what} entrant {unknown[0]!r} is not entered",
                     entrant=str(unknown[0]))
    if any(e.id is BOT for e in entrants):
        raise refuse("duplicate_entrant", "an entrant needs an id")


def members(mask: int) -> list[int]:
    """The positions of the bits set in ``mask``, lowest first (the searches of ``arrange``
    and ``audit`` keep sets of players as bit masks)."""
    out = []
    while mask:
        low = mask & -mask
        out.append(low.bit_length() - 1)
        mask ^= low
    return out
