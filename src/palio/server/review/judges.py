"""The start of a review's judging processes (``PALIO_REVIEW_WORKERS`` > 1).

Kept apart from ``review.py`` so that each judging process imports only this (the standard
library and ``base.lifeline``), not the web stack, before it loads the judge.
"""

from __future__ import annotations

import signal

from palio.server.base.lifeline import die_with_parent


def judge_process_init() -> None:
    """A judging process: Ctrl-C is the server's to handle (as in the review process), and it
    ends with the review process that started it; its priority is the review process's,
    inherited."""
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    die_with_parent()
