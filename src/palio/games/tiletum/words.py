"""Tiletum in words: every choice, prompt, log line, component and score, as messages.

The catalogs ``locale/en.po`` and ``locale/ja.po`` (domain ``tiletum``) give the text; Japanese
terms are the rulebook's (``shared/seeds/tiletum.ja.md``): 黄金・食料・羊毛・石材・鉄, 建築士・商人・
人物・契約・国王・ジョーカーの各アクション, 商館, 柱, 倉庫, 紋章, 助手, 職務, 履行, 大聖堂, 建設コスト
タイル, 不正トークン, 国王トラック, 見本市, 勝利点. Names the rulebook does not print (the character
illustrations and crest families of the provisional component data, see
``docs/components/tiletum.md``) are ours; a corrected components file with other names is
shown with the names it gives.

Glossary keys, as the browser renderer (``server/static/render/tiletum.js``) and the
observation name things:

==========================  ==================================================================
``tile:N``                  a bonus, contract or character tile by its id (the observation's
                            tile numbers; ``legend.tiles[N]``)
``spot:NAME``               a town or road space by its map name (``data-spot``)
``house:TOWN.N``            a house space by its label (``data-house``)
``cathedral:TOWN``          the cathedral site of a town
``cost:N``                  construction cost tile N (the observation's ``map.cost_tiles``)
``area:ACTION``             the wheel area of an action (``data-area``: architect, merchant,
                            character, contract, king, joker)
``king:N``                  step N of the King track, from 0 at the bottom (``king_step``)
``building:N``              building N of a player board, 1-6 from the left
``crest_space:N``           the crest space under building N
``contract_space:N``        contract space N of a player board, 1-6 from the left
``fair:N``                  fair tile N (the observation's ``fairs.tiles``)
``res:L``                   a resource by its letter g f w s i (also its die colour)
``crest:N``                 crest family N, as a player board's crests name it
``corruption``, ``storehouse``, ``king_tile``, ``roof``, ``wheel``  the things so named
==========================  ==================================================================

``why_illegal`` speaks to the seat to move (it may name that seat's own cards): show its
reason to that seat only. Prompt sections are the explicit ids of the headings of
``docs/rules/tiletum.md`` and ``tiletum.ja.md`` (``SECTIONS``, and each action's own name;
``tests/server/base/test_pages.py`` checks that each exists in both).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from functools import cache
from typing import TYPE_CHECKING, Any

from palio.core.i18n import lookup
from palio.core.words import ActionWords, GameWords, GlossaryEntry, Msg, Player, Prompt, ScoreRow
from palio.games.tiletum import actions as A
from palio.games.tiletum.components import (
    ACTIONS,
    ANY,
    CHAR_BONUSES,
    CHAR_TILE,
    CHARACTER,
    CONTRACT,
    CONTRACT_TILE,
    CREST,
    CREST_BONUSES,
    GOLD,
    HELPER,
    HELPER_EFFECTS,
    JOKER,
    KING,
    RES_LETTERS,
    STONE,
    Components,
)
from palio.games.tiletum.rules.common import (
    building_full,
    can_place_pillar,
    can_take,
    free_house_spaces,
    houses_on_map,
    pillars_on_map,
)
from palio.games.tiletum.state import (
    F_ACT,
    F_AREA,
    F_BLDG,
    F_DIE,
    F_HOUSE_ANY,
    F_JOKER,
    F_MOVE_ANY,
    F_PILLAR_ANY,
    F_RES,
    F_STEPS,
    F_SWAP,
    KINGTILE,
    PLAY,
)

if TYPE_CHECKING:
    from palio.core.game import Action, State
    from palio.games.tiletum.state import TiletumState

DOMAIN = "tiletum"

SECTIONS = {  # the explicit {#ids} of the headings, the same in both languages' pages
    "round": "round",
    "turn": "turn",
    "king_phase": "king-phase",
    "actions": "actions",
    "duties": "duties",
    "end": "end",
}
# each action has its own section, named as the action: architect, merchant, ..., joker

PIECES = {"arch": 0, "merch": 1}
PIECE_KEYS = ("architect", "merchant")


def m(key: str, **params: Any) -> Msg:
    """A message of this game's catalog."""
    return Msg(f"{DOMAIN}.{key}", params)


@cache
def _known(message_id: str) -> bool:
    return lookup(message_id, "en") is not None


def chain(items: Sequence[Msg], key: str = "join") -> Msg:
    """Messages run together: sentences (``join``), a list (``list``) or a sum (``plus``)."""
    if not items:
        return Msg("core.none")
    out = items[-1]
    for item in reversed(items[:-1]):
        out = m(key, first=item, rest=out)
    return out


# -- names of things ---------------------------------------------------------------------------
def res(r: int | str) -> Msg:
    """A resource by index (0-4) or letter."""
    letter = r if isinstance(r, str) else RES_LETTERS[r]
    return m(f"res.{letter}")


def amount(n: int, r: int | str) -> Msg:
    return m("amount", n=n, res=res(r))


def action_name(kind: int | str) -> Msg:
    name = kind if isinstance(kind, str) else ACTIONS[kind]
    return m(f"action.{name}")


def piece(index: int) -> Msg:
    return m(f"piece.{PIECE_KEYS[index]}")


def spot(c: Components, spot_id: int | str) -> Msg:
    """A town or a road space of the map, by id or by its map name."""
    name = spot_id if isinstance(spot_id, str) else c.spots[spot_id]
    roads = c.data["map"]["roads"]
    if name in roads:
        a, b = roads[name]
        return m("road", a=spot(c, a), b=spot(c, b))
    key = f"{DOMAIN}.town.{name}"
    return Msg(key) if _known(key) else m("town_named", name=name)


def house_space(c: Components, label: str) -> tuple[int, Msg]:
    """The town of a house space (``Genova.1``) and the space described in words."""
    index = c.house_id[label]
    town, least, vp, building = c.house_spaces[index]
    number = label.rpartition(".")[2]
    if building:
        bonus = m("house_bonus.building")
    elif vp:
        bonus = m("house_bonus.vp", vp=vp)
    else:
        bonus = m("house_bonus.none")
    return town, m("house_space", town=spot(c, town), number=int(number), bonus=bonus)


def family(c: Components, fam: int) -> Msg:
    name = c.crest_names[fam]
    key = f"{DOMAIN}.crest.{name}"
    return Msg(key) if _known(key) else m("crest_named", name=name)


def illustration(c: Components, illus: int) -> Msg:
    name = c.illustrations[illus][0]
    key = f"{DOMAIN}.who.{name}"
    return Msg(key) if _known(key) else m("who_named", name=name)


def cost_of(cost: Sequence[tuple[int, int]]) -> Msg:
    parts = [m("amount_any", n=n) if r == ANY else amount(n, r) for r, n in cost]
    return chain(parts, "plus")


def char_bonus(c: Components, tile: int) -> Msg:
    return m(f"bonus.{CHAR_BONUSES[c.tiles[tile][3]]}")


def helper_effect(c: Components, tile: int) -> Msg:
    info = c.tiles[tile]
    name = HELPER_EFFECTS[info[1]]
    if name == "joker":
        return m("helper.joker", ap=info[3])
    if name == "action":
        return m("helper.action", action=action_name(info[2]), ap=info[3])
    if name == "add_ap":
        return m("helper.add_ap", ap=info[3])
    if name == "gain":
        gold, vp = info[2], info[3]
        if gold and vp:
            return m("helper.gain_gold_vp", gold=gold, vp=vp)
        return m("helper.gain_gold", gold=gold) if gold else m("helper.gain_vp", vp=vp)
    if name == "any":
        return m("helper.any", n=info[2])
    return m(f"helper.{name}")


