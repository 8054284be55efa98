"""Game review and hints: the strongest bot judges every decision of a finished game.

For each decision the search runs from the mover's own information set (every iteration a
world ``state.determinize(seat, rng)`` that the mover cannot tell from the real one), never
from the true hidden state, so a verdict depends only on what the mover knew then. It gives,
per legal choice, how often the search tried it and its mean result for every seat.

The measure is the **expected win share** for a seat (the search's value): 1 is a sure win,
0 a sure loss, ties share a win, so ``1/P`` is about even with ``P`` players. A decision's
``loss`` is the win share of the bot's preferred choice (the most searched one) less that of
the choice played, never below 0. Classes follow lichess's inaccuracy, mistake and blunder
with thresholds in win share tuned per game (:data:`THRESHOLDS`, docs/review.md).

Which search: the trained ``learned`` model where its card proves it at least as strong as
``mcts`` (as the ``expert`` level decides), ``mcts`` otherwise; a budget of iterations per
decision (repeatable with a seed) or of seconds (not repeatable). The review grows its own
roots with the searches' public ``iterate`` step (``MctsBot.iterate``, ``NetSearch.iterate``),
as it needs a second search below the choice played, which ``mcts.search_root`` does not give.
"""

from __future__ import annotations

import math
import random
import time
from collections.abc import Callable, Iterable
from dataclasses import dataclass
from typing import Any

import palio.games as registry
from palio.bots.learned import LearnedBot, NetSearch, SearchNode
from palio.bots.mcts import MctsBot, Node
from palio.core.errors import PalioError
from palio.core.game import Action, Game, State
from palio.core.i18n import Translator
from palio.core.record import GameRecord

DEFAULT_ITERATIONS = 400  # per decision; docs/review.md says what it buys
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


class ReviewCancelled(PalioError):
    """The caller asked the review to stop."""


@dataclass
class Choice:
    """One root choice: how often the search tried it and its mean result per seat."""

    action: Action
    visits: int
    values: list[float]


@dataclass
class RootStats:
    """What one search from ``seat``'s view found: the legal choices, most searched first."""

    seat: int
    choices: list[Choice]
    iterations: int
    seconds: float
    engine: str

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

    def __post_init__(self) -> None:
        if self.iterations is None and self.seconds is None:
            self.iterations = DEFAULT_ITERATIONS
        if self.iterations is not None and self.iterations < 1:
            raise PalioError("a review needs at least one iteration per decision")
        if self.seconds is not None and not self.seconds > 0:
            raise PalioError("a review needs a positive number of seconds per decision")

    def describe(self) -> dict[str, Any]:
        return {"iterations": self.iterations, "seconds": self.seconds}


@dataclass
class Engine:
    """The strongest search for one game and player count (see the module docstring)."""

    game: Game
    players: int
    model: Any = None  # a learned model proven against mcts, else None (mcts)
    name: str = "mcts"
    mix: float = 0.0  # the weight of the heuristic in leaf values (the model card's)

    @classmethod
    def strongest(cls, state: State) -> Engine:
        # the expert level's rule: the shipped model where its card proves it, else mcts
        chosen = LearnedBot(proven=0.5, fallback="mcts").model_for(state)
        if isinstance(chosen, MctsBot) or not hasattr(chosen, "card"):
            return cls(state.game, state.players)
        return cls(state.game, state.players, model=chosen, name="learned",
                   mix=float(chosen.card.get("mix", 0.0)))

    def search(self, state: State, seat: int, budget: Budget, seed: int,
               played: Action | None = None) -> RootStats:
        """Search ``seat``'s decision in ``state`` from its view only. With ``played`` (a
        legal action), that choice is searched at least ``PLAYED_SHARE`` of the budget."""
        started = time.perf_counter()
        rng = random.Random(seed)
        players = state.players
        if self.model is not None:
            self.model.bind(state.game)
            searcher = NetSearch(self.model, rng, mix=self.mix)
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
        while done < limit:
            searcher.iterate(root, state.determinize(seat, rng))
            done += 1
            if deadline != math.inf and time.perf_counter() >= deadline:
                break
        legal = state.legal_actions()
        # the preference is the main search's: visits before the played choice's extra search
        searched = {a: (root.children[a].visits if a in root.children else 0) for a in legal}
        if played is not None and played in legal:
            child = root.children.get(played)
            if child is None:
                child = root.children[played] = new_node()
            want = max(1, int(done * PLAYED_SHARE))
            tries = 0
            # the played choice as a root of its own: worlds drawn from the mover's view, the
            # choice applied, the search goes on below it
            while child.visits < want and tries < 4 * want:
                tries += 1
                world = state.determinize(seat, rng)
                if played not in world.legal_actions():
                    continue
                world.apply_unchecked(played)
                searcher.iterate(child, world)
        choices = []
        for action in legal:
            child = root.children.get(action)
            visits = child.visits if child is not None else 0
            values = ([t / visits for t in child.total] if visits else [math.nan] * players)
            choices.append(Choice(action, visits, values))
        # most searched first; among equals the better value, then the legal order
        order = {a: i for i, a in enumerate(legal)}
        choices.sort(key=lambda c: (-searched[c.action], -_num(c.values[seat]), order[c.action]))
        return RootStats(seat, choices, done, time.perf_counter() - started, self.name)


