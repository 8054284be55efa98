"""San Gimignano tower game: what may be done, and what doing it changes.

Rules source: ``shared/seeds/san-gimignano.ja.md``. Readings chosen where the text is open
are marked *Reading* below and listed in ``docs/coverage/san-gimignano.md``.

Frames (see ``state``), top of the stack last:

``("draw", seat, left, excluded, market, nobles, deck)``  draw ``left`` more cards, one a decision
``("put", seat, put)``                        exchanging: cards put so far
``("extend", seat, tower_id, placed, jousted)``  extending one tower (``jousted``: a luxury
                                              stone of it was jousted, so it may be taken back)
``("complete", seat)``                        completing towers
``("build", seat, cards, windows_left, cancelled)``  a build waiting for responses to its
                                              luxury stones (automatic once none are left)
``("salvage", seat, cards)``                  a jousted luxury stone: build the rest or take back
``("effect", seat, tower_id)``                a new same-number tower's donation: use or decline
``("defend", seat, number, data)``            a 9 or 10 aimed at ``seat``: cancel with a 5 (or a
                                              luxury stone as a 5) or allow
``("take", seat, left, give, taken)``         after a 9: take ``left`` more cards from the
                                              opponent's hand, choosing backs (noble or tower);
                                              then give ``give`` back
``("collapse", seat, candidate_ids)``         choose which equally tall tower a 10 collapses
``("give", seat, left)``                      give cards back after a 9
``("play", seat, card)``                      a noble played as a turn, or a luxury stone played
                                              as a 5 (automatic after responses)
``("window", seat, chain, context)``          ``seat`` may joust the last card of ``chain``
``("return", seat, left, optional)``          put cards on the bottom of their decks
"""

from __future__ import annotations

from collections import Counter
from typing import TYPE_CHECKING

from palio.core.rng import derive
from palio.games.san_gimignano import actions as A
from palio.games.san_gimignano import components as C
from palio.games.san_gimignano.state import Tower

if TYPE_CHECKING:
    from palio.core.game import Action
    from palio.games.san_gimignano.state import SanGimignanoState as S


# ---------------------------------------------------------------------------- legal actions
def legal_actions(s: S) -> list[Action]:
    if s.frames:
        return FRAME_LEGAL[s.frames[-1][0]](s, s.frames[-1])
    return turn_actions(s)


def turn_actions(s: S) -> list[Action]:
    seat = s.turn
    hand = s.hands[seat]
    out: list[Action] = []
    if not s.end_phase:
        if buy_count(s) and len(hand) + buy_count(s) <= s.hand_limit(seat):
            out.append(A.BUY)
        if exchange_possible(s, seat):
            out.append(A.EXCHANGE)
    out += legal_builds(s, seat)
    out += legal_extends(s, seat, None)
    if not s.end_phase:
        out += [A.Complete(i) for i, t in enumerate(s.towers_of(seat)) if not t.completed]
        if sum(t.completed for t in s.towers_of(seat)) >= C.MIN_COMPLETED_TO_DECLARE:
            out.append(A.DECLARE)
    if s.nobles and may_use_nobles(s, seat, 1):
        out += [A.Play(card) for card in A.PLAYABLE_NOBLES if card in hand and can_play(s, seat, card)]
    out.append(A.PASS)
    return out


def buy_count(s: S) -> int:
    """Cards a purchase takes. *Reading*: with one card left in the deck, only one."""
    return 1 if len(s.deck) == 1 else 2 if s.deck else 0


def may_use_nobles(s: S, seat: int, count: int) -> bool:
    """A seat may have used at most one noble card more than its opponent."""
    return s.nobles_used[seat] + count <= s.nobles_used[1 - seat] + 1


def can_play(s: S, seat: int, card: int) -> bool:
    if card == C.PILGRIMAGE:
        # the decks are closed in the end phase, so a pilgrimage could draw nothing
        return not s.end_phase
    if card == C.ORDINANCE:
        others = len(s.hands[seat]) - 1
        return others >= 2 or ordinance_void(s, seat)
    return True


def ordinance_void(s: S, seat: int) -> bool:
    """The opponent already has a taller tower: the ordinance is played for nothing."""
    return s.tallest(1 - seat) > s.tallest(seat)


def height_cap(s: S, seat: int) -> int:
    """Tallest tower ``seat`` may have: capped by an opponent's height ordinance."""
    if C.ORDINANCE in s.front[1 - seat]:
        return s.tallest(1 - seat)
    return 99


