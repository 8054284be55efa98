"""Aquileia component data: every printed value the rules engine needs.

Source of the rules: ``shared/seeds/aquileia.ja.md`` (the Japanese rulebook, sections named in
comments as it names them). Facts about the printed components come from the rulebook itself and
from ``shared/reference/aquileia.md`` (its addendum wins where it corrects the sheet above it).

``DATA`` is a JSON-shaped dict; every section has a ``source`` and fields or entries may carry their
own ``*_source`` / ``src`` overriding it. Sources: ``rulebook``, ``reference:exact``,
``reference:partial``, ``reference:inferred`` or ``provisional`` (no public source; chosen by this
project in the spirit of the game, with the reason in ``why`` -- see
``docs/components/aquileia.md``). The rules themselves are never provisional.

:class:`Components` compiles the data into flat tuples indexed by small ints for the rules code;
:func:`load_components` reads a corrected JSON file of the same shape, validated.
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

# coin metals, in the rulebook's order of worth (金, 銀, 銅); die faces use the same indices
METALS = ("gold", "silver", "bronze")
METAL_LETTERS = "gsb"
GOLD, SILVER, BRONZE = range(3)

# card classes (the backs of the four decks)
SLAVE, HW, STADIUM, THEATRE = range(4)
CLASSES = ("slave", "hw", "stadium", "theatre")

# districts, in the order they resolve (アクションフェイズ: I to VI)
DISTRICTS = ("mercatus", "arena", "stadium", "theatrum", "forum", "portus")
MERCATUS, ARENA_D, STADIUM_D, THEATRUM_D, FORUM_D, PORTUS_D = range(6)

# field kinds
(DOLUS, PECUNIA, ARMA, SERVI, POTENTIA, ARENA, RACE, THEATRUM, FORUM, LATRO,
 PORT) = range(11)
FIELD_KINDS = ("dolus", "pecunia", "arma", "servi", "potentia", "arena", "stadium", "theatrum",
               "forum", "latro", "portus")

# building kinds on the forum's plots
VILLA, WORKSHOP, BANK = range(3)
PLOT_KINDS = ("villa", "workshop", "bank")


def _plot(kind: str, cost: dict[str, int], vp: int, *, colour: str | None = None,
          yield_vp: int = 0, income: dict[str, int] | None = None,
          src: str | None = None) -> dict[str, Any]:
    out: dict[str, Any] = {"kind": kind, "cost": cost, "vp": vp}
    if colour is not None:
        out["colour"] = colour
    if kind == "workshop":
        out["yield_vp"] = yield_vp
    if kind == "bank":
        out["income"] = income or {}
    if src:
        out["src"] = src
    return out


# The forum's plots. Only two values are printed in the rulebook: the blue villa worth 10 that
# costs 2 bronze, 2 silver, 1 gold and 3 slaves (フォーラムでの建築の例) and a blue villa worth 6
# (別荘の得点の例, its cost unknown). Everything else is provisional: three villas per colour
# worth 6, 8 and 10 with costs rising with the value, five workshops and three private banks on
# the left side, so that a five-player game cannot build everything.
PLOTS = [
    # left side: workshops (VP when activated in the port) and private banks (coins)
    _plot("workshop", {"bronze": 2, "slaves": 1}, 1, yield_vp=2),
    _plot("workshop", {"bronze": 1, "silver": 1, "slaves": 1}, 1, yield_vp=2),
    _plot("workshop", {"silver": 2, "slaves": 2}, 2, yield_vp=3),
    _plot("workshop", {"bronze": 1, "gold": 1, "slaves": 2}, 2, yield_vp=3),
    _plot("workshop", {"silver": 1, "gold": 1, "slaves": 3}, 3, yield_vp=4),
    _plot("bank", {"bronze": 3, "slaves": 1}, 1, income={"bronze": 1, "silver": 1}),
    _plot("bank", {"silver": 2, "bronze": 1, "slaves": 2}, 2, income={"silver": 1, "gold": 1}),
    _plot("bank", {"gold": 2, "slaves": 2}, 2, income={"gold": 1, "bronze": 1}),
    # right side: villas, three per colour
    _plot("villa", {"bronze": 2, "silver": 1, "slaves": 1}, 6, colour="white"),
    _plot("villa", {"bronze": 1, "silver": 1, "gold": 1, "slaves": 2}, 8, colour="white"),
    _plot("villa", {"bronze": 1, "silver": 2, "gold": 1, "slaves": 3}, 10, colour="white"),
    _plot("villa", {"bronze": 1, "silver": 2, "slaves": 1}, 6, colour="blue"),  # value: rulebook
    _plot("villa", {"bronze": 2, "gold": 1, "slaves": 2}, 8, colour="blue"),
    _plot("villa", {"bronze": 2, "silver": 2, "gold": 1, "slaves": 3}, 10, colour="blue",
          src="rulebook"),
    _plot("villa", {"silver": 1, "gold": 1, "slaves": 1}, 6, colour="yellow"),
    _plot("villa", {"bronze": 2, "silver": 1, "gold": 1, "slaves": 2}, 8, colour="yellow"),
    _plot("villa", {"silver": 1, "gold": 2, "slaves": 3}, 10, colour="yellow"),
    _plot("villa", {"bronze": 3, "slaves": 2}, 6, colour="purple"),
    _plot("villa", {"silver": 2, "gold": 1, "slaves": 2}, 8, colour="purple"),
    _plot("villa", {"bronze": 3, "gold": 1, "slaves": 3}, 10, colour="purple"),
]


DATA: dict[str, Any] = {
    "coins": {
        "source": "rulebook",
        "note": "ゲームの内容物: 117 coins, 39 of each metal; ゲームの準備 ②: 1 gold, 1 silver, 2 bronze each",
        "supply": {"gold": 39, "silver": 39, "bronze": 39},
        "start": {"gold": 1, "silver": 1, "bronze": 2},
    },
    "dice": {
        "source": "rulebook",
        "note": "7 dice (4 blue, 3 red), each with 2 gold, 2 silver and 2 bronze faces",
        "faces": ["gold", "gold", "silver", "silver", "bronze", "bronze"],
        "red": 3, "blue": 4,
    },
    "player_pieces": {
        "source": "rulebook",
        "note": "per colour: 5 henchmen, 9 houses, score marker, tiebreaker, strength shield",
        "henchmen": 5, "houses": 9,
    },
    "rounds": {"source": "rulebook", "count": 6},
    "tiebreaker_track": {
        "source": "reference:inferred",
        "note": "one space per player, filled from the left; no other effect is printed",
        "spaces": 5,
    },
    "colours": {
        "source": "rulebook",
        "note": "the four laurel/villa colours, as the theatre cards name them",
        "names": ["white", "blue", "yellow", "purple"],
    },
    "slave_cards": {
        "source": "rulebook",
        "cards": [{"slaves": 1, "count": 11}, {"slaves": 2, "count": 11}],
    },
    "horse_weapon_cards": {
        "source": "rulebook",
        "note": "17 cards with one back; 3 lie face up beside the deck (ゲームの準備 ③)",
        "display": 3,
        "cards": [
            {"kind": "horse", "metal": "gold", "symbols": 2, "count": 2},
            {"kind": "horse", "metal": "gold", "symbols": 1, "count": 3},
            {"kind": "horse", "metal": "silver", "symbols": 2, "count": 2},
            {"kind": "horse", "metal": "silver", "symbols": 1, "count": 3},
            {"kind": "weapon", "symbols": 3, "count": 1},
            {"kind": "weapon", "symbols": 2, "count": 3},
            {"kind": "weapon", "symbols": 1, "count": 3},
        ],
    },
    "stadium_cards": {
        "source": "rulebook",
        "note": "12 laurel cards: two of each colour, and one each worth 10, 7, 5 and 3 VP",
        "cards": [
            {"colour": "white", "count": 2}, {"colour": "blue", "count": 2},
            {"colour": "yellow", "count": 2}, {"colour": "purple", "count": 2},
            {"vp": 10, "count": 1}, {"vp": 7, "count": 1}, {"vp": 5, "count": 1},
            {"vp": 3, "count": 1},
        ],
    },
    "theatre_cards": {
        "source": "rulebook",
        "cards": [["white", "blue"], ["blue", "yellow"], ["blue", "purple"], ["white", "purple"],
                  ["yellow", "purple"], ["yellow", "white"]],
    },
    "mercatus": {
        "source": "rulebook",
        "dolus_dice": 2,
        "pecunia_vp": 4,
        "exchanges_source": "provisional",
        "exchanges_why": "the rulebook shows the exchanges as a lost picture; these trade one "
                         "gold for two silver and one silver for two bronze, each way, and a gold "
                         "for a silver and two bronze, each way",
        "exchanges": [
            {"give": {"gold": 1}, "get": {"silver": 2}},
            {"give": {"silver": 2}, "get": {"gold": 1}},
            {"give": {"silver": 1}, "get": {"bronze": 2}},
            {"give": {"bronze": 2}, "get": {"silver": 1}},
            {"give": {"gold": 1}, "get": {"silver": 1, "bronze": 2}},
            {"give": {"silver": 1, "bronze": 2}, "get": {"gold": 1}},
        ],
        "arma_price": {"bronze": 1},
        "servi": [
            {"metal": "bronze", "max": 1},
            {"metal": "silver", "max": 2},
            {"metal": "gold", "max": 3},
        ],
        "potentia_dice": 4,
    },
    "arena": {
        "source": "reference:exact",
        "note": "three fields of strength 1, 1 and 2 (gamepack.nl; the rulebook's example fits)",
        "fields": [1, 1, 2],
        "dice": 3,
        "coins": [3, 2, 1],
        "coins_source": "rulebook",
        "vp_per_strength": 2,
        "vp_per_strength_source": "rulebook",
    },
    "stadium": {
        "source": "provisional",
        "why": "28 fields in all (a published count) leave six for the stadium, three per side; "
               "strengths 1, 2, 2 per side let the rulebook's race example seat one henchman "
               "per player (two gold entrants start at 2)",
        "fields": {"gold": [1, 2, 2], "silver": [1, 2, 2]},
        "dice": 3,
        "coins": [3, 2, 1],
        "coins_source": "rulebook",
    },
    "forum": {
        "source": "rulebook",
        "note": "five fields, resolved 1 to 5: build; build and score; two buildings; build; "
                "build and score",
        "fields": [
            {"builds": 1, "score": False}, {"builds": 1, "score": True},
            {"builds": 2, "score": False}, {"builds": 1, "score": False},
            {"builds": 1, "score": True},
        ],
        "plots_source": "provisional",
        "plots_why": "the plots are printed on the board and no public text lists them; only "
                     "the blue villas worth 10 (cost given) and 6 are in the rulebook",
        "plots": PLOTS,
    },
    "portus": {
        "source": "rulebook",
        "latro_dice": 2,
        "fields": ["bronze", "silver", "gold"],
    },
}


class Components(ComponentTables):
    """Compiled, validated component tables (immutable after construction).

    Cards have ids ``0..n_cards-1``: slave cards first, then horse/weapon, stadium and theatre
    cards, in data order; ``card_type[card]`` is the card's type and every type has a ``key``
    (``slave_2``, ``horse_gold_1``, ``weapon_3``, ``laurel_blue``, ``laurel_vp_10``,
    ``theatre_blue_yellow``) that observations and the words layer use.
    """

    # -- compilation ---------------------------------------------------------------------
    def _compile(self, d: dict[str, Any]) -> None:
        coins = d["coins"]
        self.supply = _metals(coins["supply"], "coins.supply")
        self.start_coins = _metals(coins["start"], "coins.start")
        dice = d["dice"]
        self.faces = tuple(_index(METALS, f, "dice.faces") for f in dice["faces"])
        check(len(self.faces) > 0, "dice.faces is empty")
        self.red_dice = _positive(dice["red"], "dice.red")
        self.blue_dice = _positive(dice["blue"], "dice.blue")
        pieces = d["player_pieces"]
        self.henchmen = _positive(pieces["henchmen"], "player_pieces.henchmen")
        self.houses = _positive(pieces["houses"], "player_pieces.houses")
        self.rounds = _positive(d["rounds"]["count"], "rounds.count")
        self.tiebreaker_spaces = _positive(d["tiebreaker_track"]["spaces"], "tiebreaker_track.spaces")
        check(self.tiebreaker_spaces >= 5, "the tiebreaker track needs a space for each of 5 players")
        self.colours = tuple(str(c) for c in d["colours"]["names"])
        check(len(set(self.colours)) == len(self.colours) > 0, "colours.names must be distinct")
        self._cards(d)
        self._mercatus(d["mercatus"])
        arena = d["arena"]
        self.arena_fields = tuple(_positive(v, "arena.fields") for v in arena["fields"])
        self.arena_dice = _positive(arena["dice"], "arena.dice")
        self.arena_coins = tuple(int(v) for v in arena["coins"])
        self.vp_per_strength = int(arena["vp_per_strength"])
        st = d["stadium"]
        self.stadium_fields = {
            _index(METALS, side, "stadium.fields"): tuple(_positive(v, "stadium.fields") for v in values)
            for side, values in st["fields"].items()}
        check(set(self.stadium_fields) == {GOLD, SILVER}, "stadium.fields needs a gold and a silver side")
        self.stadium_dice = _positive(st["dice"], "stadium.dice")
        self.stadium_coins = tuple(int(v) for v in st["coins"])
        check(len(self.arena_coins) >= 1 and len(self.stadium_coins) >= 1, "prize coins are missing")
        self._forum(d["forum"])
        port = d["portus"]
        self.latro_dice = _positive(port["latro_dice"], "portus.latro_dice")
        self.port_metals = tuple(_index(METALS, m, "portus.fields") for m in port["fields"])
        check(len(set(self.port_metals)) == len(self.port_metals), "portus.fields repeat a metal")
        self._fields()

    def _cards(self, d: dict[str, Any]) -> None:
        types: list[tuple[Any, ...]] = []  # (class, key, symbols, metal, kind, colour(s), vp)
        counts: list[int] = []
        for c in d["slave_cards"]["cards"]:
            n = _positive(c["slaves"], "slave_cards.slaves")
            check(n in (1, 2), "slave cards show one or two slaves")
            types.append((SLAVE, f"slave_{n}", n, -1, "slave", (), 0))
            counts.append(_positive(c["count"], "slave_cards.count"))
        hw = d["horse_weapon_cards"]
        self.display_size = _positive(hw["display"], "horse_weapon_cards.display")
        for c in hw["cards"]:
            n = _positive(c["symbols"], "horse_weapon_cards.symbols")
            if c["kind"] == "horse":
                metal = _index(METALS, c["metal"], "horse_weapon_cards.metal")
                check(metal in (GOLD, SILVER), "horses are gold or silver")
                types.append((HW, f"horse_{METALS[metal]}_{n}", n, metal, "horse", (), 0))
            else:
                check(c["kind"] == "weapon", f"horse_weapon_cards.kind {c['kind']!r}: horse or weapon")
                types.append((HW, f"weapon_{n}", n, -1, "weapon", (), 0))
            counts.append(_positive(c["count"], "horse_weapon_cards.count"))
        for c in d["stadium_cards"]["cards"]:
            if "colour" in c:
                col = _index(self.colours, c["colour"], "stadium_cards.colour")
                types.append((STADIUM, f"laurel_{self.colours[col]}", 0, -1, "colour", (col,), 0))
            else:
                vp = _positive(c["vp"], "stadium_cards.vp")
                types.append((STADIUM, f"laurel_vp_{vp}", 0, -1, "vp", (), vp))
            counts.append(_positive(c["count"], "stadium_cards.count"))
        for pair in d["theatre_cards"]["cards"]:
            check(len(pair) == 2 and pair[0] != pair[1], f"theatre card {pair} needs two colours")
            cols = tuple(_index(self.colours, c, "theatre_cards") for c in pair)
            types.append((THEATRE, f"theatre_{pair[0]}_{pair[1]}", 0, -1, "theatre", cols, 0))
            counts.append(1)
        keys = [t[1] for t in types]
        check(len(set(keys)) == len(keys), "two card types have the same key")
        self.type_class = tuple(t[0] for t in types)
        self.type_key = tuple(keys)
        self.type_id = {k: i for i, k in enumerate(keys)}
        self.type_symbols = tuple(t[2] for t in types)
        self.type_metal = tuple(t[3] for t in types)
        self.type_kind = tuple(t[4] for t in types)
        self.type_colours = tuple(t[5] for t in types)
        self.type_vp = tuple(t[6] for t in types)
        self.type_count = tuple(counts)
        card_type: list[int] = []
        for t, n in enumerate(counts):
            card_type += [t] * n
        self.card_type = tuple(card_type)
        self.n_cards = len(card_type)
        self.n_types = len(types)
        self.class_cards = tuple(tuple(c for c in range(self.n_cards) if types[card_type[c]][0] == k)
                                 for k in range(4))
        self.class_types = tuple(tuple(t for t in range(self.n_types) if types[t][0] == k)
                                 for k in range(4))
        check(len(self.class_cards[STADIUM]) >= 2 * self.rounds,
              "the stadium deck needs two cards per round")
        check(len(self.class_cards[THEATRE]) >= self.rounds, "the theatre deck needs a card per round")
        check(len(self.class_cards[HW]) >= self.display_size, "too few horse/weapon cards for the display")
        # which types add strength where: arena (slaves and weapons), stadium by side metal
        self.arena_types = tuple(t for t in range(self.n_types)
                                 if types[t][4] in ("slave", "weapon"))
        self.slave_type = {types[t][2]: t for t in range(self.n_types) if types[t][0] == SLAVE}
        self.max_slave_symbols = max(self.slave_type)  # what an unseen slave card may show
        self.horse_types = {m: tuple(t for t in range(self.n_types)
                                     if types[t][4] == "horse" and types[t][3] == m)
                            for m in (GOLD, SILVER)}

    def _mercatus(self, m: dict[str, Any]) -> None:
        self.dolus_dice = _positive(m["dolus_dice"], "mercatus.dolus_dice")
        self.pecunia_vp = int(m["pecunia_vp"])
        self.exchanges = []
        for i, ex in enumerate(m["exchanges"]):
            give = _metals(ex["give"], f"mercatus.exchanges[{i}].give")
            get = _metals(ex["get"], f"mercatus.exchanges[{i}].get")
            check(sum(give) > 0 and sum(get) > 0, f"exchange {i + 1} must give and get coins")
            check(all(not (give[k] and get[k]) for k in range(3)),
                  f"exchange {i + 1} gives and gets the same metal")
            self.exchanges.append((give, get))
        self.exchanges = tuple(self.exchanges)
        self.arma_price = _metals(m["arma_price"], "mercatus.arma_price")
        self.servi = tuple((_index(METALS, s["metal"], "mercatus.servi"), _positive(s["max"], "servi.max"))
                           for s in m["servi"])
        self.potentia_dice = _positive(m["potentia_dice"], "mercatus.potentia_dice")
        check(self.potentia_dice <= self.blue_dice, "Potentia cannot hand out more blue dice than exist")

    def _forum(self, f: dict[str, Any]) -> None:
        self.forum_fields = tuple((_positive(x["builds"], "forum.fields.builds"), bool(x["score"]))
                                  for x in f["fields"])
        plots = []
        for i, p in enumerate(f["plots"]):
            where = f"forum.plots[{i}]"
            kind = _index(PLOT_KINDS, p["kind"], where)
            cost = p["cost"]
            unknown = set(cost) - set(METALS) - {"slaves"}
            check(not unknown, f"{where}.cost: unknown part(s) {sorted(unknown)}")
            coins = _metals({k: v for k, v in cost.items() if k != "slaves"}, f"{where}.cost")
            slaves = int(cost.get("slaves", 0))
            check(slaves >= 0, f"{where}: slaves must not be negative")
            colour = _index(self.colours, p["colour"], where) if kind == VILLA else -1
            check(kind == VILLA or "colour" not in p, f"{where}: only villas have a colour")
            income = _metals(p.get("income", {}), f"{where}.income") if kind == BANK else (0, 0, 0)
            yield_vp = int(p.get("yield_vp", 0)) if kind == WORKSHOP else 0
            check(kind != BANK or sum(income) > 0, f"{where}: a bank needs an income")
            check(kind != WORKSHOP or yield_vp > 0, f"{where}: a workshop needs yield_vp")
            plots.append((kind, colour, int(p["vp"]), coins, slaves, yield_vp, income))
        check(len(plots) > 0, "forum.plots is empty")
        self.plots = tuple(plots)
        self.plot_kind = tuple(p[0] for p in plots)
        self.plot_colour = tuple(p[1] for p in plots)
        self.plot_vp = tuple(p[2] for p in plots)
        self.plot_cost = tuple(p[3] for p in plots)
        self.plot_slaves = tuple(p[4] for p in plots)
        self.plot_yield = tuple(p[5] for p in plots)
        self.plot_income = tuple(p[6] for p in plots)
        self.max_plot_slaves = max(self.plot_slaves)

    def _fields(self) -> None:
        """Every action field, in resolution order: (name, district, kind, param, value).

        ``param``: the display slot (arma), the servi row, the side metal (stadium), the forum
        field index or the port metal; ``value``: printed strength (arena, stadium)."""
        fields: list[tuple[str, int, int, int, int]] = [
            ("dolus", MERCATUS, DOLUS, 0, 0), ("pecunia", MERCATUS, PECUNIA, 0, 0)]
        fields += [(f"arma{i + 1}", MERCATUS, ARMA, i, 0) for i in range(self.display_size)]
        fields += [(f"servi{i + 1}", MERCATUS, SERVI, i, 0) for i in range(len(self.servi))]
        fields.append(("potentia", MERCATUS, POTENTIA, 0, 0))
        fields += [(f"arena{i + 1}", ARENA_D, ARENA, 0, v) for i, v in enumerate(self.arena_fields)]
        for side in (GOLD, SILVER):
            fields += [(f"{METALS[side]}{i + 1}", STADIUM_D, RACE, side, v)
                       for i, v in enumerate(self.stadium_fields[side])]
        fields.append(("theatrum", THEATRUM_D, THEATRUM, 0, 0))
        fields += [(f"forum{i + 1}", FORUM_D, FORUM, i, 0) for i in range(len(self.forum_fields))]
        fields.append(("latro", PORTUS_D, LATRO, 0, 0))
        fields += [(f"portus_{METALS[m]}", PORTUS_D, PORT, m, 0) for m in self.port_metals]
        self.fields = tuple(fields)
        self.field_name = tuple(f[0] for f in fields)
        self.field_id = {f[0]: i for i, f in enumerate(fields)}
        self.field_district = tuple(f[1] for f in fields)
        self.field_kind = tuple(f[2] for f in fields)
        self.field_param = tuple(f[3] for f in fields)
        self.field_value = tuple(f[4] for f in fields)
        self.n_fields = len(fields)
        # fields whose only condition is to be free (the others: stadium sides, port, arma, theatre)
        self.field_simple = tuple(f[2] in (DOLUS, PECUNIA, SERVI, POTENTIA, ARENA, FORUM, LATRO)
                                  for f in fields)

        def of(kind: int) -> tuple[int, ...]:
            return tuple(i for i, f in enumerate(fields) if f[2] == kind)

        self.f_dolus, self.f_pecunia, self.f_potentia = of(DOLUS)[0], of(PECUNIA)[0], of(POTENTIA)[0]
        self.f_arma, self.f_servi, self.f_arena = of(ARMA), of(SERVI), of(ARENA)
        self.f_race = of(RACE)
        self.f_theatrum, self.f_latro = of(THEATRUM)[0], of(LATRO)[0]
        self.f_forum, self.f_port = of(FORUM), of(PORT)

    def provisional(self) -> list[str]:
        return provisional_components(self.data)


def _index(seq: Any, key: Any, where: str) -> int:
    try:
        return seq[key] if isinstance(seq, dict) else seq.index(key)
    except (KeyError, ValueError):
        raise ComponentsError(f"{where}: unknown name {key!r}") from None


def _positive(value: Any, where: str) -> int:
    number = int(value)
    check(number > 0, f"{where} must be a positive whole number, not {value!r}")
    return number


def _metals(coins: dict[str, Any], where: str) -> tuple[int, int, int]:
    """``{"gold": 1, "bronze": 2}`` -> (1, 0, 2), checked."""
    check(isinstance(coins, dict), f"{where} must be an object of metal: count")
    unknown = set(coins) - set(METALS)
    check(not unknown, f"{where}: unknown metal(s) {sorted(unknown)}; use gold, silver, bronze")
    out = tuple(int(coins.get(m, 0)) for m in METALS)
    check(min(out) >= 0, f"{where}: coin counts must not be negative")
    return out  # type: ignore[return-value]


DEFAULT = Components(DATA)


def load_components(path: str | Path) -> Components:
    """A corrected components file (JSON, same shape as ``DATA``), validated.

    Sections missing from the file keep the built-in values; a section given replaces only the
    fields it names. Raises :class:`ComponentsError` with a message naming the problem; the
    built-in data is never modified.
    """
    return DEFAULT.corrected(path)


def export_components(data: dict[str, Any] | None = None) -> str:
    """The component data as JSON (the built-in data by default): a starting point to correct."""
    return components_json(DATA if data is None else data)


def provisional_components(data: dict[str, Any] | None = None) -> list[str]:
    """One line per provisional value (section, field or entry) of the component data."""
    data = DATA if data is None else data
    out = []
    for name, section in data.items():
        out += provisional_section(name, section, reason="why", detail=_field_why)
    return out


def _field_why(section: dict[str, Any], field: str) -> str | None:
    return section.get(f"{field}_why")
