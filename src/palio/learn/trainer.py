"""Self-play training of a policy-value network, with PyTorch: one code path for every game
and player count, in two methods (``method``; :mod:`palio.learn.selfplay` plays the games).

One generation: export the current network, play ``games`` self-play games with it
(in worker processes or Ray tasks), add their samples to a replay buffer of the latest
``buffer`` positions, then take ``steps`` gradient steps on minibatches drawn from the buffer.

* ``dmc`` (the default; Deep Monte-Carlo, as DouZero): search-free self-play. The policy head's
  logit of an action is its value, the log-odds of the mover's share of the win after it;
  the loss is the binary cross-entropy of the taken action's value against the outcome, plus
  the value head's cross-entropy against each seat's result. The ``learned`` bot reads the
  logits as its search's priors (their softmax favours the actions valued most) and the value
  head at its leaves, as for a model trained with a search.
* ``search`` (AlphaZero style): every self-play decision is a network-guided search; the loss
  is the policy's cross-entropy against the search's visit shares (illegal actions masked out)
  plus the value's cross-entropy against each seat's result. While the network knows nothing,
  the search values its leaves with the game's ``evaluate`` heuristic: ``mix`` starts at 1 and
  falls linearly to 0 over ``mix_generations`` generations.

A run lives in one folder: ``checkpoint.pt`` (network, optimiser, history, counters) and the
buffer, written after every generation (atomically), and ``model.npz`` (the exported network,
NumPy format, playable by the ``learned`` bot). Every ``keep_every`` generations a copy of the
model stays in ``models/model-gNNNN.npz``: more self-play does not always play better against
other bots, so a run keeps the models to measure and choose from. Running the same command
again resumes where it stopped; a larger ``generations`` extends a finished run. Every seed
derives from ``seed``.
"""

from __future__ import annotations

import os
import subprocess
import threading
import time
from collections.abc import Callable
from dataclasses import asdict, dataclass, field, fields
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

import numpy as np
import torch
from torch import nn

import palio
import palio.games as registry
from palio.bots.learned import DEFAULT_C
from palio.bots.network import Model, new_model
from palio.core.errors import OptionError
from palio.core.rng import derive
from palio.learn.selfplay import Sample, play_selfplay, selfplay_jobs
from palio.sim.backends import run_jobs

CHECKPOINT = "checkpoint.pt"
MODEL_FILE = "model.npz"
SNAPSHOTS = "models"  # models kept every keep_every generations: model-g0010.npz, ...
EVAL_POSITIONS = 2048  # buffer positions the loss is measured on before and after training


@dataclass
class TrainSettings:
    """Everything that decides what a run learns (kept in its checkpoint)."""

    game: str
    players: int
    options: dict[str, Any] = field(default_factory=dict)
    seed: int = 0
    generations: int = 10
    games: int = 16  # self-play games per generation
    iterations: int = 64  # search iterations per self-play decision
    hidden: list[int] = field(default_factory=lambda: [128, 128])
    steps: int = 200  # gradient steps per generation
    batch: int = 256
    lr: float = 1e-3
    weight_decay: float = 1e-4
    buffer: int = 50_000  # positions kept for training, newest first
    mix_generations: int = 4
    explore_moves: int = 30
    noise: float = 0.25
    c: float = DEFAULT_C
    search_value: float = 0.5
    method: str = "dmc"  # or "search" (see the module docstring)
    epsilon: float = 0.05  # dmc: share of self-play decisions played at random
    # a model file whose network the run starts from (expert iteration: a search run from a
    # search-free run's network); "" for a fresh network. Only a new run reads it.
    init: str = ""

    def mix(self, generation: int) -> float:
        """Weight of the heuristic in leaf values during self-play of ``generation`` (1-based);
        a search-free (dmc) run has none."""
        if self.mix_generations <= 0 or self.method == "dmc":
            return 0.0
        return max(0.0, 1.0 - (generation - 1) / self.mix_generations)

    def command(self) -> str:
        """The ``palio train`` command line that trains with exactly these settings."""
        parts = ["palio", "train", self.game, "--players", str(self.players)]
        for name, value in self.options.items():
            parts += ["--option", f"{name}={value}"]
        for f in fields(self):
            if f.name in ("game", "players", "options", "noise", "c", "search_value") or (
                    f.name == "init" and not self.init):
                continue  # the first three are above; the last three have no flag
            value = getattr(self, f.name)
            text = ",".join(map(str, value)) if isinstance(value, list) else f"{value:g}" \
                if isinstance(value, float) else str(value)
            parts += ["--" + f.name.replace("_", "-"), text]
        return " ".join(parts)

    def differences(self, other: TrainSettings) -> list[str]:
        """Settings (other than the number of generations) that differ from ``other``."""
        return [f.name for f in fields(self) if f.name != "generations"
                and getattr(self, f.name) != getattr(other, f.name)]


