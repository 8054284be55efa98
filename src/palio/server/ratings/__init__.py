"""Ratings: one OpenSkill rating per account per game, leaderboards, seats' ratings.

Owns the tables ``ratings`` and ``rating_changes``, ``bot_ratings.json`` and the ``ratings``
words. May use ``base``, the accounts' names and the tables' service; rates a finished game
through the finish hook the composition root registers.
"""
