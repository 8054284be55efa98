"""Seeded whole games for every player count, played by two policies: uniform random, and one
that prefers progress (missions, marriages, advancement, dice) over passing and stopping, so
deep positions are reached. Every invariant the issue lists is checked at every step; a live
position with no legal action fails, naming the seed and the moves.

CI runs a few hundred games; the thousands behind ``@pytest.mark.slow`` run with
``pytest tests/signorie/test_properties.py -m slow``.
"""

from __future__ import annotations

import random
from collections import Counter

import pytest

from palio.games.signorie import GAME
from palio.games.signorie.state import EMPTY, F_TURN, PLAY, SignorieState

WEIGHTS = {"mission": 6, "marry": 6, "advance": 4, "up": 4, "new": 3, "die": 3, "offspring": 3,
           "florins": 2, "hire": 2, "assign": 2, "init": 1, "row": 1, "reward": 2, "buy": 3}


def uniform(s: SignorieState, rng: random.Random):
    return rng.choice(s.legal_actions())


def progress(s: SignorieState, rng: random.Random):
    """Prefers doing something to passing or stopping, and scoring to the rest."""
    legal = s.legal_actions()
    busy = [a for a in legal if str(a) not in ("pass", "done")]
    if not busy or rng.random() < 0.02:
        return rng.choice(legal)
    if str(legal[0]).startswith("reward"):
        bonus = [a for a in busy if str(a) == "reward bonus"]
        busy = bonus or busy
    return rng.choices(busy, [WEIGHTS.get(str(a).split()[0], 1) for a in busy])[0]


