"""The bottom layer every concern stands on: settings, the one clock, the database engine and
its migrations (``db``; each concern declares its own tables on ``db.Base``), request helpers
(``http``), the API's error type, logs that hide secrets, database outages, the page shell
(``pages``), what several processes share (``cluster``), SMTP, names that look like another
(``names``: UTS #39 skeletons), and the test helpers that start
real server processes (``process``, ``lifeline``).

It imports no concern: nothing here knows games, accounts, mail or ratings.
"""
