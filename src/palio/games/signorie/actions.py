"""Signorie actions: one frozen dataclass per kind, their notation, and the fixed action space.

Every decision is atomic: one die, one helper slot, one assignment tile with the number of
meeples paid, one marriage (city and dowry), one diplomatic mission (the man and the city),
one advancement point, one row for a face-down tile, one reward choice. Numbers shown to people
are 1-based (helper slot 1-3 from the left, career slot 1-9 from the bottom).

Die colours: ``y`` yellow, ``r`` red, ``p`` purple, ``g`` grey, ``b`` light blue. Careers:
``pol`` politician, ``cle`` cleric, ``mil`` military; the marriage row of the plan is ``mar``.

>>> str(TakeDie("b", 1))
'die b1'
>>> parse_action("mission mil 9 Milano")
Mission(track='mil', slot=9, city='Milano')
>>> str(parse_action("marry Firenze 4"))
'marry Firenze 4'
"""

from __future__ import annotations

from dataclasses import dataclass

from palio.core.errors import NotationError
from palio.core.game import Action, parse_int
from palio.games.signorie.components import DIE_LETTERS, ROW_CODES, SEXES, Components

TRACK_CODES = ROW_CODES[:3]
TRACK_INDEX = {code: i for i, code in enumerate(TRACK_CODES)}
REWARD_CHOICES = ("bonus", "florins")


@dataclass(frozen=True, slots=True)
class TakeDie(Action):
    """Take a die of this colour showing this value and place it on the player board."""

    colour: str  # y r p g b
    value: int  # 1-6

    def __str__(self) -> str:
        return f"die {self.colour}{self.value}"


@dataclass(frozen=True, slots=True)
class Pass(Action):
    """Leave Phase 2 for this round."""

    def __str__(self) -> str:
        return "pass"


@dataclass(frozen=True, slots=True)
class Hire(Action):
    """Hire a helper onto this slot (1-based, left to right) of the ring colour's column."""

    slot: int

    def __str__(self) -> str:
        return f"hire {self.slot}"


@dataclass(frozen=True, slots=True)
class Assign(Action):
    """Use the assignment tile on the man (m) or woman (w) slot, paying this many meeples."""

    sex: str
    meeples: int

    def __str__(self) -> str:
        return f"assign {self.sex} {self.meeples}"


@dataclass(frozen=True, slots=True)
class Florins(Action):
    """The yellow Signoria action: take 3 florins."""

    def __str__(self) -> str:
        return "florins"


@dataclass(frozen=True, slots=True)
class Offspring(Action):
    """The purple Signoria action (or an offspring effect): roll the white dice."""

    def __str__(self) -> str:
        return "offspring"


@dataclass(frozen=True, slots=True)
class Advance(Action):
    """The grey Signoria action: begin spending 1-4 advancement points."""

    def __str__(self) -> str:
        return "advance"


@dataclass(frozen=True, slots=True)
class Marry(Action):
    """Marry a woman of the supply in this city, paying this dowry."""

    city: str
    dowry: int

    def __str__(self) -> str:
        return f"marry {self.city} {self.dowry}"


@dataclass(frozen=True, slots=True)
class Mission(Action):
    """Send the man on this career track's slot (1-based from the bottom) to this city."""

    track: str
    slot: int
    city: str

    def __str__(self) -> str:
        return f"mission {self.track} {self.slot} {self.city}"


@dataclass(frozen=True, slots=True)
class NewMan(Action):
    """Advancement point: a man of the supply onto the bottom slot of a career track."""

    track: str

    def __str__(self) -> str:
        return f"new {self.track}"


@dataclass(frozen=True, slots=True)
class StepUp(Action):
    """Advancement point: a man on this career track's slot moves up one slot."""

    track: str
    slot: int

    def __str__(self) -> str:
        return f"up {self.track} {self.slot}"


@dataclass(frozen=True, slots=True)
class InitStep(Action):
    """Advancement point: the initiative disc moves up one slot."""

    def __str__(self) -> str:
        return "init"


@dataclass(frozen=True, slots=True)
class Done(Action):
    """Stop spending advancement points, or decline to buy victory points."""

    def __str__(self) -> str:
        return "done"


@dataclass(frozen=True, slots=True)
class Row(Action):
    """Put the face-down alliance tile in this row of the plan."""

    row: str

    def __str__(self) -> str:
        return f"row {self.row}"


@dataclass(frozen=True, slots=True)
class Reward(Action):
    """Phase 3, rounds 1-5: the round's bonus tile, or the florins instead."""

    choice: str

    def __str__(self) -> str:
        return f"reward {self.choice}"


@dataclass(frozen=True, slots=True)
class BuyVp(Action):
    """Phase 3, rounds 6-7: pay 5 florins for 5 VP."""

    def __str__(self) -> str:
        return "buy"


