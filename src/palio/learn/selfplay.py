"""Self-play games for training, in two ways (``method``):

* ``dmc`` (Deep Monte-Carlo, as DouZero learned three-player Dou Dizhu): no search at all. Every
  seat plays the action its network values most (the policy head's logits are read as action
  values: the log-odds of the mover's share of the win after that action), a random legal one
  with probability ``epsilon``. A sample is the decision and its outcome; the trainer fits the
  taken action's value and the position's value to what the game gave. A game costs a network
  call per decision (hundredths of a CPU-second), so many games fit in little time, and
  ``count`` games share one job.
* ``search``: the current network guides the search of every seat (AlphaZero style).

A :class:`SelfPlayJob` is picklable and holds the model as bytes, so the same job runs in this
process, a worker process or a Ray task, and gives the same samples from the same seed. This
module needs NumPy only (no PyTorch): workers play with :class:`~palio.bots.network.Model`.

Every decision with more than one legal action becomes one sample, taken from the deciding
seat's side only: its scaled observation tensor (nonzero entries), the legal actions' indices
(the mask), the search's visit shares over them (the policy target) and, once the game ends,
the value target: each seat's result relative to the decider (win shares from ``returns()``),
blended with the search's own root value by ``search_value``. The search samples its worlds
with ``determinize`` from the decider's view, never the true hidden state.
"""

from __future__ import annotations

import random
import time
from dataclasses import dataclass, field
from typing import Any

import numpy as np

import palio.games as registry
from palio.bots.learned import DEFAULT_C, NetSearch
from palio.bots.network import Model
from palio.core.rng import derive


@dataclass(frozen=True)
class SelfPlayJob:
    """One self-play game: the game, the model to play with, and the search settings."""

    index: int
    game: str
    players: int
    seed: int
    model: bytes
    iterations: int
    mix: float = 0.0
    c: float = DEFAULT_C
    noise: float = 0.25
    noise_alpha: float = 0.3
    explore_moves: int = 30  # decisions sampled in proportion to visits, then the most visited
    search_value: float = 0.5  # weight of the root's value in the value target
    options: dict[str, Any] = field(default_factory=dict)
    method: str = "search"  # or "dmc" (see the module docstring)
    epsilon: float = 0.05  # dmc: share of decisions played at random
    seeds: tuple[int, ...] = ()  # dmc: the seeds of the games this job plays (else ``seed``)


@dataclass
class Sample:
    """One training position (see the module docstring); arrays are small and picklable."""

    inputs_index: np.ndarray  # int32: where the scaled observation is nonzero
    inputs_value: np.ndarray  # float32: the values there
    legal: np.ndarray  # int32: action indices of the legal actions
    policy: np.ndarray  # float32: visit shares over ``legal``
    value: np.ndarray  # float32: per seat relative to the decider, sums to 1


def play_selfplay(job: SelfPlayJob) -> dict[str, Any]:
    """Play the job's games (one with a search in every seat, or ``seeds`` without any);
    their samples and figures."""
    if job.method == "dmc":
        return play_dmc(job)
    started = time.perf_counter()
    cpu_started = time.process_time()
    game = registry.get(job.game)
    model = Model.from_bytes(job.model)
    rng = derive(job.seed, "selfplay-search")
    choice_rng = random.Random(derive(job.seed, "selfplay-choice").getrandbits(63))
    search = NetSearch(model, rng, c=job.c, mix=job.mix, noise=job.noise,
                       noise_alpha=job.noise_alpha)
    state = game.setup(job.players, job.seed, job.options)
    pending: list[tuple[int, Sample, list[float]]] = []
    iterations = 0
    while not state.is_over:
        if state.move_number > game.info.max_length:
            raise RuntimeError(f"{job.game} self-play game {job.index} passed the maximum length")
        legal = state.legal_actions()
        if len(legal) == 1:
            state.apply_unchecked(legal[0])
            continue
        mover = state.to_move
        result = search.run(state, mover, job.iterations)
        iterations += result.iterations
        counts = np.asarray([result.visits[a] for a in legal], dtype=np.float32)
        index, values = model.entries(state, mover)
        sample = Sample(index.astype(np.int32), values, np.asarray(
            [game.action_index(a) for a in legal], dtype=np.int32), counts / counts.sum(),
            np.zeros(job.players, dtype=np.float32))
        pending.append((mover, sample, result.value))
        if state.move_number < job.explore_moves:
            action = choice_rng.choices(legal, weights=counts.tolist())[0]
        else:
            action = legal[int(np.argmax(counts))]
        state.apply_unchecked(action)
    returns = state.returns()
    samples = []
    for mover, sample, root_value in pending:
        outcome = [returns[(mover + k) % job.players] for k in range(job.players)]
        searched = [root_value[(mover + k) % job.players] for k in range(job.players)]
        sample.value = np.asarray([(1 - job.search_value) * z + job.search_value * q
                                   for z, q in zip(outcome, searched, strict=True)],
                                  dtype=np.float32)
        samples.append(sample)
    return {
        "index": job.index,
        "samples": samples,
        "decisions": state.move_number,
        "returns": returns,
        "scores": state.scores(),
        "iterations": iterations,
        "seconds": time.perf_counter() - started,
        "cpu_seconds": time.process_time() - cpu_started,
        "games": 1,
    }


