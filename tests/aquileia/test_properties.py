"""Seeded games for every player count under two policies, with every invariant of the issue
checked at every step: coins never negative and conserved (no change given), cards, houses and
henchmen conserved, exact payments, and no hidden card in a view, a log line or a spectator's
view. A position that is not over and has no legal action fails, naming the seed and the moves.

The policies: uniform random, and a seeded "progress" policy that prefers building, scoring,
bidding, buying and playing cards over passing, skipping and stopping, so games reach deep
positions (full forums, long auctions, reshuffled decks). Thousands of games per count run
behind ``@pytest.mark.slow``: ``pytest -m slow tests/aquileia/test_properties.py``.
"""

from __future__ import annotations

import random

import pytest

from palio.games.aquileia import GAME
from palio.games.aquileia.actions import Build
from palio.games.aquileia.components import CLASSES, METALS
from palio.games.aquileia.state import F_BUILD, PLACEMENT, AquileiaState

C = GAME.components
PASSIVE = {"pass", "skip", "done", "tiebreaker"}
RANK = ("build", "prize", "laurel", "play", "bid", "buy", "slaves", "exchange", "roll", "place")


def uniform(state: AquileiaState, rng: random.Random):
    return rng.choice(state.legal_actions())


def progress(state: AquileiaState, rng: random.Random):
    """Prefer doing something: the highest-ranked kind of action on offer, at random among
    them; a little randomness keeps the passes in play (not the tiebreaker, which came last
    in these runs since the option ``tiebreaker_ends`` was the rule; kept so the runs compare)."""
    legal = state.legal_actions()
    if rng.random() < 0.1:
        return rng.choice([a for a in legal if str(a) != "tiebreaker"] or legal)
    by_word: dict[str, list] = {}
    for action in legal:
        by_word.setdefault(str(action).split()[0], []).append(action)
    for word in RANK:
        if word in by_word:
            if word == "roll":  # every blue die into the arena, as before the dice were chosen
                return max(by_word[word], key=lambda roll: roll.count)
            return rng.choice(by_word[word])
    return rng.choice(legal)


def check_invariants(s: AquileiaState) -> None:
    c = s.comp
    # coins: never negative, the total of each metal never changes (so no change is ever made)
    assert min(s.coins) >= 0 and min(s.bank) >= 0, (s.coins, s.bank)
    for m in range(3):
        on_ports = sum(1 for k, metal in enumerate(c.port_metals) if metal == m and s.port_coin[k])
        held = sum(s.coins[3 * p + m] for p in range(s.players))
        assert s.bank[m] + held + on_ports == c.supply[m], METALS[m]
    # every card is in exactly one place
    places = [*s.display, s.stadium_up, s.theatre_up, s.peek]
    cards = [x for x in places if x != -1]
    for k in range(4):
        cards += s.deck[k] + s.discard[k]
    for hand in s.hand:
        cards += hand
    assert sorted(cards) == list(range(c.n_cards))
    for k in range(4):  # decks and discards hold only their own class
        assert all(c.type_class[c.card_type[x]] == k for x in s.deck[k] + s.discard[k]), CLASSES[k]
    # houses and henchmen
    for p in range(s.players):
        assert s.houses[p] >= 0 and s.houses[p] + s.plot_owner.count(p) == c.houses
        placed = s.field_owner.count(p)
        assert placed <= c.henchmen
        if s.phase == PLACEMENT:
            assert s.henchmen[p] + placed == c.henchmen
        for card in s.hand[p]:
            assert s.seen[card] >> p & 1, "a holder always knows their card"
    assert sum(1 for k, coin in enumerate(s.port_coin) if coin and s.field_owner[c.f_port[k]] == -1) == 0
    assert sum(s.vp_cat) == sum(s.vp) and min(s.vp) >= 0
    assert sorted(t for t in s.tb if t != -1) == list(range(sum(1 for t in s.tb if t != -1)))
    if not s.is_over:
        assert s.legal_actions(), "a live position with no legal action"
    if s.stack and s.stack[-1][0] == F_BUILD:  # slaves overpaid only when no exact payment exists
        builds = [a for a in s.legal_actions() if isinstance(a, Build)]
        for a in builds:
            need = c.plot_slaves[a.plot - 1]
            if max(need - 2 * a.twos, 0) + 2 * a.twos > need:
                assert not any(b.plot == a.plot and b is not a for b in builds), a


def check_views(s: AquileiaState) -> None:
    """Nobody sees a card they do not know: not in their view, not in a spectator's."""
    c = s.comp
    for viewer in [None, *range(s.players)]:
        view = s.observe(viewer)
        for p, info in enumerate(view["players"]):
            if viewer == p:
                assert info["cards"] == sorted(c.type_key[c.card_type[x]] for x in s.hand[p])
                assert sum(info["hidden"].values()) == 0
                continue
            known = sorted(c.type_key[c.card_type[x]] for x in s.hand[p]
                           if viewer is not None and s.seen[x] >> viewer & 1
                           or s.seen[x] == (1 << s.players) - 1)
            if not s.is_over:
                assert info["cards"] == known
                assert len(known) + sum(info["hidden"].values()) == len(s.hand[p])
        assert ("peek" in view) == (viewer is not None and s.peek != -1 and viewer == s.to_move)


