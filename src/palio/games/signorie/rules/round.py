"""Set-up, Phase 1 (round set-up), the order of turns in Phase 2, Phase 3 (rewards) and the
end of the game. Everything here runs by itself between decisions.

Rulebook sections: 初期準備 (set-up), フェイズ1:ラウンドセットアップ, フェーズ2:アクション実行
(turn order, passing), フェイズ3:報酬 and ゲーム終了.
"""

from __future__ import annotations

from typing import Any

from palio.core.rng import derive
from palio.games.signorie.components import (
    C_ALLIANCES,
    C_CAREERS,
    C_CITIES,
    C_HELPERS,
    C_SONS,
)
from palio.games.signorie.rules.common import gain_vp
from palio.games.signorie.scoring import career_points, row_points
from palio.games.signorie.state import (
    CAT_ALLIANCES,
    CAT_CAREERS,
    CAT_INITIATIVE,
    CAT_REWARDS,
    CAT_SONS,
    EMPTY,
    F_BUY,
    F_REWARD,
    F_TURN,
    F_WEDDING,
    N_CATS,
    OVER,
    PLAY,
    REWARDS,
    SignorieState,
)


def setup_state(cls: type[SignorieState], players: int, seed: int, options: dict[str, Any]) -> SignorieState:
    """初期準備: a random turn order, florins by it, meeples, the initiative stack, the reward
    tiles of the seven rounds, the alliance tiles (some set aside with 2-3 players), the cities
    in use; then Phase 1 of round 1."""
    s = cls.__new__(cls)
    s._init_base(players, seed, options)
    c = s.comp
    rng = derive(seed, "setup")
    P = players
    order = list(range(P))
    rng.shuffle(order)
    s.order = order
    s.florins = [0] * P
    for place, seat in enumerate(order):
        s.florins[seat] = c.start_florins + c.extra_florins[place]
    s.vp = [0] * P
    s.vp_by = [0] * (P * N_CATS)
    s.men = [c.men_supply] * P
    s.women = [c.women_supply] * P
    s.stock_m = [c.men_stock] * P
    s.stock_w = [c.women_stock] * P
    s.brides = [0] * P
    s.threshold = [c.threshold_base] * P
    s.parked_m = [0] * P
    s.parked_w = [0] * P
    s.ndice = [0] * P
    s.passed = [0] * P
    s.dice = [0] * (P * 5)
    s.helpers = [0] * (P * 5)
    s.tracks = [0] * (P * 3 * c.max_track_len)
    s.rows_up = [()] * (P * 4)
    s.rows_down = [()] * (P * 4)
    # the initiative discs lie on the bottom slot, the first player's on top
    s.init_pos = [0] * P
    s.init_stamp = [0] * P
    for place, seat in enumerate(order):
        s.init_stamp[seat] = P - place
    s.stamp = P
    # cities: with fewer than 4 players some are left out at random
    used = sorted(rng.sample(range(5), c.cities_in_use[P]))
    s.cities = tuple(used)
    S = c.max_city_slots
    s.city_slot = [EMPTY if i < len(c.city_slots[city]) else -2
                   for city in range(5) for i in range(S)]
    s.marriage_tile = [EMPTY] * 5
    s.mission_tile = [EMPTY] * 5
    # alliance tiles: k random tiles of each family set aside, the rest shuffled face down
    removed: list[int] = []
    k = c.removed_per_family[P]
    if k:
        for fam in range(6):
            removed += rng.sample([t for t in range(c.n_tiles) if c.tile_family[t] == fam], k)
    s.removed = tuple(sorted(removed))
    gone = set(removed)
    s.alliance = [t for t in range(c.n_tiles) if t not in gone]
    rng.shuffle(s.alliance)
    # reward tiles: bonus tiles for rounds 1-5, VP tiles for rounds 6-7, drawn from their piles
    bonus = list(range(len(c.bonus_tiles)))
    vp_tiles = list(range(len(c.vp_tiles)))
    rng.shuffle(bonus)
    rng.shuffle(vp_tiles)
    s.rewards = tuple(bonus[:c.bonus_rounds] + vp_tiles[:c.rounds - c.bonus_rounds])
    s.pool = [0] * 30
    s.assign = [0] * 10
    s.stack = []
    s.reward_queue = []
    s.round, s.phase, s.pos, s.rolls, s.turn_no, s.hired = 1, PLAY, 0, 0, 0, 0
    s.emit("setup", None, players=P, order=order[:], cities=list(used), rewards=list(s.rewards),
           florins=s.florins[:])
    start_round(s)
    return s


def start_round(s: SignorieState) -> None:
    """フェイズ1: refill every empty alliance slot of the cities in use, roll the action dice into
    their colour areas, deal the ten assignment tiles two per colour; then the first turn."""
    c = s.comp
    placed = []
    unfilled = 0  # slots left empty because the alliance stack ran out: they stay empty
    for city in s.cities:
        for tiles in (s.marriage_tile, s.mission_tile):
            if tiles[city] == EMPTY and s.alliance:
                tiles[city] = s.alliance.pop()
                placed.append(tiles[city])
            elif tiles[city] == EMPTY:
                unfilled += 1
    rng = derive(s.seed, "dice", s.round)
    pool = [0] * 30
    for col in range(5):
        for _ in range(c.dice_per_colour[s.players]):
            pool[col * 6 + rng.randint(1, 6) - 1] += 1
    s.pool = pool
    deal = list(range(10))
    derive(s.seed, "assignments", s.round).shuffle(deal)
    s.assign = deal
    s.phase = PLAY
    s.emit("round", None, round=s.round, tiles=placed, unfilled=unfilled,
           dice=[[col, v + 1, n] for col in range(5) for v in range(6) if (n := pool[col * 6 + v])],
           assignments=deal[:])
    s.pos = s.players - 1
    next_turn(s)