def play_dmc(job: SelfPlayJob) -> dict[str, Any]:
    """Deep Monte-Carlo self-play of the games ``job.seeds``: no search (module docstring).

    A sample's ``policy`` is 1 at the action taken (the one whose value the trainer fits) and 0
    at the other legal ones; its ``value`` is the outcome (win shares from ``returns()``)
    relative to the decider. Every seat decides from its own observation only."""
    started = time.perf_counter()
    cpu_started = time.process_time()
    game = registry.get(job.game)
    model = Model.from_bytes(job.model)
    model.bind(game)
    choice_rng = random.Random(derive(job.seed, "dmc-choice", job.index).getrandbits(63))
    samples: list[Sample] = []
    decisions = 0
    for seed in job.seeds:
        state = game.setup(job.players, seed, job.options)
        pending: list[tuple[int, Sample]] = []
        while not state.is_over:
            if state.move_number > game.info.max_length:
                raise RuntimeError(f"{job.game} self-play game {seed} passed the maximum length")
            legal = state.legal_actions()
            if len(legal) == 1:
                state.apply_unchecked(legal[0])
                continue
            mover = state.to_move
            index, values = model.entries(state, mover)
            indices = np.asarray([game.action_index(a) for a in legal], dtype=np.int32)
            if choice_rng.random() < job.epsilon:
                chosen = choice_rng.randrange(len(legal))
            else:
                logits, _ = model.predict_entries(index, values)
                q = logits[indices]
                best = np.flatnonzero(q >= q.max() - 1e-6)  # ties (a fresh network): at random
                chosen = int(best[choice_rng.randrange(len(best))]) if len(best) > 1 \
                    else int(best[0])
            taken = np.zeros(len(legal), dtype=np.float32)
            taken[chosen] = 1.0
            pending.append((mover, Sample(index.astype(np.int32), values, indices, taken,
                                          np.zeros(job.players, dtype=np.float32))))
            state.apply_unchecked(legal[chosen])
        decisions += state.move_number
        returns = state.returns()
        for mover, sample in pending:
            sample.value = np.asarray([returns[(mover + k) % job.players]
                                       for k in range(job.players)], dtype=np.float32)
            samples.append(sample)
    return {
        "index": job.index,
        "samples": samples,
        "decisions": decisions,
        "games": len(job.seeds),
        "iterations": 0,
        "seconds": time.perf_counter() - started,
        "cpu_seconds": time.process_time() - cpu_started,
    }


DMC_GAMES_PER_JOB = 16  # search-free games are short: a job plays this many


def selfplay_jobs(game: str, players: int, options: dict[str, Any], run_seed: int,
                  generation: int, games: int, model: bytes, **settings: Any) -> list[SelfPlayJob]:
    """The self-play games of one generation; each game's seed derives from the run seed, the
    generation and the game's index, so results do not depend on the workers or the backend."""
    if settings.get("method") == "dmc":
        seeds = [derive(run_seed, "selfplay", generation, i).getrandbits(63) for i in range(games)]
        return [SelfPlayJob(index=n, game=game, players=players, options=options,
                            seed=derive(run_seed, "dmc-job", generation, n).getrandbits(63),
                            model=model, seeds=tuple(seeds[start:start + DMC_GAMES_PER_JOB]),
                            **settings)
                for n, start in enumerate(range(0, games, DMC_GAMES_PER_JOB))]
    return [SelfPlayJob(index=i, game=game, players=players, options=options,
                        seed=derive(run_seed, "selfplay", generation, i).getrandbits(63),
                        model=model, **settings) for i in range(games)]
