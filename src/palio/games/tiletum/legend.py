"""Tiletum's printed tables for clients that draw an observation (``Game.legend``).

Names and explanations of the components, in the reader's language, are the glossary of
``words.py`` (the server adds it to the legend as ``glossary``); ``tiles`` here keeps each
tile's English name for clients that read only the legend.
"""

from __future__ import annotations

from typing import Any

from palio.core.i18n import Translator
from palio.games.tiletum.components import Components
from palio.games.tiletum.words import tile_name


def legend(c: Components) -> dict[str, Any]:
    """The printed tables a client needs to draw an observation (see ``Game.legend``)."""
    links = sorted({tuple(sorted((a, b))) for a, ends in enumerate(c.adj) for b in ends})
    english = Translator("en")
    return {
        "spots": list(c.spots),
        "towns": c.n_towns,
        "links": [list(pair) for pair in links],
        "house_spaces": [
            {"town": town, "min_players": least, "label": c.house_label[i]}
            for i, (town, least, _vp, _building) in enumerate(c.house_spaces)
        ],
        "cathedral_towns": list(c.cathedral_towns),
        "cost_tiles": [None if t is None else list(t) for t in c.cost_tiles],
        "tiles": [english(tile_name(c, t)) for t in range(len(c.tiles))],
        "king_vp": list(c.king_vp),
        "contract_slot_ap": list(c.contract_slot_ap),
        "rooms": [list(floors) for floors in c.room_index],
        "crest_names": list(c.crest_names),
        "fair_conditions": list(c.fair_conditions),
        "fair_tiles": [list(t) for t in c.fair_tiles],
    }
