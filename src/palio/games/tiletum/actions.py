"""Tiletum actions: one frozen dataclass per kind, their notation, and the fixed action space.

Every decision is atomic (one die, one AP spent, one duty, one choice). Fields are plain ints
and strs; places on the map are named (``Praha``, house space ``Genova.1``) so the notation
stays readable. Numbers shown to people are 1-based (storehouse slot 1-4, building 1-6,
floor 1-3, display slot 1-5, crest space 1-6).

>>> str(TakeDie(3, "w", 5))
'die 3w>5'
>>> parse_action("fulfil 2 i")
Fulfil(slot=2, res='i')
"""

from __future__ import annotations

from dataclasses import dataclass

from palio.core.errors import NotationError
from palio.core.game import Action, parse_int
from palio.games.tiletum.components import ACTIONS, RES_LETTERS, Components

PIECES = ("arch", "merch")  # architect, merchant
KING_CHOICES = ("take", "discard", "vp")


@dataclass(frozen=True, slots=True)
class TakeDie(Action):
    value: int  # pips showing on the wheel
    colour: str  # resource letter of the die colour: g f w s i
    to: int  # value after paying 2 gold per pip of shift (== value when not shifted)

    def __str__(self) -> str:
        shift = "" if self.to == self.value else f">{self.to}"
        return f"die {self.value}{self.colour}{shift}"


@dataclass(frozen=True, slots=True)
class AreaBonus(Action):
    take: int  # 1 take the area's bonus tile, 0 leave it

    def __str__(self) -> str:
        return "bonus take" if self.take else "bonus skip"


@dataclass(frozen=True, slots=True)
class Joker(Action):
    kind: str  # one of the five other actions

    def __str__(self) -> str:
        return f"joker {self.kind}"


@dataclass(frozen=True, slots=True)
class Move(Action):
    piece: str  # arch | merch
    spot: str

    def __str__(self) -> str:
        return f"move {self.piece} {self.spot}"


@dataclass(frozen=True, slots=True)
class PlacePillar(Action):
    town: str  # town of the cathedral

    def __str__(self) -> str:
        return f"pillar {self.town}"


@dataclass(frozen=True, slots=True)
class PlaceHouse(Action):
    space: str  # Town.n

    def __str__(self) -> str:
        return f"house {self.space}"


@dataclass(frozen=True, slots=True)
class MapBonus(Action):
    def __str__(self) -> str:
        return "mapbonus"


@dataclass(frozen=True, slots=True)
class TakeCharacter(Action):
    slot: int  # display slot 1-5

    def __str__(self) -> str:
        return f"char take {self.slot}"


@dataclass(frozen=True, slots=True)
class RefreshCharacters(Action):
    def __str__(self) -> str:
        return "char refresh"


@dataclass(frozen=True, slots=True)
class PlaceCharacter(Action):
    slot: int  # storehouse slot 1-4
    building: int  # 1-based
    floor: int  # 1-based; costs this many AP

    def __str__(self) -> str:
        return f"room {self.slot} b{self.building} f{self.floor}"


@dataclass(frozen=True, slots=True)
class TakeContract(Action):
    slot: int  # display slot 1-5

    def __str__(self) -> str:
        return f"contract take {self.slot}"


@dataclass(frozen=True, slots=True)
class Exchange(Action):
    give: str
    get: str

    def __str__(self) -> str:
        return f"exchange {self.give} {self.get}"


@dataclass(frozen=True, slots=True)
class KingStep(Action):
    """Spend every AP of the King action on steps up the King track (one step per AP)."""

    def __str__(self) -> str:
        return "king"


@dataclass(frozen=True, slots=True)
class ChooseResource(Action):
    res: str

    def __str__(self) -> str:
        return f"res {self.res}"


@dataclass(frozen=True, slots=True)
class End(Action):
    """End the turn (remaining AP are lost)."""

    def __str__(self) -> str:
        return "end"


@dataclass(frozen=True, slots=True)
class Done(Action):
    """Finish the current extra action or optional bonus (what is left is lost)."""

    def __str__(self) -> str:
        return "done"


@dataclass(frozen=True, slots=True)
class Buy(Action):
    res: str  # duty: 2 gold for one other resource

    def __str__(self) -> str:
        return f"buy {self.res}"


@dataclass(frozen=True, slots=True)
class Fulfil(Action):
    slot: int  # storehouse slot 1-4
    res: str  # type paid for the "any identical" part, "" if the contract has none

    def __str__(self) -> str:
        return f"fulfil {self.slot}" + (f" {self.res}" if self.res else "")


