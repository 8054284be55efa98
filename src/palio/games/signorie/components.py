"""Signorie component data: every printed value the rules engine needs, each with its source.

Rules source: ``shared/seeds/signorie.ja.md`` (the Japanese rulebook translation, cited below
by its section titles). Facts about the printed components: ``shared/reference/signorie.md``
(its addendum, read from the rulebook, wins where it corrects the sheet above it).

The rulebook leaves out the reference sheet (helpers, assignment tiles, reward tiles, printed
track values). Where no public source gives a value, this module chooses one in the spirit of
the game and marks it ``provisional`` with the reason; ``docs/components/signorie.md`` lists
them, ``palio games signorie --components`` prints them, and a player who owns the game can load
a corrected file (:func:`load_components`, ``--components-file``).

``DATA`` is JSON-shaped. Each section has a ``source`` (``rulebook``, ``reference:exact``,
``reference:partial``, ``reference:inferred`` or ``provisional``); a field may carry its own
``<field>_source`` and a list entry its own ``src``, overriding the section's. :class:`Components`
compiles the data into flat tuples indexed by small ints for the rules code.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from palio.core.components import (
    ComponentTables,
    check,
    components_json,
    provisional_section,
)
from palio.core.errors import ComponentsError

# -- vocabularies the rules code knows (not component data) ------------------------------
DICE = ("yellow", "red", "purple", "grey", "lightblue")  # action dice colours = board columns
DIE_LETTERS = "yrpgb"
SIGNORIA = ("florins", "marriage", "offspring", "advancement", "mission")
FLORINS, MARRIAGE, OFFSPRING, ADVANCEMENT, MISSION = range(5)
TRACKS = ("politician", "cleric", "military")
ROWS = ("politician", "cleric", "military", "marriage")  # rows of a player's plan
ROW_CODES = ("pol", "cle", "mil", "mar")
MARRIAGE_ROW = 3
MEN, WOMEN = 0, 1
SEXES = ("m", "w")  # the man slot and the woman slot of an assignment area

# effects of helpers, assignment tiles and bonus reward tiles
EFFECTS = ("florins", "vp", "initiative", "advance", "alliance", "threshold", "marriage",
           "mission", "offspring", "family")
E_FLORINS, E_VP, E_INITIATIVE, E_ADVANCE, E_ALLIANCE, E_THRESHOLD, E_MARRIAGE, E_MISSION, \
    E_OFFSPRING, E_FAMILY = range(10)
HELPER_EFFECTS = ("florins", "vp", "initiative", "advance", "alliance")
ASSIGNMENT_EFFECTS = ("florins", "vp", "initiative", "advance", "alliance", "threshold",
                      "marriage", "mission", "offspring")
BONUS_EFFECTS = ("florins", "vp", "initiative", "advance", "alliance", "marriage", "mission",
                 "offspring", "family")
# effects whose amount is a number (the others happen once per repetition)
COUNTED = frozenset({E_FLORINS, E_VP, E_INITIATIVE, E_ADVANCE, E_THRESHOLD})
# effects an assignment tile may repeat ("..3"): the counted ones, and those that need no place
REPEATABLE = COUNTED | {E_ALLIANCE, E_OFFSPRING}

# what a victory-point reward tile (rounds 6-7) counts
CRITERIA = ("sons", "helpers", "cities", "alliances", "careers")
C_SONS, C_HELPERS, C_CITIES, C_ALLIANCES, C_CAREERS = range(5)


def _helper(cost: int, effect: str, amount: int = 1, src: str = "provisional") -> dict[str, Any]:
    return {"cost": cost, "effect": effect, "amount": amount, "src": src}


DATA: dict[str, Any] = {
    "players": {
        "source": "rulebook",
        "note": "player colours (初期準備 2); seat i plays colour i",
        "colours": ["yellow", "red", "purple", "blue"],
    },
    "start": {
        "source": "rulebook",
        "note": "初期準備 2, 5, 10: 5 florins plus 1/2/2/3 by starting turn order; 4 men and "
                "3 women in the supply, 8 men and 8 women in the general stock; 7 rounds",
        "florins": 5,
        "extra_florins_by_order": [1, 2, 2, 3],
        "men_supply": 4, "women_supply": 3, "men_stock": 8, "women_stock": 8,
        "rounds": 7,
    },
    "dice": {
        "source": "rulebook",
        "note": "初期準備 4: five colours of action dice, one per player per colour; 5 white "
                "offspring dice. The fifth colour is 水色 (light blue) in the rulebook.",
        "colours": list(DICE),
        "colours_source": "reference:exact",
        "per_colour": {"2": 2, "3": 3, "4": 4},
        "offspring_dice": 5,
    },
    "supply": {
        "source": "reference:exact",
        "note": "the common supply: 48 white helper discs (初期準備 9: helpers are taken from it); "
                "florins have no limit (rulebook)",
        "helper_discs": 48,
    },
    "columns": {
        "source": "reference:partial",
        "cost_source": "reference:partial",
        "action_source": "reference:inferred",
        "hire_to_source": "provisional",
        "note": "one column per die colour, left to right. cost: yellow 1, red 2 and light "
                "blue 5 are exact, purple 3 and grey 4 inferred. action: red = marriage "
                "(rulebook), yellow = 3 florins (reference exact), purple = offspring "
                "(reference partial), grey = advancement and light blue = mission (inferred). "
                "hire_to: the ring colour of the column's hire icon, i.e. the column its helpers "
                "go to; red -> yellow is the rulebook's example, the others continue the same "
                "one-to-the-left pattern (provisional). helpers: the helper slots of each column, "
                "left to right; 12 in all, one per helper disc of a player (48 / 4, reference: "
                "inferred); only 'yellow middle slot costs 3' is known (rulebook example), so "
                "the rest, that slot's effect included, is provisional: yellow and red have three slots costing 2/3/4, the "
                "other columns two costing 2/4, and three slots in all take a face-down "
                "alliance tile, as the rulebook's '助手3個' says",
        "columns": [
            {"colour": "yellow", "cost": 1, "action": "florins", "hire_to": "lightblue",
             "helpers": [_helper(2, "florins", 1), {**_helper(3, "alliance"), "cost_src": "rulebook"},
                         _helper(4, "vp", 2)]},
            {"colour": "red", "cost": 2, "action": "marriage", "hire_to": "yellow",
             "helpers": [_helper(2, "vp", 1), _helper(3, "florins", 1), _helper(4, "alliance")]},
            {"colour": "purple", "cost": 3, "action": "offspring", "hire_to": "red",
             "helpers": [_helper(2, "florins", 1), _helper(4, "initiative", 1)]},
            {"colour": "grey", "cost": 4, "action": "advancement", "hire_to": "purple",
             "helpers": [_helper(2, "advance", 1), _helper(4, "alliance")]},
            {"colour": "lightblue", "cost": 5, "action": "mission", "hire_to": "grey",
             "helpers": [_helper(2, "advance", 1), _helper(4, "vp", 2)]},
        ],
    },
    "careers": {
        "source": "provisional",
        "note": "each career track's slots, bottom to top: VP (the rulebook's examples show 13 "
                "at the top of the military track and 9 on the politician track with rank 4) and "
                "the rank printed left of each slot (1-4); the rest is chosen so that the "
                "examples hold",
        "tracks": {
            "politician": {"vp": [1, 2, 3, 4, 5, 7, 9, 11, 13], "rank": [1, 1, 1, 2, 2, 3, 4, 4, 4]},
            "cleric": {"vp": [1, 2, 3, 4, 5, 7, 9, 11, 13], "rank": [1, 1, 1, 2, 2, 3, 4, 4, 4]},
            "military": {"vp": [1, 2, 3, 4, 5, 7, 9, 11, 13], "rank": [1, 1, 1, 2, 2, 3, 4, 4, 4]},
        },
        "bonus_source": "rulebook",
        "bonus_florins_slot": 4, "bonus_florins": 2,
        "bonus_initiative_slot": 6, "bonus_initiative": 1,
    },
    "initiative": {
        "source": "provisional",
        "note": "VP left of each initiative slot, bottom to top (0 = nothing printed); the "
                "Phase 3 example shows 9, 4 and 0",
        "vp": [0, 0, 1, 1, 2, 3, 4, 5, 6, 7, 9],
    },
    "cities": {
        "source": "reference:exact",
        "note": "city names exact; each city's row of city slots (the values 1-4, shared by "
                "brides and diplomats) is provisional: the rulebook's examples show Milano with "
                "one 3 and two 4s empty and Firenze with a 1",
        "slots_source": "provisional",
        "slots": {
            "Milano": [1, 2, 3, 3, 4, 4],
            "Venezia": [1, 1, 2, 3, 4, 4],
            "Firenze": [1, 2, 2, 3, 3, 4],
            "Roma": [1, 2, 3, 4, 4, 4],
            "Napoli": [1, 1, 2, 2, 3, 4],
        },
        "in_use": {"2": 3, "3": 4, "4": 5},
        "in_use_source": "rulebook",
    },
    "families": {
        "source": "reference:exact",
        "note": "6 families x 9 alliance tiles worth 2-5 VP (exact); the names are not in any "
                "public source, so they are the reference's placeholders F1-F6 (it asks not to "
                "guess them); a player who owns the game may name them in a components file. "
                "The spread of values within a family is provisional",
        "names": ["F1", "F2", "F3", "F4", "F5", "F6"],
        "names_source": "provisional",
        "tile_values": [2, 2, 2, 3, 3, 3, 4, 4, 5],
        "tile_values_source": "provisional",
        "removed_per_family": {"2": 2, "3": 1, "4": 0},
        "removed_per_family_source": "rulebook",
        "face_down_vp": 1,
    },
    "plans": {
        "source": "provisional",
        "note": "the shields of each player board's three career rows (4 shields of 3 families: "
                "2 alike and 2 different, rulebook); which families are printed is unknown. The "
                "marriage row shows every family once (rulebook)",
        "boards": {
            "yellow": {"politician": [0, 0, 3, 4], "cleric": [1, 1, 4, 5], "military": [2, 2, 5, 3]},
            "red": {"politician": [3, 3, 0, 1], "cleric": [4, 4, 1, 2], "military": [5, 5, 2, 0]},
            "purple": {"politician": [1, 1, 2, 5], "cleric": [3, 3, 0, 2], "military": [5, 5, 4, 1]},
            "blue": {"politician": [0, 0, 2, 5], "cleric": [2, 2, 3, 1], "military": [4, 4, 0, 3]},
        },
    },
    "marriage": {
        "source": "rulebook",
        "note": "結婚: a dowry of at least the city slot's value and at most 4 florins, 2 VP per "
                "florin paid",
        "dowry_max": 4, "vp_per_florin": 2,
    },
    "sons": {
        "source": "provisional",
        "note": "the four bride slots below the Signore's printed wife (4 = the 16 white brides "
                "/ 4 players, inferred); the VP printed on them is unknown",
        "slot_vp": [0, 1, 2, 4],
        "florins": 2, "florins_rounds": [2, 3, 4, 5],
        "florins_source": "rulebook",
    },
    "signoria": {
        "source": "rulebook",
        "note": "フロリン: 3 florins; トラック: 1-4 advancement points",
        "florins": 3, "advancement_points": 4,
    },
    "threshold": {
        "source": "rulebook",
        "note": "フェイズ3 報酬タイル: 13, raised by the threshold assignment up to 22 (+3 each)",
        "base": 13, "max": 22, "step": 3,
    },
    "assignments": {
        "source": "provisional",
        "note": "the 10 assignment tiles (two are dealt to each colour every round; the slot they "
                "land on says whether men or women pay). Attested: +2 initiative repeated up to 3 "
                "times (the purple example), +3 threshold up to 22, and one face-down alliance "
                "tile; the others repeat the column actions, as reviews describe. meeples: how "
                "many meeples are paid; repeat: the tile shows '..N' (pay 1-N, repeat N times). Of "
                "the attested tiles only the initiative one is known in full (3 men, 3 times, "
                "6 steps); the threshold tile's '..3' is inferred from 13 + 3 x 3 = 22 and the "
                "face-down tile's cost is a guess",
        "tiles": [
            {"effect": "initiative", "amount": 2, "meeples": 3, "repeat": True, "src": "rulebook"},
            {"effect": "threshold", "amount": 3, "meeples": 3, "repeat": True,
             "src": "reference:inferred"},
            {"effect": "alliance", "amount": 1, "meeples": 1, "repeat": False, "src": "provisional",
             "effect_src": "rulebook"},
            {"effect": "marriage", "amount": 1, "meeples": 1, "repeat": False},
            {"effect": "mission", "amount": 1, "meeples": 1, "repeat": False},
            {"effect": "offspring", "amount": 1, "meeples": 1, "repeat": False},
            {"effect": "advance", "amount": 1, "meeples": 3, "repeat": True},
            {"effect": "advance", "amount": 2, "meeples": 1, "repeat": False},
            {"effect": "florins", "amount": 2, "meeples": 3, "repeat": True},
            {"effect": "vp", "amount": 2, "meeples": 3, "repeat": True},
        ],
    },
    "rewards": {
        "source": "provisional",
        "note": "9 bonus tiles (rounds 1-5) and 5 VP tiles (rounds 6-7), 14 in all (exact); "
                "contents unknown except 'one diplomatic mission' (the rulebook's round-1 "
                "example) and one tile giving a face-down alliance tile (rulebook)",
        "rule_source": "rulebook",
        "bonus_rounds": 5, "florins_instead": 3, "buy_vp_cost": 5, "buy_vp": 5,
        "bonus_tiles": [
            {"effect": "mission", "amount": 1, "src": "rulebook"},
            {"effect": "alliance", "amount": 1, "src": "rulebook"},
            {"effect": "marriage", "amount": 1},
            {"effect": "offspring", "amount": 1},
            {"effect": "advance", "amount": 2},
            {"effect": "advance", "amount": 3},
            {"effect": "initiative", "amount": 2},
            {"effect": "vp", "amount": 3},
            {"effect": "family", "amount": 1},
        ],
        "vp_tiles": [
            {"criterion": "sons", "per": 2, "max": 8},
            {"criterion": "helpers", "per": 1, "max": 10},
            {"criterion": "cities", "per": 2, "max": 10},
            {"criterion": "alliances", "per": 1, "max": 10},
            {"criterion": "careers", "per": 1, "max": 8},
        ],
    },
}


class Components(ComponentTables):
    """Compiled, validated component tables (immutable after construction)."""

    def _compile(self, d: dict[str, Any]) -> None:
        self.colours = tuple(str(c) for c in d["players"]["colours"])
        check(len(self.colours) == 4 and len(set(self.colours)) == 4,
              "players.colours must name 4 different colours")
        st = d["start"]
        self.start_florins = _int(st["florins"], "start.florins", 0)
        self.extra_florins = tuple(_int(x, "start.extra_florins_by_order", 0)
                                   for x in st["extra_florins_by_order"])
        check(len(self.extra_florins) == 4, "start.extra_florins_by_order needs 4 values")
        self.men_supply = _int(st["men_supply"], "start.men_supply", 0)
        self.women_supply = _int(st["women_supply"], "start.women_supply", 0)
        self.men_stock = _int(st["men_stock"], "start.men_stock", 0)
        self.women_stock = _int(st["women_stock"], "start.women_stock", 0)
        self.rounds = _int(st["rounds"], "start.rounds", 1)
        dice = d["dice"]
        check(list(dice["colours"]) == list(DICE), f"dice.colours must be {list(DICE)}")
        self.dice_per_colour = {int(k): _int(v, "dice.per_colour", 1) for k, v in dice["per_colour"].items()}
        check(set(self.dice_per_colour) == {2, 3, 4}, "dice.per_colour needs 2, 3 and 4 players")
        self.offspring_dice = _int(dice["offspring_dice"], "dice.offspring_dice", 1)
        self.helper_discs = _int(d["supply"]["helper_discs"], "supply.helper_discs", 0)
        self._columns(d["columns"]["columns"])
        self._careers(d["careers"])
        self.init_vp = tuple(_int(v, "initiative.vp", 0) for v in d["initiative"]["vp"])
        check(len(self.init_vp) >= 2, "initiative.vp needs at least 2 slots")
        self.init_top = len(self.init_vp) - 1
        self._cities(d["cities"])
        self._families(d["families"])
        self._plans(d["plans"]["boards"])
        m = d["marriage"]
        self.dowry_max = _int(m["dowry_max"], "marriage.dowry_max", 1)
        check(self.dowry_max >= max(max(s) for s in self.city_slots),
              "marriage.dowry_max is below a city slot's value")
        self.vp_per_florin = _int(m["vp_per_florin"], "marriage.vp_per_florin", 0)
        sons = d["sons"]
        self.son_vp = tuple(_int(v, "sons.slot_vp", 0) for v in sons["slot_vp"])
        check(self.offspring_dice == 1 + len(self.son_vp),
              "dice.offspring_dice must be 1 + the number of bride slots")
        self.son_florins = _int(sons["florins"], "sons.florins", 0)
        self.son_florin_rounds = frozenset(int(r) for r in sons["florins_rounds"])
        sg = d["signoria"]
        self.signoria_florins = _int(sg["florins"], "signoria.florins", 0)
        self.advancement_points = _int(sg["advancement_points"], "signoria.advancement_points", 1)
        th = d["threshold"]
        self.threshold_base = _int(th["base"], "threshold.base", 0)
        self.threshold_max = _int(th["max"], "threshold.max", self.threshold_base)
        self.threshold_step = _int(th["step"], "threshold.step", 1)
        self._assignments(d["assignments"]["tiles"])
        self._rewards(d["rewards"])

    def _columns(self, columns: list[dict[str, Any]]) -> None:
        check(len(columns) == 5, "columns must list the 5 die colours")
        costs, actions, targets, helpers = [], [], [], []
        for i, col in enumerate(columns):
            check(col["colour"] == DICE[i], f"column {i + 1} must be {DICE[i]}, not {col['colour']!r}")
            costs.append(_int(col["cost"], f"columns.{DICE[i]}.cost", 1, 6))
            actions.append(_index(SIGNORIA, col["action"], f"columns.{DICE[i]}.action"))
            targets.append(_index(DICE, col["hire_to"], f"columns.{DICE[i]}.hire_to"))
            slots = []
            for h in col["helpers"]:
                effect = _index(EFFECTS, h["effect"], f"columns.{DICE[i]}.helpers effect")
                check(EFFECTS[effect] in HELPER_EFFECTS,
                      f"a helper's effect must be one of {', '.join(HELPER_EFFECTS)}")
                slots.append((_int(h["cost"], "helper cost", 0), effect, _int(h.get("amount", 1), "helper amount", 1)))
            helpers.append(tuple(slots))
        check(sorted(actions) == list(range(5)), "each Signoria action must sit on exactly one column")
        self.col_cost = tuple(costs)
        self.col_action = tuple(actions)
        self.action_col = tuple(actions.index(a) for a in range(5))
        self.hire_to = tuple(targets)
        self.helpers = tuple(helpers)
        self.helper_slots = max(len(h) for h in helpers)
        check(self.helper_slots >= 1, "no column has a helper slot")
        # which columns' hire action fills column c
        self.hired_from = tuple(tuple(i for i in range(5) if targets[i] == c) for c in range(5))

    def _careers(self, c: dict[str, Any]) -> None:
        tracks = c["tracks"]
        check(list(tracks) == list(TRACKS), f"careers.tracks must be {list(TRACKS)} in that order")
        vps, ranks = [], []
        for name in TRACKS:
            vp = tuple(_int(v, f"careers.{name}.vp", 0) for v in tracks[name]["vp"])
            rank = tuple(_int(r, f"careers.{name}.rank", 1, 4) for r in tracks[name]["rank"])
            check(len(vp) == len(rank) >= 2, f"careers.{name}: one VP and one rank per slot")
            check(list(rank) == sorted(rank), f"careers.{name}: ranks must not fall going up")
            vps.append(vp)
            ranks.append(rank)
        self.track_vp = tuple(vps)
        self.track_rank = tuple(ranks)
        self.track_len = tuple(len(v) for v in vps)
        self.max_track_len = max(self.track_len)
        self.bonus_florins_slot = _int(c["bonus_florins_slot"], "careers.bonus_florins_slot", 1) - 1
        self.bonus_florins = _int(c["bonus_florins"], "careers.bonus_florins", 0)
        self.bonus_init_slot = _int(c["bonus_initiative_slot"], "careers.bonus_initiative_slot", 1) - 1
        self.bonus_init = _int(c["bonus_initiative"], "careers.bonus_initiative", 0)

    def _cities(self, c: dict[str, Any]) -> None:
        slots = c["slots"]
        self.city_names = tuple(slots)
        check(len(self.city_names) == 5, "cities.slots must list 5 cities")
        self.city_slots = tuple(tuple(sorted(_int(v, f"cities.{name}", 1, 4) for v in values))
                                for name, values in slots.items())
        check(all(self.city_slots), "every city needs at least one city slot")
        self.cities_in_use = {int(k): _int(v, "cities.in_use", 1, 5) for k, v in c["in_use"].items()}
        check(set(self.cities_in_use) == {2, 3, 4}, "cities.in_use needs 2, 3 and 4 players")
        self.max_city_slots = max(len(s) for s in self.city_slots)

    def _families(self, f: dict[str, Any]) -> None:
        self.family_names = tuple(str(n) for n in f["names"])
        check(len(self.family_names) == 6, "families.names must name 6 families")
        values = [_int(v, "families.tile_values", 1) for v in f["tile_values"]]
        check(len(values) >= 1, "families.tile_values is empty")
        self.tile_family = tuple(fam for fam in range(6) for _ in values)
        self.tile_value = tuple(v for _ in range(6) for v in values)
        self.n_tiles = len(self.tile_family)
        self.removed_per_family = {int(k): _int(v, "families.removed_per_family", 0)
                                   for k, v in f["removed_per_family"].items()}
        check(set(self.removed_per_family) == {2, 3, 4}, "families.removed_per_family needs 2, 3, 4")
        check(max(self.removed_per_family.values()) < len(values), "too many tiles removed per family")
        self.face_down_vp = _int(f["face_down_vp"], "families.face_down_vp", 0)

    def _plans(self, boards: dict[str, Any]) -> None:
        check(list(boards) == list(self.colours), f"plans.boards must be {list(self.colours)} in order")
        plans = []
        for colour, rows in boards.items():
            check(list(rows) == list(TRACKS), f"plans.boards.{colour} must have rows {list(TRACKS)}")
            shields = []
            for name in TRACKS:
                row = [_int(x, f"plans.boards.{colour}.{name}", 0, 5) for x in rows[name]]
                counts = sorted((row.count(f) for f in set(row)), reverse=True)
                check(counts == [2, 1, 1],
                      f"plans.boards.{colour}.{name}: 4 shields of 3 families, 2 alike and 2 different")
                shields.append(tuple(row))
            plans.append(tuple(shields))
        self.plan_rows = tuple(plans)  # [colour][track] -> families printed
        # [colour][row][family] -> shields of that family; the marriage row has one of each
        self.plan_need = tuple(
            tuple(tuple(row.count(f) for f in range(6)) for row in shields) + ((1,) * 6,)
            for shields in plans)

    def _assignments(self, tiles: list[dict[str, Any]]) -> None:
        check(len(tiles) == 10, "assignments.tiles must hold 10 tiles (2 per die colour)")
        out = []
        for t in tiles:
            effect = _index(EFFECTS, t["effect"], "assignments effect")
            check(EFFECTS[effect] in ASSIGNMENT_EFFECTS,
                  f"an assignment's effect must be one of {', '.join(ASSIGNMENT_EFFECTS)}")
            repeat = t["repeat"]
            check(isinstance(repeat, bool), "assignment repeat must be true or false")
            check(not repeat or effect in REPEATABLE,
                  f"an assignment of {EFFECTS[effect]} cannot repeat (one city slot per repetition)")
            out.append((effect, _int(t.get("amount", 1), "assignment amount", 1),
                        _int(t["meeples"], "assignment meeples", 1, 3), repeat))
        self.assignments = tuple(out)

    def _rewards(self, r: dict[str, Any]) -> None:
        self.bonus_rounds = _int(r["bonus_rounds"], "rewards.bonus_rounds", 0, self.rounds)
        self.florins_instead = _int(r["florins_instead"], "rewards.florins_instead", 0)
        self.buy_vp_cost = _int(r["buy_vp_cost"], "rewards.buy_vp_cost", 1)
        self.buy_vp = _int(r["buy_vp"], "rewards.buy_vp", 0)
        bonus = []
        for t in r["bonus_tiles"]:
            effect = _index(EFFECTS, t["effect"], "rewards.bonus_tiles effect")
            check(EFFECTS[effect] in BONUS_EFFECTS,
                  f"a bonus tile's effect must be one of {', '.join(BONUS_EFFECTS)}")
            bonus.append((effect, _int(t.get("amount", 1), "bonus amount", 1)))
        vp = []
        for t in r["vp_tiles"]:
            vp.append((_index(CRITERIA, t["criterion"], "rewards.vp_tiles criterion"),
                       _int(t["per"], "vp tile per", 0), _int(t["max"], "vp tile max", 0)))
        check(len(bonus) >= self.bonus_rounds, "too few bonus tiles for the bonus rounds")
        check(len(vp) >= self.rounds - self.bonus_rounds, "too few VP tiles for the VP rounds")
        self.bonus_tiles = tuple(bonus)
        self.vp_tiles = tuple(vp)

    def provisional(self) -> list[str]:
        return provisional_components(self.data)


def _int(value: Any, where: str, lo: int | None = None, hi: int | None = None) -> int:
    if isinstance(value, bool) or not isinstance(value, int):
        raise ComponentsError(f"{where}: expected a whole number, got {value!r}")
    if (lo is not None and value < lo) or (hi is not None and value > hi):
        span = f"{lo if lo is not None else ''}..{hi if hi is not None else ''}"
        raise ComponentsError(f"{where}: {value} is outside {span}")
    return value


def _index(seq: Any, key: Any, where: str) -> int:
    try:
        return seq.index(key)
    except ValueError:
        raise ComponentsError(f"{where}: unknown name {key!r}; known: {', '.join(seq)}") from None


DEFAULT = Components(DATA)


def load_components(path: str | Path) -> Components:
    """A corrected components file (JSON, the shape of ``DATA``), validated.

    Sections missing from the file keep the built-in values; a section given replaces the
    fields it names. Raises :class:`ComponentsError` naming the problem; the built-in data is
    never modified.
    """
    return DEFAULT.corrected(path)


def export_components(data: dict[str, Any] | None = None) -> str:
    """Component data as JSON (the built-in data by default): a file to correct."""
    return components_json(DATA if data is None else data)


def provisional_components(data: dict[str, Any] | None = None) -> list[str]:
    """One line per provisional value (section, field or entry) of the component data."""
    data = DATA if data is None else data
    out = []
    for name, section in data.items():
        out += provisional_section(name, section, entries=_provisional_entries)
    return out


def _provisional_entries(name: str, section: dict[str, Any], key: str, value: Any) -> list[str]:
    """The entries of a list field marked provisional (``src``)."""
    out: list[str] = []
    if isinstance(value, list):
        for i, entry in enumerate(value):
            _provisional_entry(out, f"{name}.{key}[{i}]", entry, section)
    return out


def _provisional_entry(out: list[str], where: str, entry: Any, section: dict[str, Any]) -> None:
    """Entries marked provisional, looking one level into nested lists (column helpers)."""
    if not isinstance(entry, dict):
        return
    if entry.get("src") == "provisional" and section.get("source") != "provisional":
        shown = {k: v for k, v in entry.items() if k != "src"}
        out.append(f"{where}: {json.dumps(shown, ensure_ascii=False)}")
    for key, value in entry.items():
        if isinstance(value, list):
            for i, sub in enumerate(value):
                _provisional_entry(out, f"{where}.{key}[{i}]", sub, section)
