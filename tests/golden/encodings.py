"""Golden encodings: every observation of seeded random games, hashed, per game, player count
and option set, so that a change to any value of any observation tensor shows in a test
(``test_encodings.py``). The shipped models (``palio/models``) read these tensors: an encoder
may get faster, never different, unless the layout (and its digest) changes with it.

Each case plays ``GAMES`` seeded random games; at every position it encodes the view of every
seat and of a spectator, and hashes the nonzero entries (positions and values, ``repr`` of the
floats, so exact). Regenerate after a deliberate change of the rules or of an encoding (and
say why in the commit):

    .venv/bin/python -m tests.golden.encodings
"""

from __future__ import annotations

import hashlib
import json
from pathlib import Path

import palio
from palio.core.game import Game
from tests.encoding import random_positions

HERE = Path(__file__).parent
FILE = HERE / "encodings.json"
GAMES = 3
# option sets other than the base game, per game (the base game runs at every player count)
OPTIONS = {
    "san-gimignano": [{"nobles": True}],
    "tiletum": [{"action_tiles": True}],
    "troyes": [{"bonus_cards": True}],
}


def cases() -> list[tuple[str, int, dict]]:
    """(game id, players, options) of every golden encoding."""
    out = []
    for game_id in palio.games():
        game = palio.get_game(game_id)
        counts = [p for p in range(game.info.min_players, game.info.max_players + 1)
                  if game.observation_layout(p) is not None]
        out += [(game_id, players, {}) for players in counts]
        out += [(game_id, counts[-1], options) for options in OPTIONS.get(game_id, [])]
    return out


def key(game_id: str, players: int, options: dict) -> str:
    return f"{game_id} {players}p " + ("-".join(sorted(options)) or "base")


def digest(game: Game, players: int, options: dict, seed: int = 1) -> tuple[str, int]:
    """The hash of every observation of the case's games, and how many were hashed."""
    h = hashlib.sha256()
    count = 0
    for state in random_positions(game, players, GAMES, options or None, seed=seed):
        for seat in (*range(players), None):
            entries = game.observation_entries(state, seat)
            h.update(repr((entries.size, entries.index, entries.value)).encode())
            count += 1
    return h.hexdigest(), count


def main() -> None:
    table = {}
    for game_id, players, options in cases():
        hexdigest, count = digest(palio.get_game(game_id), players, options)
        table[key(game_id, players, options)] = {"sha256": hexdigest, "observations": count}
        print(key(game_id, players, options), count, hexdigest[:16])
    FILE.write_text(json.dumps(table, indent=1, sort_keys=True) + "\n", encoding="utf-8")


if __name__ == "__main__":
    main()