def legal_builds(s: S, seat: int) -> list[Action]:
    hand = s.hands[seat]
    counts = Counter(hand)
    lux = counts[C.LUXURY] if s.nobles else 0
    if lux:
        # stones the usage limit allows; none (not fewer) when two ahead after a joust
        lux = max(0, min(lux, s.nobles_used[1 - seat] + 1 - s.nobles_used[seat]))
    cap = height_cap(s, seat)
    out: list[Action] = []
    for value in C.TOWER_VALUES:
        have = counts[value]
        for naturals in range(have + 1):
            for stones in range(max(0, C.MIN_TOWER - naturals), lux + 1):
                if naturals + stones <= cap:
                    out.append(A.Build((value,) * naturals + (-value,) * stones))
    if not lux:
        out += _plain_runs(counts, cap)
        return out
    for top in range(C.MULTI_LOW, C.MULTI_HIGH + 1):
        for bottom in range(top + C.MIN_TOWER - 1, min(C.MULTI_HIGH, top + cap - 1) + 1):
            out += _runs(top, bottom, counts, lux)
    return out


def _plain_runs(counts: Counter, cap: int) -> list[Action]:
    """Runs from tower cards alone (no luxury stone): one way each, in ``_runs``' order.

    The common case, and the hot path of random playouts, so it skips the general search.
    """
    out: list[Action] = []
    for top in C.TOWER_VALUES:
        length = 0
        while counts[top + length] > 0:
            length += 1
        for height in range(C.MIN_TOWER, min(length, cap) + 1):
            out.append(A.Build(tuple(range(top, top + height))))
    return out


def _runs(top: int, bottom: int, counts: Counter, lux: int) -> list[Action]:
    """Every way to build the run top..bottom from the hand, luxury stones anywhere."""
    options: list[list[int]] = [[]]
    for value in range(top, bottom + 1):
        natural = counts[value] > 0 if value in C.TOWER_VALUES else False
        choices = ([value] if natural else []) + ([-value] if lux else [])
        options = [o + [c] for o in options for c in choices if sum(x < 0 for x in o + [c]) <= lux]
        if not options:
            return []
    return [A.Build(tuple(o)) for o in options]


def legal_extends(s: S, seat: int, only_tower: int | None) -> list[Action]:
    hand = set(s.hands[seat])
    cap = height_cap(s, seat)
    lux_ok = s.nobles and C.LUXURY in hand and may_use_nobles(s, seat, 1)
    out: list[Action] = []
    for index, tower in enumerate(s.towers_of(seat)):
        if tower.completed or tower.height + 1 > cap:
            continue
        if only_tower is not None and tower.id != only_tower:
            continue
        need = tower.top if tower.same else tower.top - 1
        if need in hand:
            out.append(A.Extend(index, need))
        if lux_ok and need >= C.MULTI_LOW:
            out.append(A.Extend(index, C.LUXURY))
    return out


def exchange_possible(s: S, seat: int) -> bool:
    hand = s.hands[seat]
    if len(hand) < 2:
        return False
    counts = Counter(hand)
    pairs = [(c, c) for c, n in counts.items() if n >= 2]
    pairs += [(a, b) for a in counts for b in counts if a < b]
    return any(exchange_feasible(s, p) for p in pairs)


def exchange_feasible(s: S, put: tuple[int, ...]) -> bool:
    """Enough cards to draw back: deck tops plus market cards of other kinds than those put."""
    excluded = set(put)
    market = sum(1 for c in s.market if c not in excluded)
    supply = len(s.deck) + (len(s.noble_deck) if s.nobles else 0) + market
    return supply >= len(put)


def _draw_legal(s: S, frame: tuple) -> list[Action]:
    _, _seat, _left, excluded, market, nobles, deck = frame
    out: list[Action] = []
    if deck and s.deck:
        out.append(A.DRAW)
    if nobles and s.noble_deck:
        out.append(A.DRAW_NOBLE)
    if market:
        # nobles enter a hand only by buying, exchanging or a pilgrimage: draws after an
        # extension or an 8 take tower cards, so a noble lying in the market stays there
        out += [
            A.Take(c) for c in sorted(set(s.market))
            if c not in excluded and (nobles or c not in C.NOBLE_COUNTS)
        ]
    return out


