"""Ratings: one OpenSkill rating per account per game type, from finished rated games.

The maths is the ``openskill`` library's (the Plackett-Luce model, which rates two to five
players alike, ties included); nothing here computes a rating itself. Each account starts at
openskill's default (mu 25, sigma 25/3) at each game.

The number people read is openskill's *ordinal*, ``mu - 3 sigma`` (a rating the player is
very probably above), scaled as ``1000 + 40 * (mu - 3 sigma)``, computed by the library's
``ordinal(z=3, alpha=40, target=1000)``. A newcomer reads 1000; it rises both by winning and
by playing (sigma shrinks as the system learns), so a few games settle it. Bots are on the same
scale (``bot_ratings.json``, measured with ``palio arena --ratings``).

Which games count (``is_rated``): tables created with ``rated`` true, not ``practice``, where
no hints were used (``hints_used``); and only seats held by signed-in accounts are rated, at
least two different accounts (guests and bots are not rated, and the accounts are ranked
among themselves). A seat that forfeited (left or ran out of time: ``forfeited_seats``) is
rated last, below everyone who played on, whatever the final scores said.
"""

from __future__ import annotations

import importlib
import json
import logging
from datetime import UTC, datetime
from functools import cache
from pathlib import Path
from typing import Any

from sqlalchemy import select
from sqlalchemy.orm import Session

from palio.server.accounts.store import account_names
from palio.server.play.timing import forfeited_seats
from palio.server.ratings.tables import RatingChangeRow, RatingRow

log = logging.getLogger("palio.server")
SCALE = 40.0  # displayed = BASE + SCALE * (mu - 3 sigma)
# A rating is "provisional" while its uncertainty sigma is above this (it starts at 25/3, about
# 8.33). Between two newcomers sigma falls by about 0.22 a game, so 7.0 is about six two-player
# games (fewer with more players: each game ranks more people); until then most of a rating's
# rise is sigma shrinking (3 * 40 * 0.22, about 26 points a game), not the player's play
# (docs/server.md "Ratings").
PROVISIONAL_SIGMA = 7.0
BASE = 1000.0
BOT_RATINGS = Path(__file__).parent / "bot_ratings.json"
LEADERBOARD_PAGE = 500  # ratings read at a time while the leaderboard looks for enabled accounts


@cache
def model() -> Any:
    """openskill's Plackett-Luce model with its defaults: mu 25, sigma 25/3, beta 25/6."""
    # lazy, for start-up cost (issue 34): openskill is needed when a rating is first read or
    # made, not to import the server (~0.003 CPU-s)
    from openskill.models import PlackettLuce

    return PlackettLuce()


def displayed(mu: float, sigma: float) -> int:
    """The rating people read (see the module's docstring)."""
    return round(model().rating(mu=mu, sigma=sigma).ordinal(3.0, SCALE, BASE))


def is_rated(row: Any) -> bool:
    """Does this table count for ratings? ``rated``, ``practice`` and ``hints_used`` come from
    other concerns (timing, review); a table without them is unrated."""
    return (bool(getattr(row, "rated", False)) and not getattr(row, "practice", False)
            and not getattr(row, "hints_used", False))


def forfeited_of(row: Any) -> set[int]:
    """The seats that left or ran out of time (palio.server.play.timing decides)."""
    return set(forfeited_seats(row))


def rated_players(seat_rows: list[Any], forfeited: set[int]) -> list[tuple[int, int]]:
    """(seat, account id) of every seat a person holds through an account (a bot plays a
    forfeited seat on, and its account is still rated), or [] when fewer than two accounts
    play (or one account holds several seats: no rating against oneself)."""
    players = [(s.seat, s.account_id) for s in seat_rows
               if getattr(s, "account_id", None) is not None
               and (s.kind == "human" or s.seat in forfeited)]
    accounts = [account for _, account in players]
    if len(set(accounts)) < 2 or len(set(accounts)) != len(accounts):
        return []
    return players


def _ensure_rows(session: Session, game: str, accounts: list[int], moment: datetime) -> None:
    """A rating row for each account (inserted once, whoever gets there first)."""
    # the INSERT ... ON CONFLICT of the database's own dialect (postgresql or sqlite), from
    # the module its engine has already loaded: importing both with the server would load
    # every PostgreSQL driver's module into a SQLite server's start (~0.05 CPU-s)
    insert = importlib.import_module(f"sqlalchemy.dialects.{session.get_bind().dialect.name}").insert
    values = [{"account_id": a, "game": game, "mu": model().mu, "sigma": model().sigma, "games": 0,
               "updated_at": moment} for a in accounts]
    session.execute(insert(RatingRow).values(values).on_conflict_do_nothing())


