"""Any Palio game as a PettingZoo AEC environment (optional extra ``gym``).

    from palio.interop.pettingzoo import env
    e = env("san-gimignano", players=2, seed=1)
    e.reset()
    for agent in e.agent_iter():
        obs, reward, terminated, truncated, info = e.last()
        action = None if terminated else e.action_space(agent).sample(obs["action_mask"])
        e.step(action)

* agents ``player_0`` .. ``player_{n-1}`` (seat ``i`` is ``player_i``);
* ``agent_selection`` is always the seat Palio says decides now (``state.to_move``), so a seat
  answering out of turn is simply selected next, and one seat may act several times in a row;
* actions ``Discrete(action_space_size)``, the game's fixed action space; an index that is not
  legal now raises ``ValueError`` and changes nothing (use the mask);
* observations: see :mod:`palio.interop.spaces`: ``observation="json"`` (default) gives the
  ``observe`` JSON as bytes, ``observation="tensor"`` the game's float32 observation tensor
  (games with an encoding), each with an ``action_mask``; built only from what the agent's
  seat may see;
* rewards only at the end: Palio's ``state.returns()`` (1 for a sole winner, equal shares for
  tied winners, 0 for the others); the game always ends (no truncation).

Seeding: ``reset(seed=s)`` deals from Palio seed ``s``; ``reset()`` without a seed deals the next
game from a generator seeded by the ``seed`` given to :func:`env` (random when none was).
"""

from __future__ import annotations

import random
from collections.abc import Mapping
from typing import Any

try:
    from pettingzoo import AECEnv
except ImportError as exc:  # the optional extra is missing: say how to get it
    raise ImportError("the PettingZoo adapter needs pettingzoo: pip install 'palio[gym]'") from exc

import palio.games as registry
from palio.core.game import State
from palio.interop import spaces

RENDER_MODES = ["ansi", "human"]


def env(game_id: str, players: int | None = None, options: Mapping[str, Any] | None = None,
        seed: int | None = None, render_mode: str | None = None,
        max_bytes: int = spaces.DEFAULT_MAX_BYTES, observation: str = "json") -> PalioAECEnv:
    """A PettingZoo AEC environment of a registered Palio game."""
    return PalioAECEnv(game_id, players, options, seed, render_mode, max_bytes, observation)


class PalioAECEnv(AECEnv):
    """One Palio game, seat by seat, through PettingZoo's agent-environment-cycle API."""

    def __init__(self, game_id: str, players: int | None = None,
                 options: Mapping[str, Any] | None = None, seed: int | None = None,
                 render_mode: str | None = None, max_bytes: int = spaces.DEFAULT_MAX_BYTES,
                 observation: str = "json") -> None:
        super().__init__()
        self.game = registry.get(game_id)
        self.players = self.game.info.min_players if players is None else players
        self.options = self.game.validate_options(self.players, options)
        if render_mode is not None and render_mode not in RENDER_MODES:
            raise ValueError(f"render_mode must be one of {RENDER_MODES} or None, not {render_mode!r}")
        self.render_mode = render_mode
        self.max_bytes = max_bytes
        spaces.check_observation_kind(self.game, self.players, observation)
        self.observation_kind = observation
        self.metadata = {"name": f"palio_{game_id.replace('-', '_')}_v0",
                         "render_modes": RENDER_MODES, "is_parallelizable": False}
        self.possible_agents = [f"player_{i}" for i in range(self.players)]
        self._observation_spaces = {
            a: spaces.observation_space(self.game, max_bytes, observation, self.players)
            for a in self.possible_agents}
        self._action_spaces = {a: spaces.action_space(self.game) for a in self.possible_agents}
        self._seeds = random.Random(seed)
        self.state: State | None = None

    # -- spaces ---------------------------------------------------------------------------
    def observation_space(self, agent: str):
        return self._observation_spaces[agent]

    def action_space(self, agent: str):
        return self._action_spaces[agent]

    # -- the cycle ------------------------------------------------------------------------
    def reset(self, seed: int | None = None, options: dict | None = None) -> None:
        if seed is not None:
            self._seeds = random.Random(seed)
            deal = seed
        else:
            deal = self._seeds.getrandbits(62)
        self.state = self.game.setup(self.players, deal, self.options)
        self.agents = self.possible_agents[:]
        self.rewards = {a: 0.0 for a in self.agents}
        self._cumulative_rewards = {a: 0.0 for a in self.agents}
        self.terminations = {a: False for a in self.agents}
        self.truncations = {a: False for a in self.agents}
        self.infos = {a: {} for a in self.agents}
        self.agent_selection = self._agent(self.state.to_move)

    def observe(self, agent: str) -> dict:
        return spaces.observation(self._live_state(), self._seat(agent), self.max_bytes,
                                  self.observation_kind)

    def step(self, action: Any) -> None:
        agent = self.agent_selection
        if self.terminations[agent] or self.truncations[agent]:
            self._was_dead_step(action)
            return
        state = self._live_state()
        state.apply(spaces.legal_action(state, action))  # raises before any change
        self._cumulative_rewards[agent] = 0.0
        self._clear_rewards()
        if state.is_over:
            for a, share in zip(self.agents, state.returns(), strict=True):
                self.rewards[a] = float(share)
                self.terminations[a] = True
            # the agents then leave one by one, each stepping None (PettingZoo's protocol)
            self.agent_selection = self.agents[0]
        else:
            self.agent_selection = self._agent(state.to_move)
        self._accumulate_rewards()
        if self.render_mode == "human":
            self.render()

    def render(self) -> str | None:
        if self.render_mode is None:
            return None
        # the spectator's view: a shared screen must not show anyone's hidden cards
        text = self.game.render(self._live_state(), None)
        if self.render_mode == "human":
            print(text)
            return None
        return text

    def close(self) -> None:
        pass

    # -- helpers --------------------------------------------------------------------------
    def _live_state(self) -> State:
        if self.state is None:
            raise RuntimeError("call reset() before using the environment")
        return self.state

    def _agent(self, seat: int | None) -> str:
        return f"player_{seat}"

    def _seat(self, agent: str) -> int:
        if agent not in self.possible_agents:
            raise ValueError(f"unknown agent {agent!r}; agents: {', '.join(self.possible_agents)}")
        return self.possible_agents.index(agent)