def _num(value: float) -> float:
    return -1.0 if math.isnan(value) else value


def thresholds_for(game_id: str) -> tuple[float, float, float]:
    return THRESHOLDS.get(game_id, DEFAULT_THRESHOLDS)


def judge(loss: float, thresholds: tuple[float, float, float]) -> str | None:
    """The class of a decision that lost ``loss`` in win share, or None."""
    verdict = None
    for name, limit in zip(CLASSES, thresholds, strict=True):
        if loss >= limit:
            verdict = name
    return verdict


def move_accuracy(loss: float) -> float:
    """lichess's accuracy of one move, on win share in percent: 100 when nothing was lost,
    falling exponentially with the drop (+1 for the uncertainty of analysis), 0..100."""
    drop = 100.0 * max(0.0, loss)
    return max(0.0, min(100.0, 103.1668 * math.exp(-0.04354 * drop) - 3.1669 + 1.0))


def game_accuracy(accuracies: list[float]) -> float | None:
    """The mean of the plain mean and the harmonic mean (a few blunders weigh heavily);
    lichess also weighs the plain mean by volatility, which is left out here."""
    if not accuracies:
        return None
    plain = sum(accuracies) / len(accuracies)
    harmonic = len(accuracies) / sum(1.0 / max(a, 1e-9) for a in accuracies)
    return (plain + harmonic) / 2.0


def decision_seed(seed: int, move: int) -> int:
    return (seed * 1_000_003 + move) & 0x7FFFFFFFFFFFFFFF


def judge_decision(state: State, action: Action, *, budget: Budget | None = None, seed: int = 0,
                   engine: Engine | None = None,
                   limits: tuple[float, float, float] | None = None,
                   last_values: list[float] | None = None) -> dict[str, Any]:
    """One decision judged from its mover's view: ``action`` played by ``state.to_move``.

    A forced decision (one legal choice) is not searched: it loses nothing, and its
    ``values`` (the chart's point) repeat ``last_values``."""
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
                "loss": 0.0, "class": None, "accuracy": 100.0}
    stats = engine.search(state, seat, budget, seed, action)
    best, mine = stats.best, stats.of(action)
    before = best.values[seat]
    loss = 0.0 if mine.action == best.action else max(0.0, before - mine.values[seat])
    return {
        "seat": seat, "forced": False, "values": _rounded(best.values),
        "before": round(before, 4),
        "played": {"notation": text, "value": round(mine.values[seat], 4), "visits": mine.visits},
        "best": {"notation": str(best.action), "value": round(before, 4), "visits": best.visits},
        "loss": round(loss, 4), "class": judge(loss, limits),
        "accuracy": round(move_accuracy(loss), 2),
    }


def _rounded(values: Iterable[float]) -> list[float | None]:
    return [None if math.isnan(v) else round(v, 4) for v in values]