def tile_name(c: Components, tile: int) -> Msg:
    """A tile in a few words (labels, the log, the board)."""
    if tile < 0:
        return m("tile.none")
    info = c.tiles[tile]
    if info[0] == CREST:
        return m("tile.crest", family=family(c, info[1]))
    if info[0] == CONTRACT_TILE:
        if info[3]:
            return m(
                "tile.contract_extra",
                cost=cost_of(info[1]),
                vp=info[2],
                extra=m(f"extra.{info[3]}"),
            )
        return m("tile.contract", cost=cost_of(info[1]), vp=info[2])
    if info[0] == CHAR_TILE:
        return m("tile.character", who=illustration(c, info[1]), bonus=char_bonus(c, tile))
    return m("tile.helper", effect=helper_effect(c, tile))


def tile_text(c: Components, tile: int) -> Msg:
    """What a tile does, in a sentence or two (the glossary)."""
    info = c.tiles[tile]
    if info[0] == CREST:
        return m("tile_text.crest", family=family(c, info[1]))
    if info[0] == CONTRACT_TILE:
        extra = m(f"extra_text.{info[3]}")
        return m("tile_text.contract", cost=cost_of(info[1]), vp=info[2], extra=extra)
    if info[0] == CHAR_TILE:
        return m(
            "tile_text.character",
            who=illustration(c, info[1]),
            bonus=char_bonus(c, tile),
            action=action_name(info[2]),
        )
    return m("tile_text.helper", effect=helper_effect(c, tile))


def signed(vp: int) -> Msg:
    """A VP value of the King track: +3, 0, -2."""
    return m("vp_plus", vp=vp) if vp > 0 else m("vp_minus", vp=-vp) if vp < 0 else m("vp_zero")


def fair_condition(name: str) -> Msg:
    return m(f"fair.{name}")


# -- the words of the game ------------------------------------------------------------------
class TiletumWords(GameWords):
    """Tiletum's words for one components set (names come from its data)."""

    domain = DOMAIN

    def __init__(self, components: Components) -> None:
        self.c = components

    # actions ------------------------------------------------------------------------------
    def action(self, state: State, action: Action) -> ActionWords:
        s: TiletumState = state  # type: ignore[assignment]
        p = s.to_move
        assert p is not None
        top = s.stack[-1] if s.phase == PLAY and s.stack else None
        label, explain, group = _ACTION_WORDS[type(action)](s, p, top, action)
        return ActionWords(label, explain, group)

    # the decision now ---------------------------------------------------------------------
    def prompt(self, state: State) -> Prompt:
        s: TiletumState = state  # type: ignore[assignment]
        p = s.to_move
        assert p is not None
        who = Player(p)
        c = s.comp
        if s.phase == KINGTILE:
            key = "prompt.king_tile_last" if s.round == 4 else "prompt.king_tile"
            return Prompt(
                m(f"{key}.you", tile=tile_name(c, s.king_bonus)),
                m("prompt.king_tile.other", player=who),
                SECTIONS["king_phase"],
            )
        top = s.stack[-1]
        kind = top[0]
        if kind == F_DIE:
            return Prompt(m("prompt.die.you"), m("prompt.die.other", player=who), SECTIONS["turn"])
        if kind == F_ACT and top[4] and not top[2]:
            return Prompt(
                m("prompt.act_spent.you", action=action_name(top[1])),
                m("prompt.act_spent.other", player=who),
                SECTIONS["duties"],
            )
        if kind == F_ACT:
            key = "prompt.act" if top[4] else "prompt.extra"
            return Prompt(
                m(f"{key}.you", action=action_name(top[1]), ap=top[2]),
                m(f"{key}.other", player=who, action=action_name(top[1]), ap=top[2]),
                ACTIONS[top[1]],
            )
        if kind == F_JOKER:
            return Prompt(
                m("prompt.joker.you", ap=top[1]),
                m("prompt.joker.other", player=who),
                ACTIONS[JOKER],
            )
        if kind == F_AREA:
            tile = tile_name(c, s.area_bonus[top[1]])
            return Prompt(
                m("prompt.area.you", tile=tile),
                m("prompt.area.other", player=who, tile=tile),
                SECTIONS["turn"],
            )
        if kind == F_RES:
            return Prompt(
                m("prompt.res.you", n=top[1]),
                m("prompt.res.other", player=who, n=top[1]),
                SECTIONS["duties"],
            )
        if kind == F_SWAP:
            return Prompt(
                m("prompt.swap.you", n=top[1]),
                m("prompt.swap.other", player=who),
                SECTIONS["duties"],
            )
        if kind in (F_HOUSE_ANY, F_PILLAR_ANY):
            key = "prompt.house_any" if kind == F_HOUSE_ANY else "prompt.pillar_any"
            return Prompt(m(f"{key}.you"), m(f"{key}.other", player=who), SECTIONS["duties"])
        if kind == F_MOVE_ANY:
            return Prompt(
                m("prompt.move_any.you", piece=piece(top[1])),
                m("prompt.move_any.other", player=who, piece=piece(top[1])),
                SECTIONS["duties"],
            )
        if kind == F_STEPS:
            _, which, steps, place, _forced = top
            key = (
                "prompt.place_here"
                if not steps
                else "prompt.steps_place"
                if place
                else "prompt.steps"
            )
            return Prompt(
                m(f"{key}.you", piece=piece(which), n=steps),
                m("prompt.steps.other", player=who, piece=piece(which)),
                SECTIONS["actions"],
            )
        if kind == F_BLDG:
            return Prompt(
                m("prompt.building.you"),
                m("prompt.building.other", player=who),
                SECTIONS["actions"],
            )
        return Prompt(
            m("prompt.rooms.you", building=top[1] + 1),
            m("prompt.rooms.other", player=who),
            SECTIONS["actions"],
        )

    # the log ------------------------------------------------------------------------------
    def event(self, event: Mapping[str, Any]) -> Msg | None:
        describe = _EVENT_WORDS.get(event["kind"])
        if describe is None:
            return m("log.unknown")
        seat = event.get("seat")
        return describe(self.c, event, Player(seat) if seat is not None else None)

    # components ---------------------------------------------------------------------------
    def glossary(self) -> Sequence[GlossaryEntry]:
        return _glossary(self.c)

    # scores -------------------------------------------------------------------------------
    def scores(self, state: State) -> list[ScoreRow]:
        s: TiletumState = state  # type: ignore[assignment]
        return score_rows(s)

    def outcomes(self, state: State, seat: int) -> list[Msg]:
        """How many buildings ``seat`` completed (on its board, in plain view)."""
        s: TiletumState = state  # type: ignore[assignment]
        done = bin(s.completed[seat]).count("1")
        return [m("outcome.completed", n=done)] if done else []

    # why not ------------------------------------------------------------------------------
    def why_illegal(self, state: State, action: Action) -> Msg | None:
        s: TiletumState = state  # type: ignore[assignment]
        if s.is_over:
            return m("why.over")
        return _why(s, action)

    # the terminal picture -----------------------------------------------------------------
    def board(self, state: State, seat: int | None) -> list[Msg]:
        s: TiletumState = state  # type: ignore[assignment]
        lines = _board(s)
        if not s.is_over:
            lines.append(m("board.now", what=self.prompt(s).for_viewer(seat, s.to_move)))
        return lines


# -- actions: (state, seat, top frame or None, action) -> (label, explanation, group) ----------
def _ap_group(s: TiletumState, top: tuple) -> Msg:
    key = "group.action" if top[4] else "group.extra"
    return m(key, action=action_name(top[1]), ap=top[2])


def _group_of(s: TiletumState, top: tuple | None) -> Msg:
    """The group of an option of the frame on top (an action's AP, or a bonus being taken)."""
    if top is not None and top[0] == F_ACT:
        return _ap_group(s, top)
    return m("group.bonus")


def _cost(top: tuple | None, ap: int = 1) -> Msg:
    """What an option costs in the frame it is offered in."""
    if top is not None and top[0] == F_ACT:
        return m("cost.ap", ap=ap, left=top[2] - ap)
    if top is not None and top[0] == F_STEPS:
        return m("cost.step", left=max(0, top[2] - 1))
    return m("cost.bonus")


def _place_cost(top: tuple | None) -> Msg:
    """What placing a house or pillar costs: an AP of the action, or nothing (a bonus)."""
    if top is not None and top[0] == F_ACT:
        return _cost(top)
    if top is not None and top[0] in (F_HOUSE_ANY, F_PILLAR_ANY):
        return m("cost.crest_place")
    return m("cost.bonus")


