"""Troyes component data: every printed value the rules engine needs.

Rules sources: ``shared/seeds/troyes.ja.md`` (the Japanese rule summary) and the full English
rulebook facts in ``shared/reference/troyes.md`` (cited there as [RB]); where the two differ the
full rules win (see ``docs/coverage/troyes.md``, "Summary and full rules").

``DATA`` is a JSON-shaped dict; every section has a ``source`` and may name the source of single
fields (``<field>_source``) or entries (``src``). Sources: ``rulebook`` (the seed or [RB]),
``reference:exact``, ``reference:partial``, ``reference:inferred`` or ``provisional`` (no public
source: chosen by this project in the spirit of the game, see ``docs/components/troyes.md``).
The printed numbers of the activity and event cards, the rows of the Bishopric and City Hall
and the two-player neutral spaces are not public: they are provisional, and a player who owns
the game can type in the real ones (``palio games troyes --export-components F``, then
``--components-file F``).

:class:`Components` compiles the data into flat tuples indexed by small ints for the rules code;
:func:`load_components` reads a corrected JSON file of the same shape, validated.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from palio.core.components import (
    ComponentTables,
    check,
    components_json,
    merge_sections,
    provisional_section,
)
from palio.core.errors import ComponentsError

# dice colours; the same letters name the activity card columns (R1 = red card of round 1)
COLOURS = ("red", "white", "yellow")
COLOUR_LETTERS = "RWY"
RED, WHITE, YELLOW = range(3)
ANY_COLOUR = 3  # Pilgrimage takes dice of any colour

# the three principal buildings; a die colour gives access to one of them
BUILDINGS = ("palace", "bishopric", "city_hall")
BUILDING_LETTERS = "PBC"
PALACE, BISHOPRIC, CITY_HALL = range(3)
BUILDING_COLOUR = (RED, WHITE, YELLOW)

# activity cards: the effect of each card is a rule (code), keyed by name
IMMEDIATE_CARDS = (
    "artisan", "merchant", "miller", "innkeeper", "journeyman", "goldsmith", "sculptor",
    "pilgrimage", "procession", "glassblower", "archer", "chivalry", "diplomat", "hunting",
    "mercenary", "tax_collector", "captain", "joust", "troubadour", "baker", "banquet",
)
DELAYED_CARDS = (  # hourglass cards: their cubes modify one later action each
    "blacksmith", "militiaman", "tithe", "monk", "priest", "apprenticeship", "confession",
    "templar", "prior",
)
CARD_KEYS = IMMEDIATE_CARDS + DELAYED_CARDS

# event cards; the effect is a rule keyed by name, the black-die count is printed data
EVENT_KEYS = (
    "marauding", "brigands", "skirmishes", "war", "normans", "succession", "theology", "heresy",
    "builders", "interrupted", "drought", "civil_war", "wayfarers", "support", "resistance",
)
DECKS = ("red", "white", "yellow")

CHARACTER_KEYS = ("chretien", "urbain", "thibaut", "hugues", "florentin", "henry")


def _card(key: str, colour: str, rnd: int, hire: int, divisor: int, spaces: list[int],
          bonus: bool = False) -> dict[str, Any]:
    return {"key": key, "colour": colour, "round": rnd, "delayed": key in DELAYED_CARDS,
            "hire": hire, "divisor": divisor, "spaces": spaces, "bonus": bonus}


# name and effect [exact]; colour, round and hourglass [inferred]; numbers provisional
ACTIVITY_CARDS = [
    _card("artisan", "yellow", 1, 3, 4, [1, 1, 1]),
    _card("merchant", "yellow", 1, 3, 2, [1, 1, 1]),
    _card("miller", "yellow", 1, 4, 4, [2, 1, 1]),
    _card("innkeeper", "yellow", 2, 4, 2, [2, 1, 1]),
    _card("blacksmith", "yellow", 2, 4, 4, [2, 1, 1]),
    _card("militiaman", "yellow", 2, 4, 4, [2, 1, 1]),
    _card("journeyman", "yellow", 3, 5, 3, [3, 2, 1]),
    _card("goldsmith", "yellow", 3, 5, 4, [3, 2, 1]),
    _card("sculptor", "yellow", 3, 5, 3, [3, 2, 1]),
    _card("tithe", "white", 1, 3, 3, [1, 1, 1]),
    _card("monk", "white", 1, 4, 4, [2, 1, 1]),
    _card("priest", "white", 1, 3, 4, [1, 1, 1]),
    _card("apprenticeship", "white", 2, 5, 5, [2, 2, 1]),
    _card("confession", "white", 2, 4, 4, [2, 1, 1]),
    _card("templar", "white", 2, 4, 4, [2, 1, 1]),
    _card("pilgrimage", "white", 3, 5, 6, [3, 2, 1]),
    _card("procession", "white", 3, 5, 4, [3, 2, 1]),
    _card("glassblower", "white", 3, 6, 10, [3, 2, 1]),
    _card("archer", "red", 1, 3, 3, [1, 1, 1]),
    _card("chivalry", "red", 1, 4, 6, [2, 1, 1]),
    _card("diplomat", "red", 1, 3, 3, [1, 1, 1]),
    _card("hunting", "red", 2, 4, 4, [2, 1, 1]),
    _card("mercenary", "red", 2, 4, 3, [2, 1, 1]),
    _card("tax_collector", "red", 2, 5, 5, [2, 2, 1]),
    _card("captain", "red", 3, 5, 5, [3, 2, 1]),
    _card("joust", "red", 3, 5, 4, [3, 2, 1]),
    _card("troubadour", "red", 3, 5, 3, [3, 2, 1]),
    # the 2016 rulebook's bonus cards (option bonus_cards); colour and round provisional too
    _card("baker", "yellow", 1, 3, 4, [1, 1, 1], bonus=True),
    _card("prior", "white", 2, 4, 4, [2, 1, 1], bonus=True),
    _card("banquet", "red", 3, 5, 5, [3, 2, 1], bonus=True),
]


def _event(key: str, deck: str, black: int, calls: str | None, fight: str, divisor: int,
           banners: int, vp: list[int], bonus: bool = False) -> dict[str, Any]:
    return {"key": key, "deck": deck, "black": black, "calls": calls, "fight": fight,
            "divisor": divisor, "banners": banners, "vp": vp, "bonus": bonus}


# one entry per physical card; effects [exact]; every printed number provisional
EVENT_CARDS = [
    _event("brigands", "red", 1, "white", "red", 3, 3, [3, 1]),
    _event("brigands", "red", 1, "yellow", "red", 3, 3, [3, 1]),
    _event("brigands", "red", 1, "white", "red", 3, 3, [3, 1]),
    _event("skirmishes", "red", 1, "yellow", "red", 3, 4, [4, 2]),
    _event("skirmishes", "red", 1, "white", "red", 3, 4, [4, 2]),
    _event("war", "red", 2, "yellow", "red", 4, 5, [6, 3]),
    _event("normans", "red", 2, "white", "red", 4, 5, [6, 3]),
    _event("succession", "red", 0, "yellow", "red", 3, 4, [4, 2]),
    _event("theology", "white", 0, None, "white", 3, 4, [4, 2]),
    _event("heresy", "white", 0, None, "white", 3, 4, [4, 2]),
    _event("builders", "white", 0, None, "white", 3, 3, [3, 1]),
    _event("interrupted", "white", 0, None, "white", 3, 4, [4, 2]),
    _event("drought", "yellow", 0, None, "yellow", 3, 4, [4, 2]),
    _event("civil_war", "yellow", 0, None, "yellow", 3, 5, [5, 2]),
    _event("wayfarers", "yellow", 0, None, "yellow", 3, 4, [4, 2]),
    _event("support", "yellow", 0, None, "yellow", 3, 3, [3, 1]),
    # bonus event (option bonus_cards): calls a second red event from the box
    _event("resistance", "red", 0, None, "red", 3, 4, [4, 2], bonus=True),
]

MARAUDING = _event("marauding", "board", 1, None, "red", 3, 4, [3, 1])

CHARACTERS = [
    {"key": "chretien", "thresholds": [[3, 1], [5, 3], [7, 6]], "two_player_shift": 1},
    {"key": "urbain", "thresholds": [[3, 1], [5, 3], [7, 6]], "two_player_shift": 1},
    {"key": "thibaut", "thresholds": [[6, 1], [12, 3], [18, 6]], "two_player_shift": 0},
    {"key": "hugues", "thresholds": [[5, 1], [10, 3], [15, 6]], "two_player_shift": 0},
    {"key": "florentin", "thresholds": [[2, 1], [4, 3], [6, 6]], "two_player_shift": 0},
    {"key": "henry", "thresholds": [[1, 1], [3, 3], [5, 6]], "two_player_shift": 0},
]

# the numbers printed in the card texts (the appendix); the effects themselves are rules
EFFECTS = {
    "artisan": {"influence": 1, "deniers": 6}, "merchant": {"deniers": 2},
    "miller": {"deniers": 2}, "innkeeper": {"deniers": 1, "influence": 1},
    "blacksmith": {"bonus": 5}, "militiaman": {}, "journeyman": {"deniers": 3, "vp": 2},
    "goldsmith": {"vp": 1, "deniers": 2}, "sculptor": {"vp": 1},
    "tithe": {"free_per_district": 1}, "monk": {"dice": 3}, "priest": {"bonus": 3},
    "apprenticeship": {"value": 5}, "confession": {"bonus": 2}, "templar": {"dice": 2},
    "pilgrimage": {"vp": 2}, "procession": {"vp": 2}, "glassblower": {"cubes": 2, "vp": 1},
    "archer": {"at_least": 3}, "chivalry": {}, "diplomat": {"influence": 1},
    "hunting": {"influence": 3}, "mercenary": {"deniers": 3}, "tax_collector": {"deniers": 1},
    "captain": {"vp": 1}, "joust": {"vp": 2}, "troubadour": {"influence": 3, "vp": 2},
    "baker": {"deniers": 1}, "banquet": {"vp": 1}, "prior": {"dice": 2},
    "heresy": {"influence": 2}, "civil_war": {"deniers": 3}, "drought": {"deniers": 1},
    "support": {"cubes": 2},
}

DATA: dict[str, Any] = {
    "setup": {
        "source": "rulebook",
        "note": "5 deniers, influence 4, citizens 6/5/4, characters 2/1/1, red events 4/5/6",
        "start_money": 5, "start_influence": 4, "influence_max": 20,
        "citizens_per_player": 12, "start_citizens": {"2": 6, "3": 5, "4": 4},
        "characters_each": {"2": 2, "3": 1, "4": 1}, "red_events": {"2": 4, "3": 5, "4": 6},
        "neutral_citizens": 8, "dice_per_colour": 6, "black_dice": 6,
    },
    "round": {
        "source": "rulebook",
        "income": 10, "salary": {"palace": 2, "bishopric": 1, "city_hall": 0},
        "penalty_vp": 2, "pass_first": 2, "pass_again": 1, "agriculture_divisor": 2,
        "die_prices": [2, 4, 6], "single_die_price": 2,
    },
    "influence": {
        "source": "rulebook",
        "reroll": 1, "citizen": 2, "flip": 4, "flip_max": 3, "per_event_cube": 1,
        "per_black_die": 1,
    },
    "buildings": {
        "source": "rulebook",
        "note": "Palace: one space per die value (exact); Bishopric and City Hall: rows named "
                "by die values, 3 rows of 2 (provisional)",
        "palace": [{"values": [v], "slots": 1} for v in range(1, 7)],
        "bishopric": [{"values": [1, 2], "slots": 2}, {"values": [3, 4], "slots": 2},
                      {"values": [5, 6], "slots": 2}],
        "city_hall": [{"values": [1, 2], "slots": 2}, {"values": [3, 4], "slots": 2},
                      {"values": [5, 6], "slots": 2}],
        "bishopric_source": "provisional",
        "city_hall_source": "provisional",
    },
    "two_player_neutral": {
        "source": "provisional",
        "note": "the six spaces the gray citizens take before the two-player draft, each as "
                "building, row and slot (rows and slots counted from 1)",
        "spaces": [["palace", 3, 1], ["palace", 4, 1], ["bishopric", 1, 2], ["bishopric", 3, 2],
                   ["city_hall", 2, 2], ["city_hall", 3, 2]],
    },
    "cathedral": {
        "source": "rulebook",
        "note": "6 columns (die values) x 3 levels; +1 VP and +1/+2 influence per cube; "
                "-2 VP per level without an own cube at the end",
        "columns": 6, "levels": 3, "vp": 1, "influence": [1, 1, 1, 2, 2, 2],
        "missing_level_vp": 2,
    },
    "activity_cards": {
        "source": "provisional",
        "note": "name and effect exact; colour, round and hourglass inferred; hire cost, "
                "divisor and tradesman spaces (VP each) provisional",
        "key_source": "reference:exact", "colour_source": "reference:inferred",
        "round_source": "reference:inferred", "delayed_source": "reference:inferred",
        "cards": ACTIVITY_CARDS,
    },
    "event_cards": {
        "source": "provisional",
        "note": "name, effect and deck colour per the reference; fight colour, divisor, "
                "banners, VP, the white/yellow call of each red card and the black dice provisional",
        "key_source": "reference:exact", "deck_source": "reference:inferred",
        "cards": EVENT_CARDS,
        "marauding": MARAUDING,
        "marauding_black_source": "reference:partial",
    },
    "effects": {
        "source": "rulebook",
        "note": "the numbers in the card texts of the appendix, by card",
        "cards": EFFECTS,
    },
    "characters": {
        "source": "rulebook",
        "note": "thresholds: [least count, VP]; two_player_shift raises the counts with 2 players",
        "cards": CHARACTERS,
    },
}


KEPT_LIMIT = 10_000  # the most entries of a kept_ cache with no tighter bound of its own


def keep(cache: dict, key: Any, value: Any, limit: int) -> Any:
    """Store ``value`` under ``key`` in a cache of at most ``limit`` entries (emptied when
    full) and return what it holds there: the first value stored where threads race."""
    if len(cache) >= limit:
        cache.clear()
    return cache.setdefault(key, value)


class Components(ComponentTables):
    """Compiled, validated component tables (immutable after construction), and the
    ``kept_*`` caches: what the rules derive from them and keep across positions."""

    def __init__(self, data: dict[str, Any]) -> None:
        # The one place where the rules keep things across positions. Only pure rules and
        # public facts go in: the states of every seat and every thread share them. Each is
        # filled the same way (get, else build the whole object and ``keep`` it), so a
        # thread sees an entry only once it is complete (dict get and store are atomic).
        self.kept_card_pools: dict[tuple[int, int, bool], tuple[int, ...]] = {}
        self.kept_first_use_prices: dict[str, tuple[tuple[int, int], ...]] = {}  # rules/cards.py
        self.kept_ctx: dict[tuple, Any] = {}  # rules/group.py: Ctx per action and cube card
        self.kept_ctx_alike: dict[tuple, Any] = {}  # one Ctx for every rules alike
        self.kept_turn_rules: dict[tuple[int, ...], Any] = {}  # TurnRules per cubes held
        self.kept_cube_rules: dict[int, tuple] = {}  # the actions each delayed card's cube modifies
        self.kept_free_dice: dict[tuple, Any] = {}  # FreeDice per colours and dice counts
        self.kept_least_prices: dict[tuple, int] = {}  # per Ctx.price_class and best dice (rules/group.py)
        super().__init__(data)

    def __getstate__(self) -> dict[str, Any]:
        """Pickled and copied without the caches (a Ray worker rebuilds its own)."""
        return {k: ({} if k.startswith("kept_") else v) for k, v in self.__dict__.items()}

    # -- compilation ---------------------------------------------------------------------
    def _compile(self, d: dict[str, Any]) -> None:
        self._setup(d["setup"], d["round"], d["influence"])
        self._buildings(d["buildings"], d["two_player_neutral"]["spaces"])
        self._cathedral(d["cathedral"])
        self._cards(d["activity_cards"]["cards"])
        self._events(d["event_cards"])
        self._characters(d["characters"]["cards"])
        self._effects(d["effects"]["cards"])

    def _setup(self, s: dict[str, Any], r: dict[str, Any], i: dict[str, Any]) -> None:
        self.start_money = _nonneg(s["start_money"], "setup.start_money")
        self.influence_max = _nonneg(s["influence_max"], "setup.influence_max")
        self.start_influence = _nonneg(s["start_influence"], "setup.start_influence")
        check(self.start_influence <= self.influence_max, "start influence above the maximum")
        self.citizens_per_player = _nonneg(s["citizens_per_player"], "setup.citizens_per_player")
        self.start_citizens = _by_players(s["start_citizens"], "setup.start_citizens")
        self.characters_each = _by_players(s["characters_each"], "setup.characters_each")
        self.red_events = _by_players(s["red_events"], "setup.red_events")
        for n in (2, 3, 4):
            check(self.start_citizens[n] <= self.citizens_per_player, "start citizens above 12")
            check(self.red_events[n] >= 1, "at least one red event (= one round)")
        self.neutral_citizens = _nonneg(s["neutral_citizens"], "setup.neutral_citizens")
        self.dice_per_colour = _nonneg(s["dice_per_colour"], "setup.dice_per_colour")
        self.black_dice = _nonneg(s["black_dice"], "setup.black_dice")
        self.income = _nonneg(r["income"], "round.income")
        salary = r["salary"]
        self.salary = tuple(_nonneg(salary[b], f"round.salary.{b}") for b in BUILDINGS)
        self.penalty_vp = _nonneg(r["penalty_vp"], "round.penalty_vp")
        self.pass_first = _nonneg(r["pass_first"], "round.pass_first")
        self.pass_again = _nonneg(r["pass_again"], "round.pass_again")
        self.agriculture_divisor = _positive(r["agriculture_divisor"], "round.agriculture_divisor")
        self.die_prices = tuple(_nonneg(x, "round.die_prices") for x in r["die_prices"])
        check(len(self.die_prices) == 3, "round.die_prices needs the price for groups of 1, 2, 3")
        # dice cost more each in a larger group (2/4/6 in the rulebook); the rules rely on
        # prices that never fall: a group formed die by die then never costs more on the way
        # than in the end (with falling prices a seat could be left with no legal action)
        check(list(self.die_prices) == sorted(self.die_prices),
              "round.die_prices must not fall from a group of 1 to a group of 3")
        self.single_die_price = _nonneg(r["single_die_price"], "round.single_die_price")
        self.reroll_cost = _positive(i["reroll"], "influence.reroll")
        self.citizen_cost = _positive(i["citizen"], "influence.citizen")
        self.flip_cost = _positive(i["flip"], "influence.flip")
        self.flip_max = _positive(i["flip_max"], "influence.flip_max")
        self.per_event_cube = _nonneg(i["per_event_cube"], "influence.per_event_cube")
        self.per_black_die = _nonneg(i["per_black_die"], "influence.per_black_die")

    def _buildings(self, b: dict[str, Any], neutral: list[Any]) -> None:
        rows: list[tuple[int, tuple[int, ...], int]] = []  # (building, values, first space)
        spaces: list[tuple[int, int, int]] = []  # (building, row, slot)
        row_of_value: list[list[int]] = []
        building_rows: list[tuple[int, ...]] = []
        for bi, name in enumerate(BUILDINGS):
            by_value = [-1] * 7
            mine = []
            for r in b[name]:
                values = tuple(int(v) for v in r["values"])
                slots = _positive(r["slots"], f"buildings.{name} slots")
                for v in values:
                    check(1 <= v <= 6, f"buildings.{name}: die value {v} outside 1-6")
                    check(by_value[v] == -1, f"buildings.{name}: value {v} names two rows")
                    by_value[v] = len(rows)
                mine.append(len(rows))
                first = len(spaces)
                rows.append((bi, values, first))
                spaces.extend((bi, len(mine) - 1, k) for k in range(slots))
            check(all(by_value[v] != -1 for v in range(1, 7)),
                  f"buildings.{name}: every die value 1-6 needs a row")
            row_of_value.append(by_value)
            building_rows.append(tuple(mine))
        self.rows = tuple((bi, values, first, _row_len(spaces, first)) for bi, values, first in rows)
        self.spaces = tuple(spaces)
        self.n_spaces = len(spaces)
        self.row_of_value = tuple(tuple(x) for x in row_of_value)
        self.building_rows = tuple(building_rows)
        self.building_spaces = tuple(
            tuple(i for i, sp in enumerate(spaces) if sp[0] == bi) for bi in range(3))
        self.space_row = tuple(
            next(r for r, (bi, _v, first, n) in enumerate(self.rows) if first <= i < first + n)
            for i in range(len(spaces)))
        labels = []
        for bi, row, slot in spaces:
            letter = BUILDING_LETTERS[bi]
            n = self.rows[self.building_rows[bi][row]][3]
            labels.append(f"{letter}{row + 1}" if n == 1 else f"{letter}{row + 1}.{slot + 1}")
        self.space_label = tuple(labels)
        self.space_id = {label: i for i, label in enumerate(labels)}
        for n in (2, 3, 4):
            gray = self.n_spaces - n * self.start_citizens[n]
            check(0 <= gray <= self.neutral_citizens,
                  f"{n} players: the buildings' {self.n_spaces} spaces do not fit the draft")
        pre = []
        for entry in neutral:
            bname, row, slot = entry
            bi = _index(BUILDINGS, bname, "two_player_neutral")
            rows_b = self.building_rows[bi]
            check(1 <= int(row) <= len(rows_b), f"two_player_neutral: no row {row} in {bname}")
            first, n = self.rows[rows_b[int(row) - 1]][2], self.rows[rows_b[int(row) - 1]][3]
            check(1 <= int(slot) <= n, f"two_player_neutral: no slot {slot} in {bname} row {row}")
            pre.append(first + int(slot) - 1)
        check(len(set(pre)) == len(pre), "two_player_neutral names a space twice")
        check(len(pre) == self.n_spaces - 2 * self.start_citizens[2],
              "two_player_neutral must fill exactly the spaces the two-player draft leaves")
        self.two_player_neutral = tuple(pre)

    def _cathedral(self, c: dict[str, Any]) -> None:
        self.columns = _positive(c["columns"], "cathedral.columns")
        check(self.columns == 6, "the cathedral has one column per die value (6)")
        self.levels = _positive(c["levels"], "cathedral.levels")
        self.cathedral_vp = _nonneg(c["vp"], "cathedral.vp")
        self.cathedral_influence = tuple(_nonneg(x, "cathedral.influence") for x in c["influence"])
        check(len(self.cathedral_influence) == self.columns, "cathedral.influence per column")
        self.missing_level_vp = _nonneg(c["missing_level_vp"], "cathedral.missing_level_vp")

    def _cards(self, cards: list[dict[str, Any]]) -> None:
        out = []
        seen = set()
        for c in cards:
            key = c["key"]
            _index(CARD_KEYS, key, "activity card")
            check(key not in seen, f"activity card {key} listed twice")
            seen.add(key)
            colour = _index(COLOURS, c["colour"], f"activity card {key} colour")
            rnd = int(c["round"])
            check(rnd in (1, 2, 3), f"activity card {key}: round must be 1, 2 or 3")
            check(bool(c["delayed"]) == (key in DELAYED_CARDS),
                  f"activity card {key}: its effect is {'delayed' if key in DELAYED_CARDS else 'immediate'}")
            spaces = tuple(_nonneg(v, f"{key} spaces") for v in c["spaces"])
            check(len(spaces) >= 1, f"activity card {key} needs a tradesman space")
            out.append((key, colour, rnd, _nonneg(c["hire"], f"{key}.hire"),
                        _positive(c["divisor"], f"{key}.divisor"), spaces, bool(c.get("bonus"))))
        for bonus in (False, True):
            for colour in range(3):
                for rnd in (1, 2, 3):
                    if not bonus:
                        check(any(k[1] == colour and k[2] == rnd and not k[6] for k in out),
                              f"no {COLOURS[colour]} activity card for round {rnd}")
        self.cards = tuple(out)
        self.card_id = {k[0]: i for i, k in enumerate(out)}
        self.max_trade_spaces = max(len(k[5]) for k in out)

    def _events(self, e: dict[str, Any]) -> None:
        out = []
        for ev in [e["marauding"], *e["cards"]]:
            key = ev["key"]
            _index(EVENT_KEYS, key, "event card")
            deck = ev["deck"]
            if key == "marauding":
                check(deck == "board", "Marauding lies on the board (deck 'board')")
            else:
                _index(DECKS, deck, f"event {key} deck")
            calls = ev.get("calls")
            if deck == "red" and key != "resistance":
                check(calls in ("white", "yellow"), f"red event {key} must call white or yellow")
            fight = _index(COLOURS, ev["fight"], f"event {key} fight colour")
            vp = tuple(_nonneg(x, f"event {key} vp") for x in ev["vp"])
            check(len(vp) == 2, f"event {key}: vp is [first, second]")
            out.append((key, deck, _nonneg(ev["black"], f"event {key} black"),
                        None if calls is None else _index(COLOURS, calls, f"event {key} calls"),
                        fight, _positive(ev["divisor"], f"event {key} divisor"),
                        _positive(ev["banners"], f"event {key} banners"), vp, bool(ev.get("bonus"))))
        check(out[0][0] == "marauding", "the first event must be Marauding")
        check(all(k[0] != "marauding" for k in out[1:]), "Marauding is not in a deck")
        self.events = tuple(out)
        self.marauding = 0
        reds = [i for i, k in enumerate(out) if k[1] == "red" and not k[8]]
        for n in (2, 3, 4):
            check(len(reds) >= self.red_events[n], f"too few red events for {n} players")
        self.max_queue = len(out)

    def _characters(self, cards: list[dict[str, Any]]) -> None:
        out = []
        for c in cards:
            key = c["key"]
            _index(CHARACTER_KEYS, key, "character")
            th = tuple((int(a), int(b)) for a, b in c["thresholds"])
            check(list(th) == sorted(th), f"character {key}: thresholds lowest first")
            out.append((key, th, int(c.get("two_player_shift", 0))))
        check(sorted(k[0] for k in out) == sorted(CHARACTER_KEYS), "the six characters, once each")
        self.characters = tuple(out)
        for n in (2, 3, 4):
            check(n * self.characters_each[n] <= len(out), f"too few characters for {n} players")

    def _effects(self, fx: dict[str, Any]) -> None:
        out: dict[str, dict[str, int]] = {}
        for key, numbers in EFFECTS.items():
            given = fx.get(key, {})
            check(isinstance(given, dict), f"effects.{key} must be an object")
            unknown = sorted(set(given) - set(numbers))
            check(not unknown, f"effects.{key}: unknown number(s) {unknown}")
            out[key] = {name: _nonneg(given.get(name, default), f"effects.{key}.{name}")
                        for name, default in numbers.items()}
        unknown = sorted(set(fx) - set(EFFECTS))
        check(not unknown, f"effects: unknown card(s) {unknown}")
        self.fx = out

    # -- queries -------------------------------------------------------------------------
    def card_pool(self, colour: int, rnd: int, bonus: bool) -> tuple[int, ...]:
        """Ids of the activity cards of one colour and round number (kept: every set-up and
        every determinization asks)."""
        key = (colour, rnd, bool(bonus))
        pool = self.kept_card_pools.get(key)
        if pool is None:
            pool = keep(self.kept_card_pools, key, tuple(
                i for i, k in enumerate(self.cards)
                if k[1] == colour and k[2] == rnd and (bonus or not k[6])), KEPT_LIMIT)
        return pool

    def event_pool(self, deck: str, bonus: bool) -> list[int]:
        return [i for i, k in enumerate(self.events) if k[1] == deck and (bonus or not k[8])]

    def provisional(self) -> list[str]:
        return provisional_components(self.data)


def _row_len(spaces: list[tuple[int, int, int]], first: int) -> int:
    bi, row, _slot = spaces[first]
    return sum(1 for sp in spaces if sp[0] == bi and sp[1] == row)


def _by_players(table: dict[str, Any], where: str) -> dict[int, int]:
    out = {int(k): _nonneg(v, where) for k, v in table.items()}
    check(set(out) >= {2, 3, 4}, f"{where} needs values for 2, 3 and 4 players")
    return out


def _nonneg(value: Any, where: str) -> int:
    if isinstance(value, bool) or not isinstance(value, int) or value < 0:
        raise ComponentsError(f"{where} must be a whole number 0 or more, not {value!r}")
    return value


def _positive(value: Any, where: str) -> int:
    check(_nonneg(value, where) > 0, f"{where} must be at least 1")
    return value


def _index(seq: Any, key: Any, where: str) -> int:
    try:
        return seq.index(key)
    except ValueError:
        raise ComponentsError(f"{where}: unknown name {key!r}") from None


DEFAULT = Components(DATA)


def load_components(path: str | Path) -> Components:
    """A corrected components file (JSON, same shape as ``DATA``), validated.

    Sections missing from the file keep the built-in values; a section given replaces the
    fields it names. Raises :class:`ComponentsError` with a message naming the problem; the
    built-in data is never modified.
    """
    return DEFAULT.corrected(path)


def components_from(given: Any) -> Components:
    """Components from a dict of sections (as a components file holds), validated."""
    return Components(merge_sections(DATA, given))


def export_components(data: dict[str, Any] | None = None) -> str:
    """The component data as JSON: a starting point for a corrected file."""
    return components_json(DATA if data is None else data)


def _field_value(section: dict[str, Any], field: str) -> str:
    return json.dumps(section.get(field))


def provisional_components(data: dict[str, Any] | None = None) -> list[str]:
    """One line per provisional value (section, field or card) of the component data."""
    data = DATA if data is None else data
    out = []
    for name, section in data.items():
        out += provisional_section(name, section, detail=_field_value)
    spaces = data["two_player_neutral"]["spaces"]
    out.append("two_player_neutral.spaces: " + ", ".join(f"{b} row {r} slot {k}" for b, r, k in spaces))
    for c in data["activity_cards"]["cards"]:
        out.append(f"activity card {c['key']} ({c['colour']} {c['round']}): hire {c['hire']}, "
                   f"divisor {c['divisor']}, tradesman spaces {c['spaces']}")
    for e in [data["event_cards"]["marauding"], *data["event_cards"]["cards"]]:
        calls = f", calls {e['calls']}" if e.get("calls") else ""
        out.append(f"event {e['key']} ({e['deck']}): black dice {e['black']}{calls}, fight "
                   f"{e['fight']} /{e['divisor']}, banners {e['banners']}, VP {e['vp']}")
    return out
