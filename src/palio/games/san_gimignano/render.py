"""San Gimignano tower game: a text picture of the table and the log in words."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from palio.games.san_gimignano import components as C

if TYPE_CHECKING:
    from palio.games.san_gimignano.state import SanGimignanoState

STEP_WORDS = {
    "draw": "draw {left} more card(s)",
    "put": "put cards into the market (done when finished)",
    "extend": "extend the same tower or say done",
    "complete": "complete more towers or say done",
    "salvage": "a luxury stone was jousted: build the rest or take it back",
    "effect": "use or decline the donation of the new tower of {number}s",
    "take": "take {left} more card(s) unseen from the opponent, choosing noble or tower backs",
    "defend": "a {number} is aimed at you: cancel with a 5 or allow",
    "collapse": "choose the tower your 10 collapses",
    "give": "give back {left} card(s)",
    "window": "answer the noble card with jousting, or allow it",
    "return": "return {left} card(s) to the bottom of their decks",
}


def render(s: SanGimignanoState, seat: int | None) -> str:
    view = s.observe(seat)
    lines = []
    phase = "END PHASE" if view["end_phase"] else "main phase"
    lines.append(f"San Gimignano - move {view['move']}, {phase}, seat {view['turn']}'s turn")
    face_up = f" (face up on top: {' '.join(view['deck_face_up'])})" if view["deck_face_up"] else ""
    nobles = f"   noble deck: {view['noble_deck_size']}" if view["nobles"] else ""
    lines.append(f"Deck: {view['deck_size']} cards{face_up}{nobles}")
    lines.append(f"Market: {' '.join(view['market']) or '(empty)'}")
    for p, player in enumerate(view["players"]):
        marks = []
        if view["token"] == p:
            marks.append("tallest-tower token")
        if player["front"]:
            marks.append("nobles in front: " + " ".join(player["front"]))
        who = "you" if seat == p else "opponent" if seat is not None else f"seat {p}"
        lines.append(f"-- Seat {p} ({who}){' - ' + ', '.join(marks) if marks else ''}")
        if "hand" in player:
            lines.append(f"   hand ({len(player['hand'])}/{player['hand_limit']}): {' '.join(player['hand'])}")
        else:
            known = f", known: {' '.join(player['known_hand'])}" if player["known_hand"] else ""
            lines.append(f"   hand: {player['hand_size']} cards{known}")
        for i, tower in enumerate(player["towers"], 1):
            done = " [completed]" if tower["completed"] else ""
            lines.append(f"   tower {i}: {'-'.join(tower['cards'])} ({tower['kind']}, {tower['height']}){done}")
    for frame in view["pending"][-1:]:
        lines.append("Pending: seat {} must {}".format(frame["seat"], STEP_WORDS[frame["step"]].format(**frame)))
    if s.over:
        lines.append(f"Final scores: {view['scores']}  ranking: {view['ranking']}")
    else:
        lines.append(f"Current scores: {s.scores()}")
    return "\n".join(lines)


def _card(value: Any) -> str:
    return C.card_name(value) if isinstance(value, int) else str(value)


def _card_list(values: Any) -> str:
    """Cards of a tower or a trade in words; a negative number is a luxury stone standing in."""
    if not isinstance(values, list | tuple):
        return str(values)
    return ", ".join(f"luxury stone as {-v}" if isinstance(v, int) and v < 0 else _card(v)
                     for v in values)


def describe_event(event: dict[str, Any]) -> str:
    who = f"Seat {event['seat']}" if event.get("seat") is not None else "Table"
    kind = event["kind"]
    card = event.get("card")
    text = {
        "buy": f"{who} buys stone",
        "exchange": f"{who} exchanges stone",
        "put": f"{who} puts {_card(card)} into the market",
        "draw": f"{who} draws {_card(card)}" if card is not None else f"{who} draws a card",
        "draw_noble": f"{who} draws noble {_card(card)}" if card is not None else f"{who} draws a noble card",
        "take": f"{who} takes {_card(card)} from the market",
        "build": f"{who} builds {_card_list(event.get('cards'))}",
        "built": f"{who} has tower {event.get('tower')}: {_card_list(event.get('cards'))}",
        "extend": f"{who} extends tower {event.get('tower')}",
        "extended": f"{who}'s tower {event.get('tower')} is now {event.get('height')} high",
        "complete": f"{who} completes tower {event.get('tower')}",
        "declare": f"{who} declares the end of construction",
        "pass": f"{who} passes",
        "token": f"{who} takes the tallest-tower token",
        "donation": f"{who}'s donation {event.get('number')} ({C.DONATION_NAMES.get(event.get('number'), '')})",
        "decline": f"{who} leaves the donation {event.get('number')} unused",
        "allow": f"{who} lets it happen",
        "cancel": f"{who} plays a 5 and cancels the {event.get('number')}",
        "trade": f"{who} takes {event.get('count')} cards blind"
        + (f": {_card_list(event['cards'])}" if "cards" in event else ""),
        "give": f"{who} gives back {_card(card)}" if card is not None else f"{who} gives back a card",
        "collapse": f"Seat {event.get('seat')}'s tower ({_card_list(event.get('cards'))}) collapses",
        "play": f"{who} plays {_card(card)}",
        "joust": f"{who} answers with Jousting",
        "cancelled": f"{who}'s {_card(card)} is cancelled",
        "return": f"{who} returns a card to the {event.get('deck')} deck"
        + (f" ({_card(card)})" if card is not None else ""),
        "take_back": f"{who} takes back {_card_list(event.get('cards'))}",
        "ordinance_no_return": f"{who} holds fewer than two cards and returns none",
        "refill": f"Market refilled: {event.get('market')}",
        "end_phase": "The deck is out: the end phase begins",
        "game_over": f"Game over, scores {event.get('scores')}",
    }.get(kind)
    return text or f"{who} {kind}"
