"""Trained networks shipped with Palio, one file per game and player count:
``<game id>-<players>p.npz`` (see :mod:`palio.bots.network`; model cards in docs/bots.md)."""
