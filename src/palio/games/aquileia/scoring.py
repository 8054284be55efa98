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

from palio.games.aquileia.components import (
    BANK,
    HW,
    SLAVE,
    STADIUM,
    THEATRE,
    VILLA,
    WORKSHOP,
    Components,
)
from palio.games.aquileia.rules.common import gain_vp
from palio.games.aquileia.state import CAT_LAURELS, CAT_VILLAS

if TYPE_CHECKING:
    from palio.games.aquileia.state import AquileiaState

# what a held coin is worth in the greedy bots' and search cut-offs' ``worths``: gold, silver,
# bronze
COIN_WORTH = (1.5, 1.0, 0.7)


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


class WorthTables:
    """``AquileiaGame.worths`` from tables of each card's and plot's part, built once per
    components set: per seat its VP, its coins (:data:`COIN_WORTH`), what its stadium cards
    and villas would score now (:func:`laurel_points`: each stadium card's VP, and per colour
    the villas' value times the colour cards, each theatre card on its best colour), 0.6 a
    symbol of its slave and horse/weapon cards, 1 a stadium colour card (worth more with
    villas still to come), and per plot built 1 a villa and half the rounds left times a
    workshop's VP or a bank's coins.

    The floats are added in the same order as the plain loop over the hand and the plots
    (the points of the cards and villas, then each card in the hand, then each plot in the
    board's order), so every value is the same to the last bit: the greedy bot breaks ties
    between equal values at random, and a review must not change with a faster sum."""

    def __init__(self, comp: Components) -> None:
        self.comp = comp
        self.rounds = comp.rounds
        self.colours = len(comp.colours)
        bonus, laurel, stadium, theatre = [], [], [], []
        for card in range(comp.n_cards):
            t = comp.card_type[card]
            cls = comp.type_class[t]
            if cls in (SLAVE, HW):
                bonus.append(0.6 * comp.type_symbols[t])
            elif cls == STADIUM and comp.type_colours[t]:
                bonus.append(1.0)
            else:
                bonus.append(0.0)
            laurel.append(comp.type_vp[t] if cls == STADIUM else 0)
            stadium.append(tuple(comp.type_colours[t]) if cls == STADIUM else ())
            theatre.append(tuple(comp.type_colours[t]) if cls == THEATRE else None)
        self.card_bonus = tuple(bonus)  # added per card held (0.0 adds nothing)
        self.card_laurel = tuple(laurel)  # a stadium VP card's points
        self.card_stadium = tuple(stadium)  # a stadium card's colours (each one card)
        self.card_theatre = tuple(theatre)  # a theatre card's two colours, else None
        # a villa's colour and value, else None
        self.plot_villa = tuple((comp.plot_colour[p], comp.plot_vp[p])
                                if comp.plot_kind[p] == VILLA else None
                                for p in range(len(comp.plots)))
        self._plot_bonus: dict[int, tuple[float, ...]] = {}

    def plot_bonus(self, rounds_left: int) -> tuple[float, ...]:
        """Per plot, what it adds to its owner's worth with ``rounds_left`` rounds to come."""
        table = self._plot_bonus.get(rounds_left)
        if table is None:
            comp = self.comp
            out = []
            for plot in range(len(comp.plots)):
                kind = comp.plot_kind[plot]
                if kind == WORKSHOP:
                    out.append(0.5 * rounds_left * comp.plot_yield[plot])
                elif kind == BANK:
                    out.append(0.5 * rounds_left * sum(comp.plot_income[plot]))
                elif kind == VILLA:
                    out.append(1.0)
                else:
                    out.append(0.0)
            table = self._plot_bonus[rounds_left] = tuple(out)
        return table

    def worths(self, s: AquileiaState) -> list[float]:
        """Every seat's worth (see the class); the final VP once the game is over."""
        if s.is_over:
            return [float(v) for v in s.vp]
        players = s.players
        owned: list[list[int]] = [[] for _ in range(players)]  # each seat's plots, in order
        for plot, owner in enumerate(s.plot_owner):
            if owner >= 0:
                owned[owner].append(plot)
        plot_bonus = self.plot_bonus(self.rounds - s.round + 1)
        plot_villa = self.plot_villa
        card_bonus, card_laurel = self.card_bonus, self.card_laurel
        card_stadium, card_theatre = self.card_stadium, self.card_theatre
        gold, silver, bronze = COIN_WORTH
        coins, vp, hands = s.coins, s.vp, s.hand
        colours = self.colours
        out = []
        for p in range(players):
            base = 3 * p
            value = vp[p] + gold * coins[base] + silver * coins[base + 1] + bronze * coins[base + 2]
            hand = hands[p]
            plots = owned[p]
            # the stadium cards' VP and the villas' points (ints: their order is free), as
            # laurel_points
            points = 0
            villas = None
            for plot in plots:
                villa = plot_villa[plot]
                if villa is not None:
                    if villas is None:
                        villas = [0] * colours
                    villas[villa[0]] += villa[1]
            if villas is None:  # no villa: no colour card scores
                for card in hand:
                    points += card_laurel[card]
            else:
                for card in hand:
                    points += card_laurel[card]
                    for col in card_stadium[card]:
                        points += villas[col]
                    pair = card_theatre[card]
                    if pair is not None:
                        a, b = villas[pair[0]], villas[pair[1]]
                        points += a if a >= b else b
            value += points
            # then the floats one at a time, in the hand's and the board's order
            for card in hand:
                value += card_bonus[card]
            for plot in plots:
                value += plot_bonus[plot]
            out.append(value)
        return out