def _put_legal(s: S, frame: tuple) -> list[Action]:
    seat, put = frame[1], frame[2]
    hand = s.hands[seat]
    out: list[Action] = []
    for card in sorted(set(hand)):
        if len(put) >= 1:
            ok = exchange_feasible(s, (*put, card))
        else:
            rest = hand.copy()
            rest.remove(card)
            ok = any(exchange_feasible(s, (card, other)) for other in set(rest))
        if ok:
            out.append(A.Put(card))
    if len(put) >= 2:
        out.append(A.DONE)
    return out


def _extend_legal(s: S, frame: tuple) -> list[Action]:
    # after a jousted luxury stone the cards placed so far may go back to hand instead
    takeback = [A.TAKEBACK] if frame[4] and frame[3] else []
    return [*legal_extends(s, frame[1], frame[2]), A.DONE, *takeback]


def _complete_legal(s: S, frame: tuple) -> list[Action]:
    return [A.Complete(i) for i, t in enumerate(s.towers_of(frame[1])) if not t.completed] + [A.DONE]


def _salvage_legal(s: S, frame: tuple) -> list[Action]:
    return [A.SALVAGE, A.TAKEBACK]


def _defend_legal(s: S, frame: tuple) -> list[Action]:
    # the defender is always asked, so the question itself says nothing about their hand
    seat = frame[1]
    out: list[Action] = [A.ALLOW]
    if 5 in s.hands[seat]:
        out.append(A.CANCEL)
    # *Reading*: a luxury stone carries every donation 5-10, the 5's cancel included
    if s.nobles and C.LUXURY in s.hands[seat] and may_use_nobles(s, seat, 1):
        out.append(A.CANCEL_STONE)
    return out


def _effect_legal(s: S, frame: tuple) -> list[Action]:
    return [A.USE, A.DECLINE]


def _take_legal(s: S, frame: tuple) -> list[Action]:
    backs = hand_backs(s, 1 - frame[1])
    return [A.Pick(noble) for noble in (False, True) if backs[noble]]


def hand_backs(s: S, seat: int) -> tuple[int, int]:
    """How many tower-card backs and noble backs a hand shows (public: the backs differ)."""
    nobles = sum(1 for c in s.hands[seat] if c in C.NOBLE_COUNTS)
    return len(s.hands[seat]) - nobles, nobles


def _collapse_legal(s: S, frame: tuple) -> list[Action]:
    seat = frame[1]
    out: list[Action] = []
    for tower_id in frame[2]:
        tower = s.tower_by_id(tower_id)
        index = [t.id for t in s.towers_of(tower.owner)].index(tower_id)
        out.append(A.Collapse(tower.owner == seat, index))
    return out


def _give_legal(s: S, frame: tuple) -> list[Action]:
    return [A.Give(c) for c in sorted(set(s.hands[frame[1]]))]


def _window_legal(s: S, frame: tuple) -> list[Action]:
    seat = frame[1]
    if C.JOUSTING in s.hands[seat] and s.nobles_used[seat] <= s.nobles_used[1 - seat]:
        return [A.ALLOW, A.JOUST]
    return [A.ALLOW]


def _return_legal(s: S, frame: tuple) -> list[Action]:
    seat, left, optional = frame[1], frame[2], frame[3]
    hand = s.hands[seat]
    # when optional, return none or two, never one: with one card in hand, none
    out: list[Action] = [A.Return(c) for c in sorted(set(hand))] if len(hand) >= left else []
    if optional and left == 2:
        out.append(A.DONE)
    return out


FRAME_LEGAL = {
    "draw": _draw_legal,
    "put": _put_legal,
    "extend": _extend_legal,
    "complete": _complete_legal,
    "salvage": _salvage_legal,
    "defend": _defend_legal,
    "effect": _effect_legal,
    "take": _take_legal,
    "collapse": _collapse_legal,
    "give": _give_legal,
    "window": _window_legal,
    "return": _return_legal,
}


# ---------------------------------------------------------------------------- applying
def apply_action(s: S, action: Action) -> None:
    seat = s.to_move
    assert seat is not None
    # actions are values: an equal pass (parsed, unpickled, constructed) is a pass too
    if not s.frames and action != A.PASS:
        s.passes = 0
    handler = HANDLERS[type(action)]
    handler(s, seat, action)
    settle(s)


def _simple(s: S, seat: int, action: A.Simple) -> None:
    SIMPLE_HANDLERS[action.word](s, seat)


def _buy(s: S, seat: int) -> None:
    s.emit("buy", seat)
    s.frames.append(("draw", seat, buy_count(s), frozenset(), True, s.nobles, True))


def _exchange(s: S, seat: int) -> None:
    s.emit("exchange", seat)
    s.frames.append(("put", seat, ()))


