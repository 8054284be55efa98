"""Game review and hints: the strongest bot judges every decision of a finished game.

For each decision the search runs from the mover's own information set (every iteration a
world ``state.determinize(seat, rng)`` that the mover cannot tell from the real one), never
from the true hidden state, so a verdict depends only on what the mover knew then. It gives,
per legal choice, how often the search tried it and its mean result for every seat.

The measure is the **expected win share** for a seat (the search's value): 1 is a sure win,
0 a sure loss, ties share a win, so ``1/P`` is about even with ``P`` players. A decision's
``loss`` is the win share of the bot's preferred choice (the most searched one) less that of
the choice played, never below 0. Classes follow lichess's inaccuracy, mistake and blunder
with thresholds in win share tuned per game (:data:`THRESHOLDS`, docs/review.md). Accuracy reads
the score margin instead (the search's expected lead in points, which keeps moving where win
shares saturate): a decision's ``stake`` is the margin a uniformly random choice would lose
there, its accuracy the share of it kept, and a player's accuracy the share of their total
stake kept (:func:`game_accuracy`), so decisions with nothing to choose between hardly count
and random play scores about 0.

Which search: the trained ``learned`` model where its card proves it at least as strong as
the strongest search without a network, that search otherwise (``mcts``, or ``puct`` where
``palio.bots.SEARCH_BY_GAME`` says it is stronger), as the ``expert`` level decides, except
where :data:`JUDGE_BY_GAME` names a judge whose verdicts were measured steadier (a search, or
the shipped model of a game whose card shows it about level); a budget
of iterations per decision (repeatable with a seed) or of seconds (not repeatable). The review
grows its own roots with the searches' public ``iterate`` step (``MctsBot.iterate``,
``NetSearch.iterate``), as it needs a second search below the choice played, which
``mcts.search_root`` does not give.
"""

from __future__ import annotations

import json
import math
import os
import random
import statistics
import time
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass, field
from typing import Any

import palio.games as registry
from palio import bots
from palio.bots.learned import LearnedBot, NetSearch, SearchNode
from palio.bots.mcts import DEFAULT_SCALE, MctsBot, Node
from palio.bots.network import Model
from palio.bots.simple import GreedyBot
from palio.core.errors import PalioError
from palio.core.game import Action, Game, State
from palio.core.i18n import Translator
from palio.core.record import GameRecord
from palio.core.words import Msg, Player, msg

DEFAULT_ITERATIONS = 400  # per decision; docs/review.md says what it buys
# per game and player count, a review's iterations per decision where they are not
# DEFAULT_ITERATIONS: two-player Troyes's searches with puct as judge differ between seeds by
# more than its class lines allow at 400, and keep their classes at 1,200 for about the CPU its
# learned judge took at 800 (docs/review.md, "Two-player Troyes judged by puct"). Two-player
# Tiletum took 800 with mcts judging; its network judges at 400 ("Two-player Tiletum judged by
# its network")
ITERATIONS_BY_GAME: dict[tuple[str, int], int] = {
    ("troyes", 2): 1200,
}
# per game and player count, the judge where it is not the expert level's, because its verdicts
# keep their class across seeds far more often: a search ("mcts": puct plays three-player Troyes
# better but its verdicts hold less, docs/review.md, "Three- and four-player Troyes: which
# search judges"), or "learned", the shipped model whatever its card proves (two-player
# Tiletum's network, level with mcts over 100 games, whose verdicts hold where mcts's rollouts
# do not: "Two-player Tiletum judged by its network")
JUDGE_BY_GAME: dict[tuple[str, int], str] = {
    ("tiletum", 2): "learned",
    ("troyes", 3): "mcts",
}
# per game and player count, where the judge values its leaves at once (learned, puct): the
# decisions of random play after each iteration's leaf before the mover's lead is read (the
# margin that accuracy reads; the values and so the classes are untouched). Read at the leaf,
# two-player Tiletum network's margins agree with greedy's own yardstick and accuracy no longer
# ranks skill; read eight decisions on, as the rollouts of the mcts it replaced, it does
# (docs/review.md, "Two-player Tiletum judged by its network")
LEAD_ROLLOUT_BY_GAME: dict[tuple[str, int], int] = {
    ("tiletum", 2): 8,
}
HINT_ITERATIONS = 600
HINT_COUNT = 3
# the choice played is searched at least this share of the budget, so its value is not a
# guess from a handful of visits
PLAYED_SHARE = 0.25
CLASSES = ("inaccuracy", "mistake", "blunder")
# win-share loss at which a decision is an inaccuracy, a mistake, a blunder; set above the
# two-seed spread of losses measured per game (docs/review.md, benchmarks/review_speed.py)
THRESHOLDS: dict[str, tuple[float, float, float]] = {
    "san-gimignano": (0.08, 0.15, 0.30),
    "tiletum": (0.11, 0.18, 0.30),
    "aquileia": (0.16, 0.22, 0.30),
    "signorie": (0.10, 0.18, 0.30),
    "troyes": (0.12, 0.20, 0.30),
}
DEFAULT_THRESHOLDS = (0.08, 0.15, 0.30)
PLURAL = {"inaccuracy": "inaccuracies", "mistake": "mistakes", "blunder": "blunders"}
# what a choice leads to (its reason): worlds drawn from the mover's view, the choice applied,
# the search's principal line followed, then the game finished by the greedy bot
OUTLOOK_WORLDS = 6
# a decision with no class (not in the CLI's table) tells its reason from this many of those
# worlds: the outlooks' greedy finishes are most of a long game's review (docs/review.md)
QUIET_WORLDS = 3
LINE_DEPTH = 4  # decisions of the principal line shown, the choice itself included
# where the mover's expected win share is below SATURATED or above 1 - SATURATED, accuracy
# judges the expected score margin instead (win share no longer moves there)
SATURATED = 0.05
# variants of accuracy measured by benchmarks/review_rank.py, not chosen (docs/review.md):
# position_weight's floor, hybrid_loss's band of moving win share, won_loss's won game
POSITION_FLOOR = 0.2
HYBRID_LOW = 0.1
WON = 0.9
# a loss within NEAR of a class line is searched again, RECHECK times the budget a search,
# each search with a new seed derived from the decision's, the searches pooled (the first one
# too), until the pooled loss lies at least STOP from every line or the searches have spent
# RECHECK_CAP times the budget in all, the first one counted
NEAR = 0.04
RECHECK = 2
STOP = 0.03
RECHECK_CAP = 11
# per game and player count, how near a class line a loss is searched again where it is not
# NEAR: two-player Tiletum's first searches differ between seeds by more (docs/review.md,
# "Two-player Tiletum: a wider recheck zone")
NEAR_BY_GAME: dict[tuple[str, int], float] = {
    ("tiletum", 2): 0.06,
}
# per game and player count, a flagged decision's suggested choice is checked by one more
# search at this many times the budget (:func:`confirm`); where that search does not value the
# suggestion above the choice played, its verdict stands instead. Three-player Aquileia's
# learned judge values two close choices differently at 2 and at 10 times the budget, the same
# for every seed, so searches again at twice the budget, pooled, settle the class but not
# whether the suggestion is better (docs/review.md, "Three-player Aquileia: the suggestion
# checked at ten times the budget")
CONFIRM_BY_GAME: dict[tuple[str, int], int] = {
    ("aquileia", 3): 10,
}


