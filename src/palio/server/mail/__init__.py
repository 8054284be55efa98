"""Turn mails: "it is your turn" by e-mail through an outbox, and the page that stops them.

Owns the tables ``outbox`` and ``page_seen`` and the ``mail`` words. May use ``base``, the
accounts' mail settings and the tables' rows through ``GameService.rows``; its ``after_move``
is a move hook the composition root registers.
"""
