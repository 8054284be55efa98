"""Two-player Swiss by FIDE's Dutch system (C.04.3), through the py4swiss library.

Entrants are numbered by seeding (rating, highest first, then the order given); seat 0 is
white, seat 1 black. Each player's past rounds are written as FIDE's report format reads them:
a win, draw or loss with colour, a pairing bye (``U``, one point), or a round missed (``Z``,
for a late entrant's earlier rounds and a withdrawn player's later ones). Points for the
pairing are FIDE's (1, 1/2, 0) whatever the tournament's scoring: the Dutch system is defined
on them. A withdrawn entrant is left out of the round. Where bots may fill, the entrant the
system gives the bye plays a bot instead, in the seat they need. Where the Dutch rules admit no
pairing at all (say a fifth round for five players), ``dutch_round`` returns ``None`` and the
caller pairs the round by score groups.
"""

from __future__ import annotations

from collections.abc import Collection, Sequence

from palio.tournament.model import BOT, Bye, Entrant, EntrantId, Round, TableResult, refuse


def dutch_round(entrants: Sequence[Entrant], results: Sequence[TableResult | Bye],
                withdrawn: Collection[EntrantId], bots: bool, rounds: int | None = None
                ) -> Round | None:
    """The next round; ``rounds``: how many rounds came before it (default: the latest
    result's), a round with no result yet written as missed by all (``Z``)."""
    # a compiled library, imported where it is used so the rest of the package loads without it
    from py4swiss.engines import DutchEngine
    from py4swiss.engines.common import PairingError
    from py4swiss.trf.codes import PlayerCode
    from py4swiss.trf.parsed_trf import ParsedTrf
    from py4swiss.trf.results import RoundResult
    from py4swiss.trf.results.color_token import ColorToken
    from py4swiss.trf.results.result_token import ResultToken
    from py4swiss.trf.sections import PlayerSection, XSection

    index = {e.id: i for i, e in enumerate(entrants)}
    seeded = sorted(entrants, key=lambda e: (-(e.rating or 0.0), index[e.id]))
    number = {e.id: i + 1 for i, e in enumerate(seeded)}
    if rounds is None:
        rounds = max((r.round for r in results), default=0)
    rows: dict[EntrantId, dict[int, RoundResult]] = {e.id: {} for e in entrants}
    for result in results:
        if isinstance(result, Bye):
            rows[result.entrant][result.round] = RoundResult(
                id=0, color=ColorToken.BYE_OR_NOT_PAIRED, result=ResultToken.PAIRING_ALLOCATED_BYE)
            continue
        if len(result.seats) != 2:
            raise refuse("bad_table", "a two-player Swiss has tables of two")
        for seat, player in enumerate(result.seats):
            if player is BOT:
                continue
            other = result.seats[1 - seat]
            mine, theirs = result.places[seat], result.places[1 - seat]
            token = (ResultToken.DRAW if mine == theirs
                     else ResultToken.WIN if mine < theirs else ResultToken.LOSS)
            if other is BOT:  # a game against a bot counts as the bye it replaced
                rows[player][result.round] = RoundResult(
                    id=0, color=ColorToken.BYE_OR_NOT_PAIRED,
                    result=ResultToken.PAIRING_ALLOCATED_BYE)
                continue
            rows[player][result.round] = RoundResult(
                id=number[other], color=ColorToken.WHITE if seat == 0 else ColorToken.BLACK,
                result=token)
    value = {ResultToken.WIN: 10, ResultToken.DRAW: 5, ResultToken.PAIRING_ALLOCATED_BYE: 10}
    sections = []
    missed = RoundResult(id=0, color=ColorToken.BYE_OR_NOT_PAIRED,
                         result=ResultToken.ZERO_POINT_BYE)
    for e in seeded:
        history = [rows[e.id].get(r, missed) for r in range(1, rounds + 1)]
        sections.append(PlayerSection(
            code=PlayerCode.PLAYER, starting_number=number[e.id], name=f"p{number[e.id]}",
            fide_rating=int(e.rating) if e.rating else None,
            points_times_ten=sum(value.get(h.result, 0) for h in history),
            rank=number[e.id], results=history))
    gone = {number[w] for w in withdrawn}
    trf = ParsedTrf(player_sections=sections,
                    x_section=XSection(number_of_rounds=rounds + 1, zeroed_ids=gone))
    trf.validate_contents()
    by_number = {v: k for k, v in number.items()}
    tables: list[tuple[EntrantId | None, ...]] = []
    out: list[EntrantId] = []
    try:
        pairings = DutchEngine.generate_pairings(trf)
    except PairingError:
        return None  # the Dutch rules admit no pairing (more rounds than the field allows)
    for pairing in pairings:
        white = by_number.get(pairing.white)
        black = by_number.get(pairing.black)
        if pairing.white and pairing.black:
            tables.append((white, black))
        else:
            lone = white if pairing.white else black
            if bots:
                tables.append(_against_bot(lone, results))
            else:
                out.append(lone)
    return Round(tuple(tables), tuple(out))


def _against_bot(player: EntrantId, results: Sequence[TableResult | Bye]
                 ) -> tuple[EntrantId | None, ...]:
    """The seat this player has taken less often (white on a tie)."""
    count = [0, 0]
    for r in results:
        if isinstance(r, TableResult) and player in r.seats:
            count[r.seats.index(player)] += 1
    return (player, BOT) if count[0] <= count[1] else (BOT, player)
