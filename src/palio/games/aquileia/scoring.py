"""Aquileia's final scoring (ゲームの終了) and the score breakdown.

After the sixth round every player adds the VP printed on their stadium VP cards (3, 5, 7, 10)
and, for each colour, the summed values of their villas of that colour times their laurel
cards of that colour: stadium colour cards, and theatre cards, each counted for the one of its
two colours the player picks. With no card of a colour, its villas score nothing. Money and
everything else scores nothing.

Reading: the engine picks each theatre card's colour for the player, the one that scores most
(a player choosing otherwise could only lose points, and nobody else is affected). The
rulebook gives no tie-break for the final score: tied players share the place.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import TYPE_CHECKING, Any

from palio.games.aquileia.components import STADIUM, THEATRE, VILLA
from palio.games.aquileia.rules.common import gain_vp
from palio.games.aquileia.state import CAT_LAURELS, CAT_VILLAS

if TYPE_CHECKING:
    from palio.games.aquileia.state import AquileiaState


def villa_values(s: AquileiaState, seat: int, plots: Iterable[int] | None = None) -> list[int]:
    """Per colour, the summed values of ``seat``'s villas (``plots``: the plots ``seat`` owns,
    where the caller has them already)."""
    comp = s.comp
    out = [0] * len(comp.colours)
    if plots is None:
        plots = [plot for plot, owner in enumerate(s.plot_owner) if owner == seat]
    for plot in plots:
        if comp.plot_kind[plot] == VILLA:
            out[comp.plot_colour[plot]] += comp.plot_vp[plot]
    return out


def laurel_points(s: AquileiaState, seat: int, plots: Iterable[int] | None = None
                  ) -> dict[str, Any]:
    """What ``seat``'s cards and villas are worth at the end: stadium VP cards, colour counts,
    the best colour for each theatre card, and the villa points that gives (``plots``: as
    :func:`villa_values`).

    A theatre card adds one card to the colour picked, so it adds that colour's villa value
    and nothing else: each card's best pick is on its own the colour of highest villa value
    (the first of its two where they tie), whatever the other cards pick."""
    comp = s.comp
    vp = 0
    counts = [0] * len(comp.colours)
    theatre: list[tuple[int, ...]] = []
    for card in s.hand[seat]:
        t = comp.card_type[card]
        cls = comp.type_class[t]
        if cls == STADIUM:
            vp += comp.type_vp[t]
            for col in comp.type_colours[t]:
                counts[col] += 1
        elif cls == THEATRE:
            theatre.append(comp.type_colours[t])
    values = villa_values(s, seat, plots)
    choice = [max(colours, key=values.__getitem__) for colours in theatre]  # first of equals
    final = counts[:]
    for col in choice:
        final[col] += 1
    best = sum(v * n for v, n in zip(values, final, strict=True))
    return {"laurel_vp": vp, "villas": values, "cards": final, "theatre": choice,
            "villa_vp": best}


def final_scoring(s: AquileiaState) -> None:
    comp = s.comp
    for seat in range(s.players):
        points = laurel_points(s, seat)
        gain_vp(s, seat, points["laurel_vp"], CAT_LAURELS)
        gain_vp(s, seat, points["villa_vp"], CAT_VILLAS)
        s.emit("final", seat, laurel_vp=points["laurel_vp"], villa_vp=points["villa_vp"],
               theatre=[comp.colours[c] for c in points["theatre"]],
               cards=[comp.type_key[comp.card_type[c]] for c in sorted(s.hand[seat])])
    s.emit("game_over", scores=s.vp[:])