class ReviewCancelled(PalioError):
    """The caller asked the review to stop."""


@dataclass
class Choice:
    """One root choice: how often the search tried it and its mean result per seat."""

    action: Action
    visits: int
    values: list[float]
    # the mover's lead in points where each iteration through this choice ended
    leads: list[float] = field(default_factory=list, repr=False)
    # the visits of the main search alone (before the choice played or a suggestion was
    # searched further on its own): the search's preference
    searched: int = 0


@dataclass
class RootStats:
    """What one search from ``seat``'s view found: the legal choices, most searched first."""

    seat: int
    choices: list[Choice]
    iterations: int
    seconds: float
    engine: str
    root: Any = field(default=None, repr=False, compare=False)  # the search tree's root

    @property
    def best(self) -> Choice:
        return self.choices[0]

    def of(self, action: Action) -> Choice:
        return next(c for c in self.choices if c.action == action)


@dataclass
class Budget:
    """Iterations per decision (repeatable) or seconds per decision (not repeatable)."""

    iterations: int | None = None
    seconds: float | None = None
    # ``seconds`` counts this process's CPU time (as the bots' cpu_time=true), not the wall
    # clock: a shared machine's other work does not shorten the search
    cpu_time: bool = False

    def __post_init__(self) -> None:
        if self.iterations is None and self.seconds is None:
            self.iterations = DEFAULT_ITERATIONS
        if self.iterations is not None and self.iterations < 1:
            raise PalioError("a review needs at least one iteration per decision")
        if self.seconds is not None and not self.seconds > 0:
            raise PalioError("a review needs a positive number of seconds per decision")

    def describe(self) -> dict[str, Any]:
        return {"iterations": self.iterations, "seconds": self.seconds}

    def times(self, factor: int) -> Budget:
        return Budget(None if self.iterations is None else self.iterations * factor,
                      None if self.seconds is None else self.seconds * factor, self.cpu_time)


@dataclass
class Engine:
    """The strongest search for one game and player count (see the module docstring)."""

    game: Game
    players: int
    model: Any = None  # the learned model where one is proven (name "learned"), else None
    name: str = "mcts"  # "mcts", "puct" (NetSearch with no network) or "learned"
    mix: float = 0.0  # the weight of the heuristic in leaf values (the model card's)
    prior_visits: int = 0  # visits before a node asks the network for priors (the card's)
    lead_rollout: int = 0  # random decisions before a lead is read (LEAD_ROLLOUT_BY_GAME)

    @classmethod
    def strongest(cls, state: State) -> Engine:
        # the expert level's rule: the shipped model where its card proves it, else the
        # strongest search without a network, unless JUDGE_BY_GAME names a steadier judge
        key = (state.game.info.id, state.players)
        named = JUDGE_BY_GAME.get(key)
        proven = None if named == "learned" else 0.5
        chosen = LearnedBot(proven=proven, fallback="search").model_for(state)
        rollout = LEAD_ROLLOUT_BY_GAME.get(key, 0)
        if isinstance(chosen, Model):
            return cls(state.game, state.players, model=chosen, name="learned",
                       mix=chosen.mix, prior_visits=chosen.prior_visits, lead_rollout=rollout)
        name = named if named in ("mcts", "puct") else bots.strongest_search(*key)
        return cls(state.game, state.players, name=name, mix=1.0 if name == "puct" else 0.0,
                   lead_rollout=0 if name == "mcts" else rollout)

    def _rolled_on(self, evaluate: Callable[[State, int], float],
                   rng: random.Random) -> Callable[[State, int], float]:
        """``evaluate`` read after ``lead_rollout`` random decisions from ``rng`` (the lead's
        own generator, so the search draws the same worlds and choices with it or without)."""
        def rolled(world: State, seat: int) -> float:
            for _ in range(self.lead_rollout):
                if world.is_over:
                    break
                world.apply_unchecked(rng.choice(world.legal_actions()))
            return evaluate(world, seat)
        return rolled

    def search(self, state: State, seat: int, budget: Budget, seed: int,
               played: Action | None = None, also: Sequence[Action] = (),
               top: int = 0) -> RootStats:
        """Search ``seat``'s decision in ``state`` from its view only. With ``played`` (a
        legal action), that choice is searched at least ``PLAYED_SHARE`` of the budget, and
        so is each action of ``also`` (a suggested choice being checked) and each of the
        ``top`` choices the main search tried most (a hint's shown choices)."""
        clock = time.process_time if budget.cpu_time else time.perf_counter
        started = clock()
        rng = random.Random(seed)
        players = state.players
        if self.name != "mcts":  # learned, or puct (no model: uniform priors)
            if self.model is not None:
                self.model.bind(state.game)
            searcher = NetSearch(self.model, rng, mix=self.mix, prior_visits=self.prior_visits)
            root: Any = SearchNode(players)
            new_node: Callable[[], Any] = lambda: SearchNode(players)  # noqa: E731
        else:
            searcher = MctsBot(seed=0)
            # mcts's settings at this budget (a long one may have its own: search_defaults_long)
            searcher.iterations, searcher.time_budget = budget.iterations, budget.seconds
            searcher.rng = rng
            root = Node(players)
            new_node = lambda: Node(players)  # noqa: E731
        limit = budget.iterations if budget.iterations is not None else math.inf
        deadline = started + budget.seconds if budget.seconds is not None else math.inf
        done = 0
        # the mover's lead in points (the game's evaluate: its worth less the best other
        # seat's) where each iteration below a root choice ended (mcts: after its rollout;
        # learned and puct: at the new leaf, or lead_rollout random decisions on): the
        # search's expected score margin of that choice, which keeps moving where win shares
        # saturate
        leads: dict[Action, list[float]] = {}
        seen: dict[Action, int] = {}
        evaluate = state.game.evaluate
        if self.lead_rollout:
            evaluate = self._rolled_on(evaluate, random.Random(seed + 1))

        while done < limit:
            world = state.determinize(seat, rng)
            searcher.iterate(root, world)
            for action, child in root.children.items():
                if child.visits != seen.get(action, 0):  # the choice this iteration went by
                    seen[action] = child.visits
                    leads.setdefault(action, []).append(evaluate(world, seat))
                    break
            done += 1
            if deadline != math.inf and clock() >= deadline:
                break
        legal = state.legal_actions()
        # the preference is the main search's: visits before the played choice's extra search
        searched = {a: (root.children[a].visits if a in root.children else 0) for a in legal}
        order = {a: i for i, a in enumerate(legal)}

        def preference(action: Action) -> tuple[int, float, int]:
            # most searched first; among equals the better value, then the legal order
            child = root.children.get(action)
            value = child.total[seat] / child.visits if child is not None and child.visits \
                else math.nan
            return -searched[action], -_num(value), order[action]

        most = sorted(legal, key=preference)[:top]
        extras = ([played] if played is not None else []) + list(also) + most
        for extra in dict.fromkeys(extras):
            if extra not in legal:
                continue
            child = root.children.get(extra)
            if child is None:
                child = root.children[extra] = new_node()
            want = max(1, int(done * PLAYED_SHARE))
            tries = 0
            # the choice as a root of its own: worlds drawn from the mover's view, the
            # choice applied, the search goes on below it
            while child.visits < want and tries < 4 * want:
                tries += 1
                world = state.determinize(seat, rng)
                if extra not in world.legal_actions():
                    continue
                world.apply_unchecked(extra)
                searcher.iterate(child, world)
                leads.setdefault(extra, []).append(evaluate(world, seat))
        choices = []
        for action in legal:
            child = root.children.get(action)
            visits = child.visits if child is not None else 0
            values = ([t / visits for t in child.total] if visits else [math.nan] * players)
            choices.append(Choice(action, visits, values, leads.get(action, []),
                                  searched[action]))
        choices.sort(key=lambda c: preference(c.action))
        return RootStats(seat, choices, done, clock() - started, self.name, root)


