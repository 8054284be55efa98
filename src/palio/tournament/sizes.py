"""How many tables of which size: nobody sits out when the entrants allow it.

Rule, in order:
1. tables of ``seats`` and of ``seats - 1`` (fewest short tables), when the game allows
   ``seats - 1`` players and the count splits that way (10 at 3 seats: 3 + 3 + 2 + 2);
2. otherwise, where the organiser allows bots, ``ceil(n / seats)`` full tables with the
   missing seats filled by bots, at most one bot per table where possible, from the last table up;
3. otherwise tables of any size the game allows (fewest seats left empty in total);
4. otherwise the fewest possible entrants sit out a round (say 3 at two-player tables).
"""

from __future__ import annotations

from dataclasses import dataclass

from palio.tournament.model import refuse

MOST_SEATS = 5  # every Palio game seats at most five; seat orders are searched exhaustively


@dataclass(frozen=True)
class Plan:
    humans: tuple[int, ...]  # entrants at each table, largest first
    bots: tuple[int, ...]  # bots at each table
    sitting_out: int


def table_plan(n: int, seats: int, min_players: int = 2, bots: bool = False) -> Plan:
    if seats < 2 or seats < min_players:
        raise refuse("bad_seats", f"a table needs at least {max(2, min_players)} seats",
                     least=max(2, min_players))
    if seats > MOST_SEATS:
        raise refuse("too_many_seats", f"a table has at most {MOST_SEATS} seats", most=MOST_SEATS)
    least = max(2, min_players)
    if n <= 0:
        return Plan((), (), 0)
    short = seats - 1
    r = n % seats
    if r == 0:
        tables = n // seats
        return Plan((seats,) * tables, (0,) * tables, 0)
    need_short = seats - r
    if short >= least and n >= need_short * short:
        full = (n - need_short * short) // seats
        return Plan((seats,) * full + (short,) * need_short, (0,) * (full + need_short), 0)
    if bots:
        tables = -(-n // seats)
        missing = tables * seats - n
        per = [0] * tables
        for i in range(missing):
            per[tables - 1 - i % tables] += 1
        return Plan(tuple(seats - b for b in per), tuple(per), 0)
    # any size the game allows, seating as many as possible
    best: list[int] | None = None
    for seated in range(n, least - 1, -1):
        best = _split(seated, least, seats)
        if best is not None:
            return Plan(tuple(best), (0,) * len(best), n - seated)
    return Plan((), (), n)


def _split(n: int, least: int, most: int) -> list[int] | None:
    """``n`` as table sizes in [least, most], as few tables and as even as possible."""
    tables = -(-n // most)
    while tables * least <= n:
        if tables * most >= n:
            base, extra = divmod(n, tables)
            return [base + 1] * extra + [base] * (tables - extra)
        tables += 1
    return None