def _die(s: TiletumState, p: int, top: tuple | None, a: A.TakeDie):
    c = s.comp
    area = (a.to - 1 + s.rotation) % 6
    kind = s.area_action[area]
    base = 7 - a.to
    bonus = s.bonus_ap[p][kind] if kind != JOKER else 0
    if bonus:
        group = m("group.area_bonus", action=action_name(kind), value=a.to, ap=base, bonus=bonus)
    else:
        group = m("group.area", action=action_name(kind), value=a.to, ap=base)
    colour = res(a.colour)
    shift = min(abs(a.to - a.value), 6 - abs(a.to - a.value))
    if shift:
        label = m(
            "act.die_shift",
            colour=colour,
            value=a.value,
            to=a.to,
            gold=2 * shift,
            action=action_name(kind),
            ap=base + bonus,
        )
    else:
        label = m(
            "act.die", colour=colour, value=a.value, action=action_name(kind), ap=base + bonus
        )
    parts = []
    if shift:
        parts.append(m("effect.pay_gold", gold=2 * shift, have=s.res[p][GOLD]))
    parts.append(
        m("effect.gain_swap", n=a.to) if s.swap else m("effect.gain", what=amount(a.to, a.colour))
    )
    if kind == JOKER:
        parts.append(m("effect.joker", ap=base))
    elif bonus:
        parts.append(
            m("effect.action_bonus", action=action_name(kind), ap=base + bonus, bonus=bonus)
        )
    else:
        parts.append(m("effect.action", action=action_name(kind), ap=base))
    tile = s.area_bonus[area]
    if tile != -1 and can_take(s, p, tile):
        parts.append(m("effect.area_tile", tile=tile_name(c, tile)))
    return label, chain(parts), group


def _area(s: TiletumState, p: int, top: tuple | None, a: A.AreaBonus):
    assert top is not None
    c = s.comp
    tile = s.area_bonus[top[1]]
    if a.take:
        return (
            m("act.area_take", tile=tile_name(c, tile)),
            m(
                "explain.area_take",
                text=tile_text(c, tile),
                used=len(s.store[p]) + 1,
                room=c.storehouse,
            ),
            m("group.area_tile"),
        )
    return m("act.area_skip"), m("explain.area_skip"), m("group.area_tile")


def _joker(s: TiletumState, p: int, top: tuple | None, a: A.Joker):
    assert top is not None
    kind = ACTIONS.index(a.kind)
    bonus = s.bonus_ap[p][kind] if top[2] else 0
    ap = top[1] + bonus
    explain = (
        m("explain.joker_bonus", action=action_name(kind), ap=ap, bonus=bonus)
        if bonus
        else m("explain.joker", action=action_name(kind), ap=ap)
    )
    return m("act.joker", action=action_name(kind), ap=ap), explain, m("group.joker", ap=top[1])


def _move(s: TiletumState, p: int, top: tuple | None, a: A.Move):
    c = s.comp
    which = PIECES[a.piece]
    here = s.architect[p] if which == 0 else s.merchant[p]
    target = c.spot_id[a.spot]
    label = m("act.move", piece=piece(which), spot=spot(c, target))
    parts = (
        [_cost(top)]
        if top is None or top[0] != F_MOVE_ANY
        else [m("cost.crest_move", here=spot(c, here))]
    )
    parts.append(_spot_facts(s, p, which, target))
    return label, chain(parts), _group_of(s, top)


def _spot_facts(s: TiletumState, p: int, which: int, target: int) -> Msg:
    """What the piece finds where it goes: a place to build, a bonus tile, a fair."""
    c = s.comp
    if target >= c.n_towns:
        return m("facts.road")
    facts = []
    if which == 0:
        cath = c.town_cathedral[target]
        if cath == -1:
            facts.append(m("facts.no_cathedral"))
        elif can_place_pillar(s, p, cath):
            stone, vp = c.cost_tiles[s.cost[cath]]  # type: ignore[misc]
            facts.append(m("facts.pillar_space", stone=stone, vp=vp))
        else:
            facts.append(m("facts.no_pillar"))
    else:
        facts.append(
            m("facts.house_space") if free_house_spaces(s, p, target) else m("facts.no_house")
        )
    if s.map_bonus[target] != -1:
        facts.append(m("facts.bonus_tile", tile=tile_name(c, s.map_bonus[target])))
    if which == 1 and target in s.fair_towns[s.round - 1 :]:
        facts.append(m("facts.fair", round=s.fair_towns.index(target, s.round - 1) + 1))
    return chain(facts)


def _pillar(s: TiletumState, p: int, top: tuple | None, a: A.PlacePillar):
    c = s.comp
    town = c.spot_id[a.town]
    cath = c.town_cathedral[town]
    stone, vp = c.cost_tiles[s.cost[cath]]  # type: ignore[misc]
    houses, pillars = houses_on_map(s, p), pillars_on_map(s, p) + 1
    parts = [
        _place_cost(top),
        m("effect.pillar", pillars=pillars, houses=houses, product=houses * pillars),
        m(
            "effect.may_contribute",
            stone=stone,
            vp=vp + (s.cath_stack[cath][-1] if s.cath_stack[cath] else 0),
        ),
    ]
    return m("act.pillar", town=spot(c, town)), chain(parts), _group_of(s, top)


def _house(s: TiletumState, p: int, top: tuple | None, a: A.PlaceHouse):
    c = s.comp
    town, where = house_space(c, a.space)
    _, _least, vp, building = c.house_spaces[c.house_id[a.space]]
    houses, pillars = houses_on_map(s, p) + 1, pillars_on_map(s, p)
    parts = [
        _place_cost(top),
        m("effect.house", houses=houses, pillars=pillars, product=houses * pillars),
    ]
    if vp:
        parts.append(m("effect.vp", vp=vp))
    if building:
        parts.append(m("effect.building_bonus"))
    if town in s.fair_towns[s.round - 1 :]:
        parts.append(m("facts.fair", round=s.fair_towns.index(town, s.round - 1) + 1))
    several = (
        sum(
            1
            for i in c.town_house_spaces[town]
            if s.house_owner[i] == -1 and c.house_spaces[i][1] <= s.players
        )
        > 1
    )
    label = m("act.house_space", space=where) if several else m("act.house", town=spot(c, town))
    return label, chain(parts), _group_of(s, top)


def _map_bonus(s: TiletumState, p: int, top: tuple | None, a: A.MapBonus):
    assert top is not None
    c = s.comp
    town = s.architect[p] if top[1] == 0 else s.merchant[p]
    tile = s.map_bonus[town]
    return (
        m("act.map_bonus", town=spot(c, town), tile=tile_name(c, tile)),
        chain([_cost(top), tile_text(c, tile)]),
        _ap_group(s, top),
    )


def _take_character(s: TiletumState, p: int, top: tuple | None, a: A.TakeCharacter):
    assert top is not None
    c = s.comp
    tile = s.char_disp[a.slot - 1]
    return (
        m("act.take_character", tile=tile_name(c, tile)),
        chain(
            [
                _cost(top),
                m("effect.to_storehouse", used=len(s.store[p]) + 1, room=c.storehouse),
                tile_text(c, tile),
            ]
        ),
        _ap_group(s, top),
    )


def _refresh(s: TiletumState, p: int, top: tuple | None, a: A.RefreshCharacters):
    assert top is not None
    return m("act.refresh"), chain([_cost(top), m("effect.refresh")]), _ap_group(s, top)


def _room(s: TiletumState, p: int, top: tuple | None, a: A.PlaceCharacter):
    assert top is not None
    c = s.comp
    tile = s.store[p][a.slot - 1]
    b = a.building - 1
    parts = [_cost(top, a.floor), m("effect.bonus_now", bonus=char_bonus(c, tile))]
    rooms = s.rooms[p]
    empty = [i for i in c.room_index[b] if rooms[i] == -1]
    if len(empty) == 1:
        parts.append(m("effect.roof_house"))
        if s.crests[p][b] != -1:
            parts.append(
                m("effect.completes", rooms=c.rooms[b], action=action_name(c.tiles[tile][2]))
            )
    return (
        m("act.room", tile=tile_name(c, tile), building=a.building, floor=a.floor),
        chain(parts),
        _ap_group(s, top),
    )


