"""The round: preparation (dice), corruption before each turn, turn ends, the King phase, the
fair, cleanup and final scoring. Everything here runs automatically between decisions; the
only decision is the King-track leader's choice for the bonus tile beside the track.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from palio.core.rng import derive
from palio.games.tiletum.rules.common import (
    crest_count,
    full_buildings,
    gain_vp,
    houses_on_map,
    pillars_on_map,
    upper_characters,
)
from palio.games.tiletum.state import F_DIE, KINGTILE, OVER, PLAY

if TYPE_CHECKING:
    from palio.games.tiletum.state import TiletumState


def start_round(s: TiletumState) -> None:
    """Preparation: draw 8/11/14 dice from the bag, roll them and put them on the wheel."""
    rng = derive(s.seed, "dice", s.round)
    bag = [col for col in range(5) for _ in range(s.players)]
    drawn = rng.sample(bag, s.comp.dice_per_round[s.players])
    wheel = [0] * 30
    for col in drawn:
        wheel[rng.randrange(6) * 5 + col] += 1
    s.wheel = wheel
    s.emit("dice", None, round=s.round, dice=[[v // 5 + 1, v % 5, n] for v, n in enumerate(wheel) if n])
    start_turn(s)


def start_turn(s: TiletumState) -> None:
    if s.pos == 0:
        value = s.corr[s.turn]
        s.corr_shown = s.turn + 1
        s.emit("corruption", None, value=value, turn=s.turn + 1)
        corruption(s, value)
    s.stack = [(F_DIE,)]
    s.swap = 0


def corruption(s: TiletumState, n: int) -> None:
    """Every King marker moves down ``n`` steps (not below the lowest), lowest markers first,
    the bottom of a stack before its top, so stacks keep their order."""
    if not n:
        return
    for p in sorted(range(s.players), key=lambda q: (s.king_pos[q], s.king_stamp[q])):
        s.king_pos[p] = max(0, s.king_pos[p] - n)
        s.stamp += 1
        s.king_stamp[p] = s.stamp


def slide_contracts(s: TiletumState) -> None:
    """End of turn: close up the contract display to the right, then refill from the deck."""
    kept = [t for t in s.contract_disp if t != -1]
    disp = [-1] * (len(s.contract_disp) - len(kept)) + kept
    for i, t in enumerate(disp):
        if t == -1 and s.contract_deck:
            disp[i] = s.contract_deck.pop()
    s.contract_disp = disp


def end_turn(s: TiletumState) -> None:
    slide_contracts(s)
    s.pos += 1
    if s.pos >= s.players:
        s.pos = 0
        s.turn += 1
        if s.turn >= 3:
            s.stack = []
            king_phase(s)
            return
    start_turn(s)


def king_phase(s: TiletumState) -> None:
    if s.king_bonus != -1:
        s.phase = KINGTILE
        return
    if s.round == 4:
        # reading: with no tile left beside the track the leader still takes the printed 4 VP
        gain_vp(s, s.leader(), s.comp.king_final_vp)
        s.emit("king_final_vp", s.leader(), vp=s.comp.king_final_vp)
    finish_king_phase(s)


def king_position_vp(s: TiletumState) -> None:
    vps = s.comp.king_vp
    for p in range(s.players):
        gain_vp(s, p, vps[s.king_pos[p]])
    s.emit("king_vp", None, vp=[vps[s.king_pos[p]] for p in range(s.players)])


def finish_king_phase(s: TiletumState) -> None:
    s.phase = PLAY
    king_position_vp(s)
    king_fair = fair_condition(s) == "king"
    if king_fair:
        score_fair(s)  # the King fair tile is scored before the track is reset
    s.order = s.king_ranking()
    s.emit("turn_order", None, order=s.order[:])
    reset_red(s)
    if not king_fair:
        score_fair(s)  # a fair every round, round 4 included (see docs/coverage/tiletum.md)
    cleanup(s)


def reset_red(s: TiletumState) -> None:
    """Markers on the red part go to the start space keeping their order: the marker that was
    further left ends on top (processed from the most advanced to the least)."""
    start = s.comp.king_start
    red = [p for p in s.king_ranking() if s.king_pos[p] < start]
    for p in red:
        s.king_pos[p] = start
        s.stamp += 1
        s.king_stamp[p] = s.stamp


def fair_condition(s: TiletumState) -> str:
    slot = s.round - 1
    return s.comp.fair_conditions[s.comp.fair_tiles[s.fair_tiles[slot]][0]]


def qualifies(s: TiletumState, p: int, town: int) -> bool:
    """A house of p in the fair town, or p's merchant standing there."""
    if s.merchant[p] == town:
        return True
    owner = s.house_owner
    return any(owner[i] == p for i in s.comp.town_house_spaces[town])


