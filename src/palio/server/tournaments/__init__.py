"""Tournaments: Swiss, round robin and arena at tables of 2 to 5 seats, run by the server.

Owns the tables ``tournaments``, ``tournament_entrants``, ``tournament_rounds``,
``tournament_tables`` and ``tournament_byes`` and the ``tournaments`` words. May use ``base``,
the accounts' names and the tables' service (``play``): each round's tables are games created
through ``GameService.create_seated`` in the transaction that writes the round, and a finished
game's places come back through the finish hook the composition root registers (which also
seats an arena's waiting players again, in the game's transaction). The pairing
itself is the pure ``palio.tournament`` (docs/tournaments.md).
"""