def _take_contract(s: TiletumState, p: int, top: tuple | None, a: A.TakeContract):
    assert top is not None
    c = s.comp
    tile = s.contract_disp[a.slot - 1]
    ap = c.contract_slot_ap[a.slot - 1]
    return (
        m("act.take_contract", tile=tile_name(c, tile), ap=ap),
        chain(
            [
                _cost(top, ap),
                m("effect.to_storehouse", used=len(s.store[p]) + 1, room=c.storehouse),
                tile_text(c, tile),
            ]
        ),
        _ap_group(s, top),
    )


def _exchange(s: TiletumState, p: int, top: tuple | None, a: A.Exchange):
    assert top is not None
    parts = [_cost(top)]
    if not top[3]:
        parts.append(m("effect.first_exchange"))
    return (m("act.exchange", give=res(a.give), get=res(a.get)), chain(parts), _ap_group(s, top))


def _king(s: TiletumState, p: int, top: tuple | None, a: A.KingStep):
    assert top is not None
    vps = s.comp.king_vp
    ap = top[2]
    start = s.king_pos[p]
    end = min(len(vps) - 1, start + ap)
    parts = [m("effect.king", ap=ap, start=signed(vps[start]), end=signed(vps[end]))]
    if end - start < ap:
        parts.append(m("effect.king_top", lost=ap - (end - start)))
    return m("act.king", n=end - start), chain(parts), _ap_group(s, top)


def _choose(s: TiletumState, p: int, top: tuple | None, a: A.ChooseResource):
    assert top is not None
    if top[0] == F_SWAP:
        return (m("act.swap", what=amount(top[1], a.res)), m("explain.swap"), m("group.resource"))
    return m("act.res", res=res(a.res)), m("explain.res", n=top[1]), m("group.resource")


def _end(s: TiletumState, p: int, top: tuple | None, a: A.End):
    ap = top[2] if top is not None and top[0] == F_ACT else 0
    explain = m("explain.end_lost", ap=ap) if ap else m("explain.end")
    return m("act.end"), explain, m("group.finish")


def _done(s: TiletumState, p: int, top: tuple | None, a: A.Done):
    assert top is not None
    kind = top[0]
    if kind == F_ACT:
        return (
            m("act.done_extra", action=action_name(top[1])),
            m("explain.done_extra", ap=top[2]),
            m("group.finish"),
        )
    if kind == F_STEPS:
        return m("act.done_steps"), m("explain.done_steps"), m("group.finish")
    if kind in (F_HOUSE_ANY, F_PILLAR_ANY):
        key = "house" if kind == F_HOUSE_ANY else "pillar"
        return m(f"act.done_{key}_any"), m(f"explain.done_{key}_any"), m("group.finish")
    if kind == F_BLDG:
        return m("act.done_building"), m("explain.done_building"), m("group.finish")
    return m("act.done_rooms"), m("explain.done_rooms"), m("group.finish")


def _buy(s: TiletumState, p: int, top: tuple | None, a: A.Buy):
    gold = s.res[p][GOLD]
    return (
        m("act.buy", res=res(a.res)),
        m("explain.buy", before=gold, after=gold - 2),
        m("group.duties"),
    )


def _fulfil(s: TiletumState, p: int, top: tuple | None, a: A.Fulfil):
    c = s.comp
    tile = s.store[p][a.slot - 1]
    _kind, cost, vp, extra = c.tiles[tile]
    paid = cost_of([(r if r != ANY else RES_LETTERS.index(a.res), n) for r, n in cost])
    space = len(s.done[p])
    space_vp = c.contract_space_vp[space]
    parts = [
        m("effect.pay", what=paid),
        m("effect.fulfil_vp", vp=vp + space_vp, tile=vp, space=space_vp),
    ]
    if space < c.pillars_on_spaces:
        parts.append(m("effect.pillar_freed"))
    if extra:
        parts.append(m(f"extra_text.{extra}"))
    label = (
        m("act.fulfil_any", tile=tile_name(c, tile), res=res(a.res))
        if a.res
        else m("act.fulfil", tile=tile_name(c, tile))
    )
    return label, chain(parts), m("group.duties")


def _crest(s: TiletumState, p: int, top: tuple | None, a: A.PlaceCrest):
    c = s.comp
    tile = s.store[p][a.slot - 1]
    k = a.space - 1
    bonus = CREST_BONUSES[c.crest_bonus[k]]
    parts = [
        m("effect.pay", what=amount(c.crest_food[k], "f")),
        m("effect.crest_bonus", bonus=m(f"crest_bonus.{bonus}")),
    ]
    if c.rooms[k] and building_full(s, p, k):
        action = c.illustrations[_illustration_in(s, p, k)][1]
        parts.append(m("effect.completes", rooms=c.rooms[k], action=action_name(action)))
    elif not c.rooms[k]:
        parts.append(m("effect.completes_printed"))
    return (
        m("act.crest", family=family(c, c.tiles[tile][1]), building=a.space, food=c.crest_food[k]),
        chain(parts),
        m("group.duties"),
    )


def _illustration_in(s: TiletumState, p: int, b: int) -> int:
    for i in s.comp.room_index[b]:
        if s.rooms[p][i] != -1:
            return s.comp.tiles[s.rooms[p][i]][1]
    return 0


def _contribute(s: TiletumState, p: int, top: tuple | None, a: A.Contribute):
    c = s.comp
    town = c.spot_id[a.town]
    cath = c.town_cathedral[town]
    stone, vp = c.cost_tiles[s.cost[cath]]  # type: ignore[misc]
    tile_vp = s.cath_stack[cath][-1] if s.cath_stack[cath] else 0
    return (
        m("act.contribute", town=spot(c, town), stone=stone),
        m("explain.contribute", vp=vp + tile_vp, cost=vp, tile=tile_vp),
        m("group.duties"),
    )


def _helper(s: TiletumState, p: int, top: tuple | None, a: A.UseHelper):
    c = s.comp
    tile = s.store[p][a.slot - 1]
    return (m("act.helper", effect=helper_effect(c, tile)), m("explain.helper"), m("group.duties"))


def _king_tile(s: TiletumState, p: int, top: tuple | None, a: A.KingTile):
    c = s.comp
    tile = s.king_bonus
    if a.choice == "take":
        return (
            m("act.king_tile_take", tile=tile_name(c, tile)),
            tile_text(c, tile),
            m("group.king_phase"),
        )
    if a.choice == "vp":
        return (
            m("act.king_tile_vp", vp=c.king_final_vp),
            m("explain.king_tile_vp"),
            m("group.king_phase"),
        )
    return m("act.king_tile_discard"), m("explain.king_tile_discard"), m("group.king_phase")


def _building(s: TiletumState, p: int, top: tuple | None, a: A.ChooseBuilding):
    c = s.comp
    b = a.building - 1
    tiles = [s.rooms[p][i] for i in c.room_index[b] if s.rooms[p][i] != -1]
    return (
        m("act.building", building=a.building),
        m("explain.building", bonuses=chain([char_bonus(c, t) for t in tiles], "list")),
        m("group.bonus"),
    )


def _floor(s: TiletumState, p: int, top: tuple | None, a: A.RoomBonus):
    assert top is not None
    c = s.comp
    tile = s.rooms[p][c.room_index[top[1]][a.floor - 1]]
    return (
        m("act.floor", floor=a.floor, bonus=char_bonus(c, tile)),
        m("explain.floor", who=illustration(c, c.tiles[tile][1])),
        m("group.bonus"),
    )