class Net(nn.Module):
    """The PyTorch twin of :class:`palio.bots.network.Model` (same layers, same meaning)."""

    def __init__(self, inputs: int, hidden: list[int], actions: int, players: int) -> None:
        super().__init__()
        layers: list[nn.Module] = []
        width = inputs
        for units in hidden:
            layers += [nn.Linear(width, units), nn.ReLU()]
            width = units
        self.body = nn.Sequential(*layers)
        self.policy = nn.Linear(width, actions)
        self.value = nn.Linear(width, players)

    def forward(self, x: torch.Tensor) -> tuple[torch.Tensor, torch.Tensor]:
        h = self.body(x)
        return self.policy(h), self.value(h)

    def linears(self) -> list[nn.Linear]:
        return [m for m in self.body if isinstance(m, nn.Linear)] + [self.policy, self.value]

    def load_model(self, model: Model) -> None:
        pairs = [*model.hidden, model.policy, model.value]
        with torch.no_grad():
            for linear, (weights, bias) in zip(self.linears(), pairs, strict=True):
                linear.weight.copy_(torch.from_numpy(weights.T.copy()))
                linear.bias.copy_(torch.from_numpy(bias.copy()))

    def to_model(self, meta: dict[str, Any]) -> Model:
        pairs = [(linear.weight.detach().cpu().numpy().T.copy(),
                  linear.bias.detach().cpu().numpy().copy()) for linear in self.linears()]
        return Model(meta, pairs[:-2], pairs[-2], pairs[-1])


def pick_device(name: str) -> torch.device:
    """``auto``: the GPU when the machine has one, else the CPU."""
    if name == "auto":
        return torch.device("cuda" if torch.cuda.is_available() else "cpu")
    if name == "cuda" and not torch.cuda.is_available():
        raise OptionError("--device cuda: this machine has no GPU that PyTorch can use")
    if name not in ("cpu", "cuda"):
        raise OptionError(f"unknown device {name!r}; choose auto, cpu or cuda")
    return torch.device(name)


def engine_commit() -> str:
    """The git commit of the Palio source being trained on ('+changes' when the working tree
    differs from it); outside a checkout (a copy of the tree sent to another machine) the
    environment's ``PALIO_COMMIT`` where set, else 'unknown'."""
    folder = Path(palio.__file__).parent
    try:
        commit = subprocess.run(["git", "rev-parse", "HEAD"], cwd=folder, capture_output=True,
                                text=True, timeout=10, check=True).stdout.strip()
        dirty = subprocess.run(["git", "status", "--porcelain", "--", "."], cwd=folder,
                               capture_output=True, text=True, timeout=10, check=True).stdout
    except (OSError, subprocess.SubprocessError):
        return os.environ.get("PALIO_COMMIT", "unknown")
    return commit + ("+changes" if dirty.strip() else "")


def collate(samples: list[Sample], inputs: int, actions: int, players: int
            ) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
    """Dense arrays of a minibatch: inputs, legal mask, policy targets, value targets."""
    count = len(samples)
    x = np.zeros((count, inputs), dtype=np.float32)
    mask = np.zeros((count, actions), dtype=bool)
    policy = np.zeros((count, actions), dtype=np.float32)
    value = np.zeros((count, players), dtype=np.float32)
    for i, s in enumerate(samples):
        x[i, s.inputs_index] = s.inputs_value
        mask[i, s.legal] = True
        policy[i, s.legal] = s.policy
        value[i] = s.value
    return x, mask, policy, value


