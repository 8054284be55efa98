"""A record of the rollouts ``mcts`` plays, for tests of the settings a search uses."""

from __future__ import annotations

from palio.bots.mcts import MctsBot


def record_rollouts(monkeypatch) -> list[tuple[int, float]]:
    """Every rollout any ``MctsBot`` plays from now on, as ``(depth, greedy)``, in order."""
    rollouts: list[tuple[int, float]] = []
    real = MctsBot._rollout

    def recorded(bot, world, played, depth, greedy, turn=False):
        rollouts.append((depth, greedy))
        real(bot, world, played, depth, greedy, turn)

    monkeypatch.setattr(MctsBot, "_rollout", recorded)
    return rollouts
