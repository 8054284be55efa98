"""Points by place, tie-breaks with names, and standings.

Presets (``PRESETS``; an organiser may also give a ``Scoring`` of their own):

- ``bga``: like Board Game Arena's tournaments: first place 1 point, last 0, the places between
  evenly spaced (a 4-player table: 1, 2/3, 1/3, 0; two players: win 1, draw 1/2, loss 0).
- ``lichess``: like a lichess arena: first 2, last 0, evenly spaced (two players: win 2, draw 1,
  loss 0), and a streak: after two first places in a row, each further first place scores
  double, until the player does not come first.
- ``podium``: 3 points for first, 1 for second, 0 otherwise, at any table size.

Tied seats share the points of the places they cover (two tied for first at a 3-player table:
(1 + 1/2) / 2 each under ``bga``). A bot's seat scores nothing for anyone. A round sat out
(a ``Bye``) scores ``bye`` points (``None``: the mean points of a place at a full table).

Tie-breaks, in the organiser's order (``TIE_BREAKS`` names them):

- ``buchholz``: opponents' points, the sum of the final points of every entrant met, once per
  table shared (bots count 0);
- ``game_score``: the sum of the entrant's own scores in the games (``TableResult.scores``);
- ``wins``: how many tables the entrant finished first (alone or tied);
- ``opponents_rating``: the mean rating of the entrants met (unrated count as none).
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Collection, Iterable, Mapping, Sequence
from dataclasses import dataclass, field

from palio.tournament.model import BOT, Bye, Entrant, EntrantId, TableResult, refuse


@dataclass(frozen=True)
class Scoring:
    name: str
    first: float = 1.0  # points for first place; last place scores 0, places between evenly
    by_size: Mapping[int, tuple[float, ...]] = field(default_factory=dict)  # exact points
    fixed: tuple[float, ...] | None = None  # the same points by place at every size
    streak: bool = False
    bye: float | None = None

    def place_points(self, size: int) -> tuple[float, ...]:
        if size in self.by_size:
            return self.by_size[size]
        if self.fixed is not None:
            return tuple(self.fixed[i] if i < len(self.fixed) else 0.0 for i in range(size))
        return tuple(self.first * (size - 1 - i) / (size - 1) for i in range(size))

    def table_points(self, places: Sequence[int]) -> list[float]:
        """Each seat's points: tied seats share the points of the places they cover."""
        table = self.place_points(len(places))
        out = []
        for place in places:
            tied = sum(1 for p in places if p == place)
            out.append(sum(table[place - 1:place - 1 + tied]) / tied)
        return out

    def bye_points(self, seats: int) -> float:
        if self.bye is not None:
            return self.bye
        table = self.place_points(seats)
        return sum(table) / len(table)


PRESETS: dict[str, Scoring] = {
    "bga": Scoring("bga"),
    "lichess": Scoring("lichess", first=2.0, streak=True),
    "podium": Scoring("podium", fixed=(3.0, 1.0)),
}
TIE_BREAKS = ("buchholz", "game_score", "wins", "opponents_rating")


def scoring(name: str) -> Scoring:
    if name not in PRESETS:
        raise refuse("unknown_scoring", f"unknown scoring {name!r}; known: {', '.join(PRESETS)}",
                     name=name, known=", ".join(PRESETS))
    return PRESETS[name]


def points(results: Iterable[TableResult | Bye], rules: Scoring, seats: int
           ) -> dict[EntrantId, float]:
    """Each entrant's points from the results, in round order (a streak needs the order)."""
    total: dict[EntrantId, float] = defaultdict(float)
    run: dict[EntrantId, int] = defaultdict(int)  # first places in a row
    for result in sorted(results, key=lambda r: r.round):
        if isinstance(result, Bye):
            total[result.entrant] += rules.bye_points(seats)
            continue
        for player, place, got in zip(result.seats, result.places,
                                      rules.table_points(result.places), strict=True):
            if player is BOT:
                continue
            first = place == 1
            doubled = rules.streak and first and run[player] >= 2
            total[player] += got * (2 if doubled else 1)
            run[player] = run[player] + 1 if first else 0
    return dict(total)


@dataclass(frozen=True)
class Standing:
    rank: int
    entrant: EntrantId
    points: float
    tie_breaks: dict[str, float]
    played: int


def standings(entrants: Sequence[Entrant], results: Sequence[TableResult | Bye],
              rules: Scoring, seats: int, tie_breaks: Sequence[str] = ("buchholz", "wins"),
              withdrawn: Collection[EntrantId] = ()) -> list[Standing]:
    """Entrants by points then the named tie-breaks; equal on all of them share a rank.
    Withdrawn entrants keep their points and are listed after those still playing."""
    for name in tie_breaks:
        if name not in TIE_BREAKS:
            raise refuse("unknown_tie_break", f"unknown tie-break {name!r}; known: "
                         f"{', '.join(TIE_BREAKS)}", name=name, known=", ".join(TIE_BREAKS))
    pts = points(results, rules, seats)
    rating = {e.id: e.rating for e in entrants}
    met: dict[EntrantId, list[EntrantId | None]] = defaultdict(list)
    game: dict[EntrantId, float] = defaultdict(float)
    wins: dict[EntrantId, int] = defaultdict(int)
    played: dict[EntrantId, int] = defaultdict(int)
    for result in results:
        if isinstance(result, Bye):
            continue
        for i, player in enumerate(result.seats):
            if player is BOT:
                continue
            played[player] += 1
            met[player].extend(q for q in result.seats if q != player)
            wins[player] += result.places[i] == 1
            if result.scores is not None:
                game[player] += result.scores[i]

    def breaks(player: EntrantId) -> dict[str, float]:
        rated = [rating.get(q) for q in met[player] if q is not BOT]
        rated = [r for r in rated if r is not None]
        values = {
            "buchholz": sum(pts.get(q, 0.0) for q in met[player] if q is not BOT),
            "game_score": game[player],
            "wins": float(wins[player]),
            "opponents_rating": sum(rated) / len(rated) if rated else 0.0,
        }
        return {name: values[name] for name in tie_breaks}

    gone = set(withdrawn)
    rows = [(e.id, pts.get(e.id, 0.0), breaks(e.id)) for e in entrants]
    order = {e.id: i for i, e in enumerate(entrants)}

    def key(row: tuple) -> tuple:
        player, p, b = row
        return (player in gone, -round(p, 9), *(-round(b[n], 9) for n in tie_breaks))

    rows.sort(key=lambda row: (key(row), order[row[0]]))
    out: list[Standing] = []
    for i, row in enumerate(rows):
        rank = out[-1].rank if out and key(rows[i - 1]) == key(row) else i + 1
        out.append(Standing(rank, row[0], row[1], row[2], played[row[0]]))
    return out