_ACTION_WORDS = {
    A.TakeDie: _die,
    A.AreaBonus: _area,
    A.Joker: _joker,
    A.Move: _move,
    A.PlacePillar: _pillar,
    A.PlaceHouse: _house,
    A.MapBonus: _map_bonus,
    A.TakeCharacter: _take_character,
    A.RefreshCharacters: _refresh,
    A.PlaceCharacter: _room,
    A.TakeContract: _take_contract,
    A.Exchange: _exchange,
    A.KingStep: _king,
    A.ChooseResource: _choose,
    A.End: _end,
    A.Done: _done,
    A.Buy: _buy,
    A.Fulfil: _fulfil,
    A.PlaceCrest: _crest,
    A.Contribute: _contribute,
    A.UseHelper: _helper,
    A.KingTile: _king_tile,
    A.ChooseBuilding: _building,
    A.RoomBonus: _floor,
}


# -- why an action is not legal now ------------------------------------------------------------
def _why(s: TiletumState, a: Action) -> Msg | None:
    c = s.comp
    if s.phase == KINGTILE:
        if isinstance(a, A.KingTile):
            if a.choice == "vp":
                return m("why.king_vp_round4")
            return m("why.king_tile_cannot_store")
        return m("why.king_tile_first")
    p = s.to_move
    assert p is not None
    top = s.stack[-1]
    if isinstance(a, A.KingTile):
        return m("why.not_king_phase")
    if isinstance(a, A.Buy):
        return (
            m("why.gold_for_buy", have=s.res[p][GOLD])
            if s.res[p][GOLD] < 2
            else m("why.finish_choice")
        )
    if isinstance(a, A.Fulfil | A.PlaceCrest | A.UseHelper | A.Contribute):
        if top[0] not in (F_DIE, F_ACT):
            return m("why.finish_choice")
        return _why_duty(s, p, a)
    if isinstance(a, A.TakeDie):
        if top[0] != F_DIE:
            return m("why.die_taken")
        if not s.wheel[(a.value - 1) * 5 + RES_LETTERS.index(a.colour)]:
            return m("why.no_such_die", colour=res(a.colour), value=a.value)
        shift = min(abs(a.to - a.value), 6 - abs(a.to - a.value))
        return m("why.shift_gold", to=a.to, gold=2 * shift, have=s.res[p][GOLD])
    if top[0] == F_DIE:
        return m("why.take_die_first")
    if isinstance(a, A.Move | A.PlacePillar | A.PlaceHouse | A.MapBonus):
        return _why_piece(s, p, top, a)
    if top[0] != F_ACT:
        return m("why.finish_choice")
    kind = top[1]
    needs = {
        A.TakeCharacter: CHARACTER,
        A.RefreshCharacters: CHARACTER,
        A.PlaceCharacter: CHARACTER,
        A.TakeContract: CONTRACT,
        A.Exchange: CONTRACT,
        A.KingStep: KING,
    }
    wanted = needs.get(type(a))
    if wanted is not None and wanted != kind:
        return m("why.other_action", action=action_name(wanted), current=action_name(kind))
    if isinstance(a, A.End | A.Done):
        if isinstance(a, A.End) and not top[4]:
            return m("why.done_not_end")
        if isinstance(a, A.Done) and top[4]:
            return m("why.end_not_done")
        return m("why.king_owed", ap=top[2])
    if isinstance(a, A.KingStep):
        return m("why.king_top")
    if isinstance(a, A.PlaceCharacter):
        return _why_room(s, p, top, a)
    if isinstance(a, A.TakeContract):
        tile = s.contract_disp[a.slot - 1]
        ap = c.contract_slot_ap[a.slot - 1]
        if tile == -1:
            return m("why.empty_slot", slot=a.slot)
        if ap > top[2]:
            return m("why.ap", ap=ap, left=top[2])
        return m("why.storehouse_or_space")
    if isinstance(a, A.TakeCharacter):
        if s.char_disp[a.slot - 1] == -1:
            return m("why.empty_slot", slot=a.slot)
        return m("why.storehouse_full", room=c.storehouse)
    if isinstance(a, A.Exchange):
        if a.give == a.get:
            return m("why.exchange_same")
        return m("why.have_none", res=res(a.give))
    return None


def _why_duty(s: TiletumState, p: int, a: Action) -> Msg | None:
    c = s.comp
    store = s.store[p]
    if isinstance(a, A.Contribute):
        town = c.spot_id.get(a.town, -1)
        cath = c.town_cathedral[town] if 0 <= town < c.n_towns else -1
        if cath == -1:
            return m("why.no_cathedral", town=spot(c, a.town))
        if p not in s.pillar_owner[cath]:
            return m("why.no_pillar_of_yours", town=spot(c, town))
        if s.contributed[p] >> cath & 1:
            return m("why.contributed", town=spot(c, town))
        cost = c.cost_tiles[s.cost[cath]]
        if cost is not None:
            return m("why.stone", stone=cost[0], have=s.res[p][STONE])
        return None
    slot = a.slot  # type: ignore[attr-defined]
    if slot > len(store):
        return m("why.no_slot", slot=slot, n=len(store))
    tile = store[slot - 1]
    info = c.tiles[tile]
    if isinstance(a, A.Fulfil):
        if info[0] != CONTRACT_TILE:
            return m("why.not_a_contract", slot=slot)
        if len(s.done[p]) >= c.contract_spaces:
            return m("why.no_contract_space")
        return m("why.cannot_pay", cost=cost_of(info[1]))
    if isinstance(a, A.PlaceCrest):
        if info[0] != CREST:
            return m("why.not_a_crest", slot=slot)
        k = a.space - 1
        if s.crests[p][k] != -1:
            return m("why.crest_taken", building=a.space)
        return m("why.food", food=c.crest_food[k], have=s.res[p][1])
    if isinstance(a, A.UseHelper):
        if info[0] != HELPER:
            return m("why.not_a_helper", slot=slot)
        return m("why.helper_moment")
    return None


def _why_piece(s: TiletumState, p: int, top: tuple, a: Action) -> Msg | None:
    c = s.comp
    if isinstance(a, A.Move):
        which = PIECES[a.piece]
        here = s.architect[p] if which == 0 else s.merchant[p]
        if top[0] == F_ACT and top[1] != which:
            return m("why.other_action", action=action_name(which), current=action_name(top[1]))
        if top[0] not in (F_ACT, F_STEPS, F_MOVE_ANY):
            return m("why.finish_choice")
        if top[0] == F_STEPS and top[1] != which:
            return m("why.other_piece", piece=piece(top[1]))
        if c.spot_id.get(a.spot) == here:
            return m("why.already_there", piece=piece(which), spot=spot(c, here))
        return m("why.not_adjacent", piece=piece(which), spot=spot(c, a.spot), here=spot(c, here))
    if isinstance(a, A.PlacePillar):
        town = c.spot_id[a.town]
        cath = c.town_cathedral[town]
        if top[0] == F_ACT and top[1] != 0:
            return m("why.other_action", action=action_name(0), current=action_name(top[1]))
        if top[0] != F_PILLAR_ANY and s.architect[p] != town:
            return m("why.piece_not_there", piece=piece(0), spot=spot(c, town))
        return _why_no_pillar(s, p, cath, town)
    if isinstance(a, A.PlaceHouse):
        town = c.house_spaces[c.house_id[a.space]][0]
        if top[0] == F_ACT and top[1] != 1:
            return m("why.other_action", action=action_name(1), current=action_name(top[1]))
        if top[0] != F_HOUSE_ANY and s.merchant[p] != town:
            return m("why.piece_not_there", piece=piece(1), spot=spot(c, town))
        return _why_no_house(s, p, c.house_id[a.space], town)
    if top[0] != F_ACT or top[1] not in (0, 1):
        return m("why.map_bonus_action")
    return m("why.no_map_bonus")


def _why_no_pillar(s: TiletumState, p: int, cath: int, town: int) -> Msg:
    c = s.comp
    if c.cost_tiles[s.cost[cath]] is None:
        return m("why.cathedral_unavailable", town=spot(c, town))
    if s.pillars[p] <= 0:
        return m("why.no_pillar_left")
    if p in s.pillar_owner[cath]:
        return m("why.pillar_there", town=spot(c, town))
    return m("why.pillar_full", town=spot(c, town))


