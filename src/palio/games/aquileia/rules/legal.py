"""Legal decisions: the only place where Aquileia's legality is decided.

The top frame of the pending stack names the deciding seat and picks the generator.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from palio.core.game import Action
from palio.games.aquileia.rules.contests import legal_blue, legal_cards, legal_laurel, legal_prize
from palio.games.aquileia.rules.forum import legal_build
from palio.games.aquileia.rules.market import legal_arma, legal_exchange, legal_servi
from palio.games.aquileia.rules.placement import legal_placement
from palio.games.aquileia.rules.theatre import legal_auction

if TYPE_CHECKING:
    from palio.games.aquileia.state import AquileiaState


def _place(s: AquileiaState, top: tuple) -> list[Action]:
    return legal_placement(s, top[1])


# indexed by frame kind (``state.F_*``)
_BY_FRAME = (_place, legal_exchange, legal_arma, legal_servi, legal_cards, legal_blue,
             legal_prize, legal_laurel, legal_auction, legal_build)


def legal_actions(s: AquileiaState) -> list[Action]:
    top = s.stack[-1]
    return _BY_FRAME[top[0]](s, top)