def rate_game(session: Session, row: Any, seat_rows: list[Any], ranks: list[int],
              moment: datetime | None = None) -> dict[int, tuple[int, int]]:
    """Rate a finished game inside the transaction that finishes it; each rated account's
    (displayed rating before, after). ``ranks``: each seat's 1-based place (ties share one),
    as ``State.ranks()`` gives them. Nothing happens for an unrated table, or twice."""
    if not is_rated(row):
        return {}
    forfeited = forfeited_of(row)
    players = rated_players(seat_rows, forfeited)
    if not players:
        return {}
    if session.scalar(select(RatingChangeRow.account_id)
                      .where(RatingChangeRow.game_id == row.id).limit(1)) is not None:
        return {}  # rated already
    moment = moment or datetime.now(UTC)
    last = max(ranks) + 1
    places = [last if seat in forfeited else ranks[seat] for seat, _ in players]
    accounts = sorted(account for _, account in players)  # one lock order: no deadlock
    _ensure_rows(session, row.game, accounts, moment)
    held = {r.account_id: r for r in session.scalars(
        select(RatingRow).where(RatingRow.game == row.game, RatingRow.account_id.in_(accounts))
        .order_by(RatingRow.account_id).with_for_update())}
    teams = [[model().rating(mu=held[account].mu, sigma=held[account].sigma)]
             for _, account in players]
    new = model().rate(teams, ranks=places)
    changes = {}
    for (_, account), [rating] in zip(players, new, strict=True):
        current = held[account]
        before = displayed(current.mu, current.sigma)
        current.mu, current.sigma = float(rating.mu), float(rating.sigma)
        current.games += 1
        current.updated_at = moment
        after = displayed(current.mu, current.sigma)
        session.add(RatingChangeRow(game_id=row.id, account_id=account, before=before,
                                    after=after))
        changes[account] = (before, after)
    session.flush()
    return changes


def rate_finished(session: Session, row: Any, seat_rows: list[Any], ranks: list[int],
                  moment: datetime, scores: list[float] | None = None) -> None:
    """The finish hook (``GameService.finish_hooks``, registered by the composition root),
    called in the transaction that finishes a game; the game scores are not used (ratings
    go by place)."""
    if row is not None and is_rated(row):
        rate_game(session, row, seat_rows, ranks, moment)


# -- reading ------------------------------------------------------------------------------------
def leaderboard(session: Session, game: str, limit: int = 100) -> list[dict[str, Any]]:
    """The game's rated accounts, best displayed rating first; disabled accounts are left
    out (``palio users disable``)."""
    order = RatingRow.mu - 3 * RatingRow.sigma
    query = (select(RatingRow).where(RatingRow.game == game)
             .order_by(order.desc(), RatingRow.account_id))
    rows: list[tuple[Any, str]] = []
    start = 0
    while len(rows) < limit:  # pages of the ordered ratings until enough enabled accounts
        page = list(session.scalars(query.offset(start).limit(LEADERBOARD_PAGE)))
        names = account_names(session, [r.account_id for r in page])  # enabled ones only
        rows += [(r, names[r.account_id]) for r in page if r.account_id in names]
        if len(page) < LEADERBOARD_PAGE:
            break
        start += LEADERBOARD_PAGE
    return [{"rank": place, "name": name, "rating": displayed(r.mu, r.sigma),
             "games": r.games, "mu": round(r.mu, 3), "sigma": round(r.sigma, 3)}
            for place, (r, name) in enumerate(rows[:limit], 1)]


def is_provisional(sigma: float) -> bool:
    return sigma > PROVISIONAL_SIGMA


def ratings_of(session: Session, account_id: int) -> dict[str, dict[str, Any]]:
    """An account's rating at each game it played rated (for the profile page):
    {game id: {"rating", "games", "sigma", "provisional"}}."""
    rows = session.scalars(select(RatingRow).where(RatingRow.account_id == account_id)
                           .order_by(RatingRow.game))
    return {r.game: {"rating": displayed(r.mu, r.sigma), "games": r.games,
                     "sigma": round(r.sigma, 3), "provisional": is_provisional(r.sigma)}
            for r in rows}


def changes_for(session: Session, account_id: int) -> dict[str, dict[str, int]]:
    """How each rated game the account finished changed its rating: {game id: {"before",
    "after"}} (the caller puts them in order with the games' dates)."""
    rows = session.scalars(select(RatingChangeRow).where(RatingChangeRow.account_id == account_id))
    return {r.game_id: {"before": round(r.before), "after": round(r.after)} for r in rows}


