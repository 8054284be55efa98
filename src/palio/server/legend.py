"""Fixed component tables a browser renderer needs to draw a game's observation.

Observations name many things by index (Tiletum's tiles, map spots, house spaces); the
legend turns those indices into names and shapes. It holds only the game's printed
components, the same for every game and seat, so it can never carry hidden information.
"""

from __future__ import annotations

from typing import Any

from palio.core.game import Game


def legend(game: Game) -> dict[str, Any]:
    """The legend of ``game``; empty for games whose observations are self-describing."""
    if game.info.id == "tiletum":
        return tiletum_legend(game)
    return {}


def tiletum_legend(game: Game) -> dict[str, Any]:
    from palio.games.tiletum.render import tile_name

    c = game.components  # type: ignore[attr-defined]
    links = sorted({tuple(sorted((a, b))) for a, ends in enumerate(c.adj) for b in ends})
    return {
        "spots": list(c.spots),
        "towns": c.n_towns,
        "links": [list(pair) for pair in links],
        "house_spaces": [{"town": town, "min_players": least, "label": c.house_label[i]}
                         for i, (town, least, _vp, _building) in enumerate(c.house_spaces)],
        "cathedral_towns": list(c.cathedral_towns),
        "cost_tiles": [None if t is None else list(t) for t in c.cost_tiles],
        "tiles": [tile_name(c, t) for t in range(len(c.tiles))],
        "king_vp": list(c.king_vp),
        "contract_slot_ap": list(c.contract_slot_ap),
        "rooms": [list(floors) for floors in c.room_index],
        "crest_names": list(c.crest_names),
        "fair_conditions": list(c.fair_conditions),
        "fair_tiles": [list(t) for t in c.fair_tiles],
    }
