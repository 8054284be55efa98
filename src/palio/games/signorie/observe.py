"""What a seat may know (``observe``) and states consistent with it (``determinize``).

Hidden in Signorie, from every seat alike: the order of the face-down alliance stack, which
tiles were set aside with 2-3 players, the faces of the face-down alliance tiles on the
plans (nobody looks at them), and what the seed will bring (future dice, assignment deals,
offspring rolls). Everything else lies open on the table, so every seat sees the same view
apart from its ``seat``. Reward tiles not drawn for this game stay in the box, unseen.
"""

from __future__ import annotations

import random
from typing import TYPE_CHECKING, Any

from palio.core.encoding import set_bits
from palio.games.signorie.state import FRAME_NAMES, PHASES

if TYPE_CHECKING:
    from palio.games.signorie.state import SignorieState


def _player(s: SignorieState, p: int) -> dict[str, Any]:
    c = s.comp
    L = c.max_track_len
    return {
        "colour": c.colours[p],
        "florins": s.florins[p], "vp": s.vp[p],
        "vp_by": s.vp_by[p * 9:p * 9 + 9],
        "men": s.men[p], "women": s.women[p],
        "stock_men": s.stock_m[p], "stock_women": s.stock_w[p],
        "brides": s.brides[p],
        "threshold": s.threshold[p],
        "parked_men": s.parked_m[p], "parked_women": s.parked_w[p],
        "initiative": s.init_pos[p], "initiative_stamp": s.init_stamp[p],
        "dice": s.dice[p * 5:p * 5 + 5],
        "dice_sum": s.dice_sum(p),
        "passed": bool(s.passed[p]),
        "helpers": [set_bits(s.helpers[p * 5 + col], len(c.helpers[col])) for col in range(5)],
        "tracks": [s.tracks[(p * 3 + t) * L:(p * 3 + t) * L + c.track_len[t]] for t in range(3)],
        "rows": [{"up": list(s.rows_up[p * 4 + r]), "down": len(s.rows_down[p * 4 + r])}
                 for r in range(4)],
    }


def observe(s: SignorieState, seat: int | None) -> dict[str, Any]:
    c = s.comp
    S = c.max_city_slots
    cities = []
    for city in range(5):
        n = len(c.city_slots[city])
        slots = s.city_slot[city * S:city * S + n]
        cities.append({
            "used": city in s.cities,
            "slots": [None if x < 0 else {"seat": x // 4, "kind": x % 4} for x in slots],
            "marriage_tile": s.marriage_tile[city], "mission_tile": s.mission_tile[city],
        })
    pending = [[FRAME_NAMES[f[0]], *f[1:]] for f in s.stack]
    return {
        "game": "signorie", "seat": seat, "round": s.round, "rounds": c.rounds,
        "phase": PHASES[s.phase], "to_move": s.to_move,
        "order": s.order[:], "turn_player": s.order[s.pos] if s.phase == 0 else None,
        "reward_queue": s.reward_queue[:],
        "pending": pending,
        "pool": [s.pool[col * 6:col * 6 + 6] for col in range(5)],
        "assignments": [[s.assign[col * 2], s.assign[col * 2 + 1]] for col in range(5)],
        "rewards": list(s.rewards),
        "cities": cities,
        "alliance_stack": len(s.alliance),
        "removed": len(s.removed),
        "players": [_player(s, p) for p in range(s.players)],
    }


def determinize(s: SignorieState, seat: int, rng: random.Random) -> SignorieState:
    """A copy with every unseen alliance tile redealt and a fresh seed.

    The unseen tiles are those of the stack, the set-aside ones and the face-down ones on the
    plans; they are pooled by family (sorted first, so the sample depends only on what is
    public), the set-aside count of each family is drawn from that family, and the rest are
    shuffled into the stack and onto the face-down places.
    """
    other = s.copy()
    assert isinstance(other, type(s))
    c = s.comp
    down_sizes = [len(t) for t in other.rows_down]
    unseen = sorted(other.alliance + list(other.removed) + [t for row in other.rows_down for t in row])
    k = c.removed_per_family[s.players]
    removed: list[int] = []
    if k:
        for fam in range(6):
            removed += rng.sample([t for t in unseen if c.tile_family[t] == fam], k)
    gone = set(removed)
    rest = [t for t in unseen if t not in gone]
    rng.shuffle(rest)
    other.removed = tuple(sorted(removed))
    rows = []
    at = 0
    for n in down_sizes:
        rows.append(tuple(rest[at:at + n]))
        at += n
    other.rows_down = rows
    other.alliance = rest[at:]
    other.seed = rng.getrandbits(63)
    other._legal = None
    return other
