"""Aquileia actions: one frozen dataclass per kind, their notation, and the fixed action space.

Every decision is atomic: one henchman, one card, one blue die, one bid, one building. Fields
hold plain names and small numbers, so the notation stays readable; plots are numbered from 1
in the board's order (``components.PLOTS``), exchanges from 1 in the printed order.

>>> str(Place("arena3")), str(Build(14, 2)), str(Bid("s"))
('place arena3', 'build 14 2', 'bid s')
>>> parse_action("play weapon_2")
Play(card='weapon_2')
>>> parse_action("build 3")
Build(plot=3, twos=0)
"""

from __future__ import annotations

from dataclasses import dataclass

from palio.core.errors import NotationError
from palio.core.game import Action, parse_int
from palio.games.aquileia.components import METAL_LETTERS, Components

PRIZES = ("vp", "slave")  # the arena winner's choice: 2 VP per strength, or a slave card
LAURELS = ("open", "hidden")  # the race winner's choice: the face-up card or the deck's top


@dataclass(frozen=True, slots=True)
class Place(Action):
    """Placement: a henchman on a free action field."""

    field: str

    def __str__(self) -> str:
        return f"place {self.field}"


@dataclass(frozen=True, slots=True)
class Tiebreaker(Action):
    """Placement: the tiebreaker on the leftmost free space of its track."""

    def __str__(self) -> str:
        return "tiebreaker"


@dataclass(frozen=True, slots=True)
class Pass(Action):
    """Placement: place no more henchmen this round. Theatre: leave the auction."""

    def __str__(self) -> str:
        return "pass"


@dataclass(frozen=True, slots=True)
class Skip(Action):
    """Leave the action of your field unused (exchange, purchase, building)."""

    def __str__(self) -> str:
        return "skip"


@dataclass(frozen=True, slots=True)
class Done(Action):
    """Stop adding strength: no more cards, or no more blue dice."""

    def __str__(self) -> str:
        return "done"


@dataclass(frozen=True, slots=True)
class Exchange(Action):
    """Pecunia: one of the printed exchanges (1-based)."""

    option: int

    def __str__(self) -> str:
        return f"exchange {self.option}"


@dataclass(frozen=True, slots=True)
class Buy(Action):
    """Equi et arma: buy the card of your field for its price."""

    def __str__(self) -> str:
        return "buy"


@dataclass(frozen=True, slots=True)
class Slaves(Action):
    """Servi: buy this many slave cards at your field's price."""

    count: int

    def __str__(self) -> str:
        return f"slaves {self.count}"


@dataclass(frozen=True, slots=True)
class Play(Action):
    """Arena or stadium: play one card of this type from your hand (by its type key)."""

    card: str

    def __str__(self) -> str:
        return f"play {self.card}"


@dataclass(frozen=True, slots=True)
class Roll(Action):
    """Arena: roll this many of the blue dice, together (the rest are kept for the race)."""

    count: int

    def __str__(self) -> str:
        return f"roll {self.count}"


@dataclass(frozen=True, slots=True)
class Prize(Action):
    """Arena winner: ``vp`` (twice the strength) or ``slave`` (a slave card)."""

    choice: str

    def __str__(self) -> str:
        return f"prize {self.choice}"


@dataclass(frozen=True, slots=True)
class Laurel(Action):
    """Race winner: keep the ``open`` (face-up) stadium card or the ``hidden`` top card."""

    choice: str

    def __str__(self) -> str:
        return f"laurel {self.choice}"


@dataclass(frozen=True, slots=True)
class Bid(Action):
    """Theatre auction: open with one coin, or match the bid and add one coin of this metal."""

    metal: str  # g s b

    def __str__(self) -> str:
        return f"bid {self.metal}"


@dataclass(frozen=True, slots=True)
class Build(Action):
    """Forum: build on a plot (1-based), paying its coins exactly and its slaves with
    ``twos`` two-slave cards and as many one-slave cards as the rest needs."""

    plot: int
    twos: int = 0

    def __str__(self) -> str:
        return f"build {self.plot}" + (f" {self.twos}" if self.twos else "")