def changes_of(session: Session, game_id: str) -> dict[int, dict[str, int]]:
    """How the game changed each rated account's displayed rating."""
    rows = session.scalars(select(RatingChangeRow).where(RatingChangeRow.game_id == game_id))
    return {r.account_id: {"before": round(r.before), "after": round(r.after)} for r in rows}


def seat_ratings(session: Session, game_rows: list[Any], seat_rows: list[Any]
                 ) -> dict[str, dict[int, dict[str, Any]]]:
    """For the lobby and the seat bar: {game id: {seat: {"rating": N, "change": [before,
    after] or None}}} of the seats held by accounts at rated tables (an account without a
    rating yet reads as a newcomer; ``change``: how this game, once rated, moved it)."""
    games = {g.id: g for g in game_rows if is_rated(g)}
    wanted = [(s.game_id, s.seat, s.account_id) for s in seat_rows
              if s.game_id in games and getattr(s, "account_id", None) is not None]
    out: dict[str, dict[int, dict[str, Any]]] = {game_id: {} for game_id in games}
    if not wanted:
        return out
    accounts = {account for _, _, account in wanted}
    held = {(r.account_id, r.game): r for r in session.scalars(
        select(RatingRow).where(RatingRow.account_id.in_(accounts)))}
    moved = {(r.game_id, r.account_id): [round(r.before), round(r.after)]
             for r in session.scalars(select(RatingChangeRow).where(
                 RatingChangeRow.game_id.in_(list(games))))}
    for game_id, seat, account in wanted:
        rating = held.get((account, games[game_id].game))
        shown = (displayed(rating.mu, rating.sigma) if rating is not None
                 else displayed(model().mu, model().sigma))
        out[game_id][seat] = {"rating": shown, "change": moved.get((game_id, account))}
    return out


def rate_results(results: list[dict[str, Any]]) -> dict[str, dict[str, Any]]:
    """Bots' ratings on the people's scale from ``palio arena`` results (each with ``bots``
    by seat and ``ranks``), rated game by game in the run's order with the same openskill
    model, each bot starting where a newcomer starts. A game with the same bot at two seats
    says nothing about it and is left out."""
    held: dict[str, Any] = {}
    played: dict[str, int] = {}
    for result in sorted(results, key=lambda r: r["index"]):
        bots = list(result["bots"])
        if len(set(bots)) != len(bots):
            continue
        teams = [[held.get(bot) or model().rating()] for bot in bots]
        new = model().rate(teams, ranks=list(result["ranks"]))
        for bot, [rating] in zip(bots, new, strict=True):
            held[bot] = rating
            played[bot] = played.get(bot, 0) + 1
    return {bot: {"mu": round(float(r.mu), 4), "sigma": round(float(r.sigma), 4),
                  "games": played[bot], "rating": displayed(r.mu, r.sigma)}
            for bot, r in sorted(held.items(), key=lambda item: -item[1].ordinal())}


def write_bot_ratings(path: Path, game: str, levels: dict[str, dict[str, Any]],
                      about: dict[str, Any]) -> None:
    """Add (or replace) one game's measured bot levels in the published file ``path``."""
    try:
        data = json.loads(path.read_text())
    except (OSError, ValueError):
        data = {}
    data["model"] = ("openskill PlackettLuce with its defaults (mu 25, sigma 25/3); displayed "
                     f"rating = {BASE:g} + {SCALE:g} * (mu - 3 sigma), as for people")
    data.setdefault("games", {})[game] = {**about, "levels": levels}
    data["games"] = dict(sorted(data["games"].items()))
    path.write_text(json.dumps(data, indent=1, ensure_ascii=False) + "\n")


@cache
def bot_ratings() -> dict[str, Any]:
    """The published bot ratings (measured with ``palio arena --ratings``); {} if missing."""
    try:
        return json.loads(BOT_RATINGS.read_text())
    except (OSError, ValueError):
        log.warning("no bot ratings at %s", BOT_RATINGS)
        return {}


def bots_for(game: str) -> list[dict[str, Any]]:
    """The measured bot levels of a game on the same scale, strongest first."""
    entries = bot_ratings().get("games", {}).get(game, {}).get("levels", {})
    out = [{"level": level, "rating": displayed(e["mu"], e["sigma"]), "games": e["games"]}
           for level, e in entries.items()]
    return sorted(out, key=lambda e: -e["rating"])