def _why_no_house(s: TiletumState, p: int, space: int, town: int) -> Msg:
    c = s.comp
    if s.houses[p] <= 0:
        return m("why.no_house_left")
    if any(s.house_owner[i] == p for i in c.town_house_spaces[town]):
        return m("why.house_there", town=spot(c, town))
    if c.house_spaces[space][1] > s.players:
        return m("why.house_marked", players=c.house_spaces[space][1])
    return m("why.house_taken")


def _why_room(s: TiletumState, p: int, top: tuple, a: A.PlaceCharacter) -> Msg:
    c = s.comp
    store = s.store[p]
    if a.slot > len(store) or c.tiles[store[a.slot - 1]][0] != CHAR_TILE:
        return m("why.not_a_character", slot=a.slot)
    b = a.building - 1
    if a.floor > len(c.room_index[b]):
        return m("why.no_floor", building=a.building, floor=a.floor)
    if s.rooms[p][c.room_index[b][a.floor - 1]] != -1:
        return m("why.room_taken", building=a.building, floor=a.floor)
    if a.floor > top[2]:
        return m("why.ap", ap=a.floor, left=top[2])
    return m("why.illustration")


# -- the log: (components, event view, acting seat) -> message -------------------------------------
def _ev(key: str, **fields: str):
    """A log line naming the actor and some fields of the event, each turned into words."""

    def describe(c: Components, e: Mapping[str, Any], who: Player | None) -> Msg:
        params: dict[str, Any] = {"player": who}
        for name, how in fields.items():
            value = e.get(name)
            params[name] = _FIELD[how](c, value)
        return m(key, **params)

    return describe


def log_tile(c: Components, tile: int) -> Msg:
    """A tile as the log names it: its kind and the gist of it."""
    if tile < 0:
        return m("tile.none")
    info = c.tiles[tile]
    if info[0] == CHAR_TILE:
        return m(
            "short.character",
            who=illustration(c, info[1]),
            bonus=m(f"bonus_short.{CHAR_BONUSES[info[3]]}"),
        )
    if info[0] == CONTRACT_TILE:
        return _short(c, tile)
    if info[0] == CREST:
        return tile_name(c, tile)
    return m("log_helper", effect=helper_effect(c, tile))


_FIELD = {
    "int": lambda c, v: int(v or 0),
    "tile": lambda c, v: log_tile(c, int(v)),
    "effect": lambda c, v: helper_effect(c, int(v)),
    "spot": lambda c, v: spot(c, str(v)),
    "res": lambda c, v: res(str(v)),
    "action": lambda c, v: action_name(str(v)),
    "piece": lambda c, v: piece(PIECES[str(v)]),
    "house": lambda c, v: house_space(c, str(v))[1],
}


def _ev_setup(c: Components, e: Mapping[str, Any], who: Player | None) -> Msg:
    order = [Player(p) for p in e.get("order", [])]
    return m("log.setup", n=e.get("players", len(order)), order=chain(order, "list"))


def _ev_dice(c: Components, e: Mapping[str, Any], who: Player | None) -> Msg:
    dice = [
        m("log.dice_one", n=n, colour=res(col), value=value) for value, col, n in e.get("dice", [])
    ]
    return m("log.dice", round=e.get("round", 0), dice=chain(dice, "list"))


def _ev_corruption(c: Components, e: Mapping[str, Any], who: Player | None) -> Msg:
    value = e.get("value", 0)
    key = "log.corruption" if value else "log.corruption_none"
    return m(key, turn=e.get("turn", 0), n=value)


def _ev_die(c: Components, e: Mapping[str, Any], who: Player | None) -> Msg:
    if e.get("to") != e.get("value"):
        return m(
            "log.die_shift",
            player=who,
            colour=res(e["colour"]),
            value=e["value"],
            to=e["to"],
            action=action_name(e["action"]),
            ap=e.get("ap", 0),
        )
    return m(
        "log.die",
        player=who,
        colour=res(e["colour"]),
        value=e["value"],
        action=action_name(e["action"]),
        ap=e.get("ap", 0),
    )


def _ev_house(c: Components, e: Mapping[str, Any], who: Player | None) -> Msg:
    town = house_space(c, str(e["space"]))[0]
    if e.get("vp"):
        return m("log.house_vp", player=who, town=spot(c, town), vp=e["vp"])
    return m("log.house", player=who, town=spot(c, town))


def _ev_completed(c: Components, e: Mapping[str, Any], who: Player | None) -> Msg:
    if e.get("bonus_ap"):
        return m(
            "log.completed",
            player=who,
            building=e["building"],
            ap=e["bonus_ap"],
            action=action_name(e["action"]),
        )
    return m("log.completed_printed", player=who, building=e["building"])


def _ev_king_step(c: Components, e: Mapping[str, Any], who: Player | None) -> Msg:
    vp = c.king_vp[int(e.get("step", 0))]
    return m("log.king_step", player=who, n=e.get("steps", 1), vp=signed(vp))


def _ev_resource(c: Components, e: Mapping[str, Any], who: Player | None) -> Msg:
    return m("log.resource", player=who, what=amount(int(e.get("n", 1)), str(e["res"])))


def _ev_king_tile(c: Components, e: Mapping[str, Any], who: Player | None) -> Msg:
    choice = e.get("choice")
    if choice == "take":
        return m("log.king_tile_take", player=who, tile=log_tile(c, int(e["tile"])))
    if choice == "vp":
        return m("log.king_tile_vp", player=who, vp=c.king_final_vp)
    return m("log.king_tile_discard", player=who, tile=log_tile(c, int(e["tile"])))


def _per_seat(values: Sequence[int]) -> Msg:
    return chain(
        [m("log.seat_vp", player=Player(p), vp=signed(int(v))) for p, v in enumerate(values)],
        "list",
    )


def _ev_king_vp(c: Components, e: Mapping[str, Any], who: Player | None) -> Msg:
    return m("log.king_vp", scores=_per_seat(e.get("vp", [])))


def _ev_turn_order(c: Components, e: Mapping[str, Any], who: Player | None) -> Msg:
    return m("log.turn_order", order=chain([Player(p) for p in e.get("order", [])], "list"))


def _ev_fair(c: Components, e: Mapping[str, Any], who: Player | None) -> Msg:
    return m(
        "log.fair",
        town=spot(c, str(e["town"])),
        condition=fair_condition(str(e["condition"])),
        scores=_per_seat(e.get("vp", [])),
    )


def _ev_final(c: Components, e: Mapping[str, Any], who: Player | None) -> Msg:
    parts = [
        m("log.final_part", player=Player(p), built=part[0], buildings=part[1], resources=part[2])
        for p, part in enumerate(e.get("parts", []))
    ]
    return m("log.final", parts=chain(parts))


_EVENT_WORDS = {
    "setup": _ev_setup,
    "dice": _ev_dice,
    "corruption": _ev_corruption,
    "die": _ev_die,
    "area_bonus": _ev("log.area_bonus", tile="tile"),
    "joker": _ev("log.joker", action="action"),
    "move": _ev("log.move", piece="piece", spot="spot"),
    "pillar": _ev("log.pillar", town="spot"),
    "house": _ev_house,
    "map_bonus": _ev("log.map_bonus", town="spot", tile="tile"),
    "take_character": _ev("log.take_character", tile="tile"),
    "refresh_characters": _ev("log.refresh"),
    "character": _ev("log.character", tile="tile", building="int", floor="int"),
    "room_bonus": _ev("log.room_bonus", tile="tile", building="int", floor="int"),
    "roof_house": _ev("log.roof_house", building="int"),
    "completed": _ev_completed,
    "take_contract": _ev("log.take_contract", tile="tile"),
    "exchange": _ev("log.exchange", give="res", get="res"),
    "king_step": _ev_king_step,
    "resource": _ev_resource,
    "end_turn": _ev("log.end_turn"),
    "buy": _ev("log.buy", res="res"),
    "fulfil": _ev("log.fulfil", tile="tile", vp="int"),
    "crest": _ev("log.crest", tile="tile", space="int"),
    "cathedral": _ev("log.cathedral", town="spot", vp="int"),
    "helper": _ev("log.helper", tile="effect"),
    "king_tile": _ev_king_tile,
    "king_final_vp": _ev("log.king_final_vp", vp="int"),
    "king_vp": _ev_king_vp,
    "turn_order": _ev_turn_order,
    "fair": _ev_fair,
    "final_scoring": _ev_final,
}


