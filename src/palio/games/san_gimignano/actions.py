"""San Gimignano actions: one class per kind, canonical notation both ways, the action space.

Notation (towers are numbered per seat from 1 in the order they were built):

==================  ===========================================================
``buy``             start buying (then one ``draw``/``take``/``noble`` per card)
``exchange``        start exchanging (then ``put X`` twice or more, ``done``, draws)
``put 9``           put a hand card into the market while exchanging
``draw``            draw the top card of the tower deck
``noble``           draw the top card of the noble deck (noble-card variant)
``take 9``          take a card from the market (``take L`` for a noble there)
``build 9,9,L9``    build a tower: cards from top to bottom; ``L9`` is a luxury stone as 9
``extend 2 9``      put a 9 on your tower 2 (``extend 2 L`` for a luxury stone)
``complete 2``      complete your tower 2 (more ``complete`` or ``done`` follow)
``declare``         declare the end of construction
``pass``            do nothing
``done``            finish a step that may stop early (puts, extensions, completions)
``give 9``          give a card back after a 9 (trade)
``use``             use the donation of the same-number tower just built (8, 9, 10)
``decline``         let that donation go unused
``cancel``          play a 5 against a 9 or 10 aimed at you; ``allow`` lets it happen
``cancel L``        play a luxury stone as that 5 (noble-card variant)
``pick noble``      after a 9, take a card with a noble back from the opponent's hand
                    (``pick tower``: a tower-card back); the card itself stays unseen
``collapse opp 2``  choose the tower a 10 collapses among equally tall ones (``own``/``opp``)
``play W``          play a noble card as your turn (P, W, F, O)
``joust``           cancel the noble card just played against you
``return 9``        put a hand card on the bottom of its deck (height ordinance)
``salvage``         build with the remaining cards after a jousted luxury stone
``takeback``        take those cards back instead
==================  ===========================================================
"""

from __future__ import annotations

import itertools
from dataclasses import dataclass
from functools import cache

from palio.core.errors import NotationError
from palio.core.game import Action
from palio.games.san_gimignano.components import (
    CODE_TO_CARD,
    JOUSTING,
    LUXURY,
    MAX_TOWERS_PER_SEAT,
    MIN_TOWER,
    MULTI_HIGH,
    MULTI_LOW,
    NOBLE_COUNTS,
    NOBLES,
    TOWER_COUNTS,
    TOWER_VALUES,
    card_code,
)

ALL_CARDS = TOWER_VALUES + NOBLES


@dataclass(frozen=True, slots=True)
class Simple(Action):
    """An action named by one word: buy, exchange, draw, noble, declare, pass, done, ..."""

    word: str

    def __str__(self) -> str:
        return self.word


@dataclass(frozen=True, slots=True)
class Put(Action):
    card: int

    def __str__(self) -> str:
        return f"put {card_code(self.card)}"


@dataclass(frozen=True, slots=True)
class Take(Action):
    card: int

    def __str__(self) -> str:
        return f"take {card_code(self.card)}"


@dataclass(frozen=True, slots=True)
class Give(Action):
    card: int

    def __str__(self) -> str:
        return f"give {card_code(self.card)}"


@dataclass(frozen=True, slots=True)
class Return(Action):
    card: int

    def __str__(self) -> str:
        return f"return {card_code(self.card)}"


@dataclass(frozen=True, slots=True)
class Play(Action):
    card: int

    def __str__(self) -> str:
        return f"play {card_code(self.card)}"


@dataclass(frozen=True, slots=True)
class Build(Action):
    """Cards from top to bottom; a luxury stone standing for number v is written -v."""

    cards: tuple[int, ...]

    def __str__(self) -> str:
        return "build " + ",".join(f"L{-c}" if c < 0 else str(c) for c in self.cards)

    @property
    def values(self) -> tuple[int, ...]:
        return tuple(abs(c) for c in self.cards)

    @property
    def luxury(self) -> int:
        return sum(1 for c in self.cards if c < 0)

    @property
    def same(self) -> bool:
        return len(set(self.values)) == 1