def _put(s: S, seat: int, action: A.Put) -> None:
    frame = s.frames.pop()
    play_from_hand(s, seat, action.card)
    s.market.append(action.card)
    s.emit("put", seat, card=action.card)
    s.frames.append(("put", seat, (*frame[2], action.card)))


def _draw_step(s: S, seat: int, source: str, card: int | None = None) -> None:
    frame = s.frames.pop()
    if frame[2] > 1:
        s.frames.append((*frame[:2], frame[2] - 1, *frame[3:]))
    if source == "deck":
        seen = seen_at_bottom(s, False, len(s.deck) - 1)
        card = s.deck.pop()
        if s.deck_known:
            s.deck_known -= 1
            show(s, seat, card)
            s.emit("draw", seat, card=card, face_up=True)
        else:
            s.emit("draw", seat, secret={"card": card}, audience={seat})
            known_from_bottom(s, seat, card, seen)
    elif source == "noble":
        seen = seen_at_bottom(s, True, len(s.noble_deck) - 1)
        card = s.noble_deck.pop()
        s.emit("draw_noble", seat, secret={"card": card}, audience={seat})
        known_from_bottom(s, seat, card, seen)
    else:
        assert card is not None
        s.market.remove(card)
        show(s, seat, card)
        s.emit("take", seat, card=card)
    s.hands[seat].append(card)


def _draw(s: S, seat: int) -> None:
    _draw_step(s, seat, "deck")


def _draw_noble(s: S, seat: int) -> None:
    _draw_step(s, seat, "noble")


def _take(s: S, seat: int, action: A.Take) -> None:
    _draw_step(s, seat, "market", action.card)


def _done(s: S, seat: int) -> None:
    frame = s.frames.pop()
    kind = frame[0]
    if kind == "put":
        put = frame[2]
        s.frames.append(("draw", seat, len(put), frozenset(put), True, s.nobles, True))
    elif kind == "extend":
        tower = s.tower_by_id(frame[2])
        s.emit("extended", seat, tower=tower_label(s, tower), height=tower.height)
        check_tallest(s, tower)
        if frame[3] and not s.end_phase:
            s.frames.append(("draw", seat, frame[3], frozenset(), True, False, True))
    # "complete" needs nothing more; "return" with optional=True returns no card


def _build(s: S, seat: int, action: A.Build) -> None:
    for card in action.cards:
        play_from_hand(s, seat, C.LUXURY if card < 0 else card)
    stones = action.luxury
    s.nobles_used[seat] += stones
    s.emit("build", seat, cards=list(action.cards))
    s.frames.append(("build", seat, action.cards, stones if s.nobles else 0, ()))


def _extend(s: S, seat: int, action: A.Extend) -> None:
    tower = s.towers_of(seat)[action.tower]
    if s.frames and s.frames[-1][0] == "extend":
        frame = s.frames.pop()
    else:
        frame = ("extend", seat, tower.id, 0, False)
    play_from_hand(s, seat, action.card)
    value = tower.top if tower.same else tower.top - 1
    card = -value if action.card == C.LUXURY else value
    s.replace_tower(tower._replace(cards=(card, *tower.cards)))
    s.frames.append(("extend", seat, tower.id, frame[3] + 1, frame[4]))
    s.emit("extend", seat, tower=tower_label(s, tower), card=card)
    if action.card == C.LUXURY:
        s.nobles_used[seat] += 1
        open_window(s, seat, C.LUXURY, ("extend", tower.id))


def _complete(s: S, seat: int, action: A.Complete) -> None:
    tower = s.towers_of(seat)[action.tower]
    s.replace_tower(tower._replace(completed=True))
    s.emit("complete", seat, tower=tower_label(s, tower))
    if not (s.frames and s.frames[-1][0] == "complete"):
        s.frames.append(("complete", seat))


def _declare(s: S, seat: int) -> None:
    s.end_phase = True
    s.declared_by = seat
    s.emit("declare", seat)


def _pass(s: S, seat: int) -> None:
    s.passes += 1
    s.emit("pass", seat)
    if s.passes >= 2:
        s.over = True
        s.emit("game_over", None, scores=s.scores())


def _salvage(s: S, seat: int) -> None:
    frame = s.frames.pop()
    place_tower(s, seat, frame[2])