# -- the score breakdown, read from the log -------------------------------------------------------
SCORE_ROWS = (
    "start",
    "king",
    "fairs",
    "contracts",
    "cathedrals",
    "houses",
    "bonuses",
    "final_built",
    "final_buildings",
    "final_resources",
)


def _gains(c: Components, e: Any) -> list[tuple[int, str, int]]:
    """The VP an event gives, as (seat, category, VP) triples (public events only)."""
    kind = e.kind
    seat = e.seat
    data = e.public
    if kind == "house" and data.get("vp"):
        return [(seat, "houses", int(data["vp"]))]
    if kind == "fulfil":
        return [(seat, "contracts", int(data["vp"]))]
    if kind == "cathedral":
        return [(seat, "cathedrals", int(data["vp"]))]
    if kind in ("character", "room_bonus"):
        name = CHAR_BONUSES[c.tiles[int(data["tile"])][3]]
        return [(seat, "bonuses", int(name[2]))] if name in ("vp2", "vp3") else []
    if kind == "crest":
        bonus = CREST_BONUSES[c.crest_bonus[int(data["space"]) - 1]]
        return [(seat, "bonuses", 5)] if bonus == "vp5" else []
    if kind == "helper":
        info = c.tiles[int(data["tile"])]
        return [(seat, "bonuses", info[3])] if HELPER_EFFECTS[info[1]] == "gain" and info[3] else []
    if kind == "king_tile" and data.get("choice") == "vp":
        return [(seat, "king", c.king_final_vp)]
    if kind == "king_final_vp":
        return [(seat, "king", int(data["vp"]))]
    if kind == "king_vp":
        return [(p, "king", int(v)) for p, v in enumerate(data["vp"])]
    if kind == "fair":
        return [(p, "fairs", int(v)) for p, v in enumerate(data["vp"])]
    if kind == "final_scoring":
        out = []
        for p, part in enumerate(data["parts"]):
            out += [
                (p, "final_built", part[0]),
                (p, "final_buildings", part[1]),
                (p, "final_resources", part[2]),
            ]
        return out
    return []


def score_rows(s: TiletumState) -> list[ScoreRow]:
    """VP by source, read from the log. The score never goes below 0: a loss that would take
    it lower is cut, and the row "kept from going below 0" gives back what was cut, so the rows
    add up to the score exactly. Everything counted here is public."""
    c = s.comp
    players = s.players
    rows = {key: [0] * players for key in SCORE_ROWS}
    floor = [0] * players
    running = [c.start_vp] * players
    rows["start"] = [c.start_vp] * players
    for event in s.log.to_list():
        for seat, key, vp in _gains(c, event):
            rows[key][seat] += vp
            after = running[seat] + vp
            if after < 0:
                floor[seat] -= after
                after = 0
            running[seat] = after
    out = [ScoreRow(m(f"score.{key}"), tuple(rows[key])) for key in SCORE_ROWS]
    if any(floor):
        out.append(ScoreRow(m("score.floor"), tuple(floor)))
    missing = [s.vp[p] - running[p] for p in range(players)]
    if any(missing):  # a gain the log does not show: never expected, kept visible if it happens
        out.append(ScoreRow(m("score.other"), tuple(missing)))
    return out


# -- the glossary ---------------------------------------------------------------------------------
@cache
def _glossary(c: Components) -> tuple[GlossaryEntry, ...]:
    out: list[GlossaryEntry] = []
    for tile in range(len(c.tiles)):
        out.append(GlossaryEntry(f"tile:{tile}", tile_name(c, tile), tile_text(c, tile)))
    roads = c.data["map"]["roads"]
    for i, name in enumerate(c.spots):
        text = m("glossary.road") if name in roads else _town_text(c, i)
        out.append(GlossaryEntry(f"spot:{name}", spot(c, i), text))
    for label in c.house_label:
        index = c.house_id[label]
        _town, least, _vp, _b = c.house_spaces[index]
        where = house_space(c, label)[1]
        text = (
            m("glossary.house_space_marked", players=least)
            if least > 2
            else m("glossary.house_space")
        )
        out.append(GlossaryEntry(f"house:{label}", where, text))
    for k, town in enumerate(c.cathedral_towns):
        out.append(
            GlossaryEntry(
                f"cathedral:{c.spots[town]}",
                m("glossary.cathedral.name", town=spot(c, town)),
                m(
                    "glossary.cathedral.text",
                    tiles=chain([m("vp", vp=v) for v in c.cathedral_tiles[k]], "list"),
                ),
            )
        )
    for i, cost in enumerate(c.cost_tiles):
        if cost is None:
            out.append(
                GlossaryEntry(
                    f"cost:{i}", m("glossary.cost_none.name"), m("glossary.cost_none.text")
                )
            )
        else:
            out.append(
                GlossaryEntry(
                    f"cost:{i}",
                    m("glossary.cost.name", stone=cost[0], vp=cost[1]),
                    m("glossary.cost.text", stone=cost[0], vp=cost[1]),
                )
            )
    for name in ACTIONS:
        out.append(GlossaryEntry(f"area:{name}", action_name(name), m(f"glossary.action.{name}")))
    for step, vp in enumerate(c.king_vp):
        key = (
            "glossary.king_step_top"
            if step == len(c.king_vp) - 1
            else "glossary.king_step_red"
            if vp < 0
            else "glossary.king_step"
        )
        out.append(
            GlossaryEntry(
                f"king:{step}", m("glossary.king_step.name", vp=signed(vp)), m(key, vp=signed(vp))
            )
        )
    for b, rooms in enumerate(c.rooms):
        text = m("glossary.building", rooms=rooms) if rooms else m("glossary.building_printed")
        out.append(
            GlossaryEntry(f"building:{b + 1}", m("glossary.building.name", building=b + 1), text)
        )
        bonus = CREST_BONUSES[c.crest_bonus[b]]
        out.append(
            GlossaryEntry(
                f"crest_space:{b + 1}",
                m("glossary.crest_space.name", building=b + 1),
                m(
                    "glossary.crest_space.text",
                    food=c.crest_food[b],
                    bonus=m(f"crest_bonus.{bonus}"),
                ),
            )
        )
    for k in range(c.contract_spaces):
        key = (
            "glossary.contract_space_pillar"
            if k < c.pillars_on_spaces
            else "glossary.contract_space"
        )
        out.append(
            GlossaryEntry(
                f"contract_space:{k + 1}",
                m("glossary.contract_space.name", n=k + 1),
                m(key, vp=c.contract_space_vp[k]),
            )
        )
    for i, (cond, vp) in enumerate(c.fair_tiles):
        name = c.fair_conditions[cond]
        out.append(
            GlossaryEntry(
                f"fair:{i}",
                m("glossary.fair.name", condition=fair_condition(name), vp=vp),
                m(f"glossary.fair.{name}", vp=vp),
            )
        )
    for r in RES_LETTERS:
        out.append(GlossaryEntry(f"res:{r}", res(r), m(f"glossary.res.{r}")))
    for fam in range(len(c.crest_names)):  # a crest placed under a building (the board's crests)
        out.append(GlossaryEntry(f"crest:{fam}", family(c, fam), m("tile_text.crest", family=family(c, fam))))
    for key in ("corruption", "storehouse", "king_tile", "roof", "wheel"):
        out.append(GlossaryEntry(key, m(f"glossary.{key}.name"), m(f"glossary.{key}.text")))
    return tuple(out)


