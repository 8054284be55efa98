"""One seat of a Palio game as a Gymnasium environment; Palio bots play the other seats.

    from palio.interop.gym import PalioEnv
    e = PalioEnv("san-gimignano", seat=0, opponents="random")
    obs, info = e.reset(seed=1)
    obs, reward, terminated, truncated, info = e.step(int(obs["action_mask"].argmax()))

* ``opponents``: one bot name or spec for every other seat (``"random"``, ``"greedy"``,
  ``"mcts:iterations=50"``...), or a list with one per other seat, in seat order. The bots
  decide from their own seat's view, as everywhere in Palio (``palio.bots``).
* spaces and observations: see :mod:`palio.interop.spaces`; the learner's seat only;
  ``observation="tensor"`` for the game's float32 observation tensor instead of JSON bytes;
  ``observation="flat"`` for that tensor alone as a plain ``Box`` (no dict), the form most
  learning libraries take as it is.
* ``action_masks()``: the legal indices for the learner now, as booleans: the method
  sb3-contrib's ``MaskablePPO`` looks for, so it trains on this environment with no wrapper
  (``benchmarks/maskable_ppo.py``). The mask is also in the dict observations.
* ``step(i)`` plays index ``i`` for the learner, then lets the bots play until the learner must
  decide again (also when it answers out of turn) or the game ends.
* reward: 0 until the end, then the learner's ``state.returns()`` share (1 sole win, a share
  of a tie for first, 0 otherwise). ``terminated`` at the end; never truncated.
* an index that is not legal now: ``illegal="raise"`` (default) raises ``ValueError`` and
  changes nothing; ``illegal="penalize"`` leaves the game unchanged and returns the reward
  ``illegal_reward`` with ``info["illegal_action"] = True`` (for code that samples the whole
  action space, like Gymnasium's ``check_env``; a learner should use the mask).
* seeding: ``reset(seed=s)`` deals from Palio seed ``s`` and seeds the bots from it, so an
  episode replays exactly; ``reset()`` draws the next deal from ``np_random``.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

import gymnasium
import numpy as np

import palio.games as registry
from palio import bots
from palio.bots.base import Bot
from palio.core.errors import OptionError
from palio.core.game import State
from palio.interop import spaces

ILLEGAL_MODES = ("raise", "penalize")
OBSERVATIONS = ("json", "tensor", "flat")


class PalioEnv(gymnasium.Env):
    """A single-agent Gymnasium view of one seat of a Palio game."""

    metadata = {"render_modes": ["ansi", "human"]}

    def __init__(self, game_id: str, players: int | None = None, seat: int = 0,
                 opponents: str | Sequence[str] = "random",
                 options: Mapping[str, Any] | None = None, render_mode: str | None = None,
                 illegal: str = "raise", illegal_reward: float = -1.0,
                 max_bytes: int = spaces.DEFAULT_MAX_BYTES, observation: str = "json") -> None:
        self.game = registry.get(game_id)
        self.players = self.game.info.min_players if players is None else players
        self.options = self.game.validate_options(self.players, options)
        if not isinstance(seat, int) or not 0 <= seat < self.players:
            raise OptionError(f"seat must be 0-{self.players - 1}, not {seat!r}")
        if illegal not in ILLEGAL_MODES:
            raise OptionError(f"illegal must be one of {ILLEGAL_MODES}, not {illegal!r}")
        if render_mode is not None and render_mode not in self.metadata["render_modes"]:
            raise OptionError(f"render_mode must be ansi, human or None, not {render_mode!r}")
        self.seat = seat
        self.opponent_specs = self._opponent_specs(opponents)
        for spec in self.opponent_specs:
            bots.get(spec)  # an unknown bot or option fails here, not mid-episode
        self.render_mode = render_mode
        self.illegal = illegal
        self.illegal_reward = float(illegal_reward)
        self.max_bytes = max_bytes
        if observation not in OBSERVATIONS:
            raise OptionError(f"observation must be one of {OBSERVATIONS}, not {observation!r}")
        flat = observation == "flat"
        kind = "tensor" if flat else observation
        spaces.check_observation_kind(self.game, self.players, kind)
        self.observation_kind = observation
        space = spaces.observation_space(self.game, max_bytes, kind, self.players)
        self.observation_space = space["observation"] if flat else space
        self.action_space = spaces.action_space(self.game)
        self.state: State | None = None
        self._bots: dict[int, Bot] = {}

    def _opponent_specs(self, opponents: str | Sequence[str]) -> list[str]:
        others = self.players - 1
        specs = [opponents] * others if isinstance(opponents, str) else list(opponents)
        if len(specs) != others:
            raise OptionError(f"give one opponent bot, or {others} (one per other seat), "
                              f"not {len(specs)}")
        return specs

    # -- the episode ----------------------------------------------------------------------
    def reset(self, *, seed: int | None = None, options: dict | None = None):
        super().reset(seed=seed)
        deal = seed if seed is not None else int(self.np_random.integers(2**62))
        self.state = self.game.setup(self.players, deal, self.options)
        others = [s for s in range(self.players) if s != self.seat]
        self._bots = {s: bots.get(spec, seed=deal + s)
                      for s, spec in zip(others, self.opponent_specs, strict=True)}
        self._let_bots_play()
        return self._observation(), self._info()

    def step(self, action: Any):
        state = self._live_state()
        if state.is_over:
            raise RuntimeError("the episode is over; call reset()")
        try:
            chosen = spaces.legal_action(state, action)
        except ValueError:
            if self.illegal == "raise":
                raise
            return self._observation(), self.illegal_reward, False, False, {
                **self._info(), "illegal_action": True}
        state.apply(chosen)
        self._let_bots_play()
        reward = float(state.returns()[self.seat]) if state.is_over else 0.0
        if self.render_mode == "human":
            self.render()
        return self._observation(), reward, state.is_over, False, self._info()

    def action_masks(self) -> np.ndarray:
        """Which action indices the learner may play now (all ``False`` once the game is over)."""
        return spaces.action_mask(self._live_state(), self.seat).astype(bool)

    def render(self) -> str | None:
        if self.render_mode is None:
            return None
        text = self.game.render(self._live_state(), self.seat)  # the learner's own view
        if self.render_mode == "human":
            print(text)
            return None
        return text

    # -- helpers --------------------------------------------------------------------------
    def _let_bots_play(self) -> None:
        state = self._live_state()
        while not state.is_over and state.to_move != self.seat:
            mover = state.to_move
            state.apply(self._bots[mover].choose(state, mover))

    def _observation(self) -> dict | np.ndarray:
        if self.observation_kind == "flat":
            return spaces.encode_tensor(self._live_state(), self.seat)
        return spaces.observation(self._live_state(), self.seat, self.max_bytes,
                                  self.observation_kind)

    def _info(self) -> dict[str, Any]:
        state = self._live_state()
        return {"move": state.move_number, "to_move": state.to_move}

    def _live_state(self) -> State:
        if self.state is None:
            raise RuntimeError("call reset() before using the environment")
        return self.state