def _takeback(s: S, seat: int) -> None:
    frame = s.frames.pop()
    if frame[0] == "extend":
        # the cards of this extension go back to hand; the turn is spent, nothing is drawn
        tower = s.tower_by_id(frame[2])
        s.replace_tower(tower._replace(cards=tower.cards[frame[3]:]))
        take_back(s, seat, tower.cards[: frame[3]])
        return
    take_back(s, seat, frame[2])


def _use(s: S, seat: int) -> None:
    frame = s.frames.pop()
    start_effect(s, seat, s.tower_by_id(frame[2]))


def _decline(s: S, seat: int) -> None:
    frame = s.frames.pop()
    tower = s.tower_by_id(frame[2])
    s.emit("decline", seat, number=tower.top, tower=tower_label(s, tower))


def _stone_cancel(s: S, seat: int, action: A.StoneCancel) -> None:
    """A luxury stone played as a 5 against a 9 or 10: a noble card, so it may be jousted.

    The defence frame stays below: if the stone is jousted, the defender is asked again.
    """
    number = s.frames[-1][2]
    play_from_hand(s, seat, C.LUXURY)
    s.nobles_used[seat] += 1
    s.emit("play", seat, card=C.LUXURY, against=number)
    s.frames.append(("play", seat, C.LUXURY))
    open_window(s, seat, C.LUXURY, ("play",))


def _pick(s: S, seat: int, action: A.Pick) -> None:
    take_one(s, s.frames[-1], action.noble)


def _allow(s: S, seat: int) -> None:
    frame = s.frames.pop()
    if frame[0] == "defend":
        s.emit("allow", seat)
        resolve_effect(s, frame[2], frame[3])
    else:
        resolve_window(s, frame)


def _cancel(s: S, seat: int) -> None:
    frame = s.frames.pop()
    play_from_hand(s, seat, 5)
    put_under(s, 5, 0b11)  # face down under the deck, seen by both players as it went
    s.emit("cancel", seat, number=frame[2])


def _joust(s: S, seat: int) -> None:
    frame = s.frames.pop()
    play_from_hand(s, seat, C.JOUSTING)
    s.nobles_used[seat] += 1
    s.emit("joust", seat)
    chain = (*frame[2], (C.JOUSTING, seat))
    s.frames.append(("window", 1 - seat, chain, frame[3]))


def _collapse(s: S, seat: int, action: A.Collapse) -> None:
    s.frames.pop()
    owner = seat if action.own else 1 - seat
    target = s.towers_of(owner)[action.tower]
    aim_collapse(s, seat, target)


def _give(s: S, seat: int, action: A.Give) -> None:
    frame = s.frames.pop()
    play_from_hand(s, seat, action.card, seen=False)
    other = 1 - seat
    s.hands[other].append(action.card)
    s.revealed[other].append(action.card)
    s.emit("give", seat, secret={"card": action.card}, audience={seat, other})
    if frame[2] > 1:
        s.frames.append(("give", seat, frame[2] - 1))


def _play(s: S, seat: int, action: A.Play) -> None:
    play_from_hand(s, seat, action.card)
    s.nobles_used[seat] += 1
    s.emit("play", seat, card=action.card)
    s.frames.append(("play", seat, action.card))
    open_window(s, seat, action.card, ("play",))


def _return(s: S, seat: int, action: A.Return) -> None:
    frame = s.frames.pop()
    s.hands[seat].remove(action.card)
    forget_one(s, seat, action.card in C.NOBLE_COUNTS)
    put_under(s, action.card, 1 << seat)  # face down: only its owner knows which it was
    kind = "noble" if action.card in C.NOBLE_COUNTS else "tower"
    s.emit("return", seat, deck=kind, secret={"card": action.card}, audience={seat})
    if frame[2] > 1:
        s.frames.append(("return", seat, frame[2] - 1, False))


SIMPLE_HANDLERS = {
    "buy": _buy,
    "exchange": _exchange,
    "draw": _draw,
    "noble": _draw_noble,
    "declare": _declare,
    "pass": _pass,
    "done": _done,
    "allow": _allow,
    "cancel": _cancel,
    "joust": _joust,
    "salvage": _salvage,
    "takeback": _takeback,
    "use": _use,
    "decline": _decline,
}
HANDLERS = {
    A.Simple: _simple,
    A.Put: _put,
    A.Take: _take,
    A.Build: _build,
    A.Extend: _extend,
    A.Complete: _complete,
    A.Collapse: _collapse,
    A.Give: _give,
    A.Play: _play,
    A.Return: _return,
    A.StoneCancel: _stone_cancel,
    A.Pick: _pick,
}


