"""Troyes actions: one frozen dataclass per kind, their notation, and the fixed action space.

Every decision is atomic: one die, one source of a citizen, one cube, one event. A main action
is a short sequence: its kind (``card Y1``, ``cathedral``, ``event 2``, ``place P``, ``farm``),
then a delayed card's cube to modify it or none (``cube W2`` / ``nocube``, asked only when a
cube could apply), then its dice one at a time (``die 2y5`` takes the yellow 5 of seat 2's
district, ``die ny5`` the neutral district's), then ``go`` (a group of three, or of the one die
a placement uses, goes by itself). Names people never see but that stay readable:

* dice colours ``r w y``; districts ``1``-``4`` (seats, counted from 1) and ``n`` (neutral);
* activity card slots ``R1``..``Y3`` (colour of the column, round it enters);
* building spaces ``P4`` (Palace space of value 4), ``B2.1`` (Bishopric row 2, first space),
  ``C3.2``; ``Px``/``Bx``/``Cx`` an expelled citizen lying on that building;
* events by their place in the queue, ``1`` being Marauding.

>>> str(TakeDie("2", "y", 5))
'die 2y5'
>>> parse_action("from B2.1")
Source(where='B2.1')
"""

from __future__ import annotations

from dataclasses import dataclass

from palio.core.errors import NotationError
from palio.core.game import Action, parse_int
from palio.games.troyes.components import BUILDING_LETTERS, COLOUR_LETTERS, Components

DIE_COLOURS = "rwy"  # notation letters of the red, white and yellow dice
DISTRICTS = ("1", "2", "3", "4", "n")
MAX_PLAYERS = 4


@dataclass(frozen=True, slots=True)
class Draft(Action):
    """Initial placement: put a citizen of the personal supply on an empty space."""

    space: str

    def __str__(self) -> str:
        return f"start {self.space}"


@dataclass(frozen=True, slots=True)
class Reroll(Action):
    """Spend 1 influence to reroll one die of one's own district."""

    colour: str
    value: int

    def __str__(self) -> str:
        return f"reroll {self.colour}{self.value}"


@dataclass(frozen=True, slots=True)
class Flip(Action):
    """Spend 4 influence to turn over 1-3 dice of one's own district (chosen next)."""

    def __str__(self) -> str:
        return "flip"


@dataclass(frozen=True, slots=True)
class FlipDie(Action):
    """Turn one own die to its opposite face (7 - value)."""

    colour: str
    value: int

    def __str__(self) -> str:
        return f"flip {self.colour}{self.value}"


@dataclass(frozen=True, slots=True)
class Done(Action):
    """Stop turning dice over (after at least one)."""

    def __str__(self) -> str:
        return "done"


@dataclass(frozen=True, slots=True)
class Recruit(Action):
    """Spend 2 influence to take a citizen of one's colour from the general supply."""

    def __str__(self) -> str:
        return "recruit"


@dataclass(frozen=True, slots=True)
class Pass(Action):
    def __str__(self) -> str:
        return "pass"


@dataclass(frozen=True, slots=True)
class ActivateCard(Action):
    slot: str  # R1..Y3

    def __str__(self) -> str:
        return f"card {self.slot}"


@dataclass(frozen=True, slots=True)
class Cathedral(Action):
    def __str__(self) -> str:
        return "cathedral"


@dataclass(frozen=True, slots=True)
class FightEvent(Action):
    position: int  # 1-based place in the event queue (1 = Marauding)

    def __str__(self) -> str:
        return f"event {self.position}"


@dataclass(frozen=True, slots=True)
class PlaceCitizen(Action):
    building: str  # P, B or C

    def __str__(self) -> str:
        return f"place {self.building}"


@dataclass(frozen=True, slots=True)
class Farm(Action):
    """Agriculture: yellow dice for half their total in deniers."""

    def __str__(self) -> str:
        return "farm"


@dataclass(frozen=True, slots=True)
class UseCube(Action):
    """Modify this action with one cube from a delayed card (slot R1..Y3)."""

    slot: str

    def __str__(self) -> str:
        return f"cube {self.slot}"


@dataclass(frozen=True, slots=True)
class NoCube(Action):
    def __str__(self) -> str:
        return "nocube"


