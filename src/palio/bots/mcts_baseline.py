"""``mcts-2026``: the ``mcts`` search as it was before issue 23, kept unchanged as a yardstick
(the new ``mcts`` is measured against it at equal time; see docs/bots.md). Not a level.

Information-set Monte Carlo tree search (single-observer ISMCTS), for any Palio game.

Each iteration draws one world ``state.determinize(seat, rng)``: a full state that the bot's
seat cannot tell apart from the real one (hidden cards, decks and future dice resampled). The
search then walks one shared tree, keyed by actions, choosing only among the actions legal in
that world (UCT with availability counts, as in Cowling, Powley & Whitehouse 2012). So the bot
never reads what its seat cannot see, and chance is handled by the sampled worlds.

Every node keeps a reward vector, one entry per seat; whoever decides at a node (``to_move``,
which may be a seat acting out of turn) picks the child best for its own entry. Rollouts play
random moves up to ``rollout_depth`` decisions, then score the position with the game's
``evaluate`` for every seat (or with the final ranking at the end of the game).
"""

from __future__ import annotations

import math
import time
from typing import Any

from palio.bots.base import Bot
from palio.core.errors import OptionError
from palio.core.game import Action, State

DEFAULT_ITERATIONS = 300
DEFAULT_C = 0.7
DEFAULT_ROLLOUT_DEPTH = 8
# evaluate() differences are in points; this many points ahead counts as a likely win
DEFAULT_SCALE = 8.0


class Node:
    """One tree node: the statistics of the action that led here, and its children."""

    __slots__ = ("children", "visits", "avail", "total")

    def __init__(self, players: int) -> None:
        self.children: dict[Action, Node] = {}
        self.visits = 0
        self.avail = 1  # times this node's action was legal when its parent was selected
        self.total = [0.0] * players  # summed results, per seat


def _number(name: str, value: Any, *, integer: bool, minimum: float, allow_none: bool = False,
            bot: str = "mcts"):
    if value is None and allow_none:
        return None
    if isinstance(value, bool) or not isinstance(value, (int, float)) or (
        integer and not isinstance(value, int)
    ):
        kind = "a whole number" if integer else "a number"
        raise OptionError(f"{bot} option {name} must be {kind}, not {value!r}")
    if value < minimum or not math.isfinite(value):
        raise OptionError(f"{bot} option {name} must be at least {minimum}, not {value!r}")
    return value


class BaselineMctsBot(Bot):
    """Anytime ISMCTS; stops after ``iterations`` or ``time_budget`` seconds, whichever first.

    With neither given it runs the default number of iterations. ``last_stats`` tells what the
    last decision cost: ``{"iterations": n, "seconds": s}``.
    """

    name = "mcts-2026"

    def __init__(
        self,
        iterations: int | None = None,
        time_budget: float | None = None,
        c: float = DEFAULT_C,
        rollout_depth: int = DEFAULT_ROLLOUT_DEPTH,
        scale: float = DEFAULT_SCALE,
        cpu_time: bool = False,
        seed: int | None = None,
    ) -> None:
        super().__init__(seed)
        iterations = _number("iterations", iterations, integer=True, minimum=1, allow_none=True)
        time_budget = _number("time_budget", time_budget, integer=False, minimum=0.001,
                              allow_none=True)
        if iterations is None and time_budget is None:
            iterations = DEFAULT_ITERATIONS
        self.iterations = iterations
        self.time_budget = time_budget
        self.c = _number("c", c, integer=False, minimum=0.0)
        self.rollout_depth = _number("rollout_depth", rollout_depth, integer=True, minimum=0)
        self.scale = _number("scale", scale, integer=False, minimum=1e-6)
        if not isinstance(cpu_time, bool):
            raise OptionError(f"{self.name} option cpu_time must be true or false, not {cpu_time!r}")
        # the clock of time_budget: this process's CPU time (measurements on a shared machine)
        # or, by default, the wall clock (a person waiting)
        self.clock = time.process_time if cpu_time else time.perf_counter
        self.last_stats: dict[str, float] = {"iterations": 0, "seconds": 0.0}

    # -- the search --------------------------------------------------------------------
    def choose(self, state: State, seat: int) -> Action:
        self.check_turn(state, seat)
        started = time.perf_counter()
        legal = state.legal_actions()
        if len(legal) == 1:
            self.last_stats = {"iterations": 0, "seconds": time.perf_counter() - started}
            return legal[0]
        root = self.search(state, seat)
        # the most visited of the actions legal now (the first such in legal order on ties)
        best = legal[0]
        best_visits = -1
        for action in legal:
            child = root.children.get(action)
            visits = child.visits if child is not None else 0
            if visits > best_visits:
                best, best_visits = action, visits
        return best

    def search(self, state: State, seat: int) -> Node:
        """Run the search from ``seat``'s view of ``state``; the root of the tree it grew."""
        clock = self.clock
        started = clock()
        wall = time.perf_counter()
        root = Node(state.players)
        limit = self.iterations if self.iterations is not None else math.inf
        deadline = started + self.time_budget if self.time_budget is not None else math.inf
        done = 0
        while done < limit:
            self._iterate(root, state.determinize(seat, self.rng))
            done += 1
            # the clock is read every iteration: one iteration is far longer than a clock read
            if deadline != math.inf and clock() >= deadline:
                break
        self.last_stats = {"iterations": done, "seconds": time.perf_counter() - wall}
        return root

    def _iterate(self, root: Node, world: State) -> None:
        rng = self.rng
        c = self.c
        path = [root]
        node = root
        # selection: descend while every action legal in this world has a child
        while not world.is_over:
            legal = world.legal_actions()
            children = node.children
            untried = [a for a in legal if a not in children]
            if untried:
                action = untried[0] if len(untried) == 1 else rng.choice(untried)
                child = Node(world.players)
                children[action] = child
                # the new child was available as often as its parent was visited from here on
                world.apply_unchecked(action)
                path.append(child)
                break
            mover = world.to_move
            best_action = legal[0]
            best_value = -math.inf
            for action in legal:
                child = children[action]
                child.avail += 1
                value = child.total[mover] / child.visits + c * math.sqrt(
                    math.log(child.avail) / child.visits
                )
                if value > best_value:
                    best_action, best_value = action, value
            node = children[best_action]
            world.apply_unchecked(best_action)
            path.append(node)
        # rollout: random play to the depth cutoff
        for _ in range(self.rollout_depth):
            if world.is_over:
                break
            world.apply_unchecked(rng.choice(world.legal_actions()))
        result = self._result(world)
        for visited in path:
            visited.visits += 1
            total = visited.total
            for i, value in enumerate(result):
                total[i] += value

    def _result(self, world: State) -> list[float]:
        """Per seat, a result in [0, 1]: the final shares at the end, else evaluate's verdict."""
        if world.is_over:
            return world.returns()
        scale = self.scale
        # evaluate_all gives each seat's lead over the best other seat, all at once; a
        # logistic turns each into something like a chance of winning
        out = []
        for lead in world.game.evaluate_all(world):
            lead = max(-30.0, min(30.0, lead / scale))
            out.append(1.0 / (1.0 + math.exp(-lead)))
        return out

