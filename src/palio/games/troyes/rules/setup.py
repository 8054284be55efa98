"""Set-up and the initial placement (snake draft) for 2-4 players.

Rulebook: ■セッティング and the initial placement (和訳ルールP2, [RB] "Setup", "Initial
Placement"): 5 deniers, influence 4, 4/5/6 citizens, one secret character (two with 2 players),
one face-down activity card per colour and round, the red event deck of 6/5/4 cards, and the
citizens placed one at a time, clockwise then back, on empty spaces; then gray citizens fill
the empty spaces (with 2 players they take their printed spaces before the draft).

Readings: seat 0 holds the start player card.
"""

from __future__ import annotations

from itertools import compress
from typing import Any

from palio.core.game import Action
from palio.core.rng import derive
from palio.games.troyes.rules.round import start_round
from palio.games.troyes.state import DRAFT, F_DRAFT, NEUTRAL, TroyesState

_EMPTY = -1  # an empty space


def setup_state(cls: type[TroyesState], players: int, seed: int, options: dict[str, Any]) -> TroyesState:
    s = cls.__new__(cls)
    s._init_base(players, seed, options)
    s.comp, s.tables = cls.comp, cls.tables
    c = s.comp
    bonus = bool(options.get("bonus_cards"))
    rng = derive(seed, "setup")
    n = players
    s.bonus = bonus
    s.money = [c.start_money] * n
    s.influence = [c.start_influence] * n
    s.vp = [0] * n
    s.purse = [0] * n
    s.passed = [0] * n
    start = c.start_citizens[n]
    s.supply = [start] * n
    s.reserve = [c.citizens_per_player - start] * n
    s.won = [()] * n
    s.spaces = [-1] * c.n_spaces
    s.lying = [0, 0, 0]
    s.neutral_reserve = c.neutral_citizens
    # characters: dealt face down
    chars = list(range(len(c.characters)))
    rng.shuffle(chars)
    k = c.characters_each[n]
    s.chars = [tuple(sorted(chars[p * k:(p + 1) * k])) for p in range(n)]
    s.chars_pool = sorted(chars[n * k:])
    # activity cards: one of each colour and round number, face down
    s.slot_card = [rng.choice(c.card_pool(colour, rnd, bonus)) for colour in range(3) for rnd in (1, 2, 3)]
    s.revealed = 0
    s.trade = [-1] * (9 * c.max_trade_spaces)
    s.extra = [0] * 9
    s.cubes = [0] * 36
    s.cathedral = [-1] * (c.levels * c.columns)
    # events: Marauding on the board; a red deck of 6/5/4 cards, white and yellow decks
    s.queue = [c.marauding]
    s.ev_cubes = [()]
    reds = c.event_pool("red", bonus)
    rng.shuffle(reds)
    s.red_deck = reds[:c.red_events[n]]
    s.red_box = sorted(reds[c.red_events[n]:])
    s.rounds = len(s.red_deck)
    s.white_deck = c.event_pool("white", bonus)
    s.yellow_deck = c.event_pool("yellow", bonus)
    rng.shuffle(s.white_deck)
    rng.shuffle(s.yellow_deck)
    s.dice = bytearray(90)
    s.black = []
    s.round, s.phase, s.start, s.turn, s.fighter, s.rolls, s.turns = 1, DRAFT, 0, 0, 0, 0, 0
    s.hiring = -1
    s.is_over = False
    s.emit("setup", None, players=n, rounds=s.rounds, bonus=bonus)
    for p in range(n):
        s.emit("deal", p, secret={"characters": list(s.chars[p])}, audience={p})
    if n == 2:
        for i in c.two_player_neutral:
            s.spaces[i] = NEUTRAL
            s.neutral_reserve -= 1
    # the snake draft, start player first: stack frames so the first drafter is on top
    order: list[int] = []
    forward = list(range(n))
    for rnd in range(start):
        order.extend(forward if rnd % 2 == 0 else forward[::-1])
    s.stack = [(F_DRAFT, p) for p in reversed(order)]
    return s


def draft_legal(s: TroyesState, top: tuple) -> list[Action]:
    return list(compress(s.tables.draft, map(_EMPTY.__eq__, s.spaces)))  # the empty spaces


def apply_draft(s: TroyesState, space: int) -> None:
    p = s.stack.pop()[1]
    s.spaces[space] = p
    s.supply[p] -= 1
    s.emit("draft", p, space=space)


def finish_draft(s: TroyesState) -> None:
    """Gray citizens take the spaces left empty, then the first round begins."""
    for i, owner in enumerate(s.spaces):
        if owner == -1 and s.neutral_reserve > 0:
            s.spaces[i] = NEUTRAL
            s.neutral_reserve -= 1
    s.emit("draft_done", None)
    start_round(s)
