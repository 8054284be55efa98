"""Golden playthroughs: seeded random games written out step by step, and diffed in a test.

Regenerate after a deliberate rules change (and say why in the commit):

    .venv/bin/python -m tests.golden.playthrough
"""

from __future__ import annotations

import random
from pathlib import Path

import palio

HERE = Path(__file__).parent
# (game id, players, options, seed) per golden file
CASES = {
    "san-gimignano": [(2, {}, 1), (2, {"nobles": True}, 2)],
    "tiletum": [(2, {}, 1), (4, {}, 2)],
}


def path_for(game_id: str, players: int, options: dict, seed: int) -> Path:
    tag = "-".join(sorted(options)) or "base"
    return HERE / f"{game_id}-{players}p-{tag}-seed{seed}.txt"


def playthrough(game_id: str, players: int, options: dict, seed: int) -> str:
    game = palio.get_game(game_id)
    state = game.setup(players, seed, options)
    rng = random.Random(seed)
    lines = [f"# {game_id} players={players} options={options} seed={seed}"]
    while not state.is_over:
        seat = state.to_move
        legal = state.legal_actions()
        action = rng.choice(legal)
        lines.append(f"## move {state.move_number}, seat {seat} to move")
        lines.append(game.render(state, seat))
        lines.append("legal: " + " | ".join(str(a) for a in legal))
        lines.append(f"chosen: {action}")
        state.apply(action)
    lines.append("## final")
    lines.append(game.render(state, None))
    lines.append(f"scores: {state.scores()} ranking: {state.ranking()}")
    return "\n".join(lines) + "\n"


def main() -> None:
    for game_id in palio.games():
        for players, options, seed in CASES.get(game_id, []):
            path = path_for(game_id, players, options, seed)
            path.write_text(playthrough(game_id, players, options, seed), encoding="utf-8")
            print(f"wrote {path}")


if __name__ == "__main__":
    main()
