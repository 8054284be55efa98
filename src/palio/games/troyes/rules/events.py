"""Events: revealing them, their effects each round, cubes on their banners and the majority
scoring when one is countered.

Rulebook: フェイズ3「イベント」, アクション「イベントの対処」, 注意事項「イベントへの対処」 and [RB]
"Phase 3: Events", "Combat the Events", the Event cards of the appendix.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING

from palio.games.troyes.components import BISHOPRIC, CITY_HALL, PALACE
from palio.games.troyes.rules.board import (
    citizens_in,
    gain_influence,
    penalty,
    place_neutral,
    roll,
)
from palio.games.troyes.state import NEUTRAL

if TYPE_CHECKING:
    from palio.games.troyes.state import TroyesState


def event_key(s: TroyesState, card: int) -> str:
    return s.comp.events[card][0]


def free_banners(s: TroyesState, pos: int) -> int:
    return s.comp.events[s.queue[pos]][6] - len(s.ev_cubes[pos])


def reveal_events(s: TroyesState) -> None:
    """Phase 3, first step: the top red card, then the card of the colour it calls, join the
    right end of the queue. Resistance calls a second red card from the box instead."""
    if not s.red_deck:
        return
    red = s.red_deck.pop()
    _enter(s, red)
    if event_key(s, red) == "resistance":
        if not s.red_box:
            return
        red = s.red_box.pop()
        _enter(s, red, from_box=True)
    _call(s, red)


def _enter(s: TroyesState, card: int, from_box: bool = False) -> None:
    s.queue.append(card)
    s.ev_cubes.append(())
    s.emit("event_enters", None, card=card, from_box=from_box)


def _call(s: TroyesState, red: int) -> None:
    called = s.comp.events[red][3]
    decks = [s.white_deck, s.yellow_deck]
    first = decks[0] if called == 1 else decks[1]
    other = decks[1] if called == 1 else decks[0]
    deck = first or other  # reading: an empty called deck gives way to the other one
    if deck:
        _enter(s, deck.pop())


def resolve_events(s: TroyesState) -> int:
    """Phase 3, second step: every event of the queue takes effect, left to right from
    Marauding; the number of black dice they bring."""
    black = 0
    for card in list(s.queue):
        if card not in s.queue:
            continue  # countered earlier in this step (Support's gray cubes)
        black += s.comp.events[card][2]
        effect = EFFECTS.get(s.comp.events[card][0])  # event_key, inline
        if effect is not None:
            effect(s, card)
    return black


# -- cubes on events -----------------------------------------------------------------------
def add_cube(s: TroyesState, pos: int, owner: int) -> bool:
    """One cube on the next banner of the event at ``pos`` (+1 influence for a player); the
    event is scored and taken when its banners are full. True if the event was countered."""
    s.ev_cubes[pos] = (*s.ev_cubes[pos], owner)
    if owner != NEUTRAL:
        gain_influence(s, owner, s.comp.per_event_cube)
    if free_banners(s, pos) == 0:
        score_event(s, pos)
        return True
    return False


def majority_vp(cubes: tuple[int, ...], vp: tuple[int, int]) -> tuple[dict[int, int], int]:
    """The VP each owner with cubes gets, and who takes the card (the first to place among
    the tied leaders). Rules: the sole owner gets both values; leaders tied for first share
    first + second (rounded down) and nobody else scores; otherwise the leader gets the first
    value and the owners tied for second share the second value."""
    counts: dict[int, int] = {}
    for owner in cubes:
        counts[owner] = counts.get(owner, 0) + 1
    first_cube = {o: cubes.index(o) for o in counts}
    top = max(counts.values())
    leaders = [o for o in counts if counts[o] == top]
    winner = min(leaders, key=first_cube.__getitem__)
    got: dict[int, int] = {}
    if len(counts) == 1:
        got[winner] = vp[0] + vp[1]
    elif len(leaders) > 1:
        share = (vp[0] + vp[1]) // len(leaders)
        for o in leaders:
            got[o] = share
    else:
        got[winner] = vp[0]
        second = max(n for o, n in counts.items() if o != winner)
        seconds = [o for o in counts if counts[o] == second]
        for o in seconds:
            got[o] = vp[1] // len(seconds)
    return got, winner


def score_event(s: TroyesState, pos: int) -> None:
    """An event's banners are full: VP by majority, the cubes go back, and the first player
    takes the card (Marauding stays; a card the neutral player wins is discarded)."""
    card = s.queue[pos]
    got, winner = majority_vp(s.ev_cubes[pos], s.comp.events[card][7])
    for owner, vp in got.items():
        if owner != NEUTRAL:
            s.vp[owner] += vp
    marauding = pos == 0
    s.emit("event_countered", None, card=card,
           vp=[[o, v] for o, v in sorted(got.items())], winner=winner, stays=marauding)
    if marauding:
        s.ev_cubes[0] = ()
        return
    del s.queue[pos]
    del s.ev_cubes[pos]
    if winner != NEUTRAL:
        s.won[winner] = (*s.won[winner], card)


# -- effects -------------------------------------------------------------------------------
def _neutral_citizen(building: int) -> Callable[[TroyesState, int], None]:
    def effect(s: TroyesState, card: int) -> None:
        value = roll(s)
        result = place_neutral(s, building, value)
        s.emit("neutral_citizen", None, card=card, building=building, value=value, result=result)
    return effect


def _heresy(s: TroyesState, card: int) -> None:
    lose = s.comp.fx["heresy"]["influence"]
    for p in range(s.players):
        had = s.influence[p]
        s.influence[p] = max(0, had - lose)
        s.emit("heresy", p, card=card, lost=had - s.influence[p])
        if had < lose:
            penalty(s, p, "event", card=card)


def _builders(s: TroyesState, card: int) -> None:
    c = s.comp
    for i in range(c.levels * c.columns):  # lowest level first, lowest value within it
        if s.cathedral[i] == -1:
            s.cathedral[i] = NEUTRAL
            s.emit("builders", None, card=card, level=i // c.columns, column=i % c.columns)
            return
    s.emit("builders", None, card=card, level=-1, column=-1)


def _interrupted(s: TroyesState, card: int) -> None:
    c = s.comp
    for i in range(c.levels * c.columns - 1, -1, -1):  # highest level, highest value within it
        owner = s.cathedral[i]
        if owner != -1:
            s.cathedral[i] = -1
            s.emit("interrupted", None, card=card, level=i // c.columns, column=i % c.columns,
                   owner=owner)
            return
    s.emit("interrupted", None, card=card, level=-1, column=-1, owner=-1)


def _drought(s: TroyesState, card: int) -> None:
    each = s.comp.fx["drought"]["deniers"]
    for p in range(s.players):
        owed = each * citizens_in(s, p, CITY_HALL)
        if owed == 0:
            continue
        paid = min(owed, s.money[p])
        s.money[p] -= paid
        s.emit("pays_event", p, card=card, paid=paid, owed=owed)
        if paid < owed:
            penalty(s, p, "event", card=card)


def _civil_war(s: TroyesState, card: int) -> None:
    owed = s.comp.fx["civil_war"]["deniers"]
    for p in range(s.players):
        paid = min(owed, s.money[p])
        s.money[p] -= paid
        s.emit("pays_event", p, card=card, paid=paid, owed=owed)
        if paid < owed:
            penalty(s, p, "event", card=card)


def _support(s: TroyesState, card: int) -> None:
    """A gray cube on each of the (up to) two events just left of Support."""
    pos = s.queue.index(card)
    targets = [s.queue[i] for i in range(max(0, pos - s.comp.fx["support"]["cubes"]), pos)]
    for target in reversed(targets):  # nearest first
        if target in s.queue:
            at = s.queue.index(target)
            s.emit("support", None, card=card, target=target)
            add_cube(s, at, NEUTRAL)


def _resistance(s: TroyesState, card: int) -> None:
    """Remove the most recently placed cube from every event card."""
    for pos in range(len(s.queue)):
        if s.ev_cubes[pos]:
            owner = s.ev_cubes[pos][-1]
            s.ev_cubes[pos] = s.ev_cubes[pos][:-1]
            s.emit("resistance", None, card=card, target=s.queue[pos], owner=owner)


EFFECTS: dict[str, Callable[[TroyesState, int], None]] = {
    "succession": _neutral_citizen(PALACE),
    "theology": _neutral_citizen(BISHOPRIC),
    "wayfarers": _neutral_citizen(CITY_HALL),
    "heresy": _heresy,
    "builders": _builders,
    "interrupted": _interrupted,
    "drought": _drought,
    "civil_war": _civil_war,
    "support": _support,
    "resistance": _resistance,
}