def losses(net: Net, batch: tuple[np.ndarray, ...], device: torch.device, method: str = "search"
           ) -> tuple[torch.Tensor, torch.Tensor]:
    """(policy loss, value loss), both cross-entropies, averaged over the batch; for ``dmc``
    the policy loss is the taken action's value against the decider's result."""
    x, mask, policy, value = (torch.from_numpy(a).to(device) for a in batch)
    policy_logits, value_logits = net(x)
    value_loss = -(value * torch.log_softmax(value_logits, dim=1)).sum(dim=1).mean()
    if method == "dmc":
        taken = policy_logits.gather(1, policy.argmax(dim=1, keepdim=True)).squeeze(1)
        action_loss = nn.functional.binary_cross_entropy_with_logits(taken, value[:, 0])
        return action_loss, value_loss
    policy_logits = policy_logits.masked_fill(~mask, -1e9)
    policy_loss = -(policy * torch.log_softmax(policy_logits, dim=1)).sum(dim=1).mean()
    return policy_loss, value_loss


# -- the replay buffer on disk ---------------------------------------------------------------

def save_buffer(path: Path, samples: list[Sample]) -> None:
    """All samples in one compressed file: concatenated arrays and their offsets."""
    def joined(name: str, dtype: Any) -> tuple[np.ndarray, np.ndarray]:
        parts = [getattr(s, name) for s in samples]
        offsets = np.cumsum([0] + [len(p) for p in parts]).astype(np.int64)
        data = np.concatenate(parts).astype(dtype) if parts else np.zeros(0, dtype)
        return data, offsets

    arrays: dict[str, np.ndarray] = {}
    for name, dtype in (("inputs_index", np.int32), ("inputs_value", np.float32),
                        ("legal", np.int32), ("policy", np.float32)):
        arrays[name], arrays[name + "_offsets"] = joined(name, dtype)
    arrays["value"] = (np.stack([s.value for s in samples]) if samples
                       else np.zeros((0, 0), np.float32))
    temporary = path.with_name(path.name + ".tmp")
    with temporary.open("wb") as handle:
        np.savez_compressed(handle, **arrays)
    os.replace(temporary, path)


def load_buffer(path: Path) -> list[Sample]:
    with np.load(path, allow_pickle=False) as stored:
        arrays = {k: stored[k] for k in stored.files}

    def part(name: str, i: int) -> np.ndarray:
        offsets = arrays[name + "_offsets"]
        return arrays[name][offsets[i]:offsets[i + 1]]

    count = len(arrays["value"])
    return [Sample(part("inputs_index", i), part("inputs_value", i), part("legal", i),
                   part("policy", i), arrays["value"][i]) for i in range(count)]


# -- the run ---------------------------------------------------------------------------------

@dataclass
class Progress:
    """Callbacks for a user interface (all optional)."""

    generation_started: Callable[[int, int], None] = lambda generation, games: None
    game_finished: Callable[[dict[str, Any]], None] = lambda result: None
    generation_finished: Callable[[dict[str, Any]], None] = lambda record: None


