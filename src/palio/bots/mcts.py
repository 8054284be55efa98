"""Information-set Monte Carlo tree search (single-observer ISMCTS), for any Palio game.

Each iteration draws one world ``state.determinize(seat, rng)``: a full state that the bot's
seat cannot tell apart from the real one (hidden cards, decks and future dice resampled). The
search then walks one shared tree, keyed by actions, choosing only among the actions legal in
that world (UCT with availability counts, as in Cowling, Powley & Whitehouse 2012). So the bot
never reads what its seat cannot see, and chance is handled by the sampled worlds.

Every node keeps a reward vector, one entry per seat; whoever decides at a node (``to_move``,
which may be a seat acting out of turn) picks the child best for its own entry. Rollouts play
up to ``rollout_depth`` decisions, then score the position with the game's ``evaluate_all``
(every seat at once; or with the final ranking at the end of the game). With MAST (``mast``,
0.6 unless the game sets its own) that share of rollout decisions plays the action with the
best average result for its mover so far in this search, wherever it was played; the others
are random.

What changed in issue 23 (measured against the search as it was, kept as the ``mcts-2026``
bot; figures in docs/bots.md): MAST rollouts, and each game's own ``search_defaults``
(Signorie values a leaf at once with ``evaluate``, Troyes after 3 random decisions, Aquileia
after 16 MAST decisions), some per player count (``search_defaults_by_players``: 4 decisions
in four-player Tiletum, 24 in five-player Aquileia) and some for long searches only
(``search_defaults_long``, from ``LONG_ITERATIONS`` or ``LONG_SECONDS``: two-player Troyes
values a leaf at once there); a game may set ``c`` and ``scale`` the same way. Tried and left
off: tree reuse (``reuse``), progressive widening (``widen``), chance nodes by outcome
(``outcomes``), rollouts that end with their turn (``turn``), a seat's place instead of its win
as the result (``pairs``), first-play urgency, other ``c`` and ``scale``.
"""

from __future__ import annotations

import math
import time
from typing import Any, NamedTuple

from palio.bots.base import Bot
from palio.core.errors import OptionError
from palio.core.game import Action, State

DEFAULT_ITERATIONS = 300
DEFAULT_C = 0.7
DEFAULT_ROLLOUT_DEPTH = 8
DEFAULT_MAST = 0.6
# evaluate() differences are in points; this many points ahead counts as a likely win
DEFAULT_SCALE = 8.0
# a search is long, and takes the game's options for long searches (Game.search_defaults_long),
# when its budget is at least this many iterations or seconds (a bot given both must have both):
# about the same search in Troyes, which runs 2,500-3,300 iterations a CPU second here
LONG_ITERATIONS = 800
LONG_SECONDS = 0.25


class Settings(NamedTuple):
    """What a search uses in one game and player count (see ``MctsBot.settings``)."""

    c: float
    rollout_depth: int
    mast: float
    scale: float
    turn: bool
    pairs: bool


# the settings a game may give (Game.search_defaults), in Settings' order, with the defaults
_SETTINGS = (("c", DEFAULT_C), ("rollout_depth", DEFAULT_ROLLOUT_DEPTH), ("mast", DEFAULT_MAST),
             ("scale", DEFAULT_SCALE), ("turn", False), ("pairs", False))


class Node:
    """One tree node: the statistics of the action that led here, and its children."""

    __slots__ = ("children", "visits", "avail", "total", "outcomes")

    def __init__(self, players: int) -> None:
        self.children: dict[Action, Node] = {}
        self.visits = 0
        self.avail = 1  # times this node's action was legal when its parent was selected
        self.total = [0.0] * players  # summed results, per seat
        # with ``outcomes`` on: what the searching seat saw when this node's action was played
        # (its events' views) -> the node where the search goes on after that outcome
        self.outcomes: dict[Any, Node] | None = None


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