def _word(text: str, choices: tuple[str, ...] | str, what: str) -> str:
    if text not in choices or (isinstance(choices, str) and len(text) != 1):
        shown = " | ".join(choices)
        raise NotationError(f"expected {what} ({shown}), got {text!r}")
    return text


def _args(args: list[str], n: int, usage: str) -> list[str]:
    if len(args) != n:
        raise NotationError(f"expected '{usage}'")
    return args


def _die(args: list[str]) -> TakeDie:
    (text,) = _args(args, 1, "die COLOUR+VALUE, e.g. die r3")
    if len(text) != 2:
        raise NotationError(f"expected a die as COLOUR+VALUE such as r3, got {text!r}")
    return TakeDie(_word(text[0], DIE_LETTERS, "a die colour"), parse_int(text[1], "die value", 1, 6))


def _none(cls: type[Action]):
    def build(args: list[str]) -> Action:
        if args:
            raise NotationError(f"'{cls()}' takes no arguments")
        return cls()
    return build


def _assign(args: list[str]) -> Assign:
    sex, n = _args(args, 2, "assign m|w N")
    return Assign(_word(sex, SEXES, "the man or woman slot"), parse_int(n, "meeples", 1, 3))


def _marry(args: list[str]) -> Marry:
    city, dowry = _args(args, 2, "marry CITY DOWRY")
    return Marry(city, parse_int(dowry, "dowry", 1, 9))


def _mission(args: list[str]) -> Mission:
    track, slot, city = _args(args, 3, "mission TRACK SLOT CITY")
    return Mission(_word(track, TRACK_CODES, "a career"), parse_int(slot, "career slot", 1, 20), city)


def _up(args: list[str]) -> StepUp:
    track, slot = _args(args, 2, "up TRACK SLOT")
    return StepUp(_word(track, TRACK_CODES, "a career"), parse_int(slot, "career slot", 1, 20))


PARSERS = {
    "die": _die,
    "pass": _none(Pass),
    "hire": lambda a: Hire(parse_int(_args(a, 1, "hire SLOT")[0], "helper slot", 1, 9)),
    "assign": _assign,
    "florins": _none(Florins),
    "offspring": _none(Offspring),
    "advance": _none(Advance),
    "marry": _marry,
    "mission": _mission,
    "new": lambda a: NewMan(_word(_args(a, 1, "new TRACK")[0], TRACK_CODES, "a career")),
    "up": _up,
    "init": _none(InitStep),
    "done": _none(Done),
    "row": lambda a: Row(_word(_args(a, 1, "row ROW")[0], ROW_CODES, "a row")),
    "reward": lambda a: Reward(_word(_args(a, 1, "reward bonus|florins")[0], REWARD_CHOICES, "a reward")),
    "buy": _none(BuyVp),
}


def parse_action(text: str) -> Action:
    """The action written as ``text`` (city names and slot numbers are checked by the game)."""
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
        self.die = tuple(tuple(TakeDie(DIE_LETTERS[col], v) for v in range(1, 7)) for col in range(5))
        self.pass_ = Pass()
        self.hire = tuple(Hire(i + 1) for i in range(c.helper_slots))
        self.assign = tuple(tuple(Assign(SEXES[sex], n) for n in range(1, 4)) for sex in range(2))
        self.florins = Florins()
        self.offspring = Offspring()
        self.advance = Advance()
        self.marry = tuple(tuple(Marry(name, d) for d in range(1, c.dowry_max + 1))
                           for name in c.city_names)
        self.mission = tuple(tuple(tuple(Mission(TRACK_CODES[t], i + 1, name) for name in c.city_names)
                                   for i in range(c.max_track_len)) for t in range(3))
        self.new = tuple(NewMan(code) for code in TRACK_CODES)
        self.up = tuple(tuple(StepUp(TRACK_CODES[t], i + 1) for i in range(c.max_track_len - 1))
                        for t in range(3))
        self.init = InitStep()
        self.done = Done()
        self.row = tuple(Row(code) for code in ROW_CODES)
        self.reward = tuple(Reward(x) for x in REWARD_CHOICES)
        self.buy = BuyVp()
        out: list[Action] = []
        for col in self.die:
            out.extend(col)
        out += [self.pass_, *self.hire, *self.assign[0], *self.assign[1], self.florins,
                self.offspring, self.advance]
        for city in self.marry:
            out.extend(city)
        for track in self.mission:
            for slot in track:
                out.extend(slot)
        out += [*self.new]
        for track in self.up:
            out.extend(track)
        out += [self.init, self.done, *self.row, *self.reward, self.buy]
        self.all = tuple(out)
        self.city_id = {name: i for i, name in enumerate(c.city_names)}