class Trainer:
    """One training run in ``folder``; resumes from the checkpoint there when it exists."""

    def __init__(self, settings: TrainSettings, folder: Path, workers: int = 1,
                 backend: str = "process", address: str | None = None, device: str = "auto",
                 keep_every: int = 10) -> None:
        game = registry.get(settings.game)
        game.validate_options(settings.players, settings.options)
        self.game = game
        self.settings = settings
        self.folder = Path(folder)
        self.workers = workers
        self.backend = backend
        self.address = address
        self.keep_every = keep_every  # 0: keep no snapshots
        self.device = pick_device(device)
        torch.set_num_threads(max(1, workers))
        self.fresh = new_model(game, settings.players, tuple(settings.hidden), seed=settings.seed)
        self.meta = {k: v for k, v in self.fresh.meta.items() if k != "card"}
        self.net = Net(self.meta["inputs"], settings.hidden, self.meta["actions"],
                       settings.players).to(self.device)
        self.net.load_model(self._first_network(game) if settings.init else self.fresh)
        self.optimiser = torch.optim.AdamW(self.net.parameters(), lr=settings.lr,
                                           weight_decay=settings.weight_decay)
        self.generation = 0
        self.buffer: list[Sample] = []
        self.history: list[dict[str, Any]] = []
        self.wall_seconds = 0.0
        self.cpu_seconds = 0.0
        self.games_played = 0
        self.positions_seen = 0
        if (self.folder / CHECKPOINT).exists():
            self._resume()

    def _first_network(self, game: Any) -> Model:
        """The ``init`` model, checked to fit this game, player count and network shape."""
        path = Path(self.settings.init)
        if not path.is_file():
            raise OptionError(f"--init {path}: no such model file")
        first = Model.load(path)
        first.check_fits(game, self.settings.players)
        widths = [w.shape[1] for w, _ in first.hidden]
        if widths != list(self.settings.hidden):
            raise OptionError(f"--init {path} has hidden layers {widths}, this run "
                              f"{list(self.settings.hidden)}: give --hidden {','.join(map(str, widths))}")
        return first

    # -- checkpoints ---------------------------------------------------------------------
    def _resume(self) -> None:
        state = torch.load(self.folder / CHECKPOINT, map_location=self.device, weights_only=True)
        # a checkpoint from before the two methods was a search run
        stored = TrainSettings(**{"method": "search", **state["settings"]})
        different = self.settings.differences(stored)
        if different:
            raise OptionError(f"{self.folder} holds a run with other settings ({', '.join(different)}); "
                              "repeat its command (a larger --generations extends it) or use "
                              "another --run folder")
        self.net.load_state_dict(state["net"])
        self.optimiser.load_state_dict(state["optimiser"])
        self.generation = int(state["generation"])
        self.history = list(state["history"])
        self.wall_seconds = float(state["wall_seconds"])
        self.cpu_seconds = float(state["cpu_seconds"])
        self.games_played = int(state["games_played"])
        self.positions_seen = int(state["positions_seen"])
        self.buffer = load_buffer(self.folder / state["buffer_file"])

    def _checkpoint(self) -> None:
        self.folder.mkdir(parents=True, exist_ok=True)
        buffer_file = f"buffer-{self.generation}.npz"
        save_buffer(self.folder / buffer_file, self.buffer)
        state = {"settings": asdict(self.settings), "net": self.net.state_dict(),
                 "optimiser": self.optimiser.state_dict(), "generation": self.generation,
                 "history": self.history, "wall_seconds": self.wall_seconds,
                 "cpu_seconds": self.cpu_seconds, "games_played": self.games_played,
                 "positions_seen": self.positions_seen, "buffer_file": buffer_file}
        temporary = self.folder / (CHECKPOINT + ".tmp")
        torch.save(state, temporary)
        os.replace(temporary, self.folder / CHECKPOINT)  # the run now stands at this generation
        for old in self.folder.glob("buffer-*.npz"):
            if old.name != buffer_file:
                old.unlink()
        self.export(self.folder / MODEL_FILE)
        if self.keep_every and self.generation % self.keep_every == 0:
            (self.folder / SNAPSHOTS).mkdir(exist_ok=True)
            self.export(self.folder / SNAPSHOTS / f"model-g{self.generation:04d}.npz")

    # -- the model ----------------------------------------------------------------------------
    def card(self) -> dict[str, Any]:
        s = self.settings
        last = self.history[-1] if self.history else {}
        return {
            "trained_by": "palio train (" + ("search-free self-play, Deep Monte-Carlo"
                                             if s.method == "dmc" else
                                             "self-play, network-guided ISMCTS") + ")",
            "method": s.method,
            "command": s.command(), "seed": s.seed, "generations": self.generation,
            "self_play_games": self.games_played, "positions": self.positions_seen,
            "iterations_per_decision": 0 if s.method == "dmc" else s.iterations,
            "options": s.options,
            **({"started_from": s.init} if s.init else {}),
            "hidden": s.hidden, "steps_per_generation": s.steps, "batch": s.batch,
            "mix": s.mix(self.generation + 1),
            "wall_seconds": round(self.wall_seconds, 1), "cpu_seconds": round(self.cpu_seconds, 1),
            "device": self.device.type, "engine_commit": engine_commit(),
            "palio_version": palio.__version__,
            "final_loss": last.get("loss_after"), "trained_on": datetime.now(UTC).date().isoformat(),
        }

    def model(self) -> Model:
        return self.net.to_model({**self.meta, "card": self.card()})

    def export(self, path: Path) -> None:
        model = self.model()
        temporary = Path(path).with_name(Path(path).name + ".tmp")
        model.save(temporary)
        os.replace(temporary, path)

    # -- one generation -------------------------------------------------------------------------
    def run(self, progress: Progress | None = None, stop: threading.Event | None = None,
            time_limit: float | None = None) -> None:
        """Play and train generations until ``settings.generations``, ``stop``, or (when given)
        ``time_limit`` seconds have passed; a generation once begun is finished."""
        progress = progress or Progress()
        stop = stop or threading.Event()
        started = time.perf_counter()
        while self.generation < self.settings.generations and not stop.is_set():
            if time_limit is not None and time.perf_counter() - started >= time_limit:
                return
            record = self._generation(progress, stop)
            if record is None:
                return  # stopped during self-play: the last checkpoint stands
            progress.generation_finished(record)

    def _generation(self, progress: Progress, stop: threading.Event) -> dict[str, Any] | None:
        s = self.settings
        generation = self.generation + 1
        started = time.perf_counter()
        cpu_started = time.process_time()
        mix = s.mix(generation)
        jobs = selfplay_jobs(s.game, s.players, s.options, s.seed, generation, s.games,
                             self.model().to_bytes(), iterations=s.iterations, mix=mix, c=s.c,
                             noise=s.noise, explore_moves=s.explore_moves,
                             search_value=s.search_value, method=s.method, epsilon=s.epsilon)
        progress.generation_started(generation, s.games)
        results = []
        for result in run_jobs(jobs, self.workers, self.backend, self.address, stop,
                               function=play_selfplay):
            results.append(result)
            progress.game_finished(result)
        if stop.is_set() or len(results) < len(jobs):
            return None
        results.sort(key=lambda r: r["index"])  # the same buffer whatever the finishing order
        new = [sample for r in results for sample in r["samples"]]
        self.buffer = (self.buffer + new)[-s.buffer:]
        worker_cpu = sum(r["cpu_seconds"] for r in results)
        loss_before, loss_after, policy_loss, value_loss = self._train(generation)
        self.generation = generation
        games = sum(r["games"] for r in results)
        self.games_played += games
        self.positions_seen += len(new)
        seconds = time.perf_counter() - started
        cpu = worker_cpu + time.process_time() - cpu_started
        self.wall_seconds += seconds
        self.cpu_seconds += cpu
        record = {"generation": generation, "games": games, "positions": len(new),
                  "buffer": len(self.buffer), "mix": mix,
                  "mean_decisions": sum(r["decisions"] for r in results) / games,
                  "loss_before": loss_before, "loss_after": loss_after,
                  "policy_loss": policy_loss, "value_loss": value_loss,
                  "seconds": round(seconds, 1), "cpu_seconds": round(cpu, 1)}
        self.history.append(record)
        self._checkpoint()
        return record

    def _train(self, generation: int) -> tuple[float, float, float, float]:
        """``steps`` minibatch steps on the buffer; the loss on a fixed part of the buffer
        before and after, and the policy and value parts after."""
        s = self.settings
        rng = np.random.default_rng(derive(s.seed, "train", generation).getrandbits(63))
        torch.manual_seed(derive(s.seed, "torch", generation).getrandbits(63))
        shape = (self.meta["inputs"], self.meta["actions"], s.players)
        picked = rng.choice(len(self.buffer), size=min(EVAL_POSITIONS, len(self.buffer)),
                            replace=False)
        probe = collate([self.buffer[i] for i in picked], *shape)
        before = self._measure(probe)
        self.net.train()
        for _ in range(s.steps):
            indices = rng.integers(0, len(self.buffer), size=min(s.batch, len(self.buffer)))
            policy_loss, value_loss = losses(self.net, collate([self.buffer[i] for i in indices],
                                                               *shape), self.device, s.method)
            self.optimiser.zero_grad()
            (policy_loss + value_loss).backward()
            self.optimiser.step()
        self.net.eval()
        after = self._measure(probe)
        return before[0] + before[1], after[0] + after[1], after[0], after[1]

    def _measure(self, batch: tuple[np.ndarray, ...]) -> tuple[float, float]:
        self.net.eval()
        with torch.no_grad():
            policy_loss, value_loss = losses(self.net, batch, self.device, self.settings.method)
        return float(policy_loss), float(value_loss)
