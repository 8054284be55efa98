"""Build Troyes positions from a compact description (for tests, examples and tutorials).

>>> s = position(3, to_move=1, dice={1: "r5 y3", "n": "w2"}, money={1: 12})
>>> s.to_move, s.money[1], s.dice[1 * 18 + 4], s.dice[4 * 18 + 6 + 1]
(1, 12, 1, 1)
"""

from __future__ import annotations

from typing import Any

from palio.games.troyes.actions import DIE_COLOURS, SLOTS
from palio.games.troyes.state import ACTIONS, F_TURN, NEUTRAL, TroyesState


def faces(text: str) -> list[int]:
    """``"r5 w3 y2"`` -> face indices (colour*6 + value-1)."""
    out = []
    for part in text.split():
        out.append(DIE_COLOURS.index(part[0]) * 6 + int(part[1:]) - 1)
    return out


def _district(key: int | str) -> int:
    return NEUTRAL if key == "n" else int(key)


def position(players: int = 2, seed: int = 1, *, to_move: int = 0, round: int = 1,
             dice: dict[Any, str] | None = None, money: dict[int, int] | None = None,
             influence: dict[int, int] | None = None, vp: dict[int, int] | None = None,
             spaces: dict[str, int] | None = None, cards: dict[str, str] | None = None,
             queue: list[str] | None = None, clear: bool = True, **fields: Any) -> TroyesState:
    """A game past its draft, at the start of ``to_move``'s action turn, changed as described.

    ``dice`` replaces every district's dice (keys: seats, or ``"n"`` for neutral); ``spaces``
    sets building spaces by label (``{"P4": 0, "B1.1": 4}``), and with ``clear`` (the default)
    every other space is emptied first and expelled citizens go home (citizens taken off the
    board return to their owners' supplies); ``cards`` puts activity cards by key into slots, face
    up (``{"Y1": "merchant"}``); ``queue`` replaces the events after Marauding by key. Other
    keyword arguments set state fields directly (``supply=[..]``, ``trade=[..]`` ...).
    """
    from palio.games.troyes import GAME

    s = GAME.setup(players, seed)
    assert isinstance(s, TroyesState)
    c = s.comp
    while s.stack and s.stack[-1][0] == 0:  # play the draft: first empty space each time
        s.apply(next(iter(s.legal_actions())))
    s.round = round
    s.revealed = min(3, round)
    s.phase = ACTIONS
    s.black = []
    s.turn = to_move
    s.passed = [0] * players
    if dice is not None:
        s.dice = bytearray(90)
        for key, text in dice.items():
            for f in faces(text):
                s.dice[_district(key) * 18 + f] += 1
    for table, name in ((money, "money"), (influence, "influence"), (vp, "vp")):
        for seat, value in (table or {}).items():
            getattr(s, name)[seat] = value
    if spaces is not None:
        if clear:
            for owner in s.spaces:
                if owner == NEUTRAL:
                    s.neutral_reserve += 1
                elif owner >= 0:
                    s.supply[owner] += 1
            s.spaces = [-1] * c.n_spaces
            for b in range(3):
                for o in range(5):
                    if (s.lying[b] >> o) & 1:
                        if o == NEUTRAL:
                            s.neutral_reserve += 1
                        else:
                            s.supply[o] += 1
            s.lying = [0, 0, 0]
        for label, owner in spaces.items():
            i = c.space_id[label]
            if owner == NEUTRAL:
                s.neutral_reserve -= 1
            else:
                s.supply[owner] -= 1
            s.spaces[i] = owner
    for slot, key in (cards or {}).items():
        s.slot_card[SLOTS.index(slot)] = c.card_id[key]
    if queue is not None:
        used: set[int] = set()
        s.queue = [c.marauding]
        s.ev_cubes = [()]
        for key in queue:
            card = next(i for i, e in enumerate(c.events) if e[0] == key and i not in used)
            used.add(card)
            s.queue.append(card)
            s.ev_cubes.append(())
    for name, value in fields.items():
        setattr(s, name, value)
    if "stack" not in fields:
        s.stack = [(F_TURN, to_move)]
    s._legal = None
    return s


def event_id(s: TroyesState, key: str, nth: int = 0) -> int:
    """The id of the ``nth`` event card with this key."""
    return [i for i, e in enumerate(s.comp.events) if e[0] == key][nth]