def _none(cls: type[Action]):
    def build(args: list[str]) -> Action:
        if args:
            raise NotationError(f"{cls()} takes no arguments")
        return cls()
    return build


def _one(args: list[str], what: str) -> str:
    if len(args) != 1:
        raise NotationError(f"expected exactly one {what}")
    return args[0]


def _word(text: str, choices: tuple[str, ...], what: str) -> str:
    if text not in choices:
        raise NotationError(f"expected {what} ({' | '.join(choices)}), got {text!r}")
    return text


def _build(args: list[str]) -> Build:
    if len(args) not in (1, 2):
        raise NotationError("expected 'build PLOT' or 'build PLOT TWOS'")
    plot = parse_int(args[0], "plot", 1, 99)
    return Build(plot, parse_int(args[1], "two-slave cards", 0, 20) if len(args) == 2 else 0)


PARSERS = {
    "place": lambda a: Place(_one(a, "field name")),
    "tiebreaker": _none(Tiebreaker),
    "pass": _none(Pass),
    "skip": _none(Skip),
    "done": _none(Done),
    "exchange": lambda a: Exchange(parse_int(_one(a, "exchange number"), "exchange", 1, 99)),
    "buy": _none(Buy),
    "slaves": lambda a: Slaves(parse_int(_one(a, "count"), "slave cards", 1, 9)),
    "play": lambda a: Play(_one(a, "card type")),
    "roll": lambda a: Roll(parse_int(_one(a, "count of blue dice"), "blue dice", 1, 9)),
    "prize": lambda a: Prize(_word(_one(a, "prize"), PRIZES, "a prize")),
    "laurel": lambda a: Laurel(_word(_one(a, "card"), LAURELS, "a laurel card")),
    "bid": lambda a: Bid(_word(_one(a, "metal"), tuple(METAL_LETTERS), "a metal")),
    "build": _build,
}


def parse_action(text: str) -> Action:
    """The action written as ``text`` (field names, plots and card types are checked by the game)."""
    if not isinstance(text, str) or not text.strip():
        raise NotationError("empty action text")
    word, *args = text.split()
    parser = PARSERS.get(word)
    if parser is None:
        raise NotationError(f"unknown action {word!r}; known: {', '.join(PARSERS)}")
    return parser(args)


class ActionTables:
    """The fixed action space of one components set, as ready-made values the rules hand out."""

    def __init__(self, c: Components) -> None:
        self.place = tuple(Place(name) for name in c.field_name)
        self.tiebreaker, self.pass_, self.skip, self.done = Tiebreaker(), Pass(), Skip(), Done()
        self.exchange = tuple(Exchange(i + 1) for i in range(len(c.exchanges)))
        self.buy = Buy()
        max_slaves = max(n for _metal, n in c.servi)
        self.slaves = tuple(Slaves(n) for n in range(1, max_slaves + 1))  # slaves[n - 1]
        self.play = tuple(Play(key) for key in c.type_key)  # by card type; only strength cards used
        self.roll = tuple(Roll(n) for n in range(1, c.blue_dice + 1))  # roll[n - 1]
        self.prize = tuple(Prize(x) for x in PRIZES)
        self.laurel = tuple(Laurel(x) for x in LAURELS)
        self.bid = tuple(Bid(x) for x in METAL_LETTERS)  # by metal index
        max_twos = (c.max_plot_slaves + 1) // 2
        self.build = tuple(tuple(Build(p + 1, t) for t in range(max_twos + 1))
                           for p in range(len(c.plots)))
        strength_types = set(c.arena_types) | set(c.horse_types[0]) | set(c.horse_types[1])
        self.all: tuple[Action, ...] = (
            *self.place, self.tiebreaker, self.pass_, self.skip, self.done, *self.exchange,
            self.buy, *self.slaves, *(self.play[t] for t in sorted(strength_types)), *self.roll,
            *self.prize, *self.laurel, *self.bid, *(b for row in self.build for b in row))
