"""Accounts: sign-up, sign-in sessions, the CSRF rule, one's settings, public profiles.

Owns the tables ``accounts``, ``sessions`` and ``sign_in_failures`` and the ``accounts`` words.
May use ``base`` only. Others ask it who is signed in (``web``), an account's names or mail
settings (``store``); what concerns above add (claiming guest seats, profile parts) arrives
through ``routes.Hooks``.
"""
