"""The ``learned`` bot: an information-set search guided by a trained policy-value network.

The search is the one ``mcts`` runs (single-observer ISMCTS: every iteration samples a world
``state.determinize(seat, rng)`` that the seat cannot tell from the real one, and walks one
tree keyed by actions, choosing among the actions legal in that world), with AlphaZero's two
changes: a child is chosen by PUCT, its prior from the network's policy head, and a new leaf is
valued by the network's value head instead of a random rollout. Each node keeps a reward per
seat and the seat deciding there maximises its own, so any number of players works.

The network reads the deciding seat's observation tensor in the sampled world (its own view,
built from ``observe``), so nothing the bot's seat cannot see reaches the search. Optionally
(``mix``) a leaf's value is blended with the game's ``evaluate`` heuristic, as ``mcts`` scores
its rollouts; training starts from that blend while the network knows nothing yet. With the
heuristic alone valuing leaves (``mix`` 1) the network gives priors only, and ``prior_visits``
lets the search ask it only at the nodes it comes back to.

:class:`NetSearch` is shared with self-play training (``palio.learn``), which adds Dirichlet
noise at the root and reads the visit counts.
"""

from __future__ import annotations

import math
import random
import time
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import numpy as np

from palio import bots
from palio.bots.base import Bot
from palio.bots.mcts import DEFAULT_SCALE, _number, win_chance
from palio.bots.network import Model, shipped_model
from palio.core.errors import OptionError
from palio.core.game import Action, State

DEFAULT_ITERATIONS = 200
DEFAULT_C = 1.0  # PUCT exploration; values are win shares in 0..1


class SearchNode:
    """Statistics of the action that led here; ``priors`` is set when the node is expanded
    (uniform there when the search asks the network later: ``netted`` once it has)."""

    __slots__ = ("children", "visits", "total", "priors", "netted")

    def __init__(self, players: int) -> None:
        self.children: dict[Action, SearchNode] = {}
        self.visits = 0
        self.total = [0.0] * players  # summed values, per seat
        self.priors: dict[Action, float] | None = None
        self.netted = False  # priors from the network (else uniform, until it is asked)


@dataclass
class SearchResult:
    """What one search found: visits per root action (legal ones only), the root's mean value
    per seat, and what it cost."""

    visits: dict[Action, int]
    priors: dict[Action, float]
    value: list[float]
    iterations: int
    seconds: float


def softmax(logits: np.ndarray) -> np.ndarray:
    shifted = np.exp(logits - logits.max())
    return shifted / shifted.sum()


