"""Reviews of finished games (queued, run in review processes, stored once) and hints at
practice tables.

Owns the table ``reviews`` and the ``review`` words. May use ``base``, the tables' service,
routes' seat lookup and bot processes (``play``), and ``palio.review`` (the judging itself).
"""