@dataclass(frozen=True, slots=True)
class PlaceCrest(Action):
    slot: int  # storehouse slot 1-4
    space: int  # crest space 1-6 (under building n)

    def __str__(self) -> str:
        return f"crest {self.slot} {self.space}"


@dataclass(frozen=True, slots=True)
class Contribute(Action):
    town: str  # cathedral town

    def __str__(self) -> str:
        return f"cathedral {self.town}"


@dataclass(frozen=True, slots=True)
class UseHelper(Action):
    slot: int  # storehouse slot 1-4

    def __str__(self) -> str:
        return f"helper {self.slot}"


@dataclass(frozen=True, slots=True)
class KingTile(Action):
    choice: str  # take | discard | vp (4 VP instead, round 4 only)

    def __str__(self) -> str:
        return f"kingtile {self.choice}"


@dataclass(frozen=True, slots=True)
class ChooseBuilding(Action):
    building: int  # 1-based; take the bonuses of its characters

    def __str__(self) -> str:
        return f"building {self.building}"


@dataclass(frozen=True, slots=True)
class RoomBonus(Action):
    floor: int  # 1-based floor of the chosen building whose bonus is taken next

    def __str__(self) -> str:
        return f"floor {self.floor}"


def _res(text: str) -> str:
    if len(text) != 1 or text not in RES_LETTERS:
        raise NotationError(f"expected a resource letter ({', '.join(RES_LETTERS)}), got {text!r}")
    return text


def _word(text: str, choices: tuple[str, ...], what: str) -> str:
    if text not in choices:
        raise NotationError(f"expected {what} ({' | '.join(choices)}), got {text!r}")
    return text


def _die(args: list[str]) -> TakeDie:
    if len(args) != 1:
        raise NotationError("die takes one argument like 3w or 3w>5")
    head, _, to = args[0].partition(">")
    if len(head) != 2:
        raise NotationError(f"expected a die as VALUE+COLOUR such as 3w, got {head!r}")
    value = parse_int(head[0], "die value", 1, 6)
    return TakeDie(value, _res(head[1]), parse_int(to, "shifted value", 1, 6) if to else value)


def _char(args: list[str]) -> Action:
    if args == ["refresh"]:
        return RefreshCharacters()
    if len(args) == 2 and args[0] == "take":
        return TakeCharacter(parse_int(args[1], "display slot", 1, 5))
    raise NotationError("expected 'char take N' or 'char refresh'")


def _room(args: list[str]) -> PlaceCharacter:
    if len(args) != 3 or args[1][:1] != "b" or args[2][:1] != "f":
        raise NotationError("expected 'room SLOT bBUILDING fFLOOR', e.g. room 1 b2 f1")
    return PlaceCharacter(parse_int(args[0], "storehouse slot", 1, 4),
                          parse_int(args[1][1:], "building", 1, 6), parse_int(args[2][1:], "floor", 1, 3))


def _contract(args: list[str]) -> TakeContract:
    if len(args) != 2 or args[0] != "take":
        raise NotationError("expected 'contract take N'")
    return TakeContract(parse_int(args[1], "display slot", 1, 5))


def _fulfil(args: list[str]) -> Fulfil:
    if len(args) not in (1, 2):
        raise NotationError("expected 'fulfil SLOT [RES]'")
    return Fulfil(parse_int(args[0], "storehouse slot", 1, 4), _res(args[1]) if len(args) == 2 else "")


def _one(args: list[str], what: str) -> str:
    if len(args) != 1:
        raise NotationError(f"expected exactly one {what}")
    return args[0]


def _two(args: list[str], what: str) -> tuple[str, str]:
    if len(args) != 2:
        raise NotationError(f"expected {what}")
    return args[0], args[1]


def _none(cls: type[Action]):
    def build(args: list[str]) -> Action:
        if args:
            raise NotationError(f"{cls()} takes no arguments")
        return cls()
    return build


