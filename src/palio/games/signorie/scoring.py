"""Scoring at the end of the game (ゲーム終了), the heuristic bots use, and the legend of the
printed tables clients draw with."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from palio.games.signorie.components import (
    CRITERIA,
    DICE,
    EFFECTS,
    ROWS,
    SIGNORIA,
    TRACKS,
    Components,
)

if TYPE_CHECKING:
    from palio.games.signorie.state import SignorieState


def career_points(s: SignorieState, p: int) -> int:
    """Each man still on a career track: half his slot's VP, rounded down."""
    c = s.comp
    L = c.max_track_len
    total = 0
    for t in range(3):
        base = (p * 3 + t) * L
        vps = c.track_vp[t]
        for i in range(c.track_len[t]):
            n = s.tracks[base + i]
            if n:
                total += n * (vps[i] // 2)
    return total


def row_points(s: SignorieState, p: int) -> list[int]:
    """Per row of the plan: every tile's VP if the row holds 3 tiles or more, else 0."""
    c = s.comp
    out = []
    for r in range(4):
        up, down = s.rows_up[p * 4 + r], s.rows_down[p * 4 + r]
        if len(up) + len(down) >= 3:
            out.append(sum(c.tile_value[t] for t in up) + c.face_down_vp * len(down))
        else:
            out.append(0)
    return out


def worths(s: SignorieState) -> list[float]:
    """Per seat, VP plus a rough worth of what it holds (the final VP once the game is over)."""
    if s.is_over:
        return [float(v) for v in s.vp]
    rounds_left = s.comp.rounds - s.round + 1
    return [_worth(s, p, rounds_left) for p in range(s.players)]


def _worth(s: SignorieState, p: int, rounds_left: int) -> float:
    c = s.comp
    value = float(s.vp[p]) + career_points(s, p)
    for r in range(4):
        up, down = s.rows_up[p * 4 + r], s.rows_down[p * 4 + r]
        n = len(up) + len(down)
        worth = sum(c.tile_value[t] for t in up) + c.face_down_vp * len(down)
        value += worth if n >= 3 else 0.5 * worth * n / 3
    if s.phase == 0:  # initiative VP are scored at the end of this round
        value += c.init_vp[s.init_pos[p]]
    busy = min(rounds_left, 3) / 3
    value += busy * (0.45 * s.florins[p] + 1.6 * (s.men[p] + s.women[p]) + 1.2 * s.brides[p])
    value += busy * 1.4 * sum(bin(m).count("1") for m in s.helpers[p * 5:p * 5 + 5])
    return value


def legend(c: Components) -> dict[str, Any]:
    """The printed tables a client needs to draw an observation (see ``Game.legend``)."""
    return {
        "players": list(c.colours),
        "dice": list(DICE),
        "columns": [{
            "colour": DICE[col], "cost": c.col_cost[col], "action": SIGNORIA[c.col_action[col]],
            "hire_to": DICE[c.hire_to[col]],
            "helpers": [{"cost": cost, "effect": EFFECTS[effect], "amount": amount}
                        for cost, effect, amount in c.helpers[col]],
        } for col in range(5)],
        "tracks": [{"name": TRACKS[t], "vp": list(c.track_vp[t]), "rank": list(c.track_rank[t])}
                   for t in range(3)],
        "bonus_florins_slot": c.bonus_florins_slot, "bonus_florins": c.bonus_florins,
        "bonus_initiative_slot": c.bonus_init_slot, "bonus_initiative": c.bonus_init,
        "initiative_vp": list(c.init_vp),
        "cities": [{"name": name, "slots": list(c.city_slots[i])} for i, name in enumerate(c.city_names)],
        "families": list(c.family_names),
        "tiles": [{"family": c.tile_family[t], "vp": c.tile_value[t]} for t in range(c.n_tiles)],
        "face_down_vp": c.face_down_vp,
        "rows": list(ROWS),
        "plans": [[list(row) for row in c.plan_rows[p]] for p in range(4)],
        "son_vp": list(c.son_vp),
        "assignments": [{"effect": EFFECTS[e], "amount": a, "meeples": m, "repeat": r}
                        for e, a, m, r in c.assignments],
        "bonus_tiles": [{"effect": EFFECTS[e], "amount": a} for e, a in c.bonus_tiles],
        "vp_tiles": [{"criterion": CRITERIA[k], "per": per, "max": cap} for k, per, cap in c.vp_tiles],
        "threshold": {"base": c.threshold_base, "max": c.threshold_max, "step": c.threshold_step},
        "marriage": {"dowry_max": c.dowry_max, "vp_per_florin": c.vp_per_florin},
        "rounds": c.rounds, "bonus_rounds": c.bonus_rounds,
        "florins_instead": c.florins_instead, "buy_vp_cost": c.buy_vp_cost, "buy_vp": c.buy_vp,
    }
