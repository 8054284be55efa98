"""Seat balance planned over the rounds left, for rounds with short tables (issue 38).

At a round of tables of ``seats`` and ``seats - 1`` the last seat exists only at the full
tables, so it is scarce: 10 entrants at 3 seats over 5 rounds (tables 3, 3, 2, 2) have two third
seats a round, ten in all, and each entrant must take exactly one to end within one. A rule
that looks at one player at a time (take the seats taken least) sends six players after two
third seats from round 3 on, and some end two apart.

Here the whole field is planned at once. With ``rounds`` still to play (this one included),
everyone playing each of them, and ``supply[s]`` sittings of seat ``s`` a round, a *plan* gives
each player the sittings of each seat still to come, such that every player's final counts lie
within one of each other and each seat's sittings add up to its supply. It exists exactly when,
for every set ``J`` of seats,

    sum over players of max(A_p(J), g_p - B_p(not J)) <= rounds * supply(J)

where ``g_p`` is the player's games to come, ``A_p(J)`` and ``B_p(J)`` the least and most
sittings the player may still take in the seats of ``J`` (a bounded transportation problem:
Gale's and Hoffman's condition; ``2 ** seats`` subsets, at most 32). Any plan can be played
round by round (a regular bipartite multigraph splits into perfect matchings, König), so a
seat is *needed* by a player this round when some plan starts with it; ``plan_masks`` gives
those seats. One player's seat is checked against the others' as they stand, not against the
seats the others take this round; the pairing checks the round as a whole
(``round_keeps_plan``).
"""

from __future__ import annotations

from collections.abc import Sequence
from functools import lru_cache

Counts = tuple[int, ...]


def _bounds(counts: Counts, rounds: int) -> tuple[int, int] | None:
    """The final count every seat must reach (``low``) and may reach (``high``); ``None``
    when a seat is already past ``high``."""
    games = sum(counts) + rounds
    low, extra = divmod(games, len(counts))
    high = low + (extra > 0)
    return None if max(counts) > high else (low, high)


def _terms(counts: Counts, games: int, low: int, high: int) -> list[int]:
    """The player's least share of every subset ``J`` of seats (bit masks)."""
    k = len(counts)
    least = [max(0, low - c) for c in counts]
    most = [high - c for c in counts]
    if min(most) < 0 or sum(least) > games or sum(most) < games:
        return []
    everything = (1 << k) - 1
    lows, highs = [0] * (1 << k), [0] * (1 << k)
    for j in range(1, 1 << k):
        s = (j & -j).bit_length() - 1
        lows[j] = lows[j & (j - 1)] + least[s]
        highs[j] = highs[j & (j - 1)] + most[s]
    return [max(lows[j], games - highs[everything ^ j]) for j in range(1 << k)]


@lru_cache(maxsize=20_000)
def plan_masks(field: tuple[Counts, ...], rounds: int, supply: Counts
               ) -> dict[Counts, int] | None:
    """For each distinct seat count in ``field`` (every player of the round, sorted), the seats
    such a player may take this round with some plan left for the rest (see the module);
    ``None`` when there is no plan at all (someone must end two apart whatever the pairing)."""
    k = len(supply)
    if rounds <= 0 or sum(supply) != len(field) or any(len(c) != k for c in field):
        return None
    available = [0] * (1 << k)
    for j in range(1, 1 << k):
        s = (j & -j).bit_length() - 1
        available[j] = available[j & (j - 1)] + supply[s]
    total = [0] * (1 << k)
    rows: dict[Counts, list[int]] = {}
    for counts in field:
        if counts not in rows:
            bounds = _bounds(counts, rounds)
            rows[counts] = _terms(counts, rounds, *bounds) if bounds else []
        row = rows[counts]
        if not row:
            return None
        for j, t in enumerate(row):
            total[j] += t
    if any(total[j] > rounds * available[j] for j in range(1 << k)):
        return None
    out = {}
    for counts, row in rows.items():
        low, high = _bounds(counts, rounds)  # type: ignore[misc]
        mask = 0
        for s in range(k):
            after = tuple(c + (i == s) for i, c in enumerate(counts))
            new = _terms(after, rounds - 1, low, high)
            if new and all(total[j] - row[j] + new[j] <= rounds * available[j] - (j >> s & 1)
                           for j in range(1 << k)):
                mask |= 1 << s
        out[counts] = mask
    return out


def round_keeps_plan(field: Sequence[Counts], taken: Sequence[int], rounds: int,
                     supply: Counts) -> bool:
    """Whether, after each player of ``field`` takes the seat ``taken`` at the same index this
    round, a plan is left for the ``rounds - 1`` rounds after it."""
    after = tuple(sorted(tuple(c + (i == s) for i, c in enumerate(counts))
                         for counts, s in zip(field, taken, strict=True)))
    if rounds <= 1:
        return all(max(c) - min(c) <= 1 for c in after)
    return plan_masks(after, rounds - 1, supply) is not None
