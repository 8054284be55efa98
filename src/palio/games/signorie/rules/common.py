"""Small rules shared by the phases: victory points, tracks, plans, cities, marriages and
diplomatic missions, offspring, and the tests of whether an effect can be carried out.

Rulebook sections are cited by their titles in ``shared/seeds/signorie.ja.md``.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from palio.core.rng import derive
from palio.games.signorie.components import (
    E_ADVANCE,
    E_ALLIANCE,
    E_FAMILY,
    E_FLORINS,
    E_INITIATIVE,
    E_MARRIAGE,
    E_MISSION,
    E_OFFSPRING,
    E_THRESHOLD,
    E_VP,
    MARRIAGE_ROW,
)
from palio.games.signorie.state import CAT_MARRIAGE, CAT_MISSION, EMPTY

if TYPE_CHECKING:
    from palio.games.signorie.state import SignorieState


def gain_vp(s: SignorieState, p: int, n: int, category: int) -> None:
    if n:
        s.vp[p] += n
        s.vp_by[p * 9 + category] += n


def init_steps(s: SignorieState, p: int, n: int) -> int:
    """Move the initiative disc up ``n`` slots, no higher than the top (トラック); a disc
    arriving where others lie goes on top of them. Returns the slots actually moved."""
    pos = s.init_pos[p]
    moved = min(n, s.comp.init_top - pos)
    if moved > 0:
        s.init_pos[p] = pos + moved
        s.stamp += 1
        s.init_stamp[p] = s.stamp
    return max(moved, 0)


# -- career tracks -----------------------------------------------------------------------
def arrive(s: SignorieState, p: int, t: int, slot: int) -> None:
    """A man of seat ``p`` reaches ``slot`` of career track ``t``: the 4th slot pays 2
    florins, the 6th moves the initiative disc one slot (ボーナススロット)."""
    c = s.comp
    if slot == c.bonus_florins_slot and c.bonus_florins:
        s.florins[p] += c.bonus_florins
        s.emit("bonus_florins", p, track=t, florins=c.bonus_florins)
    if slot == c.bonus_init_slot and c.bonus_init:
        moved = init_steps(s, p, c.bonus_init)
        s.emit("bonus_initiative", p, track=t, moved=moved, to=s.init_pos[p])


def can_step(s: SignorieState, p: int) -> bool:
    """Can one advancement point be used at all?"""
    if s.men[p] or s.init_pos[p] < s.comp.init_top:
        return True
    c = s.comp
    L = c.max_track_len
    tracks = s.tracks
    for t in range(3):
        base = (p * 3 + t) * L
        if any(tracks[base:base + c.track_len[t] - 1]):
            return True
    return False


def capacity(s: SignorieState, p: int, men_supply: int) -> int:
    """How many advancement points seat ``p`` could use in all, with ``men_supply`` men in
    its supply: every step of every man up to the top, every supply man placed and moved up,
    and every initiative slot left (spent first, before a 6th-slot bonus could take it)."""
    c = s.comp
    L = c.max_track_len
    total = c.init_top - s.init_pos[p] + men_supply * max(c.track_len)
    tracks = s.tracks
    for t in range(3):
        base = (p * 3 + t) * L
        top = c.track_len[t] - 1
        for i in range(top):
            k = tracks[base + i]
            if k:
                total += k * (top - i)
    return total


# -- plans and alliance tiles --------------------------------------------------------------
def fits(s: SignorieState, p: int, row: int, tile: int) -> bool:
    """May this face-up tile go in row ``row`` of seat ``p``'s plan: a shield of its family
    in that row is still free (同盟タイルとプレイヤーの計画)."""
    fam = s.comp.tile_family[tile]
    need = s.comp.plan_need[p][row][fam]
    if not need:
        return False
    have = sum(1 for t in s.rows_up[p * 4 + row] if s.comp.tile_family[t] == fam)
    return have < need


def take_face_up(s: SignorieState, p: int, row: int, tile: int) -> None:
    s.rows_up[p * 4 + row] = s.rows_up[p * 4 + row] + (tile,)


# -- cities --------------------------------------------------------------------------------
def lowest_empty(s: SignorieState, city: int) -> int:
    """Index of the lowest-value empty city slot of ``city`` (slots are kept sorted by
    value, so the first empty one), or -1 when the city is full."""
    S = s.comp.max_city_slots
    slots = s.city_slot
    for i in range(len(s.comp.city_slots[city])):
        if slots[city * S + i] == EMPTY:
            return i
    return -1


def open_cities(s: SignorieState) -> list[tuple[int, int]]:
    """(city, value of its lowest empty slot) for every city in use that has room."""
    out = []
    values = s.comp.city_slots
    for city in s.cities:
        i = lowest_empty(s, city)
        if i != -1:
            out.append((city, values[city][i]))
    return out


def min_dowry(s: SignorieState) -> int | None:
    """The least dowry any marriage could pay now (None: every city is full)."""
    values = [v for _c, v in open_cities(s)]
    return min(values) if values else None


def marriage_possible(s: SignorieState, p: int, women: int, florins: int) -> bool:
    if women < 1:
        return False
    least = min_dowry(s)
    return least is not None and least <= florins


def mission_possible(s: SignorieState, p: int) -> bool:
    cities = open_cities(s)
    if not cities:
        return False
    least = min(v for _c, v in cities)
    c = s.comp
    L = c.max_track_len
    for t in range(3):
        base = (p * 3 + t) * L
        ranks = c.track_rank[t]
        for i in range(c.track_len[t]):
            if s.tracks[base + i] and ranks[i] >= least:
                return True
    return False


def do_marriage(s: SignorieState, p: int, city: int, dowry: int) -> None:
    """結婚: a woman of the supply to the lowest empty slot of ``city``; the dowry buys 2 VP per
    florin; the city's marriage tile comes along if it fits the marriage row."""
    c = s.comp
    i = lowest_empty(s, city)
    s.women[p] -= 1
    s.city_slot[city * c.max_city_slots + i] = p * 4
    s.florins[p] -= dowry
    vp = dowry * c.vp_per_florin
    gain_vp(s, p, vp, CAT_MARRIAGE)
    tile = s.marriage_tile[city]
    taken = tile != EMPTY and fits(s, p, MARRIAGE_ROW, tile)
    if taken:
        take_face_up(s, p, MARRIAGE_ROW, tile)
        s.marriage_tile[city] = EMPTY
    s.emit("marriage", p, city=city, slot=i, dowry=dowry, vp=vp, tile=tile if taken else EMPTY,
           left=tile if tile != EMPTY and not taken else EMPTY)