def _num(value: float) -> float:
    return -1.0 if math.isnan(value) else value


def thresholds_for(game_id: str) -> tuple[float, float, float]:
    return THRESHOLDS.get(game_id, DEFAULT_THRESHOLDS)


def iterations_for(game_id: str, players: int) -> int:
    """A review's default iterations per decision in a game with ``players`` players
    (:data:`ITERATIONS_BY_GAME`, else ``DEFAULT_ITERATIONS``)."""
    return ITERATIONS_BY_GAME.get((game_id, players), DEFAULT_ITERATIONS)


def near_for(game_id: str, players: int) -> float:
    """How near a class line a loss is searched again in a game with ``players`` players
    (:data:`NEAR_BY_GAME`, else ``NEAR``)."""
    return NEAR_BY_GAME.get((game_id, players), NEAR)


def confirm_for(game_id: str, players: int) -> int:
    """How many times the budget a flagged decision's suggestion is checked at in a game
    with ``players`` players (:data:`CONFIRM_BY_GAME`); 0: not checked."""
    return CONFIRM_BY_GAME.get((game_id, players), 0)


def judge(loss: float, thresholds: tuple[float, float, float]) -> str | None:
    """Advice: the class of a decision that lost ``loss`` in win share, or None."""
    verdict = None
    for name, limit in zip(CLASSES, thresholds, strict=True):
        if loss >= limit:
            verdict = name
    return verdict


advice = judge  # lichess's name for it


def near_a_line(loss: float, thresholds: tuple[float, float, float], near: float = NEAR) -> bool:
    """Whether a loss lies within ``near`` of a class line (its class could be the seed's)."""
    return any(abs(loss - limit) < near for limit in thresholds)


def pool(searches: Sequence[RootStats]) -> RootStats:
    """Several searches of one decision from one seat's view as one search: per choice the
    visits (and the main searches' visits, the preference) summed, the values weighted by
    visits (each search's mean times its visits, over all the visits), the leads together;
    most searched first (by the main searches' visits, then the better value, then the first
    search's order), and the last search's tree."""
    first = searches[0]
    seat, players = first.seat, len(first.choices[0].values)
    order = {c.action: i for i, c in enumerate(first.choices)}
    visits: dict[Action, int] = {}
    main: dict[Action, int] = {}
    totals: dict[Action, list[float]] = {}
    leads: dict[Action, list[float]] = {}
    for stats in searches:
        for c in stats.choices:
            visits[c.action] = visits.get(c.action, 0) + c.visits
            main[c.action] = main.get(c.action, 0) + c.searched
            total = totals.setdefault(c.action, [0.0] * players)
            if c.visits:
                for i, value in enumerate(c.values):
                    total[i] += value * c.visits
            leads.setdefault(c.action, []).extend(c.leads)
    choices = [Choice(a, visits[a], [t / visits[a] for t in totals[a]] if visits[a]
                      else [math.nan] * players, leads[a], main[a]) for a in order]
    choices.sort(key=lambda c: (-c.searched, -_num(c.values[seat]), order[c.action]))
    return RootStats(seat, choices, sum(s.iterations for s in searches),
                     sum(s.seconds for s in searches), first.engine, searches[-1].root)


def loss_of(stats: RootStats, action: Action) -> float:
    """The win share ``action`` loses against the search's preferred choice, never below 0
    (0 where it is the preferred choice)."""
    best, mine = stats.best, stats.of(action)
    if mine.action == best.action:
        return 0.0
    return max(0.0, best.values[stats.seat] - mine.values[stats.seat])


def recheck(engine: Engine, state: State, action: Action, first: RootStats, budget: Budget,
            seed: int, limits: tuple[float, float, float],
            cap: int = RECHECK_CAP) -> tuple[RootStats, int]:
    """A decision whose loss lies near a class line, searched again until its class is
    settled: one search after another at ``RECHECK`` times the budget, each with its own seed
    derived from the decision's ``seed`` (``decision_seed(seed, 7 * k)``, k = 1, 2, ...), the
    choice played and the pooled preferred choice each searched at least ``PLAYED_SHARE`` of
    it on their own, every search pooled with the ones before and with ``first``
    (:func:`pool`), until the pooled loss lies ``STOP`` or more from every line (one search
    again at least) or another search would pass ``cap`` times the budget in all (``first``
    counted once). The pooled search and how many searches were added."""
    searches = [first]
    stats = first
    spent = 1
    while spent + RECHECK <= cap:
        searches.append(engine.search(state, first.seat, budget.times(RECHECK),
                                      decision_seed(seed, 7 * len(searches)), action,
                                      also=[stats.best.action]))
        spent += RECHECK
        stats = pool(searches)
        if not near_a_line(loss_of(stats, action), limits, STOP):
            break
    return stats, len(searches) - 1


def confirm(engine: Engine, state: State, action: Action, stats: RootStats, budget: Budget,
            seed: int, factor: int) -> tuple[RootStats, bool]:
    """A flagged decision's suggestion (``stats.best``) checked by one search at ``factor``
    times the budget with its own seed (``decision_seed(seed, 13)``), the choice played and
    the suggestion each searched at least ``PLAYED_SHARE`` of it: ``stats`` and True where
    that search values the suggestion above the choice played, else that search and False
    (its verdict replaces the review's: the choice played, or a third, may be its best)."""
    seat, suggested = stats.seat, stats.best.action
    deep = engine.search(state, seat, budget.times(factor), decision_seed(seed, 13), action,
                         also=[suggested])
    if deep.of(suggested).values[seat] > deep.of(action).values[seat]:
        return stats, True
    return deep, False