# ---------------------------------------------------------------------------- mechanisms
def play_from_hand(s: S, seat: int, card: int, seen: bool = True) -> None:
    """``card`` leaves ``seat``'s hand; ``seen=False``: spectators see only its back (a card
    of a trade), so they forget one known card of that back rather than that very card."""
    s.hands[seat].remove(card)
    if card in s.revealed[seat]:
        s.revealed[seat].remove(card)
    if not seen:
        _forget(s.shown, seat, card in C.NOBLE_COUNTS)
    elif card in s.shown[seat]:
        s.shown[seat].remove(card)


def show(s: S, seat: int, card: int) -> None:
    """``card`` joined ``seat``'s hand in plain sight: the opponent and spectators know it."""
    s.revealed[seat].append(card)
    s.shown[seat].append(card)


def put_under(s: S, card: int, seen: int) -> None:
    """Put ``card`` face down under its deck (noble or tower); ``seen`` has a bit for each
    seat that saw which card it was. Such a card keeps its place until it is drawn, so those
    seats know it is there (``observe``, ``determinize``)."""
    noble = card in C.NOBLE_COUNTS
    deck = s.noble_deck if noble else s.deck
    bottom = s.bottom_seen[noble]
    del bottom[len(deck):]  # entries of cards drawn since
    deck.insert(0, card)
    bottom.insert(0, seen)


def seen_at_bottom(s: S, noble: bool, index: int) -> int:
    """The seats (a bit each) that know the card at ``index`` of the deck (0 the bottom)."""
    bottom = s.bottom_seen[noble]
    return bottom[index] if 0 <= index < len(bottom) else 0


def known_from_bottom(s: S, seat: int, card: int, seen: int) -> None:
    """``seat`` drew blind a card put under the deck in sight of others: the opponent, if they
    saw it go under, knows it is in ``seat``'s hand now (and everyone, if both saw it)."""
    if seen >> (1 - seat) & 1:
        s.revealed[seat].append(card)
        if seen == 0b11:
            s.shown[seat].append(card)


def forget_one(s: S, seat: int, noble: bool) -> None:
    """A card of ``seat``'s hand left face down; only its deck (noble or tower) was seen.

    The opponent can no longer be sure of any one known card of that class: each kind of it
    they knew loses one copy, whichever card it really was, so the view tells nothing.
    """
    _forget(s.revealed, seat, noble)
    _forget(s.shown, seat, noble)


def _forget(known_lists: list[list[int]], seat: int, noble: bool) -> None:
    """Each kind of the class (noble or tower card) known in ``seat``'s hand loses one copy."""
    known = Counter(known_lists[seat])
    known_lists[seat] = [
        card for card, n in known.items()
        for _ in range(n - 1 if (card in C.NOBLE_COUNTS) == noble else n)
    ]


def tower_label(s: S, tower: Tower) -> str:
    index = [t.id for t in s.towers_of(tower.owner)].index(tower.id)
    return f"{tower.owner}.{index + 1}"


def open_window(s: S, seat: int, card: int, context: tuple) -> None:
    """The opponent may answer a noble card with jousting (always asked, see _defend_legal)."""
    s.frames.append(("window", 1 - seat, ((card, seat),), context))


def resolve_window(s: S, frame: tuple) -> None:
    """The last card of the chain stands; it cancels the one below it, and so on down."""
    chain, context = frame[2], frame[3]
    top = len(chain) - 1
    for index, (card, owner) in enumerate(chain):
        effective = index % 2 == top % 2
        if card == C.JOUSTING and effective:
            s.front[owner].append(card)
        elif not effective:
            s.nobles_used[owner] -= 1  # a cancelled card does not count as used
            s.removed.append(card)
            if card == C.JOUSTING or index > 0:
                continue
            s.emit("cancelled", owner, card=card)
            cancel_context(s, context)


def cancel_context(s: S, context: tuple) -> None:
    kind = context[0]
    if kind == "play":
        s.frames.pop()  # the ("play", ...) frame: its effect never happens
    elif kind == "extend":
        tower = s.tower_by_id(context[1])
        s.replace_tower(tower._replace(cards=tower.cards[1:]))
        frame = s.frames.pop()
        s.frames.append((*frame[:3], frame[3] - 1, True))
    elif kind == "build":
        frame = s.frames.pop()
        s.frames.append((*frame[:4], (*frame[4], context[1])))


