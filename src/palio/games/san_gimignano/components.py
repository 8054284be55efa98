"""San Gimignano tower game: the printed components, as data.

Source: ``shared/seeds/san-gimignano.ja.md`` (the rulebook) read with
``shared/reference/san-gimignano.md``. Nothing here is provisional: the rulebook states every
count and value. Cards are small integers so that hands and decks are plain lists of ints:
tower cards are their number (5-10), noble cards are 101-106.
"""

from __future__ import annotations

TOWER_VALUES = (5, 6, 7, 8, 9, 10)
# each tower number appears as many times as its value: 5+6+7+8+9+10 = 45 cards
TOWER_COUNTS = {value: value for value in TOWER_VALUES}

LUXURY = 101  # wild tower card, usable when building or extending (3 copies)
PILGRIMAGE = 102  # draw up to the hand limit from the deck tops (2)
JOUSTING = 103  # out of turn: cancel a noble card the opponent plays (2)
ORDINANCE = 104  # return 2 cards; the opponent may not out-build your tallest tower (1)
SANTA_FINA = 105  # end: 5 VP per own tower of height 5 or more (1)
CITY_WALLS = 106  # hand limit 9 (1)

NOBLE_COUNTS = {LUXURY: 3, PILGRIMAGE: 2, JOUSTING: 2, ORDINANCE: 1, SANTA_FINA: 1, CITY_WALLS: 1}
NOBLES = tuple(NOBLE_COUNTS)

# one-letter codes used in notation, and names used in views and logs
NOBLE_CODES = {
    LUXURY: "L",
    PILGRIMAGE: "P",
    JOUSTING: "J",
    ORDINANCE: "O",
    SANTA_FINA: "F",
    CITY_WALLS: "W",
}
NOBLE_NAMES = {
    LUXURY: "Luxury stone",
    PILGRIMAGE: "Pilgrimage to the Vatican",
    JOUSTING: "Jousting",
    ORDINANCE: "Height ordinance",
    SANTA_FINA: "Santa Fina church",
    CITY_WALLS: "City walls",
}
DONATION_NAMES = {
    5: "Protection",
    6: "Contract",
    7: "Grace",
    8: "Capital",
    9: "Trade",
    10: "Intrigue",
}

HAND_SIZE_START = 5
HAND_LIMIT = 7
HAND_LIMIT_WALLS = 9
MARKET_SIZE = 4
MIN_TOWER = 3
MIN_COMPLETED_TO_DECLARE = 4

# a multi-number tower runs downward from its smallest number; a luxury stone may also sit
# above a 5 (as "4") or below a 10 (as "11"), so multi-number positions span 4..11
MULTI_LOW, MULTI_HIGH = 4, 11

COMPLETED_VP = 5
GRACE_VP_PER_LEVEL = 2  # per level of each same-number tower of 7s
TALLEST_TOKEN_VP = 10
SANTA_FINA_VP = 5
SANTA_FINA_MIN_HEIGHT = 5
MATCH_DECLARER_PENALTY = 10
MAX_TOWERS_PER_SEAT = 16  # 48 cards (45 + 3 luxury) / 3: bound of the action space


def card_code(card: int) -> str:
    """Notation of one card: its number, or the noble's letter."""
    return NOBLE_CODES.get(card, str(card))


def card_name(card: int) -> str:
    return NOBLE_NAMES.get(card, str(card))


CODE_TO_CARD = {code: card for card, code in NOBLE_CODES.items()} | {
    str(v): v for v in TOWER_VALUES
}
