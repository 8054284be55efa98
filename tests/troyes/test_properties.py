"""Seeded games for 2, 3 and 4 players under two policies (uniform random, and one that
prefers progress: cards, events, the cathedral and citizens over passing), with every invariant
of the issue checked after every decision:

* citizens: at most 12 per player, conserved between the personal supply, the buildings
  (standing or lying), the activity cards and the general supply; the 8 gray ones too;
* influence 0-20, money and VP never negative;
* dice conserved: at most 6 of each colour between the districts and the group being formed,
  at most 6 black dice;
* nothing hidden shows: another seat's characters and face-down activity cards appear in no
  view, no log line and no determinized world's view;
* a live position always has a legal action (a failure names the seed and the moves).

The CI runs a few hundred games per policy; ``pytest -m slow tests/troyes`` runs thousands.
"""

from __future__ import annotations

import random

import pytest

from palio.games.troyes import GAME
from palio.games.troyes.state import F_COMBAT, F_FLIP, F_GROUP, NEUTRAL, TroyesState

PROGRESS = {
    "ActivateCard": 6.0, "FightEvent": 4.0, "Cathedral": 4.0, "PlaceCitizen": 3.0, "Farm": 1.0,
    "Pass": 0.05, "Reroll": 0.2, "Flip": 0.2, "Recruit": 0.3, "UseCube": 3.0, "NoCube": 1.0,
    "Go": 2.0, "Use": 3.0, "Stop": 0.3, "Concede": 0.1,
}


def uniform(state: TroyesState, rng: random.Random):
    return rng.choice(state.legal_actions())


def progress(state: TroyesState, rng: random.Random):
    """Seeded, prefers doing things: activating cards, fighting, building, placing."""
    legal = state.legal_actions()
    weights = [PROGRESS.get(type(a).__name__, 1.0) for a in legal]
    return rng.choices(legal, weights)[0]


def check_invariants(s: TroyesState) -> None:
    c = s.comp
    for p in range(s.players):
        assert s.money[p] >= 0 and s.purse[p] >= 0, ("money", p, s.money, s.purse)
        assert 0 <= s.influence[p] <= c.influence_max, ("influence", s.influence)
        assert s.vp[p] >= 0
        assert s.supply[p] >= 0 and s.reserve[p] >= 0
        lying = sum((m >> p) & 1 for m in s.lying)
        on_art = sum((m >> p) & 1 for m in s.extra)
        total = s.supply[p] + s.reserve[p] + s.spaces.count(p) + lying + s.trade.count(p) + on_art
        assert total == c.citizens_per_player, ("citizens", p, total)
        width = c.max_trade_spaces
        for k in range(9):
            mine = s.trade[k * width:(k + 1) * width].count(p) + ((s.extra[k] >> p) & 1)
            assert mine <= 1, "two tradesmen of one player on a card"
    gray_lying = sum((m >> NEUTRAL) & 1 for m in s.lying)
    assert s.neutral_reserve + s.spaces.count(NEUTRAL) + gray_lying == c.neutral_citizens
    held = [0, 0, 0]
    for frame in s.stack:
        if frame[0] == F_GROUP:
            for d in frame[5]:
                held[d % 18 // 6] += 1
        elif frame[0] == F_COMBAT:
            for f in frame[2]:
                held[f // 6] += 1
        elif frame[0] == F_FLIP:
            for f in frame[3]:
                held[f // 6] += 1
    assert min(s.dice) >= 0
    for colour in range(3):
        free = sum(s.dice[d * 18 + colour * 6 + v] for d in range(5) for v in range(6))
        assert free + held[colour] <= c.dice_per_colour, ("dice", colour, free, held)
    assert len(s.black) <= c.black_dice
    for column in range(c.columns):
        built = [s.cathedral[level * c.columns + column] != -1 for level in range(c.levels)]
        assert built == sorted(built, reverse=True), "cathedral levels out of order"
    for pos, cubes in enumerate(s.ev_cubes):
        assert len(cubes) < c.events[s.queue[pos]][6], "an event with full banners stayed"
    assert s.queue[0] == c.marauding


def check_no_leak(s: TroyesState, rng: random.Random) -> None:
    """No seat, spectator or log sees another seat's characters or a face-down card."""
    over = s.is_over
    for viewer in [None, *range(s.players)]:
        view = s.observe(viewer)
        for p in range(s.players):
            shown = view["players"][p]["characters"]
            assert shown is None if not (over or p == viewer) else shown == list(s.chars[p])
        for k in range(9):
            assert (view["cards"][k] is None) == (k % 3 >= s.revealed)
        for event in s.events_for(viewer):
            if event["kind"] == "deal":
                assert ("characters" in event) == (event["seat"] == viewer)
    if not over:
        seat = s.to_move
        world = s.determinize(seat, random.Random(rng.random()))
        assert world.observe(seat) == s.observe(seat)
        assert world.legal_actions() == s.legal_actions()


def play(players: int, seed: int, policy, options=None, leaks: float = 0.02) -> TroyesState:
    s = GAME.setup(players, seed, options)
    rng = random.Random(seed * 31 + players)
    check_invariants(s)
    moves: list[str] = []
    while not s.is_over:
        legal = s.legal_actions()
        assert legal, f"seed {seed}, {players} players: no legal action after {moves}"
        if rng.random() < leaks:
            check_no_leak(s, rng)
        action = policy(s, rng)
        moves.append(str(action))
        s.apply_unchecked(action)
        check_invariants(s)
        assert s.move_number <= GAME.info.max_length, f"seed {seed}: too long"
    check_no_leak(s, rng)
    lo, hi = GAME.info.score_range
    assert all(lo <= v <= hi for v in s.scores())
    return s


@pytest.mark.parametrize("players", [2, 3, 4])
@pytest.mark.parametrize("policy", [uniform, progress], ids=["uniform", "progress"])
def test_games_keep_every_invariant(players, policy):
    for seed in range(70):
        play(players, seed, policy, {"bonus_cards": seed % 4 == 3})


def test_the_progress_policy_reaches_deep_positions():
    """The progress policy really plays the game: cards activated, events countered, the
    cathedral built, delayed cubes used (counted over a handful of games)."""
    seen: dict[str, int] = {}
    for seed in range(12):
        s = play(4, seed, progress)
        for event in s.events:
            seen[event.kind] = seen.get(event.kind, 0) + 1
    for kind in ("activate", "event_countered", "cathedral", "cube_used", "hired", "placed",
                 "black_beaten", "card_cubes"):
        assert seen.get(kind, 0) > 0, kind


def test_replays_are_identical():
    a = play(3, 5, progress)
    b = GAME.setup(3, 5)
    for text in a.notation_history():
        b.apply(text)
    assert b.observe(None) == a.observe(None) and b.scores() == a.scores()


@pytest.mark.slow
@pytest.mark.parametrize("players", [2, 3, 4])
@pytest.mark.parametrize("policy", [uniform, progress], ids=["uniform", "progress"])
def test_many_games_keep_every_invariant(players, policy):
    for seed in range(1000, 2500):
        play(players, seed, policy, {"bonus_cards": seed % 3 == 0}, leaks=0.005)