def check_invariants(s: SignorieState) -> None:
    c = s.comp
    P = s.players
    L = c.max_track_len
    S = c.max_city_slots
    tiles = list(s.alliance) + list(s.removed)
    tiles += [t for t in s.marriage_tile + s.mission_tile if t != EMPTY]
    for p in range(P):
        # meeples conserved between supply, general stock, threshold space, tracks and cities
        on_tracks = sum(s.tracks[p * 3 * L:(p + 1) * 3 * L])
        in_cities = Counter(x % 4 == 0 for x in s.city_slot if x >= 0 and x // 4 == p)
        assert s.men[p] + s.stock_m[p] + s.parked_m[p] + on_tracks + in_cities[False] == 12
        assert s.women[p] + s.stock_w[p] + s.parked_w[p] + in_cities[True] == 11
        assert min(s.men[p], s.women[p], s.stock_m[p], s.stock_w[p], s.florins[p], s.vp[p]) >= 0
        # at most four dice, one per colour
        dice = s.dice[p * 5:p * 5 + 5]
        assert s.ndice[p] == sum(1 for v in dice if v) <= 4
        assert all(0 <= v <= 6 for v in dice)
        assert c.threshold_base <= s.threshold[p] <= c.threshold_max
        assert 0 <= s.init_pos[p] <= c.init_top and 0 <= s.brides[p] <= len(c.son_vp)
        # alliance rows within the plan: face up only on a matching shield
        for r in range(4):
            up = Counter(c.tile_family[t] for t in s.rows_up[p * 4 + r])
            assert all(n <= c.plan_need[p][r][f] for f, n in up.items())
            tiles += list(s.rows_up[p * 4 + r]) + list(s.rows_down[p * 4 + r])
        assert sum(s.vp_by[p * 9:p * 9 + 9]) == s.vp[p]
    # every alliance tile is in exactly one place
    assert sorted(tiles) == list(range(c.n_tiles))
    # dice of each colour: in their area or on a board during Phase 2
    if s.phase == PLAY:
        for col in range(5):
            held = sum(1 for p in range(P) if s.dice[p * 5 + col])
            assert held + sum(s.pool[col * 6:col * 6 + 6]) == c.dice_per_colour[P]
    # city slots hold only real occupants, the lowest empty slot first
    for city in range(5):
        slots = s.city_slot[city * S:city * S + len(c.city_slots[city])]
        assert all(x == EMPTY or 0 <= x < 4 * P for x in slots)
        if city not in s.cities:
            assert all(x == EMPTY for x in slots)
    assert sum(bin(m).count("1") for m in s.helpers) == s.hired <= c.helper_discs


def check_view(s: SignorieState) -> None:
    """No face-down alliance tile or undrawn tile visible to anyone."""
    hidden = set(s.alliance) | set(s.removed) | {t for row in s.rows_down for t in row}
    for seat in (None, *range(s.players)):
        view = s.observe(seat)
        shown = {c["marriage_tile"] for c in view["cities"]} | {c["mission_tile"] for c in view["cities"]}
        shown |= {t for p in view["players"] for r in p["rows"] for t in r["up"]}
        assert not shown & hidden
        assert view["alliance_stack"] == len(s.alliance)


def play_game(players: int, seed: int, policy, check: bool = True) -> SignorieState:
    s = GAME.setup(players, seed)
    rng = random.Random(seed * 31 + players)
    if check:
        check_invariants(s)
    while not s.is_over:
        legal = s.legal_actions()
        assert legal, (f"no legal action: {players} players, seed {seed}, "
                       f"moves {s.notation_history()}")
        s.apply_unchecked(policy(s, rng))
        assert s.move_number <= GAME.info.max_length
        if check:
            check_invariants(s)
            if s.move_number % 17 == 0:
                check_view(s)
    assert s.to_move is None and s.legal_actions() == ()
    lo, hi = GAME.info.score_range
    assert all(lo <= v <= hi for v in s.scores())
    return s


@pytest.mark.parametrize("players", [2, 3, 4])
@pytest.mark.parametrize("policy", [uniform, progress], ids=["uniform", "progress"])
def test_games_keep_every_invariant(players, policy):
    for seed in range(100):
        play_game(players, seed, policy)


@pytest.mark.parametrize("players", [2, 3, 4])
def test_progress_play_reaches_deep_positions(players):
    """The progress policy really plays the game: missions, marriages, face-up tiles, full
    rows, married sons, men high on the tracks."""
    seen = Counter()
    for seed in range(60):
        s = play_game(players, seed, progress, check=False)
        for e in s.events:
            seen[e.kind] += 1
            if e.kind in ("marriage", "mission") and e.public["tile"] != -1:
                seen["tile_taken"] += 1
            if e.kind == "final" and any(e.public["rows"]):
                seen["row_scored"] += 1
        seen["four_sons"] += sum(1 for b in s.brides if b == 4)
    for kind in ("mission", "marriage", "tile_taken", "row_scored", "offspring", "hire",
                 "assign", "bonus_florins", "bonus_initiative", "face_down", "wedding", "buy",
                 "vp_tile", "reward", "helper"):
        assert seen[kind] > 0, kind


@pytest.mark.slow
@pytest.mark.parametrize("players", [2, 3, 4])
@pytest.mark.parametrize("policy", [uniform, progress], ids=["uniform", "progress"])
def test_many_games_keep_every_invariant(players, policy):
    for seed in range(1000, 1600):
        play_game(players, seed, policy)


def test_replays_are_identical_and_copies_independent():
    s = play_game(3, 7, progress, check=False)
    again = GAME.setup(3, 7)
    for text in s.notation_history():
        again.apply(text)
    assert again.observe(None) == s.observe(None) and again.scores() == s.scores()
    mid = GAME.setup(4, 3)
    rng = random.Random(3)
    for _ in range(80):
        mid.apply_unchecked(progress(mid, rng))
    before = (mid.observe(0), mid.notation_history())
    other = mid.copy()
    while not other.is_over:
        other.apply_unchecked(progress(other, rng))
    assert (mid.observe(0), mid.notation_history()) == before


def test_a_turn_ends_only_when_its_frames_are_done():
    s = GAME.setup(2, 4)
    rng = random.Random(4)
    turns = 0
    while not s.is_over:
        key = GAME.turn_key(s)
        mover = s.to_move
        s.apply_unchecked(progress(s, rng))
        new_turn = GAME.turn_key(s) != key
        if s.phase == PLAY and s.round == key[0] and new_turn:
            # a new turn of the same round: the next seat that has not passed
            assert s.stack == [(F_TURN, s.to_move)]
            assert s.to_move != mover or all(s.passed[p] for p in range(2) if p != mover)
            turns += 1
        elif not new_turn and not s.is_over:
            assert s.to_move == mover  # within a turn the same seat decides
    assert turns > 20