def condition_count(s: TiletumState, p: int, cond: str) -> int:
    done = len(s.done[p])
    table = {
        "house_pillar": lambda: min(houses_on_map(s, p), pillars_on_map(s, p)),
        "contract_cathedral": lambda: min(done, len(s.cath_tiles[p])),
        "contract": lambda: done,
        "contract_crest": lambda: min(done, crest_count(s, p)),
        "house": lambda: houses_on_map(s, p),
        "upper_character": lambda: upper_characters(s, p),
        "crest": lambda: crest_count(s, p),
        "pillar": lambda: pillars_on_map(s, p),
        "full_building": lambda: full_buildings(s, p),
        "cathedral": lambda: len(s.cath_tiles[p]),
    }
    return table[cond]()


def score_fair(s: TiletumState) -> None:
    """(board VP + tile VP) x times the condition is met, for each qualifying seat."""
    c = s.comp
    slot = s.round - 1
    town = s.fair_towns[slot]
    cond_i, tile_vp = c.fair_tiles[s.fair_tiles[slot]]
    cond = c.fair_conditions[cond_i]
    base = c.fair_board_vp[slot] + tile_vp
    gained = []
    for p in range(s.players):
        vp = 0
        if qualifies(s, p, town):
            if cond == "king":
                vp = base + c.king_vp[s.king_pos[p]]  # once, then the position again
            else:
                vp = base * condition_count(s, p, cond)
            gain_vp(s, p, vp)
        gained.append(vp)
    s.fairs_done = slot + 1
    s.emit("fair", None, town=c.spots[town], condition=cond, vp=gained)


def cleanup(s: TiletumState) -> None:
    """Refill tiles, redeal corruption, rotate the wheel; skipped in round 4 (the game ends)."""
    if s.round >= 4:
        final_scoring(s)
        return
    for i, t in enumerate(s.area_bonus):
        if t == -1 and s.bonus_deck:
            s.area_bonus[i] = s.bonus_deck.pop()
    if s.king_bonus == -1 and s.bonus_deck:
        s.king_bonus = s.bonus_deck.pop()
    tokens = s.corr + s.corr_pool
    derive(s.seed, "corruption", s.round).shuffle(tokens)
    k = s.comp.corruption_per_round
    s.corr, s.corr_pool = tokens[:k], tokens[k:]
    s.corr_shown = 0
    s.dice_used = [[] for _ in range(s.players)]
    s.rotation = (s.rotation + 1) % 6
    s.round += 1
    s.turn = 0
    s.pos = 0
    start_round(s)


def final_points(s: TiletumState, p: int) -> tuple[int, int, int]:
    """(houses x pillars on the map, completed-buildings VP, resources // 4)."""
    c = s.comp
    built = houses_on_map(s, p) * pillars_on_map(s, p)
    completed = c.completed_vp[bin(s.completed[p]).count("1")]
    return built, completed, sum(s.res[p]) // 4


def final_scoring(s: TiletumState) -> None:
    parts = []
    for p in range(s.players):
        part = final_points(s, p)
        gain_vp(s, p, sum(part))
        parts.append(list(part))
    s.phase = OVER
    s.stack = []
    s.emit("final_scoring", None, parts=parts, vp=s.vp[:])