class NetSearch:
    """PUCT over determinized worlds with a network at the leaves (see the module docstring).

    ``mix`` in 0..1 is the weight of the heuristic in a leaf's value; ``noise`` the weight of
    Dirichlet(``noise_alpha``) noise on the root priors (self-play only).
    """

    def __init__(self, model: Model | None, rng: random.Random, c: float = DEFAULT_C,
                 mix: float = 0.0, scale: float = DEFAULT_SCALE, noise: float = 0.0,
                 noise_alpha: float = 0.3, prior_visits: int = 0) -> None:
        self.model = model
        self.rng = rng
        self.c = c
        # no network (the puct bot): uniform priors, every leaf valued by the game's evaluation
        self.mix = 1.0 if model is None else mix
        self.scale = scale
        self.noise = noise
        self.noise_alpha = noise_alpha
        # with mix 1 the network gives priors only: ask it at a node once the node has this
        # many visits (the root at once, before any root noise), uniform priors until then;
        # 0 asks at every new node
        self.lazy = model is not None and self.mix >= 1 and prior_visits > 0
        self.prior_visits = prior_visits

    def run(self, state: State, seat: int, iterations: float = math.inf,
            deadline: float = math.inf, clock: Callable[[], float] = time.perf_counter
            ) -> SearchResult:
        """Search from ``seat``'s point of view until ``iterations`` or the ``deadline``
        (a ``clock()`` value: the wall clock by default, ``time.process_time`` for CPU time),
        whichever comes first; at least one iteration."""
        started = time.perf_counter()
        if self.model is not None:
            self.model.bind(state.game)
        root = SearchNode(state.players)
        done = 0
        while done < iterations:
            self.iterate(root, state.determinize(seat, self.rng))
            done += 1
            if done == 1 and self.noise > 0:
                self._add_noise(root)
            if deadline != math.inf and clock() >= deadline:
                break
        legal = state.legal_actions()
        visits = {a: (root.children[a].visits if a in root.children else 0) for a in legal}
        priors = root.priors or {}
        value = [t / root.visits for t in root.total]
        return SearchResult(visits, {a: priors.get(a, 0.0) for a in legal}, value, done,
                            time.perf_counter() - started)

    def _add_noise(self, root: SearchNode) -> None:
        priors = root.priors
        if not priors:
            return
        draws = [self.rng.gammavariate(self.noise_alpha, 1.0) for _ in priors]
        total = sum(draws) or 1.0
        eps = self.noise
        for (action, p), d in zip(list(priors.items()), draws, strict=True):
            priors[action] = (1 - eps) * p + eps * d / total

    def iterate(self, root: SearchNode, world: State) -> None:
        """One PUCT iteration in ``world`` (a determinization of the searching seat's view)
        from ``root``; reviews call it directly to grow their own roots."""
        c = self.c
        lazy = self.lazy
        path = [root]
        node = root
        while True:
            if world.is_over:
                value = world.returns()
                break
            if node.priors is None:
                value = self._expand(node, world, node is root)
                break
            if lazy and not node.netted and node.visits >= self.prior_visits:
                self._net_priors(node, world)
            legal = world.legal_actions()
            mover = world.to_move
            priors = node.priors
            children = node.children
            default_prior = 1.0 / len(legal)
            sqrt_visits = math.sqrt(node.visits)
            first_play = node.total[mover] / node.visits  # an unvisited child is valued as its parent
            best_action = legal[0]
            best_score = -math.inf
            for action in legal:
                child = children.get(action)
                prior = priors.get(action, default_prior)
                if child is None or child.visits == 0:
                    score = first_play + c * prior * sqrt_visits
                else:
                    score = (child.total[mover] / child.visits
                             + c * prior * sqrt_visits / (1 + child.visits))
                if score > best_score:
                    best_action, best_score = action, score
            child = children.get(best_action)
            if child is None:
                child = children[best_action] = SearchNode(world.players)
            world.apply_unchecked(best_action)
            node = child
            path.append(node)
        for visited in path:
            visited.visits += 1
            total = visited.total
            for i, v in enumerate(value):
                total[i] += v

    def _expand(self, node: SearchNode, world: State, root: bool = False) -> list[float]:
        """Set the node's priors from the network (uniform with no network, or below the
        root where the network is asked later: ``prior_visits``); return the leaf's value per
        seat."""
        if self.model is None or (self.lazy and not root):
            legal = world.legal_actions()
            node.priors = dict.fromkeys(legal, 1.0 / len(legal))
            return self.heuristic(world)
        relative = softmax(self._net_priors(node, world))
        mover, players = world.to_move, world.players
        value = [0.0] * players
        for k in range(players):
            value[(mover + k) % players] = float(relative[k])
        if self.mix > 0:
            guess = self.heuristic(world)
            value = [(1 - self.mix) * v + self.mix * h for v, h in zip(value, guess, strict=True)]
        return value

    def _net_priors(self, node: SearchNode, world: State) -> np.ndarray:
        """Give the node the network's priors, read in this world from the view of the seat
        deciding there; return the value head's logits (one per seat, from that seat on)."""
        logits, value_logits = self.model.predict_entries(
            *self.model.entries(world, world.to_move))
        legal = world.legal_actions()
        indices = [world.game.action_index(a) for a in legal]
        node.priors = dict(zip(legal, softmax(logits[indices]).tolist(), strict=True))
        node.netted = True
        return value_logits

    def heuristic(self, world: State) -> list[float]:
        """The game's ``evaluate_all`` (every seat at once), each lead turned into a win
        chance by a logistic (as ``mcts`` scores its rollouts), normalised to shares that sum
        to 1."""
        chances = [win_chance(lead, self.scale) for lead in world.game.evaluate_all(world)]
        total = sum(chances)
        return [x / total for x in chances]


