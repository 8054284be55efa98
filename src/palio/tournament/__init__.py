"""Tournaments for tables of 2 to 5 seats: pairing, seating, scoring and standings.

Pure Python and free of any server or database: the server's tournament module stores the
entrants and results and calls ``pair_round`` (Swiss, round robin), ``arena_tables`` (arena)
and ``standings``. See docs/tournaments.md.
"""

from __future__ import annotations

import importlib
from typing import TYPE_CHECKING, Any

from palio.tournament.model import (
    BOT,
    FORMATS,
    Bye,
    Entrant,
    History,
    Round,
    TableResult,
    TournamentError,
)
from palio.tournament.scoring import (
    PRESETS,
    TIE_BREAKS,
    Scoring,
    Standing,
    points,
    scoring,
    standings,
)

if TYPE_CHECKING:
    from palio.tournament.pairing import arena_tables, berger_pairs, pair_round, score_groups
    from palio.tournament.sizes import Plan, table_plan

# The pairing and the table sizes it plans are imported when first used (PEP 562): a server
# imports this package for its scores and standings, and pairs a round only when one is due,
# so its start does not pay for the pairing's searches and audit (issue 34: ~4 ms of CPU).
_LAZY = {"arena_tables": "pairing", "berger_pairs": "pairing", "pair_round": "pairing",
         "score_groups": "pairing", "Plan": "sizes", "table_plan": "sizes"}


def __getattr__(name: str) -> Any:
    module = _LAZY.get(name)
    if module is None:
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
    value = globals()[name] = getattr(importlib.import_module(f"{__name__}.{module}"), name)
    return value


__all__ = [
    "BOT", "FORMATS", "PRESETS", "TIE_BREAKS", "Bye", "Entrant", "History", "Plan", "Round",
    "Scoring", "Standing", "TableResult", "TournamentError", "arena_tables", "berger_pairs",
    "pair_round", "points", "score_groups", "scoring", "standings", "table_plan",
]