def review(record: GameRecord, game: Game | None = None, *, seats: Iterable[int] | None = None,
           budget: Budget | None = None, seed: int = 0, moves: Iterable[int] | None = None,
           workers: int = 1, progress: Callable[[int, int], None] | None = None,
           cancelled: Callable[[], bool] | None = None) -> dict[str, Any]:
    """Review a finished game: one entry per decision of the seats asked for (all by
    default), and a summary per seat. Language-free (notation only); :func:`add_words` adds
    the words. ``moves``: only these decisions (indices in the record). ``workers`` > 1
    searches decisions in that many processes (the same result: each decision has its own
    seed). ``progress(done, total)`` is called as decisions are done; ``cancelled()`` true
    stops with :class:`ReviewCancelled`. The record itself is never changed."""
    game = game or registry.get(record.game)
    budget = budget or Budget()
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
    entries = _judge_all(jobs, total, budget, seed, engine, limits, workers, progress, cancelled)
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
            "accuracy": _round_opt(game_accuracy([d["accuracy"] for d in mine])),
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
               cancelled: Callable[[], bool] | None) -> dict[int, dict[str, Any]]:
    """Each job's verdict by move, in this process or in ``workers`` processes."""
    out: dict[int, dict[str, Any]] = {}
    skipped = total - len(jobs)  # decisions of other seats count as done at once

    def check() -> None:
        if cancelled is not None and cancelled():
            raise ReviewCancelled("the review was cancelled")

    if workers <= 1 or len(jobs) < 2:
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

    with ProcessPoolExecutor(workers, mp_context=multiprocessing.get_context("spawn")) as pool:
        pending = {pool.submit(_judge_job, position, action, budget, decision_seed(seed, move),
                               limits): move for move, position, action in jobs}
        try:
            while pending:
                finished, _ = wait(pending, timeout=1.0, return_when=FIRST_COMPLETED)
                for future in finished:
                    out[pending.pop(future)] = future.result()
                if progress is not None and finished:
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


def _round_opt(value: float | None) -> float | None:
    return None if value is None else round(value, 2)


def add_words(result: dict[str, Any], record: GameRecord, tr: Translator,
              game: Game | None = None) -> dict[str, Any]:
    """The review with each played and best choice in words (label and explanation), said
    of the position before the decision; the game is over, so nothing in them is hidden."""
    game = game or registry.get(record.game)
    state = game.setup(record.players, record.seed, record.options)
    by_move = {d["move"]: d for d in result["decisions"]}
    for move, text in enumerate(record.actions):
        entry = by_move.get(move)
        if entry is not None:
            for key in ("played", "best"):
                entry[key].update(action_words(state, entry[key]["notation"], tr))
        state.apply(text)
    return result


def action_words(state: State, notation: str, tr: Translator) -> dict[str, str]:
    words = state.game.words.action(state, state.parse(notation))
    return {"label": tr(words.label), "explain": tr(words.explain)}


# -- hints -------------------------------------------------------------------------------
def hint(state: State, seat: int, *, budget: Budget | None = None, seed: int = 0,
         count: int = HINT_COUNT, tr: Translator | None = None) -> dict[str, Any]:
    """The bot's ``count`` best choices for ``seat`` (who must be to move), searched from
    that seat's view only, each with its expected win share and, with ``tr``, its words
    (the action's explanation is the one-line reason)."""
    if state.is_over or state.to_move != seat:
        raise PalioError(f"seat {seat} is not to move")
    budget = budget or Budget(iterations=HINT_ITERATIONS)
    engine = Engine.strongest(state)
    legal = state.legal_actions()
    if len(legal) == 1:
        choices = [Choice(legal[0], 0, [math.nan] * state.players)]
    else:
        choices = engine.search(state, seat, budget, seed).choices
    out = []
    for choice in choices[:count]:
        entry: dict[str, Any] = {"notation": str(choice.action), "visits": choice.visits,
                                 "value": _rounded([choice.values[seat]])[0]}
        if tr is not None:
            words = state.game.words.action(state, choice.action)
            entry.update(label=tr(words.label), reason=tr(words.explain))
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