def check_payments(s: AquileiaState) -> None:
    """Every payment of the game was exactly a printed price: buildings their coins and at
    least their slaves with no card to spare, exchanges one printed option, auctions the bid."""
    c = s.comp
    for event in s.log.to_list():
        e = event.full()
        if e["kind"] == "build":
            plot = e["plot"] - 1
            assert tuple(e["coins"]) == c.plot_cost[plot]
            need = c.plot_slaves[plot]
            assert need <= e["slaves"] <= need + 1 and e["slaves"] == e["ones"] + 2 * e["twos"]
            assert not (e["ones"] and e["slaves"] > need), "a one-slave card to spare"
        elif e["kind"] == "exchange":
            assert (tuple(e["give"]), tuple(e["get"])) in c.exchanges
        elif e["kind"] == "auction_won":
            assert sum(e["paid"]) >= 1


def play(players: int, seed: int, policy, check: bool = True, views: bool = False) -> AquileiaState:
    s = GAME.setup(players, seed)
    rng = random.Random(seed * 31 + players)
    while not s.is_over:
        legal = s.legal_actions()
        assert legal, f"{players} players, seed {seed}: no legal action after {s.notation_history()}"
        s.apply_unchecked(policy(s, rng))
        if check:
            check_invariants(s)
        if views:
            check_views(s)
        assert s.move_number < GAME.info.max_length
    lo, hi = GAME.info.score_range
    assert all(lo <= v <= hi for v in s.scores())
    if check:
        check_payments(s)
    return s


@pytest.mark.parametrize("players", [3, 4, 5])
@pytest.mark.parametrize("policy", [uniform, progress], ids=["uniform", "progress"])
def test_games_keep_every_invariant(players, policy):
    for seed in range(60):
        play(players, seed, policy, views=seed < 8)


def test_progress_play_reaches_deep_positions():
    """The progress policy really builds, bids and reshuffles decks, and half fills the forum."""
    built = bids = reshuffles = busy_forum = 0
    for seed in range(30):
        s = play(5, seed, progress, check=False)
        kinds = [e.kind for e in s.events]
        built += kinds.count("build")
        bids += kinds.count("bid")
        reshuffles += kinds.count("reshuffle")
        busy_forum += s.plot_owner.count(-1) <= len(s.plot_owner) // 2
    # busy_forum counts games that half fill the forum: 7 of these 30 before the tiebreaker
    # ended one's henchmen and the blue dice were rolled together, 3 since (another 30 seeds
    # gave 4 and 2 before the change: it is noisy), so at least 2
    assert built > 30 * 7 and bids > 30 * 6 and reshuffles > 0 and busy_forum >= 2


def test_random_play_events_never_leak_a_secret():
    for seed in range(10):
        s = play(4, seed, uniform, check=False)
        for event in s.log.to_list():
            if event.secret:
                assert event.audience and len(event.audience) < s.players
                for seat in range(s.players):
                    view = event.view(seat)
                    assert all(k in view for k in event.secret) == (seat in event.audience)
                assert not any(k in event.view(None) for k in event.secret)


def test_determinized_worlds_look_the_same_and_differ_in_what_is_hidden():
    rng = random.Random(5)
    differs = 0
    for seed in range(6):
        s = GAME.setup(5, seed)
        r = random.Random(seed)
        while not s.is_over:
            if s.move_number % 9 == 0:
                seat = s.to_move
                world = s.determinize(seat, rng)
                assert world.observe(seat) == s.observe(seat)
                assert world.legal_actions() == s.legal_actions()
                assert world.seed != s.seed and world.forced == ()
                differs += any(world.hand[p] != s.hand[p] for p in range(5)) or world.deck != s.deck
                world.apply_unchecked(world.legal_actions()[0])  # the world plays on
            s.apply_unchecked(progress(s, r))
    assert differs > 20


def test_replay_from_seed_and_notation_is_identical():
    s = play(4, 3, progress, check=False)
    again = GAME.setup(4, 3)
    for text in s.notation_history():
        again.apply(text)
    assert again.observe(None) == s.observe(None) and again.scores() == s.scores()


def test_copies_are_independent():
    s = GAME.setup(5, 2)
    rng = random.Random(2)
    for _ in range(120):
        s.apply_unchecked(progress(s, rng))
    before = (s.observe(0), [h[:] for h in s.hand], s.deck[0][:], s.coins[:])
    copy = s.copy()
    while not copy.is_over:
        copy.apply_unchecked(progress(copy, rng))
    assert (s.observe(0), s.hand, s.deck[0], s.coins) == before


@pytest.mark.slow
@pytest.mark.parametrize("players", [3, 4, 5])
@pytest.mark.parametrize("policy", [uniform, progress], ids=["uniform", "progress"])
def test_thousands_of_games_keep_every_invariant(players, policy):
    for seed in range(1000, 1400):
        play(players, seed, policy, views=seed % 50 == 0)
