"""The round: the automatic phases 0-3 (reveal activity cards, income and salaries, the
workforce dice, events), then combat and the action turns in order, and the round's end.

Rulebook: ■フェイズ処理 (フェイズ0-3), ■フェイズ4・5, [RB] "Gameplay" and "End of the Game".
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from palio.core.rng import derive_bits
from palio.games.troyes.rules.board import citizens_in, d6s, penalty
from palio.games.troyes.rules.events import resolve_events, reveal_events
from palio.games.troyes.state import ACTIONS, COMBAT, F_TURN, NEUTRAL, OVER

if TYPE_CHECKING:
    from palio.games.troyes.state import TroyesState


def start_round(s: TroyesState) -> None:
    """Phases 0-3, then combat (if black dice came) or the first action turn."""
    c = s.comp
    s.emit("round", None, round=s.round, start=s.start)
    if s.round <= 3:  # phase 0: the card of this round's number in each colour turns up
        s.revealed = s.round
        # slot colour*3 + round-1 for each colour (a slice, not a comprehension: no cells)
        s.emit("cards_revealed", None, cards=s.slot_card[s.round - 1::3])
    for p in range(s.players):  # phase 1: income, then salaries
        s.money[p] += c.income
        owed = 0
        for b in range(3):  # a loop, not a generator: a call less per building
            owed += c.salary[b] * citizens_in(s, p, b)
        paid = min(owed, s.money[p])
        s.money[p] -= paid
        s.emit("income", p, income=c.income, salary=owed, paid=paid)
        if paid < owed:
            penalty(s, p, "salary")
    roll_workforce(s)
    reveal_events(s)  # phase 3
    black = min(resolve_events(s), c.black_dice)  # the box holds six black dice
    if black:
        rng = derive_bits(s.seed, "black", s.round)
        s.black = sorted(d6s(rng, black), reverse=True)
        s.emit("black_dice", None, dice=s.black[:])
        s.phase = COMBAT
        s.fighter = s.start
        from palio.games.troyes.rules.combat import next_black

        next_black(s)
    else:
        start_actions(s)


def roll_workforce(s: TroyesState) -> None:
    """Phase 2: one die per citizen standing in a building, in the building's colour, rolled
    into its owner's district (the gray citizens' into the neutral district)."""
    c = s.comp
    rng = derive_bits(s.seed, "workforce", s.round)
    dice = s.dice
    spaces = s.spaces
    values = iter(d6s(rng, len(spaces) - spaces.count(-1)))  # the draws of randint(1, 6)
    rolled: list[list[int]] = [[] for _ in range(5)]
    colours = c.spaces
    for i, owner in enumerate(spaces):
        if owner == -1:
            continue
        # building b takes dice of colour b (red, white, yellow); the spaces in order
        face = colours[i][0] * 6 + next(values) - 1
        dice[owner * 18 + face] += 1
        rolled[owner].append(face)
    for owner in [*range(s.players), NEUTRAL]:
        s.emit("workforce", None if owner == NEUTRAL else owner, faces=sorted(rolled[owner]),
               neutral=owner == NEUTRAL)


def start_actions(s: TroyesState) -> None:
    """Phase 4 begins with the start player (the round ends at once if no die is left)."""
    s.phase = ACTIONS
    s.black = []
    s.stack = []
    if not any(s.dice):  # no die left
        end_round(s)
        return
    s.turn = s.start
    s.turns += 1
    s.stack.append((F_TURN, s.turn))


def next_turn(s: TroyesState) -> None:
    """After an action or a pass: the round ends when every player has passed or no die is
    left; otherwise the next player clockwise who has not passed acts, and each passed player
    the turn goes by takes another denier into their district."""
    if all(s.passed) or not any(s.dice):  # or no die left
        end_round(s)
        return
    seat = s.next_seat(s.turn)
    while s.passed[seat]:
        s.purse[seat] += s.comp.pass_again
        s.emit("pass_income", seat, deniers=s.comp.pass_again)
        seat = s.next_seat(seat)
    s.turn = seat
    s.turns += 1
    s.stack.append((F_TURN, seat))


def end_round(s: TroyesState) -> None:
    """Phase 5: deniers from the districts, expelled citizens home, dice back to the supply,
    the start player card to the left; then the next round or the end of the game."""
    for p in range(s.players):
        s.money[p] += s.purse[p]
        s.purse[p] = 0
        s.passed[p] = 0
    for b in range(3):
        mask = s.lying[b]
        for owner in range(5):
            if (mask >> owner) & 1:
                if owner == NEUTRAL:
                    s.neutral_reserve += 1
                else:
                    s.supply[owner] += 1
        s.lying[b] = 0
    s.dice = bytearray(90)
    s.black = []
    s.stack = []
    s.emit("round_end", None, round=s.round)
    if s.round >= s.rounds:
        s.phase = OVER
        s.is_over = True
        from palio.games.troyes.scoring import final_scores

        s.emit("game_over", None, scores=final_scores(s),
               characters=list(map(list, s.chars)))  # per seat
        return
    s.round += 1
    s.start = s.next_seat(s.start)
    start_round(s)