def win_percent(share: float) -> float:
    """lichess's WinPercent on our scale: the mover's expected win share in percent, 0..100."""
    return 100.0 * max(0.0, min(1.0, share))


def saturated(share: float) -> bool:
    """Whether the win share has stopped moving: the judge thinks the game decided for the
    mover (below ``SATURATED`` or above ``1 - SATURATED``)."""
    return share < SATURATED or share > 1.0 - SATURATED


def margin_share(points: float, scale: float) -> float:
    """A loss of ``points`` of expected score margin as a loss in win share: the slope of the
    search's own logistic at an even position (``1 / (4 * scale)`` a point, ``scale`` the
    game's, 8 by default), so 8 points are 0.25; clamped to 0..1."""
    return max(0.0, min(1.0, points / (4.0 * scale)))


def share_lost(better: float, better_visits: int, played: float, played_visits: int) -> float:
    """The win share a choice lost for accuracy: the better choice's mean result less the
    played one's, less the standard error of that difference (each mean's variance at most
    ``v (1 - v) / visits`` for results in 0..1), never below 0: a difference the search's own
    sampling could make is not held against the player. A variant measured by
    benchmarks/review_rank.py and not chosen: accuracy uses the plain loss."""
    if better_visits < 1 or played_visits < 1:
        return max(0.0, better - played)
    spread = math.sqrt(better * (1 - better) / better_visits
                       + played * (1 - played) / played_visits)
    return max(0.0, better - played - spread)


def margin_lost(better: Sequence[float], played: Sequence[float], paired: bool = False) -> float:
    """The score margin (points over the best other seat) a choice lost against the better
    one, from samples of each: the mean difference less its standard error (only what the
    samples show beyond their own noise), never below 0. ``paired``: the samples come from
    the same worlds, in order (the paired differences' error); else two independent samples
    (each mean's error)."""
    if not better or not played:
        return 0.0

    def error(values: Sequence[float]) -> float:
        return statistics.variance(values) / len(values) if len(values) > 1 else 0.0

    if paired and len(better) == len(played):
        diffs = [b - p for b, p in zip(better, played, strict=True)]
        return max(0.0, statistics.fmean(diffs) - math.sqrt(error(diffs)))
    return max(0.0, statistics.fmean(better) - statistics.fmean(played)
               - math.sqrt(error(better) + error(played)))


def stakes(stats: RootStats) -> tuple[float, float]:
    """What a decision puts at stake, from its search: the win share and the score margin a
    uniformly random legal choice is expected to lose against the most searched one (each
    choice the search tried once or more; an untried one is left out). A decision whose
    choices are all alike stakes nothing; accuracy weighs decisions by it."""
    best = stats.best
    seat = stats.seat
    tried = [c for c in stats.choices if c.visits > 0]
    if best.visits < 1 or not tried:
        return 0.0, 0.0
    share = statistics.fmean(max(0.0, best.values[seat] - c.values[seat]) for c in tried)
    top = statistics.fmean(best.leads) if best.leads else 0.0
    margin = statistics.fmean(max(0.0, top - statistics.fmean(c.leads)) if c.leads else 0.0
                              for c in tried)
    return share, margin


def accuracy_loss(share_loss: float, before: float, margin_loss: float | None,
                  scale: float) -> float:
    """A decision's loss in win share, except where the win share is saturated
    (:func:`saturated`) and the score margin lost is known, where the larger of the two (the
    margin lost as win share, :func:`margin_share`): the review's accuracy before it read the
    margin everywhere, kept as a variant of benchmarks/review_rank.py."""
    if margin_loss is None or not saturated(before):
        return share_loss
    return max(share_loss, margin_share(margin_loss, scale))


def position_weight(before: float, floor: float = POSITION_FLOOR) -> float:
    """How much a point of score margin moves the mover's chances where the judge values the
    position at ``before``, against an even position: the slope of a logistic at that value
    over its slope at 0.5, ``4 · b · (1 − b)`` (1 at 0.5, 0.36 at 0.1 or 0.9), never below
    ``floor``, so a decided game still counts a little. A variant measured by
    benchmarks/review_rank.py (``slope``: each decision's margin lost and staked weighed by
    it) and not chosen (docs/review.md, "Does accuracy rank skill?")."""
    b = max(0.0, min(1.0, before))
    return max(floor, 4.0 * b * (1.0 - b))


def hybrid_loss(share: float, margin: float, before: float, scale: float,
                low: float = HYBRID_LOW) -> float:
    """A decision's loss (or stake) in win share where the win share still moves (the judge
    values the position between ``low`` and ``1 − low``), else its score margin in win-share
    units (:func:`margin_share`). A variant of benchmarks/review_rank.py (``hybrid``), not
    chosen."""
    if low <= before <= 1.0 - low:
        return max(0.0, share)
    return margin_share(margin, scale)


def won_loss(share: float, margin: float, before: float, scale: float,
             won: float = WON) -> float:
    """A decision's loss (or stake) in win share where the mover has the game won (the judge
    values it above ``won``: a player sure to win need not keep points, and a search that
    plays to win does not), else its score margin in win-share units. A variant of
    benchmarks/review_rank.py (``won_share``), not chosen."""
    if before > won:
        return max(0.0, share)
    return margin_share(margin, scale)


def blend_loss(share: float, margin: float, scale: float) -> float:
    """A decision's loss (or stake) as the win share plus the score margin in win-share
    units: both count everywhere. A variant of benchmarks/review_rank.py (``blend``), not
    chosen."""
    return max(0.0, share) + margin_share(margin, scale)


def move_accuracy(loss: float, stake: float) -> float:
    """A decision's accuracy: the share of its stake (:func:`stakes`, what a uniformly random
    choice would lose there) that the choice played kept, in percent: 100 for the judge's own
    choice or one as good, 0 for one that lost as much as a random choice would on average, or
    more. A decision that stakes nothing is 100. The review gives it the score margin (points)
    lost and staked."""
    if stake <= 0.0:
        return 100.0
    return max(0.0, min(100.0, 100.0 * (1.0 - max(0.0, loss) / stake)))


def game_accuracy(losses: Sequence[float], stakes: Sequence[float]) -> float | None:
    """A player's accuracy over decisions (their losses and stakes, as :func:`move_accuracy`
    takes them): the share of the total stake kept, ``100 · (1 − Σ loss / Σ stake)``, 0 at
    worst. Each decision weighs as much as it stakes: one whose choices are all alike (one
    sensible choice) hardly counts, and choosing at random scores about 0 however many such
    decisions it makes (its expected loss is the stake). None without decisions; 100 where
    nothing was at stake. benchmarks/review_rank.py chose it (docs/review.md, "Does accuracy
    rank skill?")."""
    if not losses:
        return None
    total = sum(max(0.0, s) for s in stakes)
    if total <= 0.0:
        return 100.0
    return max(0.0, 100.0 * (1.0 - sum(max(0.0, x) for x in losses) / total))


