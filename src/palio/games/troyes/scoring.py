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


def _measures(s: TroyesState, key: str, n: int) -> list[int]:
    """``character_measure`` for seats ``0..n-1``, in one go."""
    seats = range(n)
    if key == "chretien":
        return list(map(s.spaces.count, seats))
    if key == "urbain":
        return list(map(s.cathedral.count, seats))  # own_cathedral_cubes
    if key == "thibaut":
        return [s.money[p] + s.purse[p] for p in seats]
    if key == "hugues":
        return s.influence[:n]
    if key == "florentin":
        extra = s.extra
        return [s.trade.count(p) + sum(1 for k in range(9) if (extra[k] >> p) & 1) for p in seats]
    return [len(s.won[p]) for p in seats]


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
    """Points per category and seat; the rows add up to the final scores.

    Each category is counted in one pass over the board for every seat at once (search values
    a leaf by this, through :func:`estimates`)."""
    c = s.comp
    n = s.players
    events = [0] * n
    for cubes in s.ev_cubes:
        for p in set(cubes):
            if 0 <= p < n:
                events[p] += 1
    trade = [0] * n
    width = c.max_trade_spaces
    owners = s.trade
    for k in range(9):
        base = k * width
        for i, points in enumerate(c.cards[s.slot_card[k]][5]):
            owner = owners[base + i]
            if 0 <= owner < n:
                trade[owner] += points
    present = [0] * n  # levels of the cathedral with a cube of the seat
    columns = c.columns
    for level in range(c.levels):
        for owner in set(s.cathedral[level * columns:(level + 1) * columns]):
            if 0 <= owner < n:
                present[owner] += 1
    characters = [0] * n
    two = n == 2
    for ch in dealt_characters(s):  # character_vp for every seat, each measure taken once
        key, thresholds, shift = c.characters[ch]
        if not two:
            shift = 0
        for p, count in enumerate(_measures(s, key, n)):
            vp = 0
            for least, points in thresholds:
                if count >= least + shift:
                    vp = points
            characters[p] += vp
    rows = {
        "tokens": s.vp[:n],
        "events": events,
        "tradesmen": trade,
        "cathedral": [-c.missing_level_vp * (c.levels - present[p]) for p in range(n)],
        "characters": characters,
    }
    rows["floor"] = [max(0, -(rows["tokens"][p] + events[p] + trade[p] + rows["cathedral"][p]
                              + characters[p])) for p in range(n)]  # never below 0
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
    n = s.players
    held = [0] * n  # dice in a group being formed still count
    for frame in s.stack:
        if frame[0] == 5:
            held[frame[1]] += len(frame[5])
    on_events = [0] * n
    for cubes in s.ev_cubes:
        for p in cubes:
            if 0 <= p < n:
                on_events[p] += 1
    out = []
    for p in range(n):
        score = (rows["tokens"][p] + rows["events"][p] + rows["tradesmen"][p]
                 + rows["cathedral"][p] + rows["characters"][p])
        dice = (0 if s.passed[p] else sum(s.dice[p * 18:p * 18 + 18])) + held[p]
        delayed = sum(s.cubes[p:36:4])  # slot*4 + seat, nine slots
        # the same sum, term by term in this order, as before (search compares these floats)
        out.append(score + 0.2 * (s.money[p] + s.purse[p]) + 0.15 * s.influence[p]
                   + 0.6 * s.spaces.count(p) + 0.4 * dice + 0.5 * delayed
                   + 0.4 * on_events[p] + 0.2 * s.supply[p] + 0.3 * s.cathedral.count(p))
    return out
