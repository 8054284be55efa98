"""What a seat may know (``observe``) and states consistent with it (``determinize``).

Hidden in Tiletum: the order of the three face-down decks (bonus, contract, character), the
values of the corruption tokens not yet revealed (and of the unused ones), and future dice.
Everything else (storehouses, displays, boards) is open, so every seat sees the same view.
"""

from __future__ import annotations

import random
from typing import TYPE_CHECKING, Any

from palio.games.tiletum.components import ACTIONS, RES_LETTERS

if TYPE_CHECKING:
    from palio.games.tiletum.state import TiletumState


def _player(s: TiletumState, p: int) -> dict[str, Any]:
    return {
        "vp": s.vp[p], "resources": dict(zip(RES_LETTERS, s.res[p], strict=True)),
        "king_step": s.king_pos[p], "king_stamp": s.king_stamp[p],
        "houses_supply": s.houses[p], "pillars_supply": s.pillars[p],
        "storehouse": s.store[p][:], "rooms": s.rooms[p][:], "crests": s.crests[p][:],
        "contracts_done": s.done[p][:], "cathedral_tiles": s.cath_tiles[p][:],
        "contributed": s.contributed[p], "completed": s.completed[p],
        "bonus_ap": {ACTIONS[a]: n for a, n in enumerate(s.bonus_ap[p]) if n},
        "merchant": s.comp.spots[s.merchant[p]], "architect": s.comp.spots[s.architect[p]],
        "dice": [list(d) for d in s.dice_used[p]],
    }


def observe(s: TiletumState, seat: int | None) -> dict[str, Any]:
    c = s.comp
    return {
        "game": "tiletum", "seat": seat, "round": s.round, "turn": s.turn + 1,
        "phase": ("play", "king_tile", "over")[s.phase], "to_move": s.to_move,
        "order": s.order[:], "pending": [list(f) for f in s.stack],
        "helpers_in_use": s.holds[1::2],
        "wheel": {"rotation": s.rotation, "areas": [ACTIONS[a] for a in s.area_action],
                  "bonus": s.area_bonus[:], "dice": s.wheel[:]},
        "king_bonus": s.king_bonus,
        "contracts": s.contract_disp[:], "characters": s.char_disp[:],
        "decks": {"bonus": len(s.bonus_deck), "contract": len(s.contract_deck),
                  "character": len(s.char_deck)},
        "corruption": {"revealed": s.corr[:s.corr_shown], "hidden": len(s.corr) - s.corr_shown},
        "map": {"houses": s.house_owner[:], "pillars": [x[:] for x in s.pillar_owner],
                "bonus": {c.spots[t]: b for t, b in enumerate(s.map_bonus) if b != -1},
                "cathedral_stacks": [x[:] for x in s.cath_stack], "cost_tiles": s.cost[:]},
        "fairs": {"towns": [c.spots[t] for t in s.fair_towns], "tiles": s.fair_tiles[:],
                  "scored": s.fairs_done},
        "players": [_player(s, p) for p in range(s.players)],
    }


def determinize(s: TiletumState, seat: int, rng: random.Random) -> TiletumState:
    """A copy with the decks reshuffled, unseen corruption tokens redealt and a fresh seed."""
    other = s.copy()
    assert isinstance(other, type(s))
    # each pool is sorted before its shuffle, so the sample depends only on what is public
    # (never on the real hidden order)
    for deck in (other.bonus_deck, other.contract_deck, other.char_deck):
        deck.sort()
        rng.shuffle(deck)
    unseen = sorted(other.corr[other.corr_shown:] + other.corr_pool)
    rng.shuffle(unseen)
    k = len(other.corr) - other.corr_shown
    other.corr = other.corr[:other.corr_shown] + unseen[:k]
    other.corr_pool = unseen[k:]
    other.seed = rng.getrandbits(63)
    other._legal = None
    return other