def lichess_accuracy(loss: float) -> float:
    """lichess's AccuracyPercent of one move, on win share in percent: 100 when nothing was
    lost, falling exponentially with the drop (+1 for the uncertainty of analysis), 0..100.
    The review's accuracy before stakes (reviews stored then, benchmarks/review_rank.py)."""
    drop = 100.0 * max(0.0, loss)
    return max(0.0, min(100.0, 103.1668 * math.exp(-0.04354 * drop) - 3.1669 + 1.0))


def lichess_game_accuracy(accuracies: list[float]) -> float | None:
    """The mean of the plain mean and the harmonic mean of :func:`lichess_accuracy` values
    (lichess also weighs the plain mean by volatility): the game accuracy of reviews stored
    before stakes, which have no ``accuracy_stake``."""
    if not accuracies:
        return None
    plain = sum(accuracies) / len(accuracies)
    harmonic = len(accuracies) / sum(1.0 / max(a, 1e-9) for a in accuracies)
    return (plain + harmonic) / 2.0


def decision_seed(seed: int, move: int) -> int:
    return (seed * 1_000_003 + move) & 0x7FFFFFFFFFFFFFFF


def game_scale(state: State) -> float:
    """The points of lead the game's ``mcts`` reads as a likely win (its ``scale``)."""
    return float(state.game.search_options(state.players).get("scale", DEFAULT_SCALE))


# -- what a choice leads to ---------------------------------------------------------------
@dataclass
class Outlook:
    """What a choice leads to in worlds drawn from the mover's view: the mover's mean final
    points by scoring category (the game's own breakdown), the mean margin over the best other
    seat, in how many worlds the mover finishes first, the principal line in words, and in how
    many worlds the mover achieves each of the game's named outcomes (``game.words.outcomes``:
    an arena won, towers completed), ``outcomes[i]`` in ``reached[i]`` worlds."""

    worlds: int
    categories: list[Msg]
    points: list[float]
    total: float
    margin: float
    first: int
    line: list[Msg]
    margins: list[float] = field(default_factory=list)  # the margin in each world, in order
    outcomes: list[Msg] = field(default_factory=list)  # in the order first met
    reached: list[int] = field(default_factory=list)  # worlds in which each outcome held

    def by_category(self) -> dict[str, tuple[Msg, float]]:
        """Each category's message and mean points, by the category's message as JSON."""
        return {category_key(c): (c, v)
                for c, v in zip(self.categories, self.points, strict=True)}

    def by_outcome(self) -> dict[str, tuple[Msg, int]]:
        """Each outcome's message and the worlds it held in, keyed as :meth:`by_category`."""
        return {category_key(o): (o, n) for o, n in zip(self.outcomes, self.reached, strict=True)}

    def to_json(self) -> dict[str, Any]:
        return {"worlds": self.worlds, "total": round(self.total, 2),
                "margin": round(self.margin, 2), "first": self.first,
                "points": [{"category": c.to_json(), "points": round(v, 2)}
                           for c, v in zip(self.categories, self.points, strict=True)],
                "outcomes": [{"outcome": o.to_json(), "worlds": n}
                             for o, n in zip(self.outcomes, self.reached, strict=True)]}


def category_key(category: Msg) -> str:
    return json.dumps(category.to_json(), sort_keys=True)


class Tally:
    """Messages in the order first met (one entry per message, by :func:`category_key`),
    each with the sum of the amounts added for it."""

    def __init__(self) -> None:
        self.messages: list[Msg] = []
        self.sums: list[float] = []
        self._index: dict[str, int] = {}

    def add(self, message: Msg, amount: float) -> None:
        i = self._index.setdefault(category_key(message), len(self.messages))
        if i == len(self.messages):
            self.messages.append(message)
            self.sums.append(0.0)
        self.sums[i] += amount


def principal_line(node: Any, world: State, depth: int) -> list[tuple[int, Action]]:
    """Follow the search tree below ``node`` in ``world`` (changed): at each decision the most
    visited child legal in this world, up to ``depth`` decisions."""
    line: list[tuple[int, Action]] = []
    while node is not None and len(line) < depth and not world.is_over:
        legal = set(world.legal_actions())
        known = [(child.visits, i, a) for i, (a, child) in enumerate(node.children.items())
                 if a in legal and child.visits > 0]
        if not known:
            break
        _, _, action = max(known, key=lambda k: (k[0], -k[1]))
        line.append((world.to_move, action))
        node = node.children[action]
        world.apply_unchecked(action)
    return line


def outlook(state: State, seat: int, action: Action, node: Any, seed: int,
            worlds: int = OUTLOOK_WORLDS, finish: bool = True) -> Outlook:
    """What ``action`` leads to for ``seat``: ``worlds`` worlds drawn from ``seat``'s view
    (never the true hidden state), the action applied, the search's principal line below
    ``node`` followed, then (with ``finish``) the game played to its end by the greedy bot.
    The same ``seed`` draws the same worlds and the same greedy choices for every action, so
    two choices are compared in the same worlds. The line is the one met in the first world,
    in its words (a guess of the others' choices, as the mover could make it). The game's
    named outcomes for ``seat`` are counted at each world's end, once a world each."""
    rng = random.Random(seed)
    game = state.game
    points, reached = Tally(), Tally()
    margins: list[float] = []
    total = 0.0
    first = counted = 0
    line_words: list[Msg] = []
    for k in range(worlds):
        world = state.determinize(seat, rng)
        if action not in world.legal_actions():
            continue
        worded = not line_words  # the line is worded in the first world that counts
        if worded:
            line_words = [msg("core.review.step", player=Player(seat),
                              action=game.words.action(world, action).label)]
        world.apply_unchecked(action)
        line = principal_line(node, world.copy(), LINE_DEPTH - 1)
        if worded:
            follow = world.copy()
            for mover, step in line:
                line_words.append(msg("core.review.step", player=Player(mover),
                                      action=game.words.action(follow, step).label))
                follow.apply_unchecked(step)
        if not finish:
            break
        for _, step in line:
            world.apply_unchecked(step)
        greedy = GreedyBot(seed=decision_seed(seed, k))
        while not world.is_over:
            world.apply_unchecked(greedy.choose(world, world.to_move))
        # a game may show a category only where someone scored in it: rows by their message
        for row in game.words.scores(world):
            points.add(row.category, row.points[seat])
        for outcome in {category_key(o): o for o in game.words.outcomes(world, seat)}.values():
            reached.add(outcome, 1)  # once a world
        scores = world.scores()
        total += scores[seat]
        margins.append(scores[seat] - max(v for i, v in enumerate(scores) if i != seat))
        first += world.returns()[seat] > 0
        counted += 1
    n = max(1, counted)
    return Outlook(counted, points.messages, [v / n for v in points.sums], total / n,
                   sum(margins) / n, first, line_words, margins, reached.messages,
                   [int(v) for v in reached.sums])


