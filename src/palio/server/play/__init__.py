"""The tables: the game service (create, join, act, undo; persisted, then cached), seats and
the creator's seat-to-bot, timing and time-outs, WebSocket push, bots at tables, the tables'
routes and pages, and an account's seats and games.

Owns the tables ``games``, ``seats`` and ``actions`` (``tables``) and the words ``board`` and
``timing`` (``locale/``). May use ``base`` and the accounts' small API (who is signed in);
tells the concerns above of accepted moves (``GameService.move_hooks``), finished games
(``finish_hooks``) and viewers (``routes.Host``) through hooks the composition root registers.
"""