@dataclass(frozen=True, slots=True)
class TakeDie(Action):
    """Add one die to the group being formed."""

    district: str  # "1".."4" (seat + 1) or "n"
    colour: str
    value: int

    def __str__(self) -> str:
        return f"die {self.district}{self.colour}{self.value}"


@dataclass(frozen=True, slots=True)
class Go(Action):
    """The group is complete: pay for it and carry out the action."""

    def __str__(self) -> str:
        return "go"


@dataclass(frozen=True, slots=True)
class Source(Action):
    """Where the citizen placed (or hired as a tradesman) comes from."""

    where: str  # supply | reserve | a space label | Px/Bx/Cx | a card slot

    def __str__(self) -> str:
        return f"from {self.where}"


@dataclass(frozen=True, slots=True)
class Use(Action):
    """Use the activated card's effect once more (paying its price)."""

    def __str__(self) -> str:
        return "use"


@dataclass(frozen=True, slots=True)
class Stop(Action):
    """Leave the rest of the card's uses unused."""

    def __str__(self) -> str:
        return "stop"


@dataclass(frozen=True, slots=True)
class Mill(Action):
    """The Miller's choice for one use: the Palace or the Bishopric."""

    building: str  # P or B

    def __str__(self) -> str:
        return f"mill {self.building}"


@dataclass(frozen=True, slots=True)
class Target(Action):
    """Put one cube on the event at this place of the queue."""

    position: int

    def __str__(self) -> str:
        return f"target {self.position}"


@dataclass(frozen=True, slots=True)
class Defend(Action):
    """Combat: add one die of one's own district against the black die."""

    colour: str
    value: int

    def __str__(self) -> str:
        return f"def {self.colour}{self.value}"


@dataclass(frozen=True, slots=True)
class Also(Action):
    """Combat: counter another black die (of this value) with the same dice."""

    value: int

    def __str__(self) -> str:
        return f"also {self.value}"


@dataclass(frozen=True, slots=True)
class Counter(Action):
    """Combat: the chosen dice beat the black dice."""

    def __str__(self) -> str:
        return "counter"


@dataclass(frozen=True, slots=True)
class Concede(Action):
    """Combat: the black die cannot be beaten; discard it and lose 2 VP."""

    def __str__(self) -> str:
        return "concede"


def _one(args: list[str], what: str) -> str:
    if len(args) != 1:
        raise NotationError(f"expected exactly one {what}")
    return args[0]


def _die_face(text: str) -> tuple[str, int]:
    if len(text) != 2 or text[0] not in DIE_COLOURS:
        raise NotationError(f"expected a die as COLOUR+VALUE such as r5 (colours r w y), got {text!r}")
    return text[0], parse_int(text[1], "die value", 1, 6)


def _die(args: list[str]) -> TakeDie:
    text = _one(args, "die such as 2y5 (district, colour, value)")
    if len(text) != 3 or text[0] not in DISTRICTS:
        raise NotationError(f"expected DISTRICT+COLOUR+VALUE such as 2y5 or ny5, got {text!r}")
    colour, value = _die_face(text[1:])
    return TakeDie(text[0], colour, value)


def _flip(args: list[str]) -> Action:
    if not args:
        return Flip()
    return FlipDie(*_die_face(_one(args, "die")))


def _slot(text: str) -> str:
    if len(text) != 2 or text[0] not in COLOUR_LETTERS or text[1] not in "123":
        raise NotationError(f"expected an activity card slot R1..Y3, got {text!r}")
    return text


def _building(text: str, allowed: str = BUILDING_LETTERS) -> str:
    if text not in allowed:
        raise NotationError(f"expected a building letter ({' '.join(allowed)}), got {text!r}")
    return text


def _none(cls: type[Action]):
    def build(args: list[str]) -> Action:
        if args:
            raise NotationError(f"{cls()} takes no arguments")
        return cls()
    return build


