"""The San Gimignano tower game (two players), with the noble-card variant.

Rules: ``shared/seeds/san-gimignano.ja.md``; rules for players: ``docs/rules/san-gimignano.md``; readings: ``docs/coverage/san-gimignano.md``.
Observation tensor (453 floats): ``encode.py`` and ``docs/observation-tensors.md``.

>>> from palio.games.san_gimignano import GAME
>>> state = GAME.setup(2, seed=3)
>>> len(state.hands[0]), len(state.market), len(state.deck)
(5, 4, 31)
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from palio.core.encoding import Encoded, Layout
from palio.core.game import Action, Game, GameInfo, OptionSpec, State
from palio.core.rng import derive
from palio.games.san_gimignano import actions, components, encode
from palio.games.san_gimignano import components as C
from palio.games.san_gimignano.scoring import match_scores, score_breakdown
from palio.games.san_gimignano.state import SanGimignanoState, Tower
from palio.games.san_gimignano.words import WORDS


class SanGimignanoGame(Game):
    info = GameInfo(
        id="san-gimignano",
        name="San Gimignano",
        version="1",
        min_players=2,
        max_players=2,
        options=(OptionSpec("nobles", "add the ten noble cards (variant)"),),
        chance=True,
        hidden_information=True,
        score_range=(0, 300),
        max_length=3000,
        action_space_size=len(actions.action_space()),
        rules="shared/seeds/san-gimignano.ja.md",
    )
    words = WORDS

    def _setup(self, players: int, seed: int, options: dict[str, Any]) -> State:
        s = SanGimignanoState.__new__(SanGimignanoState)
        s._init_base(players, seed, options)
        rng = derive(seed, "setup")
        deck = [v for v, n in C.TOWER_COUNTS.items() for _ in range(n)]
        rng.shuffle(deck)
        nobles = [c for c, n in C.NOBLE_COUNTS.items() for _ in range(n)] if options["nobles"] else []
        rng.shuffle(nobles)
        s.hands = [[deck.pop() for _ in range(C.HAND_SIZE_START)] for _ in range(2)]
        s.market = [deck.pop() for _ in range(C.MARKET_SIZE)]
        s.deck = deck
        s.noble_deck = nobles
        s.deck_known = 0
        s.bottom_seen = ([], [])
        s.revealed = [[], []]
        s.shown = [[], []]
        s.towers = []
        s.front = [[], []]
        s.removed = []
        s.nobles_used = [0, 0]
        s.token = None
        s.turn = 0  # seat 1 deals; the dealer's opponent starts
        s.passes = 0
        s.end_phase = False
        s.declared_by = None
        s.frames = []
        s.next_tower_id = 0
        s.over = False
        s.emit("setup", None, market=list(s.market), nobles=options["nobles"])
        return s

    def parse_action(self, text: str) -> Action:
        return actions.parse(text)

    def all_actions(self) -> Sequence[Action]:
        return actions.action_space()

    def observation_layout(self, players: int) -> Layout:
        """The observation tensor's blocks (see :mod:`palio.games.san_gimignano.encode`)."""
        return encode.LAYOUT

    def encode_observation(self, view: dict[str, Any], layout: Layout) -> Encoded:
        return encode.encode(view)

    def turn_key(self, state: State) -> int:
        """The turn player: two players alternate, so it changes with every turn."""
        assert isinstance(state, SanGimignanoState)
        return state.turn

    def worths(self, state: State) -> list[float]:
        """Per seat, its score now plus a little for cards in hand or about to be drawn (future
        towers).

        Counting the draws still owed makes a purchase worth more than a pass at the moment
        it is chosen, before its cards arrive one decision at a time.
        """
        assert isinstance(state, SanGimignanoState)
        scores = state.scores()
        cards = [len(hand) for hand in state.hands]
        for frame in state.frames:
            if frame[0] == "draw":
                cards[frame[1]] += frame[2]
        return [scores[p] + 0.5 * cards[p] for p in range(2)]


GAME = SanGimignanoGame()
SanGimignanoState.game = GAME

__all__ = [
    "GAME",
    "SanGimignanoGame",
    "SanGimignanoState",
    "Tower",
    "components",
    "match_scores",
    "score_breakdown",
]
