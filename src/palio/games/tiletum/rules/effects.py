"""Effects printed on tiles: character bonuses, crest placement bonuses, helpers, contract extras.

An effect either changes the state at once or pushes pending frames (see ``state.py``) for
the choices it needs. Optional effects (moves, placements) end with ``done``.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from palio.games.tiletum.components import (
    ARCHITECT,
    CHAR_BONUSES,
    CHARACTER,
    CONTRACT,
    CREST_BONUSES,
    FOOD,
    GOLD,
    HELPER_EFFECTS,
    IRON,
    KING,
    MERCHANT,
    STONE,
    WOOL,
)
from palio.games.tiletum.rules.common import (
    buildings_with_characters,
    can_place_pillar,
    free_house_spaces,
    gain_vp,
    king_step,
)
from palio.games.tiletum.state import (
    F_ACT,
    F_BLDG,
    F_HOUSE_ANY,
    F_JOKER,
    F_MOVE_ANY,
    F_PILLAR_ANY,
    F_RES,
    F_STEPS,
)

if TYPE_CHECKING:
    from palio.games.tiletum.state import TiletumState

ARCH, MERCH = 0, 1

# character bonus -> resources gained at once
_GAINS = {
    "wool2": ((WOOL, 2),), "iron1": ((IRON, 1),), "iron2": ((IRON, 2),),
    "gold_iron": ((GOLD, 1), (IRON, 1)), "gold_wool": ((GOLD, 1), (WOOL, 1)),
    "food1": ((FOOD, 1),), "food2": ((FOOD, 2),), "gold2": ((GOLD, 2),), "gold3": ((GOLD, 3),),
    "stone1": ((STONE, 1),), "stone2": ((STONE, 2),),
}
# character bonus -> frames pushed (last one is resolved first)
_FRAMES = {
    "contract1_res": ((F_ACT, CONTRACT, 1, 0, 0), (F_RES, 1)),
    "contract2_res": ((F_ACT, CONTRACT, 2, 0, 0), (F_RES, 1)),
    "contract3": ((F_ACT, CONTRACT, 3, 0, 0),),
    "char1": ((F_ACT, CHARACTER, 1, 0, 0),), "char2": ((F_ACT, CHARACTER, 2, 0, 0),),
    "king1": ((F_ACT, KING, 1, 0, 0),), "king2": ((F_ACT, KING, 2, 0, 0),),
    "arch_merch": ((F_STEPS, MERCH, 1, 0, 0), (F_STEPS, ARCH, 1, 0, 0)),
    "merch1": ((F_STEPS, MERCH, 1, 0, 0),), "merch2": ((F_STEPS, MERCH, 2, 0, 0),),
    "merch_house": ((F_STEPS, MERCH, 1, 1, 0),),
    "arch1": ((F_STEPS, ARCH, 1, 0, 0),), "arch2": ((F_STEPS, ARCH, 2, 0, 0),),
    "arch_pillar": ((F_STEPS, ARCH, 1, 1, 0),),
}


def character_bonus(s: TiletumState, p: int, tile: int) -> None:
    """The bonus printed at the top left of a character tile."""
    name = CHAR_BONUSES[s.comp.tiles[tile][3]]
    gains = _GAINS.get(name)
    if gains:
        res = s.res[p]
        for r, n in gains:
            res[r] += n
    elif name in _FRAMES:
        s.stack.extend(_FRAMES[name])
    elif name in ("vp2", "vp3"):
        gain_vp(s, p, int(name[2]))
    elif name == "house_here":
        # only when the merchant stands in a town without our house and with a free space;
        # then the house must be placed (the rulebook words this one as an order, the
        # step-and-house character as an option)
        if free_house_spaces(s, p, s.merchant[p]):
            s.stack.append((F_STEPS, MERCH, 0, 1, 1))
    elif name == "pillar_here":
        spot = s.architect[p]
        if spot < s.comp.n_towns and can_place_pillar(s, p, s.comp.town_cathedral[spot]):
            s.stack.append((F_STEPS, ARCH, 0, 1, 1))


def crest_bonus(s: TiletumState, p: int, space: int) -> None:
    """The bonus printed on crest space ``space`` (0-based); a house or pillar is placed
    wherever one can be, and a move is made (see ``rules/legal.py``)."""
    name = CREST_BONUSES[s.comp.crest_bonus[space]]
    if name == "house_any":
        if s.houses[p] > 0:
            s.stack.append((F_HOUSE_ANY,))
    elif name == "pillar_any":
        if s.pillars[p] > 0:
            s.stack.append((F_PILLAR_ANY,))
    elif name == "merchant_any":
        s.stack.append((F_MOVE_ANY, MERCH))
    elif name == "architect_any":
        s.stack.append((F_MOVE_ANY, ARCH))
    elif name == "any2":
        s.stack.append((F_RES, 2))
    else:
        gain_vp(s, p, 5)


def contract_extra(s: TiletumState, p: int, extra: int) -> None:
    """Extra benefit of a fulfilled contract: 1 King step, a merchant step, a character action."""
    if extra == 1:
        king_step(s, p)
    elif extra == 2:
        s.stack.append((F_STEPS, MERCH, 1, 0, 1))  # an order, not an option
    elif extra == 3:
        s.stack.append((F_ACT, CHARACTER, 1, 0, 0))


def helper_usable(s: TiletumState, p: int, tile: int, top: tuple[int, ...]) -> bool:
    """Helpers are used any time in the turn; three of them only at a fitting moment."""
    from palio.games.tiletum.state import F_DIE

    info = s.comp.tiles[tile]
    name = HELPER_EFFECTS[info[1]]
    if name == "add_ap":
        return top[0] == F_ACT and top[4] == 1  # the die's own action only
    if name == "swap":
        return top[0] == F_DIE and not s.swap  # used while taking the die
    if name == "building":
        return bool(buildings_with_characters(s, p))
    return True


def use_helper(s: TiletumState, p: int, tile: int) -> None:
    info = s.comp.tiles[tile]
    name = HELPER_EFFECTS[info[1]]
    if name == "joker":
        s.stack.append((F_JOKER, info[3], 0))
    elif name == "action":
        s.stack.append((F_ACT, info[2], info[3], 0, 0))
    elif name == "add_ap":
        top = s.stack[-1]
        s.stack[-1] = (F_ACT, top[1], top[2] + info[3], top[3], 1)
    elif name == "swap":
        s.swap = 1
    elif name == "gain":
        s.res[p][GOLD] += info[2]
        gain_vp(s, p, info[3])
    elif name == "any":
        s.stack.append((F_RES, info[2]))
    elif name == "set":
        res = s.res[p]
        for r in (WOOL, STONE, IRON, FOOD):
            res[r] += 1
    else:
        s.stack.append((F_BLDG, 1))  # every character bonus of the chosen building


__all__ = ["ARCH", "MERCH", "ARCHITECT", "MERCHANT", "character_bonus", "crest_bonus",
           "contract_extra", "helper_usable", "use_helper"]