class MctsBot(Bot):
    """Anytime ISMCTS; stops after ``iterations`` or ``time_budget`` seconds, whichever first.

    With neither given it runs the default number of iterations. ``last_stats`` tells what the
    last decision cost: ``{"iterations": n, "seconds": s}``.
    """

    name = "mcts"

    def __init__(
        self,
        iterations: int | None = None,
        time_budget: float | None = None,
        c: float | None = None,
        rollout_depth: int | None = None,
        scale: float | None = None,
        cpu_time: bool = False,
        widen: float = 0.0,
        reuse: bool = False,
        mast: float | None = None,
        outcomes: float = 0.0,
        turn: bool | None = None,
        pairs: bool | None = None,
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
        # c, rollout_depth, scale, mast, turn and pairs: None is the game's own
        # (Game.search_defaults), else this module's default (see settings())
        self.c = _number("c", c, integer=False, minimum=0.0, allow_none=True)
        self.rollout_depth = _number("rollout_depth", rollout_depth, integer=True, minimum=0,
                                     allow_none=True)
        self.scale = _number("scale", scale, integer=False, minimum=1e-6, allow_none=True)
        # progressive widening (0: off): a node visited n times may have at most
        # max(1, widen * sqrt(n)) children, so wide decisions are searched deeper
        self.widen = _number("widen", widen, integer=False, minimum=0.0)
        # MAST rollouts (Finnsson & Bjornsson 2008; epsilon-greedy as in Tak, Winands &
        # Bjornsson 2012): this share of rollout decisions plays the action with the best
        # average result for its mover so far in this search (in any position), the rest are
        # random; 0 is plain random rollouts
        self.mast = _number("mast", mast, integer=False, minimum=0.0, allow_none=True)
        if self.mast is not None and self.mast > 1.0:
            raise OptionError(f"{self.name} option mast must be at most 1, not {mast!r}")
        # (game, players, the options they came from, long, the settings): see settings()
        self._tuned: tuple[Any, int, tuple, bool, Settings] | None = None
        # tree reuse: when this bot decides again right after its own decision (the position
        # is the last one it searched plus the action it chose), it keeps searching the
        # subtree of that action instead of a new tree. Only its own choice links the two
        # positions, so nothing hidden is read.
        if not isinstance(reuse, bool):
            raise OptionError(f"{self.name} option reuse must be true or false, not {reuse!r}")
        self.reuse = reuse
        self._kept: tuple[Any, Action, Node | None, int, int] | None = None
        # chance nodes by outcome (0: off): after an action, the search goes on in a node of
        # its own for each outcome the searching seat saw (the dice rolled, the card it drew),
        # so its later choices are searched knowing the outcome, as it will know it, instead of
        # being averaged over every outcome. An action whose outcomes were seen n times keeps at
        # most max(1, outcomes * sqrt(n)) of them apart (double progressive widening); rarer
        # outcomes share one node, as every outcome does with the option off.
        self.outcomes = _number("outcomes", outcomes, integer=False, minimum=0.0)
        # rollouts that end with the turn they start in (see _rollout); None: the game's own
        if turn is not None and not isinstance(turn, bool):
            raise OptionError(f"{self.name} option turn must be true or false, not {turn!r}")
        self.turn = turn
        # a seat's result as the share of the other seats it finishes ahead of (its place),
        # not only whether it wins: the same with two players; None: the game's own
        if pairs is not None and not isinstance(pairs, bool):
            raise OptionError(f"{self.name} option pairs must be true or false, not {pairs!r}")
        self.pairs = pairs
        if not isinstance(cpu_time, bool):
            raise OptionError(f"{self.name} option cpu_time must be true or false, not {cpu_time!r}")
        # the clock of time_budget: this process's CPU time (measurements on a shared machine)
        # or, by default, the wall clock (a person waiting)
        self.clock = time.process_time if cpu_time else time.perf_counter
        self.last_stats: dict[str, float] = {"iterations": 0, "seconds": 0.0}
        # MAST statistics of the current search: (mover, action) -> [summed result, times]
        self._mast_stats: dict[tuple[int, Action], list[float]] = {}

    # -- the search --------------------------------------------------------------------
    def choose(self, state: State, seat: int) -> Action:
        self.check_turn(state, seat)
        started = time.perf_counter()
        legal = state.legal_actions()
        kept = self._reused(state, seat)
        if len(legal) == 1:
            self.last_stats = {"iterations": 0, "seconds": time.perf_counter() - started}
            self._keep(state, seat, legal[0], kept)
            return legal[0]
        root = self.search(state, seat, kept)
        # the most visited of the actions legal now (the first such in legal order on ties)
        best = legal[0]
        best_visits = -1
        for action in legal:
            child = root.children.get(action)
            visits = child.visits if child is not None else 0
            if visits > best_visits:
                best, best_visits = action, visits
        self._keep(state, seat, best, root)
        return best

    def _reused(self, state: State, seat: int) -> Node | None:
        """The subtree kept from this bot's last decision, if ``state`` is that decision's
        position plus the action it chose (and ``seat`` is still the one deciding)."""
        kept, self._kept = self._kept, None
        if kept is None:
            return None
        before, action, node, kept_seat, events = kept
        last = state.history.head
        if node is None or kept_seat != seat or last is None or last[1] is not before \
                or last[0] != action:
            return None
        if node.outcomes is not None:  # the subtree of what this seat really saw happen
            return node.outcomes.get(_seen(state, seat, events))
        return node

    def _keep(self, state: State, seat: int, action: Action, root: Node | None) -> None:
        if self.reuse and root is not None:
            self._kept = (state.history.head, action, root.children.get(action), seat,
                          len(state.log))

    def search(self, state: State, seat: int, root: Node | None = None) -> Node:
        """Run the search from ``seat``'s view of ``state``; the root of the tree it grew
        (``root``: a tree to go on growing, else a new one)."""
        clock = self.clock
        started = clock()
        wall = time.perf_counter()
        root = root if root is not None else Node(state.players)
        limit = self.iterations if self.iterations is not None else math.inf
        deadline = started + self.time_budget if self.time_budget is not None else math.inf
        done = 0
        self._mast_stats = {}
        while done < limit:
            self.iterate(root, state.determinize(seat, self.rng))
            done += 1
            # the clock is read every iteration: one iteration is far longer than a clock read
            if deadline != math.inf and clock() >= deadline:
                break
        self.last_stats = {"iterations": done, "seconds": time.perf_counter() - wall}
        return root

    def iterate(self, root: Node, world: State) -> None:
        """One search iteration in ``world`` (a determinization of the searching seat's view)
        from ``root``: select, expand one node, roll out, back up every seat's result. Reviews
        call it directly to grow their own roots. The MAST averages it reads and adds to are
        this bot's current search's (``search`` starts them afresh): a caller growing roots
        for another seat must use a new bot, or that seat's rollouts would follow averages
        from worlds drawn from someone else's view."""
        observer = world.to_move  # the searching seat: the root is its decision
        c, depth, mast, scale, turn, pairs = self.settings(world.game, world.players)
        path = [root]
        node = root
        widen = self.widen
        split = self.outcomes
        played: list[tuple[int, Action]] = []  # (mover, action) of this iteration, for MAST
        # selection: descend while every action legal in this world has a child
        while not world.is_over:
            legal = world.legal_actions()
            children = node.children
            untried = [a for a in legal if a not in children]
            if untried and (not widen or len(untried) == len(legal)
                            or len(children) < widen * math.sqrt(node.visits + 1)):
                self._expand(world, node, untried, path, played if mast else None)
                break
            mover = world.to_move
            best_action = legal[0]
            best_value = -math.inf
            for action in legal:
                child = children.get(action)
                if child is None:  # held back by progressive widening
                    continue
                child.avail += 1
                value = child.total[mover] / child.visits + c * math.sqrt(
                    math.log(child.avail) / child.visits
                )
                if value > best_value:
                    best_action, best_value = action, value
            node = children[best_action]
            if mast:
                played.append((mover, best_action))
            events = len(world.log)
            world.apply_unchecked(best_action)
            path.append(node)
            if split:
                node = self._outcome(node, _seen(world, observer, events), split)
                path.append(node)
        self._rollout(world, played, depth, mast, turn)
        result = _pairwise(world, scale) if pairs else _result(world, scale)
        for visited in path:
            visited.visits += 1
            total = visited.total
            for i, value in enumerate(result):
                total[i] += value
        if mast:
            stats = self._mast_stats
            for mover, action in played:
                entry = stats.get((mover, action))
                if entry is None:
                    stats[(mover, action)] = [result[mover], 1.0]
                else:
                    entry[0] += result[mover]
                    entry[1] += 1.0

    def _expand(self, world: State, node: Node, untried: list[Action], path: list[Node],
                played: list[tuple[int, Action]] | None) -> None:
        """Add one untried action (at random) below ``node`` and play it in ``world``."""
        action = untried[0] if len(untried) == 1 else self.rng.choice(untried)
        child = Node(world.players)
        node.children[action] = child
        if played is not None:
            played.append((world.to_move, action))
        # the new child was available as often as its parent was visited from here on
        world.apply_unchecked(action)
        path.append(child)

    def _outcome(self, node: Node, seen: Any, split: float) -> Node:
        """The node below ``node`` (an action just played) for the outcome ``seen``."""
        outcomes = node.outcomes
        if outcomes is None:
            outcomes = node.outcomes = {}
        after = outcomes.get(seen)
        if after is None:
            if len(outcomes) >= max(1.0, split * math.sqrt(node.visits)):
                seen = None  # widened enough: the rarer outcomes share one node
                after = outcomes.get(None)
            if after is None:
                after = outcomes[seen] = Node(len(node.total))
        return after

    def settings(self, game: Any, players: int) -> Settings:
        """What the search uses for ``game`` at ``players`` players: for each setting, the
        bot's own option where given, else the game's (``Game.search_options``, its options for
        long searches where this bot's budget is long), else this module's default."""
        tuned = self._tuned
        long = self.long
        given = (self.c, self.rollout_depth, self.mast, self.scale, self.turn, self.pairs)
        if tuned is None or tuned[0] is not game or tuned[1] != players or tuned[2] != given \
                or tuned[3] != long:
            own = game.search_options(players, long)
            chosen = Settings(*(mine if mine is not None else own.get(name, default)
                                for mine, (name, default) in zip(given, _SETTINGS, strict=True)))
            if chosen.rollout_depth == 0:  # MAST only steers rollouts
                chosen = chosen._replace(mast=0.0)
            tuned = self._tuned = (game, players, given, long, chosen)
        return tuned[4]

    @property
    def long(self) -> bool:
        """Whether this bot's searches are long: each budget it has (iterations, seconds) at
        least ``LONG_ITERATIONS`` or ``LONG_SECONDS``."""
        iterations, seconds = self.iterations, self.time_budget
        return (iterations is None or iterations >= LONG_ITERATIONS) and (
            seconds is None or seconds >= LONG_SECONDS)

    def _rollout(self, world: State, played: list[tuple[int, Action]], depth: int,
                 greedy: float, turn: bool = False) -> None:
        """Play up to ``depth`` decisions: each, with probability ``greedy``, the best action
        for its mover by this search's MAST averages (an action not yet seen counts as a sure
        win, so it gets tried), else a random one; ``greedy`` 0 is plain random play. With
        ``turn``, stop sooner once the seat to move at the start is no longer the one to move
        (its turn is over), so leaves are valued between turns."""
        rng = self.rng
        first = world.to_move if turn else None
        if not greedy:
            for _ in range(depth):
                if world.is_over or (turn and world.to_move != first):
                    break
                world.apply_unchecked(rng.choice(world.legal_actions()))
            return
        stats = self._mast_stats
        for _ in range(depth):
            if world.is_over:
                break
            mover = world.to_move
            if turn and mover != first:
                break
            legal = world.legal_actions()
            if rng.random() >= greedy:
                action = rng.choice(legal)
            else:
                # start at a random place so ties (and unseen actions) do not favour legal order
                n = len(legal)
                offset = rng.randrange(n)
                action = legal[offset]
                best = -1.0
                for k in range(n):
                    candidate = legal[(offset + k) % n]
                    entry = stats.get((mover, candidate))
                    value = 1.0 if entry is None else entry[0] / entry[1]
                    if value > best:
                        action, best = candidate, value
            played.append((mover, action))
            world.apply_unchecked(action)


def win_chance(lead: float, scale: float) -> float:
    """A lead in points turned into something like a chance of winning: a logistic in which
    ``scale`` points of lead make a likely win (clamped so ``exp`` never overflows)."""
    lead = max(-30.0, min(30.0, lead / scale))
    return 1.0 / (1.0 + math.exp(-lead))


def _result(world: State, scale: float) -> list[float]:
    """Per seat, a result in [0, 1]: the final shares at the end, else evaluate's verdict
    (each seat's lead over the best other seat, all at once, as a win chance)."""
    if world.is_over:
        return world.returns()
    return [win_chance(lead, scale) for lead in world.game.evaluate_all(world)]


def _pairwise(world: State, scale: float) -> list[float]:
    """Per seat, the share of the other seats it is ahead of, in [0, 1] (level: a half): by
    the final places at the end, else by the win chances of the worths' differences."""
    players = world.players
    if players == 1:  # nobody to be ahead of
        return _result(world, scale)
    if world.is_over:
        ranks = world.ranks()
        return [sum(1.0 if ranks[i] < ranks[j] else 0.5 if ranks[i] == ranks[j] else 0.0
                    for j in range(players) if j != i) / (players - 1) for i in range(players)]
    worths = world.game.worths(world)
    return [sum(win_chance(worths[i] - worths[j], scale) for j in range(players) if j != i)
            / (players - 1) for i in range(players)]


def _seen(world: State, seat: int, start: int) -> Any:
    """What ``seat`` saw of the events logged in ``world`` since the log had ``start`` of them
    (their views, so nothing it may not see): equal for two outcomes it cannot tell apart."""
    new = len(world.log) - start
    if not new:
        return ()
    seen = []
    cell = world.log.head
    for _ in range(new):
        seen.append(repr(cell[0].view(seat)))
        cell = cell[1]
    return tuple(seen)


def search_root(
    state: State,
    seat: int,
    *,
    seconds: float | None = None,
    iterations: int | None = None,
    seed: int | None = None,
    bot: MctsBot | None = None,
) -> list[tuple[Action, int, float]]:
    """Root statistics of an ``mcts`` search from ``seat``'s view (reviews and hints).

    One entry per action legal now, in legal order: ``(action, visits, mean_value)``, where
    ``mean_value`` is ``seat``'s expected win share in [0, 1] after that action (0.5 for an
    action the search never tried). ``seat`` must be the seat to move. The search reads only
    ``state.determinize(seat, ...)`` worlds, so it never sees what ``seat`` cannot. Give a
    ``bot`` to search with its options (its own budget is then replaced by the one given here
    when ``seconds`` or ``iterations`` is set).
    """
    if bot is None:
        bot = MctsBot(iterations=iterations, time_budget=seconds, seed=seed)
    elif seconds is not None or iterations is not None:
        bot.iterations = iterations
        bot.time_budget = seconds
    bot.check_turn(state, seat)
    legal = state.legal_actions()
    root = bot.search(state, seat)
    out = []
    for action in legal:
        child = root.children.get(action)
        if child is None or child.visits == 0:
            out.append((action, 0, 0.5))
        else:
            out.append((action, child.visits, child.total[seat] / child.visits))
    return out
