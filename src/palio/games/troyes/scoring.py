"""End-of-game scoring: VP tokens, uncountered events with one's cube, tradesman spaces,
cathedral levels without one's cube, and every character card dealt (each scores every
player).

Rulebook: ゲーム終了時の追加勝利点 (■キャラクターカード, ■その他の勝利点), 注意事項 (VP never below
0), [RB] "End of the Game", "Character Cards".

Readings (docs/coverage/troyes.md, "End of the game"): the total is never below 0 (the rule that VP
cannot go below 0 applies to the final tally too); the rules name no tie-break, so tied players
share the place.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from palio.games.troyes.rules.board import own_cathedral_cubes

if TYPE_CHECKING:
    from palio.games.troyes.state import TroyesState

CATEGORIES = ("tokens", "events", "tradesmen", "cathedral", "characters", "floor")


def character_measure(s: TroyesState, key: str, p: int) -> int:
    """What a character counts for player ``p``."""
    if key == "chretien":  # citizens standing on the three buildings
        return s.spaces.count(p)
    if key == "urbain":  # own cubes on the cathedral
        return own_cathedral_cubes(s, p)
    if key == "thibaut":  # deniers held
        return s.money[p] + s.purse[p]
    if key == "hugues":  # influence
        return s.influence[p]
    if key == "florentin":  # tradesmen on activity cards
        return s.trade.count(p) + sum(1 for k in range(9) if (s.extra[k] >> p) & 1)
    return len(s.won[p])  # henry: event cards won


def character_vp(s: TroyesState, char: int, p: int) -> int:
    key, thresholds, shift = s.comp.characters[char]
    if s.players != 2:
        shift = 0
    count = character_measure(s, key, p)
    vp = 0
    for least, points in thresholds:
        if count >= least + shift:
            vp = points
    return vp


def dealt_characters(s: TroyesState) -> list[int]:
    return sorted(ch for p in range(s.players) for ch in s.chars[p])


def breakdown(s: TroyesState) -> dict[str, list[int]]:
    """Points per category and seat; the rows add up to the final scores."""
    c = s.comp
    n = s.players
    rows = {name: [0] * n for name in CATEGORIES}
    width = c.max_trade_spaces
    for p in range(n):
        rows["tokens"][p] = s.vp[p]
        rows["events"][p] = sum(1 for cubes in s.ev_cubes if p in cubes)
        trade = 0
        for k in range(9):
            spaces = c.cards[s.slot_card[k]][5]
            for i in range(len(spaces)):
                if s.trade[k * width + i] == p:
                    trade += spaces[i]
        rows["tradesmen"][p] = trade
        missing = sum(1 for level in range(c.levels)
                      if p not in s.cathedral[level * c.columns:(level + 1) * c.columns])
        rows["cathedral"][p] = -c.missing_level_vp * missing
        rows["characters"][p] = sum(character_vp(s, ch, p) for ch in dealt_characters(s))
        subtotal = sum(rows[name][p] for name in CATEGORIES[:-1])
        rows["floor"][p] = max(0, -subtotal)  # never below 0
    return rows


def final_scores(s: TroyesState) -> list[int]:
    rows = breakdown(s)
    return [sum(rows[name][p] for name in CATEGORIES) for p in range(s.players)]


def estimate(s: TroyesState, p: int) -> float:
    """A quick guess at ``p``'s final score (for bots): see :func:`estimates`."""
    return estimates(s)[p]


def estimates(s: TroyesState) -> list[float]:
    """Per seat, a quick guess at its final score (for bots): the end scoring as it stands,
    plus what money, influence, citizens, cubes and unused dice are likely to become. The
    score breakdown is computed once for every seat."""
    rows = breakdown(s)
    return [_estimate(s, p, rows) for p in range(s.players)]


def _estimate(s: TroyesState, p: int, rows: dict[str, list[int]]) -> float:
    score = sum(rows[name][p] for name in CATEGORIES[:-1])
    dice = 0 if s.passed[p] else sum(s.dice[p * 18:p * 18 + 18])
    for frame in s.stack:
        if frame[1] == p and frame[0] == 5:  # a group being formed: its dice still count
            dice += len(frame[5])
    cubes_on_events = sum(cubes.count(p) for cubes in s.ev_cubes)
    delayed = sum(s.cubes[k * 4 + p] for k in range(9))
    return (score + 0.2 * (s.money[p] + s.purse[p]) + 0.15 * s.influence[p]
            + 0.6 * s.spaces.count(p) + 0.4 * dice + 0.5 * delayed + 0.4 * cubes_on_events
            + 0.2 * s.supply[p] + 0.3 * own_cathedral_cubes(s, p))
