"""Tournaments for tables of 2 to 5 seats: pairing, seating, scoring and standings.

Pure Python and free of any server or database: the server's tournament module stores the
entrants and results and calls ``pair_round`` (Swiss, round robin), ``arena_tables`` (arena)
and ``standings``. See docs/tournaments.md.
"""

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
from palio.tournament.pairing import arena_tables, berger_pairs, pair_round, score_groups
from palio.tournament.scoring import (
    PRESETS,
    TIE_BREAKS,
    Scoring,
    Standing,
    points,
    scoring,
    standings,
)
from palio.tournament.sizes import Plan, table_plan

__all__ = [
    "BOT", "FORMATS", "PRESETS", "TIE_BREAKS", "Bye", "Entrant", "History", "Plan", "Round",
    "Scoring", "Standing", "TableResult", "TournamentError", "arena_tables", "berger_pairs",
    "pair_round", "points", "score_groups", "scoring", "standings", "table_plan",
]
