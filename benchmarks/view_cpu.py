"""CPU of a move's views in one process: after every move of seeded random games, each seat's
view is built and serialised as the server does it (``push.texts_for``: the views of those
watching, the mover's REST answer and every push message), timed with ``time.process_time``.

``--out FILE`` also writes every reader's push message and the mover's answer (seats and
spectator, English and Japanese), one JSON per line with sorted keys, to compare two versions'
views (game ids differ between runs). Works on the code before the views' JSON was kept
(``push.views_for``, 2026-11) too, so the same script measures both.

Usage: PYTHONPATH=src python benchmarks/view_cpu.py [--game san-gimignano] [--players 2]
       [--games 8] [--out FILE]
"""

from __future__ import annotations

import argparse
import json
import random
import tempfile
import time
from datetime import UTC, datetime

from palio.server.base.clock import ManualClock
from palio.server.play import push
from palio.server.play.service import GameService


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--game", default="san-gimignano")
    parser.add_argument("--players", type=int, default=2)
    parser.add_argument("--games", type=int, default=8)
    parser.add_argument("--out", help="write every view here (to compare versions)")
    args = parser.parse_args()
    langs = ["en", "ja"] if args.out else ["en"]
    spectator = [None] if args.out else []
    out = open(args.out, "w") if args.out else None  # noqa: SIM115
    clock = ManualClock(datetime(2026, 1, 1, tzinfo=UTC))
    total, moves = 0.0, 0
    with tempfile.TemporaryDirectory() as tmp:
        service = GameService(f"sqlite:///{tmp}/views.db", clock=clock)
        for number in range(args.games):
            live = service.create({"game": args.game, "players": args.players, "seed": number,
                                   "seats": [{"kind": "human"}] * args.players})
            for seat in range(args.players):
                service.join(live.id, seat, {"name": f"P{seat}" if seat else None})
            rng = random.Random(number)
            readers = {(s, lang) for s in [*range(args.players), *spectator] for lang in langs}
            while not live.state.is_over:
                seat = live.state.to_move
                move = rng.choice(live.state.legal_actions())
                service.act(live.id, seat, {"action": str(move), "move_number": live.move_number})
                moves += 1
                start = time.process_time()
                if hasattr(push, "texts_for"):
                    texts = push.texts_for(live, readers)
                    answer = push.with_now(texts[(seat, "en")], "now")
                    messages = push.messages_of(texts, "now")
                else:  # before: views as dicts, the answer and each push dumped apart
                    views = push.views_for(live, readers)
                    answer = json.dumps({**views[(seat, "en")], "now": "now"},
                                        ensure_ascii=False, allow_nan=False, separators=(",", ":"))
                    messages = push.messages_of(views, "now")
                total += time.process_time() - start
                if out is not None:
                    for reader in sorted(readers, key=str):
                        message = json.loads(messages[reader])
                        message["view"].pop("id")
                        out.write(json.dumps([live.revision, reader, message], sort_keys=True) + "\n")
                    body = json.loads(answer)
                    body.pop("id")
                    out.write(json.dumps(body, sort_keys=True) + "\n")
        service.close()
    print(f"{args.game}, {args.players} players, {args.games} games: {moves} moves, "
          f"{len(readers)} views each, {1000 * total / moves:.3f} CPU-ms per move")


if __name__ == "__main__":
    main()