@dataclass(frozen=True, slots=True)
class Extend(Action):
    tower: int  # 0-based index among the mover's towers; shown 1-based
    card: int  # a tower number, or LUXURY

    def __str__(self) -> str:
        return f"extend {self.tower + 1} {card_code(self.card)}"


@dataclass(frozen=True, slots=True)
class Complete(Action):
    tower: int

    def __str__(self) -> str:
        return f"complete {self.tower + 1}"


@dataclass(frozen=True, slots=True)
class StoneCancel(Action):
    """Cancel a 9 or 10 aimed at you with a luxury stone standing for a 5."""

    def __str__(self) -> str:
        return "cancel L"


@dataclass(frozen=True, slots=True)
class Pick(Action):
    """After a 9: take one card, unseen, with a noble back (or a tower-card back)."""

    noble: bool

    def __str__(self) -> str:
        return f"pick {'noble' if self.noble else 'tower'}"


@dataclass(frozen=True, slots=True)
class Collapse(Action):
    own: bool  # the mover's own tower, or the opponent's
    tower: int

    def __str__(self) -> str:
        return f"collapse {'own' if self.own else 'opp'} {self.tower + 1}"


BUY = Simple("buy")
EXCHANGE = Simple("exchange")
DRAW = Simple("draw")
DRAW_NOBLE = Simple("noble")
DECLARE = Simple("declare")
PASS = Simple("pass")
DONE = Simple("done")
ALLOW = Simple("allow")
CANCEL = Simple("cancel")
JOUST = Simple("joust")
SALVAGE = Simple("salvage")
TAKEBACK = Simple("takeback")
USE = Simple("use")
DECLINE = Simple("decline")
CANCEL_STONE = StoneCancel()
# the first twelve keep their place in the action space; later words are appended there
FIRST_SIMPLE = (BUY, EXCHANGE, DRAW, DRAW_NOBLE, DECLARE, PASS, DONE, ALLOW, CANCEL, JOUST,
                SALVAGE, TAKEBACK)
SIMPLE = {a.word: a for a in (*FIRST_SIMPLE, USE, DECLINE)}
# nobles played as a turn; luxury stones go into towers and jousting answers via JOUST
PLAYABLE_NOBLES = tuple(n for n in NOBLES if n not in (LUXURY, JOUSTING))


def is_valid_build(cards: tuple[int, ...]) -> bool:
    """Shape check only: a same-number tower, or a run downward by one, of 3+ cards."""
    if len(cards) < MIN_TOWER:
        return False
    values = [abs(c) for c in cards]
    if len(set(values)) == 1:
        return values[0] in TOWER_VALUES
    if any(b != a + 1 for a, b in zip(values, values[1:], strict=False)):
        return False
    # positions 4 and 11 exist only for luxury stones
    return all(
        MULTI_LOW <= abs(c) <= MULTI_HIGH and (c < 0 or c in TOWER_VALUES) for c in cards
    )


@cache
def all_builds() -> tuple[Build, ...]:
    builds = []
    max_lux = NOBLE_COUNTS[LUXURY]
    for value in TOWER_VALUES:
        for naturals in range(TOWER_COUNTS[value] + 1):
            for lux in range(max_lux + 1):
                if naturals + lux >= MIN_TOWER:
                    builds.append(Build((value,) * naturals + (-value,) * lux))
    for top in range(MULTI_LOW, MULTI_HIGH + 1):
        for bottom in range(top + MIN_TOWER - 1, MULTI_HIGH + 1):
            positions = list(range(top, bottom + 1))
            for lux in range(max_lux + 1):
                for chosen in itertools.combinations(positions, lux):
                    cards = tuple(-v if v in chosen else v for v in positions)
                    if is_valid_build(cards):
                        builds.append(Build(cards))
    return tuple(dict.fromkeys(builds))


