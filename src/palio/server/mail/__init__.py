"""Turn mails: "it is your turn" by e-mail through an outbox, and the page that stops them.

Owns the tables ``outbox`` and ``page_seen`` and the ``mail`` words. May use ``base``, the
accounts' mail settings, the tables' rows through ``GameService.rows`` and a seat's own view
(the last move, in words), and the chat's ``unread_since`` (chat imports no mail); its
``after_move`` is a move hook the composition root registers.
"""