def line_msg(view: Outlook) -> Msg:
    return msg("core.review.line", steps=view.line)


def compare_msg(label: Msg, better: Outlook, played: Outlook, largest: int = 2) -> Msg:
    """Why ``label`` (the better choice) beats the choice played, in words: the categories
    whose expected points differ most (at least half a point), the game's named outcomes
    whose worlds differ most (at least a third of the worlds), and the worlds won."""
    mine = played.by_category()
    theirs = better.by_category()
    diffs = [(theirs.get(key, (c, 0.0))[1] - mine.get(key, (c, 0.0))[1], c)
             for key, c in {**{k: v[0] for k, v in mine.items()},
                            **{k: v[0] for k, v in theirs.items()}}.items()]
    diffs.sort(key=lambda d: -abs(d[0]))
    parts = [msg("core.review.more_points" if d > 0 else "core.review.fewer_points",
                 n=max(1, round(abs(d))), category=c)
             for d, c in diffs[:largest] if abs(d) >= 0.5]
    parts += outcome_parts(better, played, largest)
    if better.first != played.first:
        parts.append(msg("core.review.first_instead", n=better.worlds, better=better.first,
                         played=played.first))
    if not parts:
        parts.append(msg("core.review.about_same"))
    return msg("core.review.reason.better", action=label, parts=parts)


def outcome_parts(better: Outlook, played: Outlook, largest: int = 2) -> list[Msg]:
    """The named outcomes whose worlds differ most between the better choice and the one
    played (at most ``largest``, each by at least a third of the worlds), in words."""
    worlds = max(better.worlds, played.worlds)
    mine, theirs = played.by_outcome(), better.by_outcome()
    keys = list(theirs) + [k for k in mine if k not in theirs]
    diffs = []
    for key in keys:
        outcome = (theirs.get(key) or mine[key])[0]
        got, had = theirs.get(key, (outcome, 0))[1], mine.get(key, (outcome, 0))[1]
        if got != had and 3 * abs(got - had) >= worlds:
            diffs.append((got, had, outcome))
    diffs.sort(key=lambda d: -abs(d[0] - d[1]))  # stable: among equals, the better's order
    return [msg("core.review.outcome_instead", outcome=outcome, n=better.worlds, better=got,
                played=had) for got, had, outcome in diffs[:largest]]


def expect_msg(view: Outlook, largest: int = 2) -> Msg:
    """What one choice leads to, in words: the expected total, its largest categories, the
    worlds in which the mover finishes first, and the game's most frequent named outcome."""
    rows = sorted(zip(view.points, view.categories, strict=True), key=lambda r: -r[0])
    parts = [msg("core.review.points_from", n=round(v), category=c)
             for v, c in rows[:largest] if round(v) > 0]
    common = max(zip(view.reached, view.outcomes, strict=True), key=lambda r: r[0],
                 default=None)
    if common is not None and common[0] > 0:  # the first met among the most frequent
        return msg("core.review.reason.expect_outcome", n=round(view.total), parts=parts,
                   first=view.first, worlds=view.worlds, outcome=common[1], times=common[0])
    return msg("core.review.reason.expect", n=round(view.total), parts=parts,
               first=view.first, worlds=view.worlds)


def msg_json(value: Any) -> Any:
    """A message (or any parameter value) as JSON, for a review stored without words."""
    return Msg("x", {"v": value}).to_json()["params"]["v"]


def msg_from_json(data: Any) -> Any:
    """The inverse of :meth:`Msg.to_json` (and of :func:`msg_json`)."""
    if isinstance(data, list):
        return [msg_from_json(v) for v in data]
    if isinstance(data, dict) and set(data) == {"seat"}:
        return Player(data["seat"])
    if isinstance(data, dict) and set(data) == {"id", "params"}:
        return Msg(data["id"], {k: msg_from_json(v) for k, v in data["params"].items()})
    return data