class LearnedBot(Bot):
    """Plays with :class:`NetSearch` under ``iterations`` or ``time_budget`` (whichever first).

    ``model``: a model file; by default the one the package ships for the game and player count
    being played. Where none fits, ``fallback`` (a bot spec, e.g. ``mcts``) plays instead, with
    this bot's ``time_budget`` if one is given; without a fallback that is an error. ``mix``:
    weight of the ``evaluate`` heuristic in leaf values (default: the card's, the one the model
    was trained with at its end unless ``palio models --mix`` changed it). ``prior_visits``:
    with ``mix`` 1, where the network only gives priors, ask it at a node once the node has this
    many visits (uniform priors until then), so the search runs nearly as many iterations as
    ``puct`` and the network guides the nodes it returns to; default the card's, 0 where it
    names none: at every new node. ``proven``: play a model only where its card records measured
    pairwise rates against the strongest search without a network for the game and player count
    (``bots.strongest_search``: ``mcts``, or ``puct`` where that is stronger) all at least this
    high (the lobby's strongest level asks 0.5: never weaker than the search it replaces), else
    the fallback. ``cpu_time``: the ``time_budget`` counts this process's CPU time instead of
    the wall clock (as in ``mcts``). ``last_stats``: ``{"iterations", "seconds"}``.
    """

    name = "learned"

    def __init__(
        self,
        model: str | None = None,
        iterations: int | None = None,
        time_budget: float | None = None,
        c: float = DEFAULT_C,
        mix: float | None = None,
        prior_visits: int | None = None,
        fallback: str | None = None,
        proven: float | None = None,
        cpu_time: bool = False,
        seed: int | None = None,
    ) -> None:
        super().__init__(seed)
        iterations = _number("iterations", iterations, integer=True, minimum=1, allow_none=True,
                             bot=self.name)
        time_budget = _number("time_budget", time_budget, integer=False, minimum=0.001,
                              allow_none=True, bot=self.name)
        if iterations is None and time_budget is None:
            iterations = DEFAULT_ITERATIONS
        self.iterations = iterations
        self.time_budget = time_budget
        self.c = _number("c", c, integer=False, minimum=0.0, bot=self.name)
        if mix is not None and not (isinstance(mix, (int, float)) and 0 <= mix <= 1):
            raise OptionError(f"learned option mix must be a number from 0 to 1, not {mix!r}")
        self.mix = mix
        self.prior_visits = _number("prior_visits", prior_visits, integer=True, minimum=0,
                                    allow_none=True, bot=self.name)
        if model is not None and not isinstance(model, str):
            raise OptionError(f"learned option model must be a file path, not {model!r}")
        self.model_path = model
        self.fallback = fallback
        if proven is not None and not (isinstance(proven, (int, float)) and 0 <= proven <= 1):
            raise OptionError(f"learned option proven must be a number from 0 to 1, not {proven!r}")
        self.proven = proven
        if not isinstance(cpu_time, bool):
            raise OptionError(f"{self.name} option cpu_time must be true or false, "
                              f"not {cpu_time!r}")
        # the clock of time_budget, as in mcts: this process's CPU time (measurements on a
        # shared machine) or, by default, the wall clock (a person waiting)
        self.cpu_time = cpu_time
        self.clock = time.process_time if cpu_time else time.perf_counter
        self.seed = seed
        self.scale = DEFAULT_SCALE  # mcts's logistic, for the evaluation's share of a leaf
        self._models: dict[tuple[str, int], Model | Bot] = {}
        self.last_stats: dict[str, float] = {"iterations": 0, "seconds": 0.0}

    def model_for(self, state: State) -> Model | Bot | None:
        """The model that plays this game and player count, or the fallback bot (``None``: no
        network, as ``puct`` plays)."""
        key = (state.game.info.id, state.players)
        found = self._models.get(key)
        if found is None:
            found = self._resolve(state)
            self._models[key] = found
        return found

    def _resolve(self, state: State) -> Model | Bot:
        game, players = state.game, state.players
        if self.model_path is not None:
            model = Model.load(Path(self.model_path))
            model.check_fits(game, players)
            return model
        model = shipped_model(game.info.id, players)
        if model is not None and self.proven is not None:
            measured = model.measured_against(bots.strongest_search(game.info.id, players))
            if measured is None or measured < self.proven:
                model = None  # not shown to be as strong as the search it would replace
        if model is not None:
            model.check_fits(game, players)
            return model
        if self.fallback is None:
            raise OptionError(f"no trained model ships for {game.info.name} with {players} "
                              f"players; train one (palio train {game.info.id} --players "
                              f"{players}) and pass it as model=FILE")
        options: dict[str, Any] = {"seed": self.seed}
        if self.time_budget is not None:
            options["time_budget"] = self.time_budget
            if self.cpu_time:
                options["cpu_time"] = True
        return bots.get(self.fallback, **options)

    def choose(self, state: State, seat: int) -> Action:
        self.check_turn(state, seat)
        started = time.perf_counter()
        clock_started = self.clock()
        model = self.model_for(state)
        if isinstance(model, Bot):
            action = model.choose(state, seat)
            self.last_stats = dict(getattr(model, "last_stats", {}) or {
                "iterations": 0, "seconds": time.perf_counter() - started})
            return action
        legal = state.legal_actions()
        if len(legal) == 1:
            self.last_stats = {"iterations": 0, "seconds": time.perf_counter() - started}
            return legal[0]
        # the model card's mix and prior_visits unless given; with no model (puct) NetSearch
        # values every leaf by the game's evaluation and has uniform priors whatever they are
        mix = self.mix if self.mix is not None else (model.mix if model is not None else 0.0)
        prior_visits = (self.prior_visits if self.prior_visits is not None
                        else (model.prior_visits if model is not None else 0))
        search = NetSearch(model, self.rng, c=self.c, mix=mix, scale=self.scale,
                           prior_visits=prior_visits)
        limit = self.iterations if self.iterations is not None else math.inf
        deadline = clock_started + self.time_budget if self.time_budget is not None else math.inf
        result = search.run(state, seat, limit, deadline, self.clock)
        self.last_stats = {"iterations": result.iterations,
                           "seconds": time.perf_counter() - started}
        # the most visited legal action; the network's prior breaks ties
        return max(legal, key=lambda a: (result.visits[a], result.priors[a]))


class PuctBot(LearnedBot):
    """The learned bot's search with no network: PUCT with uniform priors, an unvisited child
    valued as its parent, and every new leaf valued at once by the game's ``evaluate_all``
    (through ``mcts``'s logistic, ``scale``). It is the control that tells what a trained
    network adds to that search; options as ``learned``'s budget: ``iterations`` (default
    200), ``time_budget``, ``cpu_time``, ``c`` (1.0), ``scale``, ``seed``."""

    name = "puct"

    def __init__(self, iterations: int | None = None, time_budget: float | None = None,
                 c: float = DEFAULT_C, scale: float = DEFAULT_SCALE, cpu_time: bool = False,
                 seed: int | None = None) -> None:
        super().__init__(iterations=iterations, time_budget=time_budget, c=c,
                         cpu_time=cpu_time, seed=seed)
        self.scale = _number("scale", scale, integer=False, minimum=0.001, bot=self.name)

    def model_for(self, state: State) -> None:
        return None  # no network: NetSearch searches with uniform priors and the evaluation
