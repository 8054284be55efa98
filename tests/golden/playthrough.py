"""Golden playthroughs: seeded random games written out step by step, and diffed in a test.

Each step lists the seat, the prompt, the legal actions and the choice (its notation and its
label), then the log lines it caused as the deciding seat sees them; the table as the deciding
seat sees it is drawn whenever the deciding seat changes. Everything a person reads is in
English, through the game's words (``palio.core.describe``), so a change of wording shows here.

Regenerate after a deliberate rules change (and say why in the commit):

    .venv/bin/python -m tests.golden.playthrough
"""

from __future__ import annotations

import random
from pathlib import Path

import palio
from palio.core import describe
from palio.core.i18n import Translator

HERE = Path(__file__).parent
NAMES = ["Alice", "Bruno", "Chiara", "Dario"]
# (game id, players, options, seed) per golden file
CASES = {
    "san-gimignano": [(2, {}, 1), (2, {"nobles": True}, 2)],
    "tiletum": [(2, {}, 101), (3, {}, 202), (4, {"action_tiles": True}, 303)],
    "aquileia": [(3, {}, 31)],
    "signorie": [(2, {}, 11), (3, {}, 33)],
    "troyes": [(2, {}, 11), (4, {"bonus_cards": True}, 44)],
}


def path_for(game_id: str, players: int, options: dict, seed: int) -> Path:
    tag = "-".join(sorted(options)) or "base"
    return HERE / f"{game_id}-{players}p-{tag}-seed{seed}.txt"


def playthrough(game_id: str, players: int, options: dict, seed: int) -> str:
    game = palio.get_game(game_id)
    state = game.setup(players, seed, options)
    tr = Translator("en", NAMES[:players])
    rng = random.Random(seed)
    lines = [f"# {game_id} players={players} options={options} seed={seed}"]
    lines += [f"log: {line['text']}" for line in describe.log(state, None, tr)]
    last_seat = None
    while not state.is_over:
        seat = state.to_move
        legal = state.legal_actions()
        # mostly busy moves, so the file shows more of the game than early passes
        busy = [a for a in legal if str(a) not in ("end", "done", "pass")]
        action = rng.choice(busy if busy and rng.random() < 0.8 else legal)
        lines.append(f"## move {state.move_number}, seat {seat} to move")
        if seat != last_seat:  # the table as this seat sees it, when the decider changes
            lines.append(game.render(state, seat, tr))
            last_seat = seat
        lines.append(f"prompt: {describe.prompt(state, seat, tr)['text']}")
        lines.append("legal: " + " | ".join(str(a) for a in legal))
        lines.append(f"chosen: {action} = {tr(game.words.action(state, action).label)}")
        start = len(state.log)
        state.apply(action)
        lines += [f"log: {line['text']}" for line in describe.log(state, seat, tr, start)]
    lines.append("## final")
    lines.append(game.render(state, None, tr))
    table = describe.score_table(state, tr)
    for row in table["rows"]:
        lines.append(f"score: {row['category']}: {row['points']}")
    lines.append(f"scores: {table['totals']} ranking: {state.ranking()}")
    return "\n".join(lines) + "\n"


def main() -> None:
    for game_id in palio.games():
        for players, options, seed in CASES.get(game_id, []):
            path = path_for(game_id, players, options, seed)
            path.write_text(playthrough(game_id, players, options, seed), encoding="utf-8")
            print(f"wrote {path}")


if __name__ == "__main__":
    main()