# -- one decision ---------------------------------------------------------------------------
def judge_decision(state: State, action: Action, *, budget: Budget | None = None, seed: int = 0,
                   engine: Engine | None = None,
                   limits: tuple[float, float, float] | None = None,
                   last_values: list[float] | None = None,
                   worlds: int = OUTLOOK_WORLDS) -> dict[str, Any]:
    """One decision judged from its mover's view: ``action`` played by ``state.to_move``.

    A forced decision (one legal choice) is not searched: it loses nothing, and its
    ``values`` (the chart's point) repeat ``last_values``. A loss near a class line
    (:func:`near_a_line`, within the game's :func:`near_for`) is searched again
    (:func:`recheck`: searches of ``RECHECK`` times the budget, the choice played and the
    suggested one both searched further, pooled with the first until the loss is clear of
    every line or ``RECHECK_CAP`` is reached), and the
    pooled search decides (``rechecks``: the searches added). Where the game checks a
    flagged decision's suggestion (:func:`confirm_for`), one search at that many times the
    budget does (:func:`confirm`; ``confirmed``: True where it values the suggestion above the
    choice played, False where its verdict replaced the review's, None where not checked). Where the
    choice played is not the suggested one, both are followed into ``worlds`` worlds of the
    mover's view (:func:`outlook`; at most ``QUIET_WORLDS`` where the decision has no class):
    the reason in words, and the score margin lost."""
    seat = state.to_move
    budget = budget or Budget()
    engine = engine or Engine.strongest(state)
    limits = limits or thresholds_for(state.game.info.id)
    text = str(action)
    if len(state.legal_actions()) == 1:
        values = last_values or [1.0 / state.players] * state.players
        return {"seat": seat, "forced": True, "values": _rounded(values), "before": None,
                "played": {"notation": text, "value": None, "visits": 0},
                "best": {"notation": text, "value": None, "visits": 0},
                "loss": 0.0, "class": None, "accuracy": 100.0, "checked": False, "rechecks": 0,
                "confirmed": None,
                "margin_loss": None, "accuracy_loss": 0.0, "stake": 0.0, "stake_margin": 0.0,
                "margin_gap": 0.0, "accuracy_stake": 0.0,
                "why": {"reason": msg_json(msg("core.review.reason.forced")),
                        "line": msg_json(msg("core.review.line", steps=[]))}}
    stats = engine.search(state, seat, budget, seed, action)
    near = near_for(state.game.info.id, state.players)
    checked = near_a_line(loss_of(stats, action), limits, near)
    rechecks = 0
    if checked:
        stats, rechecks = recheck(engine, state, action, stats, budget, seed, limits)
    factor = confirm_for(state.game.info.id, state.players)
    confirmed = None
    if factor and judge(loss_of(stats, action), limits):
        stats, confirmed = confirm(engine, state, action, stats, budget, seed, factor)
    best, mine = stats.best, stats.of(action)
    loss = loss_of(stats, action)
    before = best.values[seat]
    view_seed = decision_seed(seed, 11)
    root = stats.root
    if mine.action == best.action:
        view = outlook(state, seat, action, root.children.get(action), view_seed, worlds=1,
                       finish=False)
        why = {"reason": msg_json(msg("core.review.reason.same")),
               "line": msg_json(line_msg(view))}
        margin_loss = None
        margin_gap = 0.0
    else:
        if judge(loss, limits) is None:
            worlds = min(worlds, QUIET_WORLDS)
        played_view = outlook(state, seat, action, root.children.get(action), view_seed, worlds)
        best_view = outlook(state, seat, best.action, root.children.get(best.action), view_seed,
                            worlds)
        label = state.game.words.action(state.determinize(seat, random.Random(view_seed)),
                                        best.action).label
        # the search's own expected margins (where its iterations ended), not the outlook's
        # greedy finish, which favours choices a greedy player would make
        margin_loss = margin_lost(best.leads, mine.leads)
        margin_gap = (statistics.fmean(best.leads) - statistics.fmean(mine.leads)
                      if best.leads and mine.leads else 0.0)
        why = {"reason": msg_json(compare_msg(label, best_view, played_view)),
               "line": msg_json(line_msg(best_view)),
               "played_line": msg_json(line_msg(played_view)),
               "played": played_view.to_json(), "best": best_view.to_json()}
    # accuracy: the score margin lost (the plain difference of the search's expected leads,
    # not margin_lost) against what a random choice would lose; it keeps moving where win
    # shares saturate, and benchmarks/review_rank.py ranked bots best so (docs/review.md,
    # "Does accuracy rank skill?")
    stake, stake_margin = stakes(stats)
    judged, judged_stake = max(0.0, margin_gap), stake_margin
    return {
        "seat": seat, "forced": False, "values": _rounded(best.values),
        "before": round(before, 4),
        "played": {"notation": text, "value": round(mine.values[seat], 4), "visits": mine.visits},
        "best": {"notation": str(best.action), "value": round(before, 4), "visits": best.visits},
        "loss": round(loss, 4), "class": judge(loss, limits), "checked": checked,
        "rechecks": rechecks, "confirmed": confirmed,
        "margin_loss": None if margin_loss is None else round(margin_loss, 2),
        "accuracy_loss": round(judged, 2), "accuracy_stake": round(judged_stake, 2),
        "accuracy": round(move_accuracy(judged, judged_stake), 2),
        "stake": round(stake, 4), "stake_margin": round(stake_margin, 2),
        "margin_gap": round(max(0.0, margin_gap), 2),
        "why": why,
    }


def _rounded(values: Iterable[float]) -> list[float | None]:
    return [None if math.isnan(v) else round(v, 4) for v in values]


def review(record: GameRecord, game: Game | None = None, *, seats: Iterable[int] | None = None,
           budget: Budget | None = None, seed: int = 0, moves: Iterable[int] | None = None,
           workers: int = 1, progress: Callable[[int, int], None] | None = None,
           cancelled: Callable[[], bool] | None = None,
           initializer: Callable[[], None] | None = None) -> dict[str, Any]:
    """Review a finished game: one entry per decision of the seats asked for (all by
    default), and a summary per seat. Language-free (notation only); :func:`add_words` adds
    the words. ``budget``: by default :func:`iterations_for` the game and player count.
    ``moves``: only these decisions (indices in the record). ``workers`` > 1
    searches decisions in that many processes (the same result: each decision has its own
    seed). ``progress(done, total)`` is called as decisions are done; ``cancelled()`` true
    stops with :class:`ReviewCancelled`. ``initializer`` runs first in each of the
    ``workers`` processes (a module-level function). The record itself is never changed."""
    game = game or registry.get(record.game)
    budget = budget or Budget(iterations=iterations_for(game.info.id, record.players))
    if not record.replay(game).is_over:  # a clear error for a record that does not replay
        raise PalioError("only a finished game can be reviewed")
    state = game.setup(record.players, record.seed, record.options)
    wanted = set(range(record.players)) if seats is None else set(seats)
    bad = sorted(s for s in wanted if not 0 <= s < record.players)
    if bad:
        raise PalioError(f"seats of this game are 0-{record.players - 1}, not {bad}")
    engine = Engine.strongest(state)
    limits = thresholds_for(game.info.id)
    players = record.players
    only = None if moves is None else set(moves)
    total = len(record.actions)
    # the positions to judge, each a copy from set-up through the record
    jobs: list[tuple[int, State, Action]] = []
    for move, text in enumerate(record.actions):
        action = state.parse(text)
        if state.to_move in wanted and (only is None or move in only):
            jobs.append((move, state.copy(), action))
        state.apply_unchecked(action)
    entries = _judge_all(jobs, total, budget, seed, engine, limits, workers, progress, cancelled,
                         initializer)
    decisions: list[dict[str, Any]] = []
    last_values = [1.0 / players] * players
    for move, _, _ in jobs:  # forced decisions repeat the chart's last point
        entry = entries[move]
        if entry["forced"]:
            entry["values"] = _rounded(last_values)
        last_values = [v if v is not None else 0.0 for v in entry["values"]]
        decisions.append({"move": move, **entry})
    summaries = []
    for seat in sorted(wanted):
        mine = [d for d in decisions if d["seat"] == seat and not d["forced"]]
        losses = [d["loss"] for d in mine]
        summaries.append({
            "seat": seat, "decisions": len(mine),
            "average_loss": round(sum(losses) / len(losses), 4) if losses else 0.0,
            **{PLURAL[name]: sum(1 for d in mine if d["class"] == name) for name in CLASSES},
            "accuracy": _round_opt(game_accuracy([d["accuracy_loss"] for d in mine],
                                                 [d["accuracy_stake"] for d in mine])),
        })
    return {
        "game": game.info.id, "seats": players, "seed": seed,
        "engine": {"bot": engine.name, **budget.describe()},
        "measure": "win_share", "thresholds": dict(zip(CLASSES, limits, strict=True)),
        "result": record.result,
        "decisions": decisions, "players": summaries,
    }