def place_tower(s: S, seat: int, cards: tuple[int, ...]) -> None:
    tower = Tower(s.next_tower_id, seat, tuple(cards), in_end_phase=s.end_phase)
    s.next_tower_id += 1
    s.towers.append(tower)
    s.emit("built", seat, tower=tower_label(s, tower), cards=list(cards))
    check_tallest(s, tower)
    # *Reading*: a same-number tower "can use" its donation: the builder may decline an 8, 9
    # or 10 (5s, 6s and 7s have nothing to decide); not asked when it could do nothing
    if tower.same and not s.end_phase and donation_possible(s, tower):
        s.frames.append(("effect", seat, tower.id))


def donation_possible(s: S, tower: Tower) -> bool:
    number = tower.top
    if number == 8:
        return bool(s.deck) or any(c not in C.NOBLE_COUNTS for c in s.market)
    if number == 9:
        return bool(s.hands[0] or s.hands[1])  # even a taker of nothing gives back
    if number == 10:
        return bool(collapse_candidates(s, tower))
    return False


def take_back(s: S, seat: int, cards: tuple[int, ...]) -> None:
    for card in cards:
        s.hands[seat].append(C.LUXURY if card < 0 else card)
        show(s, seat, C.LUXURY if card < 0 else card)
    s.nobles_used[seat] -= sum(1 for c in cards if c < 0)
    s.emit("take_back", seat, cards=list(cards))


def check_tallest(s: S, tower: Tower) -> None:
    """Whoever makes a tower taller than every other tower takes the token (ties keep it)."""
    if s.token == tower.owner:
        return
    if all(t.height < tower.height for t in s.towers if t.id != tower.id):
        s.token = tower.owner
        s.emit("token", tower.owner)


def settle(s: S) -> None:
    """Run automatic steps until a decision is needed or the action is over."""
    while True:
        if not s.frames:
            if not s.over:
                end_action(s)
            return
        frame = s.frames[-1]
        kind = frame[0]
        if kind == "draw" and (frame[2] <= 0 or not _draw_legal(s, frame)) or kind == "give" and (frame[2] <= 0 or not s.hands[frame[1]]):
            s.frames.pop()
        elif kind == "build":
            _settle_build(s, frame)
        elif kind == "take":
            if _settle_take(s, frame):
                return
        elif kind == "play":
            s.frames.pop()
            noble_effect(s, frame[1], frame[2])
        else:
            return


def _settle_build(s: S, frame: tuple) -> None:
    _, seat, cards, windows_left, cancelled = frame
    if windows_left:
        s.frames[-1] = ("build", seat, cards, windows_left - 1, cancelled)
        stone_index = [i for i, c in enumerate(cards) if c < 0][windows_left - 1]
        open_window(s, seat, C.LUXURY, ("build", stone_index))
        return
    s.frames.pop()
    if not cancelled:
        place_tower(s, seat, cards)
        return
    rest = tuple(c for i, c in enumerate(cards) if i not in cancelled)
    if A.is_valid_build(rest):
        s.frames.append(("salvage", seat, rest))
    else:
        take_back(s, seat, rest)


def start_effect(s: S, seat: int, tower: Tower) -> None:
    """A new same-number tower's donation: 8 draws, 9 trades, 10 collapses (5-7 are passive)."""
    other = 1 - seat
    number = tower.top
    if number == 8:
        s.emit("donation", seat, number=8)
        s.frames.append(("draw", seat, tower.height, frozenset(), True, False, True))
    elif number == 9:
        s.emit("donation", seat, number=9)
        if s.hands[other]:
            s.frames.append(("defend", other, 9, tower.id))
        else:
            resolve_effect(s, 9, tower.id)
    elif number == 10:
        s.emit("donation", seat, number=10)
        chosen = [t.id for t in collapse_candidates(s, tower)]
        if len(chosen) > 1:
            s.frames.append(("collapse", seat, tuple(chosen)))
        elif chosen:
            aim_collapse(s, seat, s.tower_by_id(chosen[0]))


def collapse_candidates(s: S, tower: Tower) -> list[Tower]:
    """The towers a new 10-tower may collapse: the tallest that can fall, not above it."""
    candidates = [
        t for t in s.towers
        if t.id != tower.id and not t.completed and t.height <= tower.height
        and not (t.same and t.top == 6)
    ]
    if not candidates:
        return []
    tallest = max(t.height for t in candidates)
    return [t for t in candidates if t.height == tallest]


