"""Table chat: short plain-text messages at a table, stored and pushed live.

Owns the table ``chat`` and the ``chat`` words. May use ``base``, the accounts (who is signed
in) and the tables' service and push (``play``).
"""