def _judge_all(jobs: list[tuple[int, State, Action]], total: int, budget: Budget, seed: int,
               engine: Engine, limits: tuple[float, float, float], workers: int,
               progress: Callable[[int, int], None] | None,
               cancelled: Callable[[], bool] | None,
               initializer: Callable[[], None] | None = None) -> dict[int, dict[str, Any]]:
    """Each job's verdict by move, in this process or in ``workers`` processes."""
    out: dict[int, dict[str, Any]] = {}
    skipped = total - len(jobs)  # decisions of other seats count as done at once

    def check() -> None:
        if cancelled is not None and cancelled():
            raise ReviewCancelled("the review was cancelled")

    workers = min(workers, len(jobs))  # no process started that would find nothing to do
    if workers <= 1:
        for done, (move, position, action) in enumerate(jobs, 1):
            check()
            out[move] = judge_decision(position, action, budget=budget,
                                       seed=decision_seed(seed, move), engine=engine,
                                       limits=limits)
            if progress is not None:
                progress(skipped + done, total)
        return out
    import multiprocessing
    from concurrent.futures import FIRST_COMPLETED, ProcessPoolExecutor, wait

    with ProcessPoolExecutor(workers, mp_context=multiprocessing.get_context("spawn"),
                             initializer=initializer) as pool:
        pending = {pool.submit(_judge_job, position, action, budget, decision_seed(seed, move),
                               limits): move for move, position, action in jobs}
        try:
            while pending:
                finished, _ = wait(pending, timeout=1.0, return_when=FIRST_COMPLETED)
                for future in finished:  # one call per decision, as in one process
                    out[pending.pop(future)] = future.result()
                    if progress is not None:
                        progress(skipped + len(out), total)
                check()
        except BaseException:
            for future in pending:
                future.cancel()
            raise
    return out


_engines: dict[tuple[str, int], Engine] = {}


def _judge_job(position: State, action: Action, budget: Budget, seed: int,
               limits: tuple[float, float, float]) -> dict[str, Any]:
    """One decision in a worker process (its engine, and model, loaded once per process)."""
    key = (position.game.info.id, position.players)
    if key not in _engines:
        _engines[key] = Engine.strongest(position)
    return judge_decision(position, action, budget=budget, seed=seed, engine=_engines[key],
                          limits=limits)


def cores() -> int:
    """The cores this process may run on (``palio review``'s default ``workers``)."""
    if hasattr(os, "sched_getaffinity"):
        return max(1, len(os.sched_getaffinity(0)))
    return max(1, os.cpu_count() or 1)


def _round_opt(value: float | None) -> float | None:
    return None if value is None else round(value, 2)


def add_words(result: dict[str, Any], record: GameRecord, tr: Translator,
              game: Game | None = None) -> dict[str, Any]:
    """The review with each played and best choice in words (label and explanation), said
    of the position before the decision; the game is over, so nothing in them is hidden.
    Each decision also gains ``reason`` and ``line`` (and ``played_line`` where the choice
    played was not the suggested one): its stored ``why`` messages in ``tr``'s language."""
    game = game or registry.get(record.game)
    state = game.setup(record.players, record.seed, record.options)
    by_move = {d["move"]: d for d in result["decisions"]}
    for move, text in enumerate(record.actions):
        entry = by_move.get(move)
        if entry is not None:
            for key in ("played", "best"):
                entry[key].update(action_words(state, entry[key]["notation"], tr))
            entry.update(why_words(entry, tr))
        state.apply(text)
    return result


def why_words(entry: dict[str, Any], tr: Translator) -> dict[str, str]:
    """A judged decision's ``reason`` and lines as text (a review stored before reasons
    existed has none: an empty reason and line)."""
    why = entry.get("why") or {}
    out = {"reason": tr(msg_from_json(why["reason"])) if "reason" in why else "",
           "line": tr(msg_from_json(why["line"])) if "line" in why else ""}
    if "played_line" in why:
        out["played_line"] = tr(msg_from_json(why["played_line"]))
    return out


def action_words(state: State, notation: str, tr: Translator) -> dict[str, str]:
    words = state.game.words.action(state, state.parse(notation))
    return {"label": tr(words.label), "explain": tr(words.explain)}


# -- hints -------------------------------------------------------------------------------
def hint(state: State, seat: int, *, budget: Budget | None = None, seed: int = 0,
         count: int = HINT_COUNT, tr: Translator | None = None,
         worlds: int = OUTLOOK_WORLDS) -> dict[str, Any]:
    """The bot's ``count`` most searched choices for ``seat`` (who must be to move), searched
    from that seat's view only, ordered by their expected win share (best first; ``percent``
    is it in percent), each with what it leads to (:func:`outlook`) and, with ``tr``, its
    words: ``label``, ``reason`` (the expected points, their largest categories and the
    worlds won), ``line`` and ``explain`` (what the action does)."""
    if state.is_over or state.to_move != seat:
        raise PalioError(f"seat {seat} is not to move")
    budget = budget or Budget(iterations=HINT_ITERATIONS)
    engine = Engine.strongest(state)
    legal = state.legal_actions()
    root = None
    if len(legal) == 1:
        choices = [Choice(legal[0], 0, [math.nan] * state.players)]
    else:
        # each shown choice searched at least PLAYED_SHARE of the budget: a search that
        # settles early on one choice (puct's uniform priors) leaves the others a few visits
        stats = engine.search(state, seat, budget, seed, top=count)
        choices, root = stats.choices[:count], stats.root
        # the most searched are the ones whose values are worth showing; shown best first
        choices.sort(key=lambda c: -_num(c.values[seat]))
    view_seed = decision_seed(seed, 11)
    out = []
    for choice in choices[:count]:
        value = _rounded([choice.values[seat]])[0]
        node = root.children.get(choice.action) if root is not None else None
        view = outlook(state, seat, choice.action, node, view_seed, worlds)
        entry: dict[str, Any] = {"notation": str(choice.action), "visits": choice.visits,
                                 "value": value,
                                 "percent": None if value is None else round(100 * value),
                                 "outlook": view.to_json(),
                                 "why": {"reason": msg_json(expect_msg(view)),
                                         "line": msg_json(line_msg(view))}}
        if tr is not None:
            words = state.game.words.action(state, choice.action)
            entry.update(label=tr(words.label), explain=tr(words.explain),
                         **why_words(entry, tr))
        out.append(entry)
    return {"seat": seat, "move": state.move_number, "engine": engine.name,
            **budget.describe(), "choices": out}


def hints_allowed(row: Any) -> bool:
    """Hints only at practice tables that are not rated (works before and after the
    ``practice`` and ``rated`` columns exist: without them, no hints)."""
    return bool(getattr(row, "practice", False)) and not bool(getattr(row, "rated", False))


def random_win_rate(state: State, seat: int, action: Action, rng: random.Random,
                    tries: int) -> float:
    """How often ``action`` and then uniformly random play (in worlds drawn from ``seat``'s
    view) win outright for ``seat``: a crude, search-free check that a position is decisive
    (the blunder tests and ``scripts/find_decisive.py``)."""
    wins = 0
    for _ in range(tries):
        world = state.determinize(seat, rng)
        world.apply_unchecked(action)
        while not world.is_over:
            world.apply_unchecked(rng.choice(world.legal_actions()))
        wins += world.returns()[seat] == 1
    return wins / tries