def next_turn(s: SignorieState) -> bool:
    """Phase 2 goes round the turn order, skipping seats that passed; False when all passed."""
    P = s.players
    for k in range(1, P + 1):
        i = (s.pos + k) % P
        seat = s.order[i]
        if not s.passed[seat]:
            s.pos = i
            s.stack.append((F_TURN, seat))
            s.turn_no += 1
            return True
    return False


def start_phase3(s: SignorieState) -> None:
    """フェイズ3 steps 1-2: initiative VP, the new turn order from the initiative track (higher
    first, the top disc of a shared slot first), the discs back to the bottom slot stacked in
    that order; then the seats at or under their threshold queue for step 3."""
    c = s.comp
    P = s.players
    for p in range(P):
        vp = c.init_vp[s.init_pos[p]]
        gain_vp(s, p, vp, CAT_INITIATIVE)
        s.emit("initiative_vp", p, slot=s.init_pos[p], vp=vp)
    s.order = s.initiative_ranking()
    for place, seat in enumerate(s.order):
        s.init_pos[seat] = 0
        s.init_stamp[seat] = s.stamp + P - place
    s.stamp += P
    s.emit("turn_order", None, order=s.order[:])
    s.reward_queue = [p for p in s.order if s.dice_sum(p) <= s.threshold[p]]
    s.emit("qualified", None, seats=s.reward_queue[:],
           sums=[s.dice_sum(p) for p in range(P)], thresholds=s.threshold[:])
    s.phase = REWARDS


def start_reward(s: SignorieState, p: int) -> None:
    """フェイズ3 step 3 for one rewarded seat: rounds 1-5 the bonus tile or 3 florins, then a
    son's wedding; rounds 6-7 the VP tile's VP, then the offer of 5 VP for 5 florins."""
    c = s.comp
    s.turn_no += 1
    if s.round <= c.bonus_rounds:
        if s.brides[p] < len(c.son_vp):
            s.stack.append((F_WEDDING, p))
        s.stack.append((F_REWARD, p))
        return
    tile = s.rewards[s.round - 1]
    vp = vp_tile_points(s, p, tile)
    gain_vp(s, p, vp, CAT_REWARDS)
    s.emit("vp_tile", p, tile=tile, vp=vp)
    if s.florins[p] >= c.buy_vp_cost:
        s.stack.append((F_BUY, p))


def vp_tile_points(s: SignorieState, p: int, tile: int) -> int:
    """The VP a VP reward tile gives seat ``p``: so many per item counted, up to the cap."""
    c = s.comp
    criterion, per, cap = c.vp_tiles[tile]
    if criterion == C_SONS:
        count = s.brides[p]
    elif criterion == C_HELPERS:
        count = sum(bin(m).count("1") for m in s.helpers[p * 5:p * 5 + 5])
    elif criterion == C_CITIES:
        S = c.max_city_slots
        count = sum(1 for city in s.cities
                    if any(x >= 0 and x // 4 == p for x in s.city_slot[city * S:city * S + S]))
    elif criterion == C_ALLIANCES:
        count = sum(len(s.rows_up[p * 4 + r]) + len(s.rows_down[p * 4 + r]) for r in range(4))
    elif criterion == C_CAREERS:
        L = c.max_track_len
        count = sum(s.tracks[p * 3 * L:(p + 1) * 3 * L])
    else:
        count = 0
    return min(per * count, cap)


def wedding(s: SignorieState, p: int) -> None:
    """A son marries: a bride on the topmost empty slot, its VP, and 2 florins in rounds 2-5."""
    c = s.comp
    slot = s.brides[p]
    s.brides[p] += 1
    vp = c.son_vp[slot]
    gain_vp(s, p, vp, CAT_SONS)
    florins = c.son_florins if s.round in c.son_florin_rounds else 0
    s.florins[p] += florins
    s.emit("wedding", p, slot=slot, vp=vp, florins=florins)


def end_round(s: SignorieState) -> None:
    """The end of Phase 3: the round's reward tile is spent, meeples on the threshold spaces go
    back to their stock, dice leave the boards; after round 7 the game ends."""
    P = s.players
    c = s.comp
    for p in range(P):
        s.stock_m[p] += s.parked_m[p]
        s.stock_w[p] += s.parked_w[p]
    s.parked_m = [0] * P
    s.parked_w = [0] * P
    s.threshold = [c.threshold_base] * P
    s.dice = [0] * (P * 5)
    s.ndice = [0] * P
    s.passed = [0] * P
    s.emit("round_end", None, round=s.round)
    if s.round >= c.rounds:
        final_scoring(s)
        return
    s.round += 1
    start_round(s)


def final_scoring(s: SignorieState) -> None:
    """ゲーム終了: each man still on a career track scores half his slot's VP, rounded down; a
    row of the plan holding 3 or more alliance tiles scores every tile in it."""
    for p in range(s.players):
        careers = career_points(s, p)
        gain_vp(s, p, careers, CAT_CAREERS)
        rows = row_points(s, p)
        gain_vp(s, p, sum(rows), CAT_ALLIANCES)
        s.emit("final", p, careers=careers, rows=rows, vp=s.vp[p])
    s.phase = OVER
    s.stack = []
    s.emit("game_over", None, scores=s.vp[:], ranking=s.ranking())