def aim_collapse(s: S, seat: int, target: Tower) -> None:
    # public: which tower the 10 falls on, before its owner decides whether to spend a 5
    s.emit("aim", seat, tower=tower_label(s, target), cards=list(target.cards))
    # the owner of the tower may answer with a 5, the builder too when it is their own tower
    if s.hands[target.owner]:
        s.frames.append(("defend", target.owner, 10, target.id))
    else:
        resolve_effect(s, 10, target.id)


def resolve_effect(s: S, number: int, tower_id: int) -> None:
    if number == 9:
        trade(s, s.tower_by_id(tower_id))
    else:
        collapse(s, s.tower_by_id(tower_id))


def trade(s: S, tower: Tower) -> None:
    """9: take as many cards as the tower is tall, unseen; give back height - 1 of your choice.

    *Reading*: noble cards have another back, so the taker chooses each card's back (``pick``);
    which card of that back comes is chance. ``settle`` takes on its own when one kind is left.
    """
    s.frames.append(("take", tower.owner, tower.height, tower.height - 1, ()))


def take_one(s: S, frame: tuple, noble: bool) -> None:
    _, seat, left, give, taken = frame
    other = 1 - seat
    rng = derive(s.seed, "trade", s.move_number, left)
    card = rng.choice(sorted(c for c in s.hands[other] if (c in C.NOBLE_COUNTS) == noble))
    play_from_hand(s, other, card, seen=False)
    s.hands[seat].append(card)
    s.revealed[seat].append(card)  # the victim knows it; spectators do not
    s.frames[-1] = ("take", seat, left - 1, give, (*taken, card))


def _settle_take(s: S, frame: tuple) -> bool:
    """Take on its own while only one kind of back is left; ``True`` when a pick is asked."""
    _, seat, left, give, taken = frame
    backs = hand_backs(s, 1 - seat)
    if left > 0 and backs[0] and backs[1]:
        return True
    if left > 0 and (backs[0] or backs[1]):
        take_one(s, frame, noble=not backs[0])
        return False
    s.frames.pop()
    nobles = sum(1 for c in taken if c in C.NOBLE_COUNTS)
    s.emit("trade", seat, count=len(taken), nobles=nobles, secret={"cards": list(taken)},
           audience={seat, 1 - seat})
    s.frames.append(("give", seat, give))
    return False


def collapse(s: S, tower: Tower) -> None:
    """10: the tower's cards go face up on top of the deck, smallest number on top."""
    s.towers.remove(tower)
    naturals = sorted((c for c in tower.cards if c > 0), reverse=True)
    del s.bottom_seen[0][len(s.deck):]  # entries of cards drawn since, before the top grows
    s.deck.extend(naturals)  # the deck's top is the list's end: the smallest lands on top
    s.deck_known += len(naturals)
    # *Reading*: a used noble may never return to a hand or the market, so luxury
    # stones from a collapsed tower leave the game
    s.removed += [C.LUXURY] * tower.luxury
    s.emit("collapse", tower.owner, cards=list(tower.cards))


def noble_effect(s: S, seat: int, card: int) -> None:
    if card == C.LUXURY:
        # a luxury stone played as a 5 stood: the 9 or 10 below it is cancelled
        defend = s.frames.pop()
        s.front[seat].append(card)
        s.emit("cancel", seat, number=defend[2], card=card)
    elif card == C.PILGRIMAGE:
        s.front[seat].append(card)
        room = s.hand_limit(seat) - len(s.hands[seat])
        s.frames.append(("draw", seat, room, frozenset(), False, True, True))
    elif card in (C.CITY_WALLS, C.SANTA_FINA):
        s.front[seat].append(card)
    elif card == C.ORDINANCE:
        if ordinance_void(s, seat):
            s.removed.append(card)
            s.frames.append(("return", seat, 2, True))
        else:
            s.front[seat].append(card)
            if len(s.hands[seat]) >= 2:
                s.frames.append(("return", seat, 2, False))
            else:
                # *Reading*: two cards or none, never one (the card's own words for the void
                # case); only jousting back can leave the owner with fewer than two
                s.emit("ordinance_no_return", seat, held=len(s.hands[seat]))


def end_action(s: S) -> None:
    """After a turn action: refill an empty market, enter the end phase if the deck is out."""
    if not s.market and not s.end_phase:
        for _ in range(min(C.MARKET_SIZE, len(s.deck))):
            s.market.append(s.deck.pop())
            s.deck_known = max(0, s.deck_known - 1)
        s.emit("refill", None, market=list(s.market))
    if not s.deck and not s.end_phase:
        s.end_phase = True
        s.emit("end_phase", None)
    s.turn = 1 - s.turn