def do_mission(s: SignorieState, p: int, t: int, slot: int, city: int) -> None:
    """外交任務: the man on ``slot`` of track ``t`` to the lowest empty slot of ``city``; he
    scores his track slot's VP; the city's mission tile comes along if it fits that career's row."""
    c = s.comp
    s.tracks[(p * 3 + t) * c.max_track_len + slot] -= 1
    i = lowest_empty(s, city)
    s.city_slot[city * c.max_city_slots + i] = p * 4 + 1 + t
    vp = c.track_vp[t][slot]
    gain_vp(s, p, vp, CAT_MISSION)
    tile = s.mission_tile[city]
    taken = tile != EMPTY and fits(s, p, t, tile)
    if taken:
        take_face_up(s, p, t, tile)
        s.mission_tile[city] = EMPTY
    s.emit("mission", p, track=t, from_slot=slot, city=city, slot=i, vp=vp,
           tile=tile if taken else EMPTY, left=tile if tile != EMPTY and not taken else EMPTY)


def do_offspring(s: SignorieState, p: int) -> None:
    """子孫: one white die per married man (the Signore and each married son): 1-3 brings a
    woman, 4-6 a man from the general stock, as many as it still holds."""
    rng = derive(s.seed, "offspring", s.rolls)
    s.rolls += 1
    rolls = [rng.randint(1, 6) for _ in range(1 + s.brides[p])]
    men = women = 0
    for roll in rolls:
        if roll <= 3:
            if s.stock_w[p]:
                s.stock_w[p] -= 1
                s.women[p] += 1
                women += 1
        elif s.stock_m[p]:
            s.stock_m[p] -= 1
            s.men[p] += 1
            men += 1
    s.emit("offspring", p, rolls=rolls, men=men, women=women)


def take_family(s: SignorieState, p: int) -> None:
    """Bonus tile: a man and a woman of the general stock join the supply (if there)."""
    men = 1 if s.stock_m[p] else 0
    women = 1 if s.stock_w[p] else 0
    s.stock_m[p] -= men
    s.men[p] += men
    s.stock_w[p] -= women
    s.women[p] += women
    s.emit("family", p, men=men, women=women)


# -- can an effect be carried out in full? --------------------------------------------------
def effect_possible(s: SignorieState, p: int, effect: int, amount: int, reps: int,
                    men: int, women: int, florins: int) -> bool:
    """Whether ``reps`` repetitions of an effect can all be carried out, for a player with
    ``men`` / ``women`` in the supply and ``florins`` (after any payment for it)."""
    if effect in (E_FLORINS, E_VP):
        return True
    if effect == E_INITIATIVE:
        return s.comp.init_top - s.init_pos[p] >= amount * reps
    if effect == E_THRESHOLD:
        return s.threshold[p] + amount * reps <= s.comp.threshold_max
    if effect == E_ADVANCE:
        return capacity(s, p, men) >= amount * reps
    if effect == E_ALLIANCE:
        return len(s.alliance) >= reps
    if effect == E_MARRIAGE:
        return reps == 1 and marriage_possible(s, p, women, florins)
    if effect == E_MISSION:
        return reps == 1 and mission_possible(s, p)
    if effect in (E_OFFSPRING, E_FAMILY):
        return s.stock_m[p] + s.stock_w[p] > 0
    return False