PARSERS = {
    "die": _die,
    "bonus": lambda a: AreaBonus(("skip", "take").index(_word(_one(a, "take|skip"), ("take", "skip"), "take|skip"))),
    "joker": lambda a: Joker(_word(_one(a, "action"), ACTIONS[:5], "an action")),
    "move": lambda a: Move(_word(_two(a, "'move arch|merch SPOT'")[0], PIECES, "a piece"), a[1]),
    "pillar": lambda a: PlacePillar(_one(a, "town")),
    "house": lambda a: PlaceHouse(_one(a, "house space")),
    "mapbonus": _none(MapBonus),
    "char": _char,
    "room": _room,
    "contract": _contract,
    "exchange": lambda a: Exchange(*(_res(x) for x in _two(a, "'exchange GIVE GET'"))),
    "king": _none(KingStep),
    "res": lambda a: ChooseResource(_res(_one(a, "resource"))),
    "end": _none(End),
    "done": _none(Done),
    "buy": lambda a: Buy(_res(_one(a, "resource"))),
    "fulfil": _fulfil,
    "crest": lambda a: PlaceCrest(parse_int(_two(a, "'crest SLOT SPACE'")[0], "storehouse slot", 1, 4),
                                  parse_int(a[1], "crest space", 1, 6)),
    "cathedral": lambda a: Contribute(_one(a, "town")),
    "helper": lambda a: UseHelper(parse_int(_one(a, "slot"), "storehouse slot", 1, 4)),
    "kingtile": lambda a: KingTile(_word(_one(a, "choice"), KING_CHOICES, "a choice")),
    "building": lambda a: ChooseBuilding(parse_int(_one(a, "building"), "building", 1, 6)),
    "floor": lambda a: RoomBonus(parse_int(_one(a, "floor"), "floor", 1, 3)),
}


def parse_action(text: str) -> Action:
    """The action written as ``text`` (names of places are checked by the game)."""
    if not isinstance(text, str) or not text.strip():
        raise NotationError("empty action text")
    word, *args = text.split()
    parser = PARSERS.get(word)
    if parser is None:
        raise NotationError(f"unknown action {word!r}; known: {', '.join(PARSERS)}")
    return parser(args)


class ActionTables:
    """The fixed action space of one components set, and lookups from ids to actions."""

    def __init__(self, c: Components) -> None:
        r = RES_LETTERS
        self.die = [[[TakeDie(v, r[col], t) for t in range(1, 7)] for col in range(5)] for v in range(1, 7)]
        self.area = (AreaBonus(0), AreaBonus(1))
        self.joker = tuple(Joker(a) for a in ACTIONS[:5])
        self.move = tuple(tuple(Move(p, s) for s in c.spots) for p in PIECES)
        self.pillar = tuple(PlacePillar(c.spots[t]) for t in c.cathedral_towns)
        self.house = tuple(PlaceHouse(label) for label in c.house_label)
        self.mapbonus = MapBonus()
        self.take_char = tuple(TakeCharacter(i + 1) for i in range(c.display_size))
        self.refresh = RefreshCharacters()
        self.room = tuple(tuple(tuple(PlaceCharacter(s + 1, b + 1, f + 1) for f in range(3))
                                for b in range(len(c.rooms))) for s in range(c.storehouse))
        self.take_contract = tuple(TakeContract(i + 1) for i in range(c.display_size))
        self.exchange = tuple(tuple(Exchange(r[g], r[t]) for t in range(5)) for g in range(5))
        self.king = KingStep()
        self.res = tuple(ChooseResource(x) for x in r)
        self.end, self.done = End(), Done()
        self.buy = tuple(Buy(x) for x in r)
        self.fulfil = tuple(tuple(Fulfil(s + 1, x) for x in r) + (Fulfil(s + 1, ""),)
                            for s in range(c.storehouse))
        self.crest = tuple(tuple(PlaceCrest(s + 1, k + 1) for k in range(len(c.rooms)))
                           for s in range(c.storehouse))
        self.contribute = tuple(Contribute(c.spots[t]) for t in c.cathedral_towns)
        self.helper = tuple(UseHelper(s + 1) for s in range(c.storehouse))
        self.kingtile = tuple(KingTile(x) for x in KING_CHOICES)
        self.building = tuple(ChooseBuilding(b + 1) for b in range(len(c.rooms)))
        self.floor = tuple(RoomBonus(f + 1) for f in range(3))
        self.all = self._all(c)

    def _all(self, c: Components) -> tuple[Action, ...]:
        out: list[Action] = []
        for v in self.die:
            for col in v:
                out.extend(col)
        out += [*self.area, *self.joker, *self.move[0], *self.move[1], *self.pillar, *self.house,
                self.mapbonus, *self.take_char, self.refresh]
        for s in self.room:
            for b in s:
                out.extend(b)
        out += [*self.take_contract]
        for g in range(5):
            out += [self.exchange[g][t] for t in range(5) if t != g]
        out += [self.king, *self.res, self.end, self.done, *self.buy[1:]]
        for s in self.fulfil:
            out.extend(s)
        for s in self.crest:
            out.extend(s)
        out += [*self.contribute, *self.helper, *self.kingtile, *self.building, *self.floor]
        return tuple(out)
