"""A game report per player, computed from a stored review (palio.review's result, its
decisions already in words): accuracy per phase of the game and the moments that decided it.

Phases: the game's decisions in thirds by move number (early, middle, late), the same for every
game (a round is not the same thing in each game); a phase's accuracy is
:func:`palio.review.game_accuracy` of that player's judged decisions in it (a review stored
before decisions had stakes: :func:`palio.review.lichess_game_accuracy`, as it was then).

Moments: the decisions after which a player's chances (the chart's expected win share) moved
the most, at least ``MOMENT_SWING``; at most ``MOMENTS`` of them, in move order. The chance a
decision is judged at is the position's value before it; the next decision's is the value after
it, so the swing of a decision is the next point less its own (the last decision is compared
with the result: 1 for a win, 0 for a loss, shared among tied winners). A swing includes
what the dice, cards and tiles drawn did, so the words say "fell" and "rose", not "lost".
Everything a moment names was played in a finished game: nothing hidden is shown.
"""

from __future__ import annotations

from typing import Any

from palio.core.i18n import Translator
from palio.core.words import Player, msg

PHASES = ("early", "middle", "late")
MOMENTS = 3
MOMENT_SWING = 0.10


def phase_of(move: int, total: int) -> int:
    """The phase (0, 1, 2) of decision ``move`` (0-based) in a game of ``total`` decisions."""
    if total <= 0:
        return 0
    return min(len(PHASES) - 1, len(PHASES) * move // total)


def final_shares(result: dict[str, Any] | None, seats: int) -> list[float] | None:
    """Each seat's win share at the end (ties share a win), from the stored result."""
    if not result or not result.get("scores"):
        return None
    scores = result["scores"]
    best = max(scores)
    winners = [s for s in range(seats) if scores[s] == best]
    return [1.0 / len(winners) if s in winners else 0.0 for s in range(seats)]


def swings(decisions: list[dict[str, Any]], seats: int,
           result: dict[str, Any] | None) -> list[list[float]]:
    """For each decision, how each seat's chances moved from it to the next point."""
    end = final_shares(result, seats)
    out = []
    for i, d in enumerate(decisions):
        now = d["values"]
        after = decisions[i + 1]["values"] if i + 1 < len(decisions) else end
        out.append([0.0 if after is None or after[s] is None or now[s] is None
                    else after[s] - now[s] for s in range(seats)])
    return out


def phase_accuracy(decisions: list[dict[str, Any]], seat: int, total: int
                   ) -> list[dict[str, Any]]:
    rows = []
    for phase, key in enumerate(PHASES):
        mine = [d for d in decisions if d["seat"] == seat and not d["forced"]
                and d.get("accuracy") is not None and phase_of(d["move"], total) == phase]
        # palio.review imports the bots and numpy: loaded with the first report, not at start
        from palio.review import game_accuracy, lichess_game_accuracy

        if all("accuracy_stake" in d for d in mine):
            value = game_accuracy([d["accuracy_loss"] for d in mine],
                                  [d["accuracy_stake"] for d in mine])
        else:  # a review stored before stakes: its decisions' accuracies as it gave them
            value = lichess_game_accuracy([d["accuracy"] for d in mine])
        rows.append({"phase": key, "decisions": len(mine),
                     "accuracy": None if value is None else round(value)})
    return rows


def moments(decisions: list[dict[str, Any]], moved: list[list[float]], seat: int,
            tr: Translator) -> list[dict[str, Any]]:
    """The decisions that moved ``seat``'s chances most, in words (``tr``'s language)."""
    ranked = sorted(range(len(decisions)), key=lambda i: -abs(moved[i][seat]))
    chosen = sorted(i for i in ranked[:MOMENTS] if abs(moved[i][seat]) >= MOMENT_SWING)
    out = []
    for i in chosen:
        d = decisions[i]
        before = round(100 * (d["values"][seat] or 0.0))
        after = max(0, min(100, before + round(100 * moved[i][seat])))
        rose = moved[i][seat] > 0
        own = d["seat"] == seat
        better = own and not rose and d["played"]["notation"] != d["best"]["notation"]
        key = ("review.report.moment_better" if better
               else "review.report.moment_rose" if rose else "review.report.moment_fell")
        text = tr(msg(key, n=d["move"] + 1, mover=Player(d["seat"]), player=Player(seat),
                      played=d["played"].get("label", ""), best=d["best"].get("label", ""),
                      before=before, after=after))
        reason = d.get("reason", "") if better else ""
        out.append({"move": d["move"], "seat": d["seat"], "text": text, "reason": reason})
    return out


def game_report(review: dict[str, Any], total: int, tr: Translator) -> list[dict[str, Any]]:
    """Per player: accuracy per phase and the moments that decided the game, in words."""
    decisions = review["decisions"]
    seats = review["seats"]
    moved = swings(decisions, seats, review.get("result"))
    return [{"seat": p["seat"], "accuracy": p.get("accuracy"),
             "phases": phase_accuracy(decisions, p["seat"], total),
             "moments": moments(decisions, moved, p["seat"], tr)}
            for p in review["players"]]