def _town_text(c: Components, town: int) -> Msg:
    parts = [m("glossary.town")]
    cath = c.town_cathedral[town]
    if cath != -1:
        parts.append(m("glossary.town_cathedral"))
    if c.bonus_space_min[town]:
        parts.append(m("glossary.town_bonus", players=c.bonus_space_min[town]))
    if town in c.town_tiles or town == c.first_fair_town:
        parts.append(m("glossary.town_fair"))
    return chain(parts)


# -- the terminal picture -------------------------------------------------------------------------
def _short(c: Components, tile: int) -> Msg:
    """A tile in fewest words, for the crowded lines of the board: a contract without its
    heading, a helper's effect alone."""
    if tile < 0:
        return m("tile.none")
    info = c.tiles[tile]
    if info[0] == CONTRACT_TILE:
        if info[3]:
            return m(
                "short.contract_extra",
                cost=cost_of(info[1]),
                vp=info[2],
                extra=m(f"extra.{info[3]}"),
            )
        return m("short.contract", cost=cost_of(info[1]), vp=info[2])
    if info[0] == CREST:
        return tile_name(c, tile)
    if info[0] == CHAR_TILE:
        return m(
            "short.character",
            who=illustration(c, info[1]),
            bonus=m(f"bonus_short.{CHAR_BONUSES[info[3]]}"),
        )
    return m("short.helper", effect=_helper_short(c, tile))


def _helper_short(c: Components, tile: int) -> Msg:
    info = c.tiles[tile]
    name = HELPER_EFFECTS[info[1]]
    if name in ("joker", "add_ap"):
        return m(f"helper_short.{name}", ap=info[3])
    if name == "action":
        return m("helper_short.action", action=action_name(info[2]), ap=info[3])
    if name == "any":
        return m("helper_short.any", n=info[2])
    if name == "gain":
        return helper_effect(c, tile)
    return m(f"helper_short.{name}")


def _where(c: Components, spot_id: int) -> Msg:
    """A spot for the board: a road space as "road A-B"."""
    name = c.spots[spot_id]
    roads = c.data["map"]["roads"]
    if name in roads:
        a, b = roads[name]
        return m("short.road", a=spot(c, a), b=spot(c, b))
    return spot(c, spot_id)


def _board(s: TiletumState) -> list[Msg]:
    """The whole table in about 35 lines at four players (everything in Tiletum is open)."""
    c = s.comp
    lines: list[Msg] = []
    if s.is_over:
        lines.append(m("board.title_over"))
    else:
        lines.append(
            m("board.title", round=s.round, turn=s.turn + 1, player=Player(s.to_move or 0))
        )
    shown = [m("board.corruption_shown", n=v) for v in s.corr[: s.corr_shown]]
    shown += [m("board.corruption_hidden")] * (len(s.corr) - s.corr_shown)
    lines.append(
        m(
            "board.order",
            order=chain([Player(p) for p in s.order], "list"),
            corruption=chain(shown, "list"),
            tile=_short(c, s.king_bonus),
        )
    )
    for area in range(6):
        value = (area - s.rotation) % 6 + 1
        dice = [
            m("board.dice", n=s.wheel[(value - 1) * 5 + col], colour=res(col))
            for col in range(5)
            if s.wheel[(value - 1) * 5 + col]
        ]
        lines.append(
            m(
                "board.area",
                action=action_name(s.area_action[area]),
                value=value,
                ap=7 - value,
                dice=chain(dice, "list") if dice else m("board.no_dice"),
                tile=_short(c, s.area_bonus[area]),
            )
        )
    lines.append(
        m(
            "board.contracts",
            tiles=chain(
                [
                    m("board.slot", ap=c.contract_slot_ap[i], tile=_short(c, t))
                    for i, t in enumerate(s.contract_disp)
                ],
                "semi",
            ),
        )
    )
    lines.append(m("board.characters", tiles=chain([_short(c, t) for t in s.char_disp], "semi")))
    fairs = [
        m(
            "board.fair_done" if i < s.fairs_done else "board.fair",
            town=spot(c, t),
            condition=fair_condition(c.fair_conditions[c.fair_tiles[f][0]]),
            vp=c.fair_board_vp[i] + c.fair_tiles[f][1],
        )
        for i, (t, f) in enumerate(zip(s.fair_towns, s.fair_tiles, strict=True))
    ]
    lines.append(m("board.fairs", fairs=chain(fairs, "semi")))
    cathedrals = []
    for k, town in enumerate(c.cathedral_towns):
        cost = c.cost_tiles[s.cost[k]]
        if cost is None:
            continue
        owners = [Player(p) for p in s.pillar_owner[k]]
        if owners:
            cathedrals.append(
                m(
                    "board.cathedral_pillars",
                    town=spot(c, town),
                    stone=cost[0],
                    vp=cost[1],
                    pillars=chain(owners, "list"),
                )
            )
        else:
            cathedrals.append(m("board.cathedral", town=spot(c, town), stone=cost[0], vp=cost[1]))
    lines.append(m("board.cathedrals", cathedrals=chain(cathedrals, "semi")))
    tiles = [
        m("board.map_tile", town=spot(c, t), tile=_short(c, b))
        for t, b in enumerate(s.map_bonus)
        if b != -1
    ]
    lines.append(m("board.map_tiles", tiles=chain(tiles, "semi") if tiles else m("board.nothing")))
    for p in s.order:
        lines.extend(_player_lines(s, p))
    return lines


def _player_lines(s: TiletumState, p: int) -> list[Msg]:
    c = s.comp
    who = Player(p)
    resources = chain([amount(s.res[p][r], r) for r in range(5)], "list")
    lines = [
        m(
            "board.player",
            player=who,
            vp=s.vp[p],
            king=signed(c.king_vp[s.king_pos[p]]),
            resources=resources,
        )
    ]
    houses = sorted({c.house_spaces[i][0] for i, o in enumerate(s.house_owner) if o == p})
    pillars = [c.cathedral_towns[k] for k, owners in enumerate(s.pillar_owner) if p in owners]
    lines.append(
        m(
            "board.pieces",
            architect=_where(c, s.architect[p]),
            merchant=_where(c, s.merchant[p]),
            houses=_names(c, houses),
            pillars=_names(c, pillars),
            supply_houses=s.houses[p],
            supply_pillars=s.pillars[p],
        )
    )
    store = [_short(c, t) for t in s.store[p]]
    lines.append(
        m(
            "board.storehouse",
            used=len(store),
            room=c.storehouse,
            tiles=chain(store, "list") if store else m("board.nothing"),
        )
    )
    buildings = []
    for b, idx in enumerate(c.room_index):
        rooms = [s.rooms[p][i] for i in idx]
        crest = s.crests[p][b]
        if crest == -1 and all(t == -1 for t in rooms):
            continue  # an untouched building says nothing worth a place on the screen
        filled = [t for t in rooms if t != -1]
        if not rooms:
            who = m("board.printed")
        elif filled:
            who = m(
                "board.rooms",
                who=illustration(c, c.tiles[filled[0]][1]),
                n=len(filled),
                rooms=len(rooms),
            )
        else:
            who = m("board.rooms_empty", rooms=len(rooms))
        if s.completed[p] >> b & 1:
            key = "board.building_done"
        else:
            key = "board.building_crest" if crest != -1 else "board.building"
        buildings.append(
            m(
                key,
                building=b + 1,
                rooms=who,
                crest=family(c, crest) if crest != -1 else m("board.no_crest"),
            )
        )
    bonus = [
        m("board.bonus_ap", action=action_name(a), ap=n) for a, n in enumerate(s.bonus_ap[p]) if n
    ]
    tiles = [m("vp", vp=v) for v in s.cath_tiles[p]]
    lines.append(
        m(
            "board.progress",
            buildings=chain(buildings, "semi") if buildings else m("board.nothing"),
            contracts=len(s.done[p]),
            cathedral=chain(tiles, "list") if tiles else m("board.nothing"),
            bonus=chain(bonus, "list") if bonus else m("board.nothing"),
        )
    )
    return lines


def _names(c: Components, spots: Sequence[int]) -> Msg:
    return chain([spot(c, t) for t in spots], "list") if spots else m("board.nothing")