PARSERS = {
    "start": lambda a: Draft(_one(a, "building space")),
    "reroll": lambda a: Reroll(*_die_face(_one(a, "die"))),
    "flip": _flip,
    "done": _none(Done),
    "recruit": _none(Recruit),
    "pass": _none(Pass),
    "card": lambda a: ActivateCard(_slot(_one(a, "card slot"))),
    "cathedral": _none(Cathedral),
    "event": lambda a: FightEvent(parse_int(_one(a, "event place"), "event place", 1, 99)),
    "place": lambda a: PlaceCitizen(_building(_one(a, "building"))),
    "farm": _none(Farm),
    "cube": lambda a: UseCube(_slot(_one(a, "card slot"))),
    "nocube": _none(NoCube),
    "die": _die,
    "go": _none(Go),
    "from": lambda a: Source(_one(a, "place")),
    "use": _none(Use),
    "stop": _none(Stop),
    "mill": lambda a: Mill(_building(_one(a, "building"), "PB")),
    "target": lambda a: Target(parse_int(_one(a, "event place"), "event place", 1, 99)),
    "def": lambda a: Defend(*_die_face(_one(a, "die"))),
    "also": lambda a: Also(parse_int(_one(a, "black die value"), "black die value", 1, 6)),
    "counter": _none(Counter),
    "concede": _none(Concede),
}


def parse_action(text: str) -> Action:
    """The action written as ``text`` (names of spaces and places are checked by the game)."""
    if not isinstance(text, str) or not text.strip():
        raise NotationError("empty action text")
    word, *args = text.split()
    parser = PARSERS.get(word)
    if parser is None:
        raise NotationError(f"unknown action {word!r}; known: {', '.join(PARSERS)}")
    return parser(args)


SLOTS = tuple(f"{c}{r}" for c in COLOUR_LETTERS for r in (1, 2, 3))  # slot index = colour*3 + round-1


class ActionTables:
    """The fixed action space of one components set, and lookups from ids to actions."""

    def __init__(self, c: Components) -> None:
        self.draft = tuple(Draft(label) for label in c.space_label)
        faces = [(col, v) for col in DIE_COLOURS for v in range(1, 7)]  # index colour*6 + v-1
        self.reroll = tuple(Reroll(col, v) for col, v in faces)
        self.flip = Flip()
        self.flip_die = tuple(FlipDie(col, v) for col, v in faces)
        self.done, self.recruit, self.pass_ = Done(), Recruit(), Pass()
        self.card = tuple(ActivateCard(s) for s in SLOTS)
        self.cathedral = Cathedral()
        self.event = tuple(FightEvent(i + 1) for i in range(c.max_queue))
        self.place = tuple(PlaceCitizen(b) for b in BUILDING_LETTERS)
        self.farm = Farm()
        self.cube = tuple(UseCube(s) for s in SLOTS)
        self.nocube = NoCube()
        # die index: (district * 3 + colour) * 6 + value - 1; district 4 = neutral
        self.die = tuple(TakeDie(d, col, v) for d in DISTRICTS for col, v in faces)
        self.go = Go()
        sources = ["supply", "reserve", *c.space_label, *(f"{b}x" for b in BUILDING_LETTERS), *SLOTS]
        self.sources = tuple(Source(w) for w in sources)
        self.source_index = {a: i for i, a in enumerate(self.sources)}  # the inverse
        self.source_supply, self.source_reserve = self.sources[0], self.sources[1]
        self.source_space = self.sources[2:2 + c.n_spaces]
        self.source_lying = self.sources[2 + c.n_spaces:5 + c.n_spaces]
        self.source_card = self.sources[5 + c.n_spaces:]
        self.use, self.stop = Use(), Stop()
        self.mill = (Mill("P"), Mill("B"))
        self.target = tuple(Target(i + 1) for i in range(c.max_queue))
        self.defend = tuple(Defend(col, v) for col, v in faces)
        self.also = tuple(Also(v) for v in range(1, 7))
        self.counter, self.concede = Counter(), Concede()
        self.all = (
            *self.draft, *self.reroll, self.flip, *self.flip_die, self.done, self.recruit,
            self.pass_, *self.card, self.cathedral, *self.event, *self.place, self.farm,
            *self.cube, self.nocube, *self.die, self.go, *self.sources, self.use, self.stop,
            *self.mill, *self.target, *self.defend, *self.also, self.counter, self.concede,
        )