@cache
def action_space() -> tuple[Action, ...]:
    space: list[Action] = list(FIRST_SIMPLE)
    for cls in (Put, Take, Give, Return):
        space += [cls(card) for card in ALL_CARDS]
    space += [Play(card) for card in PLAYABLE_NOBLES]
    space += [Extend(t, card) for t in range(MAX_TOWERS_PER_SEAT) for card in (*TOWER_VALUES, LUXURY)]
    space += [Complete(t) for t in range(MAX_TOWERS_PER_SEAT)]
    space += [Collapse(own, t) for own in (True, False) for t in range(MAX_TOWERS_PER_SEAT)]
    space += list(all_builds())
    # added with the readings of issue 16: appended, so every earlier index is unchanged
    space += [USE, DECLINE, CANCEL_STONE, Pick(False), Pick(True)]
    return tuple(space)


def _card(text: str, what: str) -> int:
    card = CODE_TO_CARD.get(text.upper())
    if card is None:
        raise NotationError(f"{what}: {text!r} is not a card (5-10 or a noble letter L P J O F W)")
    return card


def _tower(text: str) -> int:
    if not text.isdigit() or not 1 <= int(text) <= MAX_TOWERS_PER_SEAT:
        raise NotationError(f"tower number must be 1-{MAX_TOWERS_PER_SEAT}, got {text!r}")
    return int(text) - 1


def _build_card(text: str) -> int:
    text = text.strip().upper()
    if text.startswith("L") and text[1:].isdigit():
        value = int(text[1:])
        if MULTI_LOW <= value <= MULTI_HIGH:
            return -value
    elif text.isdigit() and int(text) in TOWER_VALUES:
        return int(text)
    raise NotationError(f"build: {text!r} is not a tower card (5-10, or L4-L11 for a luxury stone)")


def parse(text: str) -> Action:
    words = text.strip().lower().split()
    if not words:
        raise NotationError("empty action")
    head, args = words[0], words[1:]
    if head in SIMPLE and not args:
        return SIMPLE[head]
    card_kinds = {"put": Put, "take": Take, "give": Give, "return": Return, "play": Play}
    if head in card_kinds and len(args) == 1:
        action = card_kinds[head](_card(args[0], head))
        if head == "play" and action.card not in PLAYABLE_NOBLES:
            raise NotationError("play takes a noble played as a turn: P, W, F or O")
        return action
    if head == "build" and args:
        cards = tuple(_build_card(c) for c in " ".join(args).replace(" ", ",").split(",") if c)
        if not is_valid_build(cards):
            raise NotationError(
                f"{text!r} is not a tower: 3+ cards, all one number or a run from top to bottom"
            )
        return canonical_build(cards)
    if head == "extend" and len(args) == 2:
        card = _card(args[1], "extend")
        if card not in TOWER_VALUES and card != LUXURY:
            raise NotationError("extend takes a tower card 5-10 or L")
        return Extend(_tower(args[0]), card)
    if head == "complete" and len(args) == 1:
        return Complete(_tower(args[0]))
    if head == "cancel" and args == ["l"]:
        return CANCEL_STONE
    if head == "pick" and len(args) == 1 and args[0] in ("tower", "noble"):
        return Pick(args[0] == "noble")
    if head == "collapse" and len(args) == 2 and args[0] in ("own", "opp"):
        return Collapse(args[0] == "own", _tower(args[1]))
    raise NotationError(f"cannot read {text!r}; try e.g. buy, take 9, build 9,9,9, extend 1 8, pass")


def canonical_build(cards: tuple[int, ...]) -> Build:
    """Same-number towers list natural cards before luxury stones; runs keep their order."""
    values = {abs(c) for c in cards}
    if len(values) == 1:
        cards = tuple(sorted(cards, reverse=True))
    return Build(cards)
