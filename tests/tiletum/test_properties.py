"""Seeded random games: no errors, invariants hold, copies, replays, observations, notation."""

from __future__ import annotations

import random

import pytest

from palio.core.errors import IllegalAction, NotationError
from palio.games.tiletum import GAME
from palio.games.tiletum.components import CREST
from palio.games.tiletum.rules.common import roof_houses
from palio.games.tiletum.state import TiletumState


def choose(state, rng):
    """Random play that rarely stops early, so games reach deep into the rules."""
    legal = state.legal_actions()
    if len(legal) > 1 and rng.random() < 0.85:
        busy = [a for a in legal if str(a) not in ("end", "done", "bonus skip", "kingtile discard")]
        if busy:
            return rng.choice(busy)
    return rng.choice(legal)


def check_invariants(s: TiletumState) -> None:
    c = s.comp
    for p in range(s.players):
        assert min(s.res[p]) >= 0, s.res[p]
        assert s.vp[p] >= 0
        on_map = sum(1 for o in s.house_owner if o == p)
        assert on_map + s.houses[p] + roof_houses(s, p) == c.n_houses
        pillars = sum(owners.count(p) for owners in s.pillar_owner)
        on_spaces = max(0, c.pillars_on_spaces - len(s.done[p]))
        assert pillars + s.pillars[p] + on_spaces == c.n_pillars
        assert s.houses[p] >= 0 and s.pillars[p] >= 0
        assert len(s.store[p]) <= c.storehouse
        assert len(s.done[p]) <= c.contract_spaces
        fams = [f for f in s.crests[p] if f != -1]
        fams += [c.tiles[t][1] for t in s.store[p] if c.tiles[t][0] == CREST]
        assert len(fams) == len(set(fams)), "one crest per family"
        assert 0 <= s.king_pos[p] < len(c.king_vp)
    for owners in s.pillar_owner:
        assert len(owners) == len(set(owners))
    # a helper in use stays in the storehouse of the player to move, above its stack depth
    for depth, tile in zip(s.holds[::2], s.holds[1::2], strict=True):
        assert len(s.stack) > depth and tile in s.store[s.to_move]
    if not s.is_over:
        assert s.legal_actions()


def random_game(players: int, seed: int, check: bool = True, options=None) -> TiletumState:
    s = GAME.setup(players, seed, options)
    rng = random.Random(seed * 7 + players)
    while not s.is_over:
        s.apply_unchecked(choose(s, rng))
        if check:
            check_invariants(s)
        assert s.move_number < GAME.info.max_length
    return s


@pytest.mark.parametrize("players", [2, 3, 4])
def test_random_games_end_cleanly(players):
    for seed in range(70):
        s = random_game(players, seed, options={"action_tiles": seed % 2 == 1})
        assert s.is_over and s.to_move is None and s.legal_actions() == ()
        lo, hi = GAME.info.score_range
        assert all(lo <= v <= hi for v in s.scores())
        assert sorted(s.ranking()) == list(range(players))


@pytest.mark.slow
@pytest.mark.parametrize("players", [2, 3, 4])
def test_random_games_many(players):
    for seed in range(1000, 1600):
        random_game(players, seed)


def test_replay_is_identical():
    for players, seed in ((2, 3), (3, 4), (4, 5)):
        s = random_game(players, seed, check=False)
        t = GAME.setup(players, seed)
        for text in s.notation_history():
            t.apply(text)
        assert t.observe(None) == s.observe(None)
        assert t.scores() == s.scores()
        assert [e.full() for e in t.events] == [e.full() for e in s.events]


def test_copies_are_independent_and_observe_unchanged():
    rng = random.Random(11)
    for players in (2, 3, 4):
        s = GAME.setup(players, 40 + players)
        while not s.is_over:
            if rng.random() < 0.3:
                views = [s.observe(seat) for seat in (None, *range(players))]
                other = s.copy()
                for _ in range(5):
                    if other.is_over:
                        break
                    other.apply(choose(other, rng))
                assert views == [s.observe(seat) for seat in (None, *range(players))]
            s.apply(choose(s, rng))


def test_illegal_and_malformed_actions_change_nothing():
    rng = random.Random(5)
    s = GAME.setup(3, 9)
    space = GAME.all_actions()
    for _ in range(300):
        if s.is_over:
            break
        before = s.observe(None)
        n = s.move_number
        legal = set(s.legal_actions())
        bad = rng.choice([a for a in space if a not in legal])
        with pytest.raises(IllegalAction):
            s.apply(bad)
        for text in ("", "die", "die 9x", "move arch Atlantis", "room 9 b1 f1", "fly away",
                     "house Nowhere.1", "exchange g", "kingtile maybe"):
            with pytest.raises(NotationError):
                s.apply(text)
        assert s.observe(None) == before and s.move_number == n
        s.apply(choose(s, rng))


def test_observe_hides_only_what_is_unseen():
    rng = random.Random(2)
    for players in (2, 3, 4):
        s = GAME.setup(players, 60 + players)
        steps = 0
        while not s.is_over:
            if steps % 17 == 0:
                for seat in range(players):
                    d = s.determinize(seat, rng)
                    assert d.observe(seat) == s.observe(seat)
                    assert d.legal_actions() == s.legal_actions()
                    if not d.is_over:
                        d.apply(choose(d, rng))  # a determinized state plays on
            s.apply(choose(s, rng))
            steps += 1


def test_determinize_resamples_hidden_parts():
    s = GAME.setup(4, 3)
    rng = random.Random(0)
    outs = {tuple(s.determinize(0, rng).char_deck) for _ in range(5)}
    assert len(outs) > 1
    assert s.determinize(0, rng).seed != s.seed


def test_events_reveal_nothing_hidden():
    """The same decision in a position and in a determinized copy (other decks, unseen
    corruption tokens, future dice) logs the same public events, chance reveals aside."""
    rng = random.Random(5)
    chance = {"dice", "corruption"}  # revealed at that moment by the rules
    for players in (2, 4):
        s = GAME.setup(players, 90 + players)
        while not s.is_over:
            action = choose(s, rng)
            seat = s.to_move
            d = s.determinize(seat, rng)
            start = len(s.events)
            s.apply(action)
            d.apply(action)
            for view in (None, seat):
                mine = [e for e in s.events_for(view, start) if e["kind"] not in chance]
                theirs = [e for e in d.events_for(view, start) if e["kind"] not in chance]
                assert mine == theirs, action
            assert all(e.secret is None for e in s.events[start:])


def test_notation_and_index_round_trip():
    for action in GAME.all_actions():
        assert GAME.parse_action(str(action)) == action
        assert GAME.action_from_index(GAME.action_index(action)) == action
    assert len(set(GAME.all_actions())) == GAME.info.action_space_size
    rng = random.Random(3)
    s = GAME.setup(4, 12)
    while not s.is_over:
        for a in s.legal_actions():
            assert GAME.parse_action(str(a)) == a
            assert GAME.action_index(a) >= 0
        s.apply(choose(s, rng))


def snapshot(s: TiletumState) -> str:
    return repr(sorted((k, v) for k, v in vars(s).items() if k not in ("history", "log", "_legal")))


def test_copy_holds_every_field_and_shares_nothing_mutable():
    rng = random.Random(4)
    s = GAME.setup(4, 21)
    while not s.is_over:
        other = s.copy()
        assert set(vars(other)) == set(vars(s))
        before = snapshot(s)
        for _ in range(3):
            if other.is_over:
                break
            other.apply_unchecked(choose(other, rng))
        assert snapshot(s) == before
        s.apply_unchecked(choose(s, rng))
