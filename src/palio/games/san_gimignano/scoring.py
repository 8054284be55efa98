"""San Gimignano tower game: final scoring, in the rulebook's five categories.

1. 5 VP per completed tower; 2. 2 VP per level of each same-number tower of 7s (not one
started in the end phase);
3. per number, the seat(s) with the tallest same-number tower of it score the number once;
4. multi-number towers: their count times their total levels; 5. 10 VP for the tallest-tower
token. The noble Santa Fina adds 5 VP per own tower of height 5 or more.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from palio.games.san_gimignano import components as C

if TYPE_CHECKING:
    from palio.games.san_gimignano.state import SanGimignanoState


def score_breakdown(s: SanGimignanoState) -> list[dict[str, Any]]:
    tallest_same: dict[int, list[int]] = {}
    for tower in s.towers:
        if tower.same:
            heights = tallest_same.setdefault(tower.top, [0, 0])
            heights[tower.owner] = max(heights[tower.owner], tower.height)
    out = []
    for seat in range(2):
        mine = [t for t in s.towers if t.owner == seat]
        completed = C.COMPLETED_VP * sum(t.completed for t in mine)
        # *Reading*: the grace bonus is the 7's donation, which a tower started in the end
        # phase does not exert
        grace = C.GRACE_VP_PER_LEVEL * sum(
            t.height for t in mine if t.same and t.top == 7 and not t.in_end_phase)
        same = sum(
            number for number, heights in tallest_same.items()
            if heights[seat] and heights[seat] == max(heights)
        )
        multi = [t for t in mine if not t.same]
        multi_vp = len(multi) * sum(t.height for t in multi)
        token = C.TALLEST_TOKEN_VP if s.token == seat else 0
        santa_fina = 0
        if C.SANTA_FINA in s.front[seat]:
            santa_fina = C.SANTA_FINA_VP * sum(t.height >= C.SANTA_FINA_MIN_HEIGHT for t in mine)
        total = completed + grace + same + multi_vp + token + santa_fina
        out.append({
            "completed": completed,
            "grace": grace,
            "same_number": same,
            "multi_number": multi_vp,
            "token": token,
            "santa_fina": santa_fina,
            "total": total,
        })
    return out


def match_scores(games: list[SanGimignanoState]) -> list[int]:
    """Totals over several finished games; a declarer who did not win loses 10 that game."""
    totals = [0, 0]
    for state in games:
        scores = state.scores()
        winner = state.ranking()[0]
        for seat in range(2):
            penalty = C.MATCH_DECLARER_PENALTY if state.declared_by == seat != winner else 0
            totals[seat] += int(scores[seat]) - penalty
    return totals
