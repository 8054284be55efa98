"""Tiletum component data: every printed value the rules engine needs.

Source of the rules: ``shared/seeds/tiletum.ja.md`` (the Japanese rulebook). Facts about the
printed components come from ``shared/reference/tiletum.md`` and ``tiletum-map.md``.

``DATA`` is a JSON-shaped dict; every section has a ``source`` and entries may carry their own
``src`` overriding it. Sources: ``rulebook``, ``reference:exact``, ``reference:partial``,
``reference:inferred`` or ``provisional`` (no public source; chosen by this project in the
spirit of the game -- see ``docs/components/tiletum.md``).

:class:`Components` compiles the data into flat tuples indexed by small ints for the rules
code; :func:`load_components` reads a corrected JSON file of the same shape, validated.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from palio.core.components import (
    ComponentTables,
    check,
    components_json,
    provisional_section,
)
from palio.core.errors import ComponentsError

RESOURCES = ("gold", "food", "wool", "stone", "iron")  # die colours: yellow, pink, light grey, dark grey, blue
RES_LETTERS = "gfwsi"
GOLD, FOOD, WOOL, STONE, IRON = range(5)
ANY = 5  # "any one resource type" in a contract cost

# action kinds; the wheel areas hold one each
ACTIONS = ("architect", "merchant", "character", "contract", "king", "joker")
ARCHITECT, MERCHANT, CHARACTER, CONTRACT, KING, JOKER = range(6)

# tile kinds
HELPER, CREST, CONTRACT_TILE, CHAR_TILE = range(4)

HELPER_EFFECTS = ("joker", "action", "add_ap", "swap", "gain", "any", "set", "building")
CHAR_BONUSES = (
    "contract1_res", "contract2_res", "contract3", "wool2", "iron1", "iron2", "gold_iron",
    "gold_wool", "char1", "char2", "arch_merch", "food1", "food2", "gold2", "gold3", "king1",
    "king2", "vp2", "vp3", "merch1", "merch2", "merch_house", "house_here", "arch1", "arch2",
    "arch_pillar", "pillar_here", "stone1", "stone2",
)
CREST_BONUSES = ("house_any", "pillar_any", "merchant_any", "architect_any", "any2", "vp5")


def _helpers() -> list[dict[str, Any]]:
    # (effect, params, player-count mark); 28 helpers, provisional mix of the rulebook's list
    rows = [
        ("joker", {"ap": 1}, 2), ("joker", {"ap": 1}, 3),
        ("action", {"action": "merchant", "ap": 2}, 2), ("action", {"action": "merchant", "ap": 3}, 3),
        ("action", {"action": "character", "ap": 2}, 2), ("action", {"action": "character", "ap": 3}, 3),
        ("action", {"action": "contract", "ap": 2}, 2), ("action", {"action": "contract", "ap": 3}, 4),
        ("action", {"action": "architect", "ap": 2}, 2), ("action", {"action": "architect", "ap": 3}, 3),
        ("action", {"action": "king", "ap": 2}, 2), ("action", {"action": "king", "ap": 3}, 3),
        ("add_ap", {"ap": 1}, 2), ("add_ap", {"ap": 2}, 2), ("add_ap", {"ap": 3}, 3),
        ("swap", {}, 2), ("swap", {}, 4),
        ("gain", {"gold": 2, "vp": 2}, 2), ("gain", {"gold": 3, "vp": 0}, 2),
        ("gain", {"gold": 0, "vp": 3}, 2), ("gain", {"gold": 1, "vp": 2}, 3),
        ("any", {"n": 2}, 2), ("any", {"n": 2}, 2), ("any", {"n": 3}, 2),
        ("set", {}, 2), ("set", {}, 2),
        ("building", {}, 2), ("building", {}, 2),
    ]
    return [{"kind": "helper", "effect": e, **p, "min": m} for e, p, m in rows]


def _contract(cost: dict[str, int], vp: int, extra: str | None = None, m: int = 2,
              src: str | None = None) -> dict[str, Any]:
    out: dict[str, Any] = {"cost": cost, "vp": vp, "extra": extra, "min": m}
    if src:
        out["src"] = src
    return out


CONTRACTS = [
    _contract({"any": 1}, 1), _contract({"any": 1}, 1, m=3), _contract({"any": 3}, 3),
    _contract({"any": 3}, 3, m=4), _contract({"any": 5}, 6), _contract({"any": 7}, 10),
    _contract({"any": 8}, 13),
    _contract({"iron": 2}, 2), _contract({"iron": 3}, 4), _contract({"iron": 9}, 17),
    _contract({"iron": 5}, 7, "king"), _contract({"iron": 7}, 11, "king", m=3),
    _contract({"wool": 2}, 2), _contract({"wool": 3}, 4), _contract({"wool": 9}, 17),
    _contract({"wool": 5}, 7, "merchant"), _contract({"wool": 7}, 11, "merchant", m=4),
    _contract({"any": 2, "iron": 2}, 5), _contract({"any": 3, "iron": 3}, 8),
    _contract({"any": 2, "wool": 2}, 5), _contract({"any": 3, "wool": 3}, 8),
    _contract({"iron": 1, "wool": 1}, 2, src="provisional"),
    _contract({"iron": 2, "wool": 2}, 6, src="provisional"),
    _contract({"iron": 4, "wool": 4}, 12, src="provisional"),
    _contract({"iron": 3, "wool": 3}, 9, "character"), _contract({"iron": 5, "wool": 5}, 16, "character"),
]

BONUS_CONTRACTS = [
    _contract({"any": 1}, 1), _contract({"iron": 2}, 2), _contract({"wool": 2}, 2),
    _contract({"any": 3}, 3), _contract({"iron": 3}, 4, m=3), _contract({"wool": 3}, 4, m=3),
    _contract({"iron": 1, "wool": 1}, 2), _contract({"any": 2, "iron": 2}, 5, m=4),
]


def _bonus_tiles() -> list[dict[str, Any]]:
    crests = [{"kind": "crest", "family": f, "min": m} for f in range(6) for m in (2, 2, 4)]
    contracts = [{"kind": "contract", **c} for c in BONUS_CONTRACTS]
    return crests + contracts + _helpers()


ILLUSTRATIONS = [  # name, action powered by a completed building of this character
    ("Notary", "contract"), ("Banker", "contract"), ("Painter", "character"),
    ("Scholar", "character"), ("Mason", "architect"), ("Builder", "architect"),
    ("Trader", "merchant"), ("Sailor", "merchant"), ("Courtier", "king"), ("Knight", "king"),
]
_CHAR_BONUS_ROWS = [
    ("contract1_res", "contract2_res", "contract3", "wool2", "gold_wool"),
    ("gold2", "gold3", "gold_iron", "iron1"),
    ("char1", "char2", "vp2", "vp3", "food1"),
    ("food2", "stone1", "stone2", "iron2"),
    ("arch1", "arch2", "arch_pillar", "pillar_here", "stone1"),
    ("arch_merch", "stone2", "arch1", "food1"),
    ("merch1", "merch2", "merch_house", "house_here", "gold2"),
    ("arch_merch", "wool2", "merch1", "iron1"),
    ("king1", "king2", "vp2", "vp3", "gold3"),
    ("king1", "iron2", "food2", "gold_wool"),
]


def _characters() -> list[dict[str, Any]]:
    out = []
    for illus, bonuses in enumerate(_CHAR_BONUS_ROWS):
        for k, bonus in enumerate(bonuses):
            last = k == len(bonuses) - 1
            mark = (4 if len(bonuses) == 5 else 3) if last else 2
            out.append({"illustration": illus, "bonus": bonus, "min": mark})
    return out


DATA: dict[str, Any] = {
    "map": {
        "source": "reference:exact",
        "note": "spot names are exact (Yucata keys); links are the reference's PROPOSAL",
        "towns": ["London", "Brugge", "Antwerpen", "Hamburg", "Tiletum", "Koeln", "Leipzig",
                  "Paris", "Troyes", "Strasbourg", "Frankfurt", "Nuernberg", "Praha", "Bordeaux",
                  "Wien", "Lyon", "Milano", "Verona", "Venezia", "Toulouse", "Arles", "Genova",
                  "Firenze"],
        "roads": {"London_Brugge": ["London", "Brugge"], "Antwerpen_Hamburg": ["Antwerpen", "Hamburg"],
                  "Paris_Bordeaux": ["Paris", "Bordeaux"], "Strasbourg_Milano": ["Strasbourg", "Milano"],
                  "Nuernberg_Verona": ["Nuernberg", "Verona"], "Arles_Genova": ["Arles", "Genova"]},
        "links_source": "provisional",
        "town_links": [
            ["Brugge", "Tiletum"], ["Brugge", "Antwerpen"], ["Antwerpen", "Tiletum"], ["Tiletum", "Paris"],
            ["Tiletum", "Koeln"], ["Tiletum", "Troyes"], ["Antwerpen", "Koeln"], ["Paris", "Troyes"],
            ["Troyes", "Strasbourg"], ["Troyes", "Lyon"], ["Koeln", "Frankfurt"],
            ["Frankfurt", "Strasbourg"], ["Frankfurt", "Leipzig"], ["Frankfurt", "Nuernberg"],
            ["Hamburg", "Leipzig"], ["Leipzig", "Praha"], ["Leipzig", "Nuernberg"],
            ["Nuernberg", "Praha"], ["Nuernberg", "Wien"], ["Praha", "Wien"], ["Wien", "Venezia"],
            ["Strasbourg", "Lyon"], ["Lyon", "Arles"], ["Lyon", "Milano"], ["Bordeaux", "Toulouse"],
            ["Toulouse", "Arles"], ["Milano", "Verona"], ["Milano", "Genova"], ["Verona", "Venezia"],
            ["Verona", "Firenze"], ["Genova", "Firenze"]],
    },
    "house_spaces": {
        "source": "provisional",
        "note": "per town: 'MIN' or 'MIN:BONUS'; MIN = least player count using the space; "
                "BONUS = vpN or building",
        "towns": {
            "London": ["2:vp3", "4"], "Brugge": ["2", "3:vp1"], "Antwerpen": ["2:vp1", "3", "4"],
            "Hamburg": ["2:building", "4"], "Tiletum": ["2", "2", "3", "4"], "Koeln": ["2", "3:building"],
            "Leipzig": ["2:vp2", "4"], "Paris": ["2", "3:vp2", "4"], "Troyes": ["2:building"],
            "Strasbourg": ["2", "3"], "Frankfurt": ["2:vp1", "3", "4:building"],
            "Nuernberg": ["2", "4:vp2"], "Praha": ["2:building", "3"], "Bordeaux": ["2:vp3"],
            "Wien": ["2", "3:vp1", "4"], "Lyon": ["2:vp1", "3"], "Milano": ["2", "3:building", "4"],
            "Verona": ["2:vp2", "3"], "Venezia": ["2:building", "3", "4:vp2"], "Toulouse": ["2:vp2"],
            "Arles": ["2", "4:vp1"], "Genova": ["2:vp1", "3"], "Firenze": ["2:building", "4"],
        },
    },
    "bonus_spaces": {
        "source": "provisional",
        "note": "town -> least player count; Paris and Nuernberg are known to have one",
        "towns": {"Paris": 2, "Nuernberg": 2, "Leipzig": 2, "Lyon": 2, "Verona": 2, "Bordeaux": 2,
                  "Koeln": 3, "Wien": 3, "Genova": 3, "Hamburg": 4, "Toulouse": 4, "Troyes": 4},
    },
    "cathedrals": {
        "source": "reference:exact",
        "note": "sites exact; pillar-space marks and tile VP (bottom to top) provisional",
        "sites": {"London": [1, 3, 6], "Koeln": [2, 4, 7], "Paris": [3, 5, 8], "Praha": [1, 4, 6],
                  "Bordeaux": [2, 5, 7], "Wien": [1, 5, 9], "Lyon": [2, 4, 8], "Milano": [3, 6],
                  "Firenze": [5, 6]},
        "tiles_source": "provisional",
        "pillar_spaces": [2, 3, 4],
        "pillar_spaces_source": "provisional",
    },
    "cost_tiles": {
        "source": "provisional",
        "note": "[stone, vp]; null = the unavailable cathedral tile; [3, 4] is seen on a photo",
        "tiles": [[1, 1], [2, 2], [2, 3], [3, 4], [3, 5], [4, 5], [4, 6], [5, 7], None],
    },
    "king_track": {
        "source": "provisional",
        "note": "VP per step, lowest first; -10, -2, -1, 0, +3, +5, +15 are known",
        "values": [-10, -6, -4, -2, -1, 0, 1, 2, 3, 4, 5, 7, 9, 12, 15],
        "start": 5,
        "final_round_vp": 4,
    },
    "corruption": {"source": "provisional", "tokens": [0, 0, 1, 1, 2, 2], "per_round": 3},
    "fairs": {
        "source": "provisional",
        "note": "board VP beside each fair slot; slot 3 = 3 VP is exact (Verona example)",
        "board_vp": [1, 2, 3, 4],
        "town_tiles": ["Frankfurt", "Verona", "Paris", "Praha", "Wien", "Lyon", "Genova", "Brugge"],
        "first_town": "Tiletum",
        "tiles": [
            {"condition": "house_pillar", "vp": 6}, {"condition": "contract_cathedral", "vp": 5},
            {"condition": "contract", "vp": 3}, {"condition": "king", "vp": 3},
            {"condition": "contract_crest", "vp": 6}, {"condition": "house", "vp": 2},
            {"condition": "upper_character", "vp": 3}, {"condition": "crest", "vp": 3},
            {"condition": "pillar", "vp": 2}, {"condition": "full_building", "vp": 5},
            {"condition": "cathedral", "vp": 4}],
        "tiles_source": "reference:exact",
    },
    "wheel": {
        "source": "provisional",
        "note": "action printed on each area, clockwise; the action-tiles variant shuffles them",
        "areas": ["architect", "merchant", "character", "contract", "king", "joker"],
        "dice_per_round": {"2": 8, "3": 11, "4": 14},
        "dice_source": "rulebook",
    },
    "displays": {
        "source": "provisional",
        "contract_slot_ap": [4, 3, 3, 2, 2],
        "note": "AP to take a contract from each slot, left to right (the example uses a 2 and a 3)",
        "size": 5,
    },
    "player_board": {
        "source": "reference:partial",
        "rooms": [3, 2, 2, 1, 1, 0],
        "rooms_note": "rooms per building left to right; the last one is pre-printed (inferred)",
        "crest_food": [6, 6, 5, 4, 3, 2],
        "crest_bonus": list(CREST_BONUSES),
        "crest_source": "rulebook",
        "contract_spaces": 6,
        "contract_space_vp": [0, 1, 1, 2, 3, 4],
        "contract_space_vp_source": "provisional",
        "pillars_on_spaces": 5,
        "storehouse": 4,
        "die_spaces": 3,
        "completed_vp": [0, 0, 0, 5, 10, 20, 30],
        "completed_vp_source": "rulebook",
    },
    "start": {
        "source": "rulebook",
        "vp": 10, "gold_by_order": [1, 3, 5, 6], "houses_on_roofs": 5, "houses_supply": 2,
        "pillars_supply": 2, "houses": 8, "pillars": 7,
    },
    "crest_families": {"source": "provisional", "names": ["Lion", "Eagle", "Lily", "Rose", "Tower", "Keys"]},
    "bonus_tiles": {"source": "provisional", "note": "54 tiles: 18 crests, 8 contracts, 28 helpers",
                    "tiles": _bonus_tiles()},
    "contracts": {"source": "rulebook", "note": "values from the rulebook's list; marks provisional",
                  "tiles": CONTRACTS},
    "characters": {"source": "provisional", "illustrations": [list(x) for x in ILLUSTRATIONS],
                   "tiles": _characters()},
}


class Components(ComponentTables):
    """Compiled, validated component tables (immutable after construction)."""

    # -- compilation ---------------------------------------------------------------------
    def _compile(self, d: dict[str, Any]) -> None:
        self._map(d["map"])
        self._houses(d["house_spaces"]["towns"])
        self._cathedrals(d["cathedrals"], d["cost_tiles"]["tiles"])
        bs = d["bonus_spaces"]["towns"]
        self.bonus_space_min = tuple(int(bs.get(t, 0)) for t in self.towns)
        kt = d["king_track"]
        self.king_vp = tuple(int(v) for v in kt["values"])
        self.king_start = int(kt["start"])
        check(0 <= self.king_start < len(self.king_vp), "king_track.start outside the track")
        self.king_final_vp = int(kt["final_round_vp"])
        self.corruption = tuple(int(v) for v in d["corruption"]["tokens"])
        check(all(v in (0, 1, 2) for v in self.corruption), "corruption tokens must be 0, 1 or 2")
        self.corruption_per_round = int(d["corruption"]["per_round"])
        check(self.corruption_per_round <= len(self.corruption), "too few corruption tokens")
        self._fairs(d["fairs"])
        w = d["wheel"]
        self.wheel_areas = tuple(_index(ACTIONS, a, "wheel.areas") for a in w["areas"])
        check(sorted(self.wheel_areas) == list(range(6)), "wheel.areas must name each action once")
        self.dice_per_round = {int(k): int(v) for k, v in w["dice_per_round"].items()}
        disp = d["displays"]
        self.display_size = int(disp["size"])
        self.contract_slot_ap = tuple(int(x) for x in disp["contract_slot_ap"])
        check(len(self.contract_slot_ap) == self.display_size, "contract_slot_ap length != size")
        self._board(d["player_board"], d["start"])
        self._tiles(d)

    def _map(self, m: dict[str, Any]) -> None:
        self.towns = tuple(m["towns"])
        roads = m["roads"]
        self.spots = self.towns + tuple(roads)
        self.n_towns = len(self.towns)
        ids = {name: i for i, name in enumerate(self.spots)}
        check(len(ids) == len(self.spots), "duplicate spot names")
        adj: list[set[int]] = [set() for _ in self.spots]
        links = [tuple(x) for x in m["town_links"]]
        links += [(road, end) for road, ends in roads.items() for end in ends]
        for a, b in links:
            ia, ib = _index(ids, a, "map link"), _index(ids, b, "map link")
            check(ia != ib, f"map link {a}-{b} joins a spot to itself")
            adj[ia].add(ib)
            adj[ib].add(ia)
        self.adj = tuple(tuple(sorted(s)) for s in adj)
        self.spot_id = ids
        seen, todo = {0}, [0]
        while todo:
            for nxt in self.adj[todo.pop()]:
                if nxt not in seen:
                    seen.add(nxt)
                    todo.append(nxt)
        check(len(seen) == len(self.spots), "the map is not connected")

    def _houses(self, towns: dict[str, list[str]]) -> None:
        spaces = []  # (town, min players, vp bonus, building bonus)
        for name, specs in towns.items():
            town = _index(self.spot_id, name, "house_spaces")
            check(town < self.n_towns, f"house space on road {name}")
            for spec in specs:
                head, _, bonus = str(spec).partition(":")
                vp, building = 0, False
                if bonus == "building":
                    building = True
                elif bonus.startswith("vp"):
                    vp = int(bonus[2:])
                elif bonus:
                    raise ComponentsError(f"house space bonus {bonus!r} in {name}: use vpN or building")
                spaces.append((town, int(head), vp, building))
        self.house_spaces = tuple(spaces)
        self.house_label = tuple(
            f"{self.spots[t]}.{sum(1 for s in spaces[:i] if s[0] == t) + 1}"
            for i, (t, *_rest) in enumerate(spaces))
        self.house_id = {label: i for i, label in enumerate(self.house_label)}
        self.town_house_spaces = tuple(
            tuple(i for i, s in enumerate(spaces) if s[0] == t) for t in range(self.n_towns))
        self.tiletum = _index(self.spot_id, "Tiletum", "map")

    def _cathedrals(self, c: dict[str, Any], costs: list[Any]) -> None:
        sites = c["sites"]
        self.cathedral_towns = tuple(_index(self.spot_id, t, "cathedrals") for t in sites)
        self.cathedral_tiles = tuple(tuple(int(v) for v in vps) for vps in sites.values())
        for vps in self.cathedral_tiles:
            check(list(vps) == sorted(vps), "cathedral tiles must be listed lowest VP first")
        self.pillar_space_min = tuple(int(x) for x in c["pillar_spaces"])
        self.cost_tiles = tuple(None if t is None else (int(t[0]), int(t[1])) for t in costs)
        check(len(self.cost_tiles) == len(self.cathedral_towns),
              "there must be one construction cost tile per cathedral")
        check(sum(t is None for t in self.cost_tiles) == 1, "exactly one unavailable cost tile")
        self.town_cathedral = tuple(
            self.cathedral_towns.index(t) if t in self.cathedral_towns else -1
            for t in range(self.n_towns))

    def _fairs(self, f: dict[str, Any]) -> None:
        self.fair_board_vp = tuple(int(v) for v in f["board_vp"])
        check(len(self.fair_board_vp) == 4, "fairs.board_vp needs one value per round (4)")
        self.town_tiles = tuple(_index(self.spot_id, t, "fairs.town_tiles") for t in f["town_tiles"])
        self.first_fair_town = _index(self.spot_id, f["first_town"], "fairs.first_town")
        conds = ("house_pillar", "contract_cathedral", "contract", "king", "contract_crest", "house",
                 "upper_character", "crest", "pillar", "full_building", "cathedral")
        self.fair_conditions = conds
        self.fair_tiles = tuple((_index(conds, t["condition"], "fair condition"), int(t["vp"]))
                                for t in f["tiles"])
        check(len(self.fair_tiles) >= len(self.fair_board_vp), "too few fair tiles")
        check(len(self.town_tiles) >= len(self.fair_board_vp) - 1, "too few town tiles")

    def _board(self, b: dict[str, Any], s: dict[str, Any]) -> None:
        self.rooms = tuple(int(x) for x in b["rooms"])
        self.room_index = tuple(
            tuple(sum(self.rooms[:k]) + f for f in range(n)) for k, n in enumerate(self.rooms))
        self.n_rooms = sum(self.rooms)
        self.crest_food = tuple(int(x) for x in b["crest_food"])
        self.crest_bonus = tuple(_index(CREST_BONUSES, x, "crest_bonus") for x in b["crest_bonus"])
        check(len(self.crest_food) == len(self.rooms) == len(self.crest_bonus),
              "one crest space per building")
        self.contract_spaces = int(b["contract_spaces"])
        self.contract_space_vp = tuple(int(x) for x in b["contract_space_vp"])
        check(len(self.contract_space_vp) == self.contract_spaces, "contract_space_vp length")
        self.pillars_on_spaces = int(b["pillars_on_spaces"])
        self.storehouse = int(b["storehouse"])
        self.die_spaces = int(b["die_spaces"])
        self.completed_vp = tuple(int(x) for x in b["completed_vp"])
        check(len(self.completed_vp) == len(self.rooms) + 1, "completed_vp needs one entry per count")
        self.start_vp = int(s["vp"])
        self.start_gold = tuple(int(x) for x in s["gold_by_order"])
        self.roof_houses = sum(1 for r in self.rooms if r > 0)
        self.start_houses_supply = int(s["houses_supply"])
        self.start_pillars_supply = int(s["pillars_supply"])
        self.n_houses = int(s["houses"])
        self.n_pillars = int(s["pillars"])
        check(self.roof_houses + self.start_houses_supply + 1 == self.n_houses, "house count")
        check(self.pillars_on_spaces + self.start_pillars_supply == self.n_pillars, "pillar count")

    def _tiles(self, d: dict[str, Any]) -> None:
        tiles: list[tuple[Any, ...]] = []
        mins: list[int] = []
        self.crest_names = tuple(d["crest_families"]["names"])
        for t in d["bonus_tiles"]["tiles"]:
            tiles.append(self._bonus_tile(t))
            mins.append(int(t["min"]))
        self.n_bonus = len(tiles)
        for t in d["contracts"]["tiles"]:
            # the rulebook finds crests on contract tiles too: the deck may hold crest tiles
            tiles.append(self._crest_tile(t) if t.get("kind") == "crest" else self._contract_tile(t))
            mins.append(int(t["min"]))
        self.n_contract_end = len(tiles)
        ch = d["characters"]
        self.illustrations = tuple((str(n), _index(ACTIONS, a, "illustration")) for n, a in ch["illustrations"])
        for t in ch["tiles"]:
            illus = int(t["illustration"])
            check(0 <= illus < len(self.illustrations), f"unknown illustration {illus}")
            tiles.append((CHAR_TILE, illus, self.illustrations[illus][1],
                          _index(CHAR_BONUSES, t["bonus"], "character bonus")))
            mins.append(int(t["min"]))
        self.tiles = tuple(tiles)
        self.tile_min = tuple(mins)
        for m in mins:
            check(m in (2, 3, 4), f"player-count mark {m} must be 2, 3 or 4")

    def _bonus_tile(self, t: dict[str, Any]) -> tuple[Any, ...]:
        kind = t["kind"]
        if kind == "crest":
            return self._crest_tile(t)
        if kind == "contract":
            return self._contract_tile(t)
        check(kind == "helper", f"bonus tile kind {kind!r} must be helper, crest or contract")
        eff = _index(HELPER_EFFECTS, t["effect"], "helper effect")
        name = t["effect"]
        if name == "action":
            a = _index(ACTIONS, t["action"], "helper action")
            check(a != JOKER, "use effect joker for a joker helper")
            return (HELPER, eff, a, int(t["ap"]))
        if name in ("joker", "add_ap"):
            return (HELPER, eff, JOKER, int(t["ap"]))
        if name == "gain":
            return (HELPER, eff, int(t["gold"]), int(t["vp"]))
        if name == "any":
            return (HELPER, eff, int(t["n"]), 0)
        return (HELPER, eff, 0, 0)

    def _crest_tile(self, t: dict[str, Any]) -> tuple[Any, ...]:
        fam = int(t["family"])
        check(0 <= fam < len(self.crest_names), f"crest family {fam} unknown")
        return (CREST, fam)

    def _contract_tile(self, t: dict[str, Any]) -> tuple[Any, ...]:
        cost = []
        for res, n in t["cost"].items():
            r = ANY if res == "any" else _index(RESOURCES, res, "contract cost")
            check(int(n) > 0, "contract cost amounts must be positive")
            cost.append((r, int(n)))
        extra = t.get("extra")
        extras = (None, "king", "merchant", "character")
        check(extra in extras, f"contract extra {extra!r} must be one of {extras}")
        return (CONTRACT_TILE, tuple(cost), int(t["vp"]), extras.index(extra))

    # -- queries -------------------------------------------------------------------------
    def tile_ids(self, kind: str, players: int) -> list[int]:
        lo, hi = {"bonus": (0, self.n_bonus), "contract": (self.n_bonus, self.n_contract_end),
                  "character": (self.n_contract_end, len(self.tiles))}[kind]
        return [i for i in range(lo, hi) if self.tile_min[i] <= players]

    def provisional(self) -> list[str]:
        return provisional_components(self.data)


def _index(seq: Any, key: Any, where: str) -> int:
    try:
        return seq[key] if isinstance(seq, dict) else seq.index(key)
    except (KeyError, ValueError):
        raise ComponentsError(f"{where}: unknown name {key!r}") from None


DEFAULT = Components(DATA)


def load_components(path: str | Path) -> Components:
    """A corrected components file (JSON, same shape as ``DATA``), validated.

    Sections missing from the file keep the built-in values. Raises :class:`ComponentsError`
    with a message naming the problem; the built-in data is never modified.
    """
    return DEFAULT.corrected(path)


def export_components() -> str:
    """The built-in component data as JSON: a starting point for a corrected file."""
    return components_json(DATA)


def provisional_components(data: dict[str, Any] | None = None) -> list[str]:
    """One line per provisional value (section, field or entry) of the component data."""
    data = DATA if data is None else data
    out = []
    for name, section in data.items():
        out += provisional_section(name, section)
        for i, entry in enumerate(section.get("tiles") or []):
            if isinstance(entry, dict) and entry.get("src") == "provisional":
                out.append(f"{name}.tiles[{i}]: {entry}")
    return out
