"""San Gimignano in words: every choice, prompt, log line, component and score, as messages.

The catalogs ``locale/en.po`` and ``locale/ja.po`` (domain ``san_gimignano``) give the text;
Japanese terms are the rulebook's (``shared/seeds/san-gimignano.ja.md``): 塔カード, 貴族カード,
塔コマ, 山札, 市場, 手札, 石材の購入, 石材の交換, 塔の建設, 塔の増築, 塔の完成, 終了宣言, 同色の塔,
多色の塔, 寄進 and the donations 契約 / 恩寵 / 増資 / 取引 / 陰謀. Where the rulebook's own name was
lost in conversion (the 5's donation, the height ordinance) the Japanese name is ours
(庇護, 高さ制限令).

Glossary keys, as the browser renderer (``server/static/render/san-gimignano.js``) names things:

=====================  ==========================================================
``card:5`` .. ``card:10``  a tower card by its number (the renderer's ``data-card``)
``card:L`` ``card:P`` ``card:J`` ``card:O`` ``card:F`` ``card:W``  a noble card by its
                        letter; a luxury stone standing for 9 is drawn as ``L9``: key ``card:L``
``donation:5`` .. ``donation:10``  the donation (寄進) of each number
``token``               the tallest-tower token (塔コマ)
``deck``, ``noble_deck``, ``market``, ``hand``  the decks, the market and a hand
``tower:same``, ``tower:multi``, ``tower:completed``  the kinds of tower, a completed one
=====================  ==========================================================

``why_illegal`` speaks to the seat to move (it may name that seat's own cards): show its
reason to that seat only. Prompt sections are the explicit ids of the headings of
``docs/rules/san-gimignano.md`` and ``san-gimignano.ja.md`` (``SECTIONS``;
``tests/server/base/test_pages.py`` checks that each exists in both).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import TYPE_CHECKING, Any

from palio.core.words import ActionWords, GameWords, GlossaryEntry, Msg, Player, Prompt, ScoreRow
from palio.games.san_gimignano import actions as A
from palio.games.san_gimignano import components as C
from palio.games.san_gimignano import rules
from palio.games.san_gimignano.scoring import score_breakdown

if TYPE_CHECKING:
    from palio.core.game import Action, State
    from palio.games.san_gimignano.state import SanGimignanoState, Tower

DOMAIN = "san_gimignano"

SECTIONS = {  # the explicit {#ids} of the headings, the same in both languages' pages
    "turn": "actions",
    "drawing": "drawing",
    "exchange": "exchange",
    "extend": "extend",
    "complete": "complete",
    "cancel": "donation-5",
    "trade": "donation-9",
    "collapse": "donation-10",
    "donations": "donations",
    "token": "token",
    "end": "end-phase",
    "scoring": "scoring",
    "nobles": "nobles",
}

NOBLE_LETTERS = {card: code for card, code in C.NOBLE_CODES.items()}
LETTER_NOBLES = {code: card for card, code in C.NOBLE_CODES.items()}


def m(key: str, **params: Any) -> Msg:
    """A message of this game's catalog."""
    return Msg(f"{DOMAIN}.{key}", params)


# -- components ------------------------------------------------------------------------------
def card(value: int) -> Msg:
    """A card held or shown: a tower card by number, a noble card by name; a negative number
    is a luxury stone standing for that number inside a tower."""
    if value < 0:
        return m("card.luxury_as", value=-value)
    if value in NOBLE_LETTERS:
        return m(f"noble.{NOBLE_LETTERS[value]}")
    return m("card.tower", value=value)


def card_code(code: str) -> Msg:
    """A card as an observation writes it: ``9``, ``L`` (a noble's letter) or ``L9``."""
    if code.isdigit():
        return card(int(code))
    if len(code) > 1:
        return card(-int(code[1:]))
    return card(LETTER_NOBLES[code])


def donation(number: int) -> Msg:
    return m(f"donation.{number}")


def tower_kind(values: Sequence[int]) -> Msg:
    """A tower by its shape: "a tower of 9s, 3 high" / "a multi-number tower 6 to 8"."""
    numbers = [abs(v) for v in values]
    if len(set(numbers)) == 1:
        return m("tower.same", number=numbers[0], height=len(numbers))
    return m("tower.multi", top=numbers[0], bottom=numbers[-1], height=len(numbers))


def tower_index(s: SanGimignanoState, tower: Tower) -> int:
    """A tower's number among its owner's towers, from 1 (as the notation counts them)."""
    return [t.id for t in s.towers_of(tower.owner)].index(tower.id) + 1


def chain(items: Sequence[Msg], key: str = "join") -> Msg:
    """Messages run together the language's way: sentences (``join``) or a list of cards
    (``list``), without the "and" of a prose list."""
    if not items:
        return Msg("core.none")
    out = items[-1]
    for item in reversed(items[:-1]):
        out = m(key, first=item, rest=out)
    return out


def card_list(values: Sequence[int]) -> Msg:
    return chain([card(v) for v in values], "list")


def code_list(codes: Sequence[str]) -> Msg:
    return chain([card_code(c) for c in codes], "list")


def _label_ref(text: Any) -> tuple[int, int] | None:
    """The owner and 1-based number of a tower label ``"owner.n"`` written in an event."""
    if not isinstance(text, str) or "." not in text:
        return None
    owner, _, index = text.partition(".")
    return (int(owner), int(index)) if owner.isdigit() and index.isdigit() else None


# -- the words of the game ------------------------------------------------------------------
class SanGimignanoWords(GameWords):
    domain = DOMAIN

    # actions ------------------------------------------------------------------------------
    def action(self, state: State, action: Action) -> ActionWords:
        s: SanGimignanoState = state  # type: ignore[assignment]
        seat = s.to_move
        assert seat is not None
        frame = s.frames[-1] if s.frames else None
        describe = _ACTION_WORDS[type(action)]
        label, explain, group = describe(s, seat, frame, action)
        return ActionWords(label, explain, group)

    # the decision now ---------------------------------------------------------------------
    def prompt(self, state: State) -> Prompt:
        s: SanGimignanoState = state  # type: ignore[assignment]
        seat = s.to_move
        assert seat is not None
        who = Player(seat)
        if not s.frames:
            phase = "prompt.turn_end_phase" if s.end_phase else "prompt.turn"
            return Prompt(m(f"{phase}.you"), m(f"{phase}.other", player=who), SECTIONS["turn"])
        frame = s.frames[-1]
        kind = frame[0]
        other = Player(1 - seat)
        if kind == "draw":
            left = frame[2]
            return Prompt(
                m("prompt.draw.you", n=left),
                m("prompt.draw.other", player=who, n=left),
                SECTIONS["drawing"],
            )
        if kind == "put":
            put = len(frame[2])
            return Prompt(
                m("prompt.put.you", n=put), m("prompt.put.other", player=who), SECTIONS["exchange"]
            )
        if kind == "extend":
            tower = s.tower_by_id(frame[2])
            return Prompt(
                m("prompt.extend.you", index=tower_index(s, tower)),
                m(
                    "prompt.extend.other",
                    player=who,
                    index=tower_index(s, tower),
                    kind=tower_kind(tower.cards),
                ),
                SECTIONS["extend"],
            )
        if kind == "effect":
            tower = s.tower_by_id(frame[2])
            number = tower.top
            return Prompt(
                m(
                    "prompt.effect.you",
                    index=tower_index(s, tower),
                    donation=donation(number),
                    effect=_donation_effect(s, seat, number, tower.height, exclude=tower),
                ),
                m("prompt.effect.other", player=who, donation=donation(number)),
                SECTIONS["donations"],
            )
        if kind == "take":
            left = frame[2]
            return Prompt(
                m("prompt.take.you", n=left, player=other),
                m("prompt.take.other", player=who, n=left, other=other),
                SECTIONS["trade"],
            )
        if kind == "complete":
            return Prompt(
                m("prompt.complete.you"),
                m("prompt.complete.other", player=who),
                SECTIONS["complete"],
            )
        if kind == "salvage":
            return Prompt(
                m("prompt.salvage.you", cards=card_list(frame[2])),
                m("prompt.salvage.other", player=who),
                SECTIONS["nobles"],
            )
        if kind == "defend":
            number, tower_id = frame[2], frame[3]
            if number == 9:
                count = min(s.tower_by_id(tower_id).height, len(s.hands[seat]))
                return Prompt(
                    m("prompt.defend_trade.you", player=other, n=count),
                    m("prompt.defend.other", player=who, donation=donation(9)),
                    SECTIONS["cancel"],
                )
            target = s.tower_by_id(tower_id)
            return Prompt(
                m(
                    "prompt.defend_collapse.you",
                    index=tower_index(s, target),
                    kind=tower_kind(target.cards),
                ),
                m(
                    "prompt.defend_collapse.other",
                    player=who,
                    index=tower_index(s, target),
                    kind=tower_kind(target.cards),
                ),
                SECTIONS["cancel"],
            )
        if kind == "collapse":
            return Prompt(
                m("prompt.collapse.you"),
                m("prompt.collapse.other", player=who),
                SECTIONS["collapse"],
            )
        if kind == "give":
            left = frame[2]
            return Prompt(
                m("prompt.give.you", n=left, player=other),
                m("prompt.give.other", player=who, n=left),
                SECTIONS["trade"],
            )
        if kind == "window":
            played, owner = frame[2][-1]
            return Prompt(
                m("prompt.window.you", player=Player(owner), card=card(played)),
                m("prompt.window.other", player=who, card=card(played)),
                SECTIONS["nobles"],
            )
        # "return": the height ordinance
        left, optional = frame[2], frame[3]
        if optional:
            return Prompt(
                m("prompt.return_optional.you"),
                m("prompt.return.other", player=who, n=left),
                SECTIONS["nobles"],
            )
        return Prompt(
            m("prompt.return.you", n=left),
            m("prompt.return.other", player=who, n=left),
            SECTIONS["nobles"],
        )

    # the log ------------------------------------------------------------------------------
    def event(self, event: Mapping[str, Any]) -> Msg | None:
        kind = event["kind"]
        seat = event.get("seat")
        who = Player(seat) if seat is not None else None
        describe = _EVENT_WORDS.get(kind)
        if describe is None:
            return m("log.unknown")
        return describe(event, who)

    # components ---------------------------------------------------------------------------
    def glossary(self) -> Sequence[GlossaryEntry]:
        out = [
            GlossaryEntry(
                f"card:{v}",
                m("glossary.tower_card.name", value=v),
                m(
                    "glossary.tower_card.text",
                    value=v,
                    count=C.TOWER_COUNTS[v],
                    donation=donation(v),
                ),
            )
            for v in C.TOWER_VALUES
        ]
        for noble, code in C.NOBLE_CODES.items():
            out.append(
                GlossaryEntry(
                    f"card:{code}",
                    m(f"noble.{code}"),
                    m(f"glossary.noble.{code}", count=C.NOBLE_COUNTS[noble]),
                )
            )
        for v in C.TOWER_VALUES:
            out.append(
                GlossaryEntry(
                    f"donation:{v}",
                    m("glossary.donation.name", value=v, donation=donation(v)),
                    m(f"glossary.donation.{v}"),
                )
            )
        for key in (
            "token",
            "deck",
            "noble_deck",
            "market",
            "hand",
            "tower:same",
            "tower:multi",
            "tower:completed",
        ):
            slug = key.replace(":", "_")
            out.append(GlossaryEntry(key, m(f"glossary.{slug}.name"), m(f"glossary.{slug}.text")))
        return out

    # scores -------------------------------------------------------------------------------
    def scores(self, state: State) -> list[ScoreRow]:
        s: SanGimignanoState = state  # type: ignore[assignment]
        parts = score_breakdown(s)
        keys = ["completed", "grace", "same_number", "multi_number", "token"]
        if s.nobles:
            keys.append("santa_fina")
        return [ScoreRow(m(f"score.{key}"), tuple(int(p[key]) for p in parts)) for key in keys]

    def outcomes(self, state: State, seat: int) -> list[Msg]:
        """The towers ``seat`` completed, the tallest-tower token held, and each number whose
        tallest same-number tower is ``seat``'s (a tie counts, as in scoring): all on the
        table in plain view."""
        s: SanGimignanoState = state  # type: ignore[assignment]
        out: list[Msg] = []
        completed = sum(t.completed for t in s.towers_of(seat))
        if completed:
            out.append(m("outcome.completed", n=completed))
        if s.token == seat:
            out.append(m("outcome.token"))
        tallest: dict[int, list[int]] = {}
        for tower in s.towers:
            if tower.same:
                heights = tallest.setdefault(tower.top, [0, 0])
                heights[tower.owner] = max(heights[tower.owner], tower.height)
        out.extend(m("outcome.tallest_same", number=number)
                   for number, heights in sorted(tallest.items())
                   if heights[seat] and heights[seat] == max(heights))
        return out

    # why not ------------------------------------------------------------------------------
    def why_illegal(self, state: State, action: Action) -> Msg | None:
        s: SanGimignanoState = state  # type: ignore[assignment]
        if s.is_over:
            return m("why.over")
        seat = s.to_move
        assert seat is not None
        if s.frames:
            return _why_in_frame(s, seat, s.frames[-1], action)
        return _why_turn(s, seat, action)

    # the terminal picture -----------------------------------------------------------------
    def board(self, state: State, seat: int | None) -> list[Msg]:
        s: SanGimignanoState = state  # type: ignore[assignment]
        view = s.observe(seat)
        lines: list[Msg] = []
        if view["over"]:
            lines.append(m("board.title_over", move=view["move"]))
        else:
            phase = "board.title_end_phase" if view["end_phase"] else "board.title"
            lines.append(m(phase, move=view["move"], player=Player(view["turn"])))
        if view["deck_face_up"]:
            lines.append(
                m("board.deck_face_up", n=view["deck_size"], cards=code_list(view["deck_face_up"]))
            )
        else:
            lines.append(m("board.deck", n=view["deck_size"]))
        if view["nobles"]:
            lines.append(m("board.noble_deck", n=view["noble_deck_size"]))
        if view["market"]:
            lines.append(m("board.market", cards=code_list(view["market"])))
        else:
            lines.append(m("board.market_empty"))
        if view["removed"]:
            lines.append(m("board.removed", cards=code_list(view["removed"])))
        scores = s.scores()
        for p, player in enumerate(view["players"]):
            lines.extend(_player_lines(view, p, player, seat, int(scores[p])))
        if not s.over:
            lines.append(m("board.now", what=self.prompt(s).for_viewer(seat, s.to_move)))
        return lines


# -- the player's part of the board --------------------------------------------------------------
def _player_lines(
    view: dict[str, Any], p: int, player: dict[str, Any], seat: int | None, points: int
) -> list[Msg]:
    who = Player(p)
    lines = [m("board.player", player=who, points=points)]
    if view["token"] == p:
        lines.append(m("board.token"))
    if "hand" in player:
        lines.append(
            m(
                "board.hand_own",
                n=len(player["hand"]),
                limit=player["hand_limit"],
                cards=code_list(player["hand"]),
            )
        )
    elif player["known_hand"]:
        lines.append(
            m(
                "board.hand_known",
                n=player["hand_size"],
                limit=player["hand_limit"],
                cards=code_list(player["known_hand"]),
            )
        )
    else:
        lines.append(m("board.hand_hidden", n=player["hand_size"], limit=player["hand_limit"]))
    if view["nobles"]:
        lines.append(m("board.nobles", used=player["nobles_used"], held=player["nobles_in_hand"]))
        if player["front"]:
            lines.append(m("board.front", cards=code_list(player["front"])))
    if not player["towers"]:
        lines.append(m("board.no_towers"))
    for index, tower in enumerate(player["towers"], 1):
        values = [-int(c[1:]) if c.startswith("L") else int(c) for c in tower["cards"]]
        line = "board.tower_completed" if tower["completed"] else "board.tower"
        lines.append(m(line, index=index, kind=tower_kind(values), cards=card_list(values)))
    return lines


# -- actions, one describer per kind: (state, seat, top frame or None, action) -> words ----------
def _turn_group() -> Msg:
    return m("group.turn")


def _simple(s: SanGimignanoState, seat: int, frame: tuple | None, a: A.Simple):
    return _SIMPLE_WORDS[a.word](s, seat, frame)


def _buy(s: SanGimignanoState, seat: int, frame: tuple | None):
    n = rules.buy_count(s)
    hand = len(s.hands[seat])
    return (
        m("act.buy", n=n),
        m("explain.buy", n=n, before=hand, after=hand + n, limit=s.hand_limit(seat)),
        _turn_group(),
    )


def _exchange(s: SanGimignanoState, seat: int, frame: tuple | None):
    return m("act.exchange"), m("explain.exchange", hand=len(s.hands[seat])), _turn_group()


def _declare(s: SanGimignanoState, seat: int, frame: tuple | None):
    done = sum(t.completed for t in s.towers_of(seat))
    return m("act.declare"), m("explain.declare", n=done), _turn_group()


def _pass(s: SanGimignanoState, seat: int, frame: tuple | None):
    if s.passes >= 1:
        return m("act.pass"), m("explain.pass_ends", player=Player(1 - seat)), _turn_group()
    return m("act.pass"), m("explain.pass"), _turn_group()


def _draw(s: SanGimignanoState, seat: int, frame: tuple | None):
    assert frame is not None
    group = m("group.draw")
    if s.deck_known:
        return (
            m("act.draw_face_up", card=card(s.deck[-1])),
            m("explain.draw_face_up", card=card(s.deck[-1])),
            group,
        )
    return m("act.draw"), m("explain.draw", n=len(s.deck), left=frame[2] - 1), group


def _draw_noble(s: SanGimignanoState, seat: int, frame: tuple | None):
    assert frame is not None
    return (
        m("act.draw_noble"),
        m("explain.draw_noble", n=len(s.noble_deck), left=frame[2] - 1),
        m("group.draw"),
    )


def _done(s: SanGimignanoState, seat: int, frame: tuple | None):
    assert frame is not None
    kind = frame[0]
    if kind == "put":
        put = len(frame[2])
        return m("act.done_put"), m("explain.done_put", n=put), m("group.exchange")
    if kind == "extend":
        placed = frame[3]
        tower = s.tower_by_id(frame[2])
        if not placed:
            return (
                m("act.done_extend"),
                m("explain.done_extend_nothing", height=tower.height),
                m("group.extend"),
            )
        if s.end_phase:
            return (
                m("act.done_extend"),
                m("explain.done_extend_no_draw", height=tower.height),
                m("group.extend"),
            )
        return (
            m("act.done_extend"),
            m("explain.done_extend", n=placed, height=tower.height),
            m("group.extend"),
        )
    if kind == "complete":
        return m("act.done_complete"), m("explain.done_complete"), m("group.complete")
    # "return" (optional, height ordinance already beaten): keep both cards
    return m("act.return_none"), m("explain.return_none"), m("group.return")


def _allow(s: SanGimignanoState, seat: int, frame: tuple | None):
    assert frame is not None
    if frame[0] == "defend":
        number = frame[2]
        if number == 9:
            count = min(s.tower_by_id(frame[3]).height, len(s.hands[seat]))
            return (
                m("act.allow_donation", donation=donation(9)),
                m("explain.allow_trade", player=Player(1 - seat), n=count),
                m("group.answer"),
            )
        target = s.tower_by_id(frame[3])
        return (
            m("act.allow_donation", donation=donation(10)),
            m(
                "explain.allow_collapse",
                index=tower_index(s, target),
                kind=tower_kind(target.cards),
            ),
            m("group.answer"),
        )
    played, owner = frame[2][-1]
    return (
        m("act.allow_noble", card=card(played)),
        m("explain.allow_noble", card=card(played), player=Player(owner)),
        m("group.answer"),
    )


def _cancel(s: SanGimignanoState, seat: int, frame: tuple | None):
    assert frame is not None
    number = frame[2]
    return (
        m("act.cancel", donation=donation(number)),
        m("explain.cancel", donation=donation(number)),
        m("group.answer"),
    )


def _joust(s: SanGimignanoState, seat: int, frame: tuple | None):
    assert frame is not None
    played, owner = frame[2][-1]
    return (
        m("act.joust", card=card(played)),
        m("explain.joust", card=card(played), player=Player(owner)),
        m("group.answer"),
    )


def _salvage(s: SanGimignanoState, seat: int, frame: tuple | None):
    assert frame is not None
    rest = frame[2]
    return (
        m("act.salvage", kind=tower_kind(rest)),
        m("explain.salvage", cards=card_list(rest)),
        m("group.nobles"),
    )


def _takeback(s: SanGimignanoState, seat: int, frame: tuple | None):
    assert frame is not None
    if frame[0] == "extend":
        tower = s.tower_by_id(frame[2])
        back = tower.cards[: frame[3]]
        return (
            m("act.takeback"),
            m("explain.takeback_extend", cards=card_list(back)),
            m("group.nobles"),
        )
    return m("act.takeback"), m("explain.takeback", cards=card_list(frame[2])), m("group.nobles")


def _use(s: SanGimignanoState, seat: int, frame: tuple | None):
    assert frame is not None
    tower = s.tower_by_id(frame[2])
    number = tower.top
    return (
        m("act.use", donation=donation(number)),
        _donation_effect(s, seat, number, tower.height, exclude=tower),
        m("group.donation"),
    )


def _decline(s: SanGimignanoState, seat: int, frame: tuple | None):
    assert frame is not None
    number = s.tower_by_id(frame[2]).top
    return (
        m("act.decline", donation=donation(number)),
        m("explain.decline", donation=donation(number)),
        m("group.donation"),
    )


_SIMPLE_WORDS = {
    "buy": _buy,
    "exchange": _exchange,
    "declare": _declare,
    "pass": _pass,
    "draw": _draw,
    "noble": _draw_noble,
    "done": _done,
    "allow": _allow,
    "cancel": _cancel,
    "joust": _joust,
    "salvage": _salvage,
    "takeback": _takeback,
    "use": _use,
    "decline": _decline,
}


def _put(s: SanGimignanoState, seat: int, frame: tuple | None, a: A.Put):
    assert frame is not None
    put = len(frame[2]) + 1
    return (
        m("act.put", card=card(a.card)),
        m("explain.put", card=card(a.card), n=put),
        m("group.exchange"),
    )


def _take(s: SanGimignanoState, seat: int, frame: tuple | None, a: A.Take):
    assert frame is not None
    return (
        m("act.take", card=card(a.card)),
        m("explain.take", card=card(a.card), left=frame[2] - 1),
        m("group.draw"),
    )


def _give(s: SanGimignanoState, seat: int, frame: tuple | None, a: A.Give):
    assert frame is not None
    return (
        m("act.give", card=card(a.card)),
        m("explain.give", card=card(a.card), player=Player(1 - seat), left=frame[2] - 1),
        m("group.give"),
    )


def _return(s: SanGimignanoState, seat: int, frame: tuple | None, a: A.Return):
    assert frame is not None
    deck = "deck.noble" if a.card in C.NOBLE_COUNTS else "deck.tower"
    return (
        m("act.return", card=card(a.card), deck=m(deck)),
        m("explain.return", card=card(a.card), deck=m(deck), left=frame[2] - 1),
        m("group.return"),
    )


def _play(s: SanGimignanoState, seat: int, frame: tuple | None, a: A.Play):
    if a.card == C.ORDINANCE and rules.ordinance_void(s, seat):
        explain = m("explain.play.O_void", player=Player(1 - seat))
    elif a.card == C.ORDINANCE:
        explain = m("explain.play.O", player=Player(1 - seat), height=s.tallest(seat))
    elif a.card == C.PILGRIMAGE:
        room = s.hand_limit(seat) - (len(s.hands[seat]) - 1)
        explain = m("explain.play.P", n=room)
    elif a.card == C.SANTA_FINA:
        tall = sum(t.height >= C.SANTA_FINA_MIN_HEIGHT for t in s.towers_of(seat))
        explain = m("explain.play.F", n=tall, points=tall * C.SANTA_FINA_VP)
    else:
        explain = m("explain.play.W")
    return (
        m("act.play", card=card(a.card)),
        m("explain.play.note", effect=explain, player=Player(1 - seat)),
        m("group.nobles"),
    )


def _build(s: SanGimignanoState, seat: int, frame: tuple | None, a: A.Build):
    if a.luxury:
        label = m("act.build_luxury", kind=tower_kind(a.cards), cards=card_list(a.cards))
    else:
        label = m("act.build", kind=tower_kind(a.cards))
    effects: list[Msg] = []
    height = len(a.cards)
    if all(t.height < height for t in s.towers) and s.token != seat:
        effects.append(m("effect.token"))
    if a.same and not s.end_phase:
        effects.append(_donation_effect(s, seat, abs(a.cards[0]), height))
        if abs(a.cards[0]) in (8, 9, 10):
            effects.append(m("effect.donation_optional"))
    elif a.same:
        effects.append(m("effect.no_donation_end_phase"))
    else:
        effects.append(m("effect.multi"))
    if a.luxury:
        effects.append(m("effect.luxury", n=a.luxury, player=Player(1 - seat)))
    explain = m("explain.build", n=height, effects=chain(effects))
    return label, explain, m("group.build")


def _donation_effect(
    s: SanGimignanoState, seat: int, number: int, height: int, exclude: Tower | None = None
) -> Msg:
    """What the donation of a new same-number tower of ``number`` does right now (``exclude``:
    the new tower itself, once built)."""
    other = 1 - seat
    if number == 5:
        return m("effect.donation_5")
    if number == 6:
        return m("effect.donation_6")
    if number == 7:
        return m("effect.donation_7", points=C.GRACE_VP_PER_LEVEL * height)
    if number == 8:
        return m("effect.donation_8", n=height)
    if number == 9:
        taken = min(height, len(s.hands[other]))
        return m("effect.donation_9", player=Player(other), n=taken, back=height - 1)
    candidates = [
        t
        for t in s.towers
        if not t.completed
        and t.height <= height
        and not (t.same and t.top == 6)
        and (exclude is None or t.id != exclude.id)
    ]
    if not candidates:
        return m("effect.donation_10_none")
    tallest = max(t.height for t in candidates)
    chosen = [t for t in candidates if t.height == tallest]
    if len(chosen) > 1:
        return m("effect.donation_10_choice", n=len(chosen), height=tallest)
    target = chosen[0]
    if target.owner == seat:
        return m(
            "effect.donation_10_own", index=tower_index(s, target), kind=tower_kind(target.cards)
        )
    return m(
        "effect.donation_10",
        index=tower_index(s, target),
        player=Player(target.owner),
        kind=tower_kind(target.cards),
    )


def _extend(s: SanGimignanoState, seat: int, frame: tuple | None, a: A.Extend):
    tower = s.towers_of(seat)[a.tower]
    value = tower.top if tower.same else tower.top - 1
    placed = -value if a.card == C.LUXURY else value
    label = m("act.extend", card=card(placed), index=a.tower + 1, kind=tower_kind(tower.cards))
    effects: list[Msg] = []
    height = tower.height + 1
    if s.token != seat and all(t.height < height for t in s.towers if t.id != tower.id):
        effects.append(m("effect.token"))
    if s.end_phase:
        effects.append(m("effect.no_draw_end_phase"))
    else:
        effects.append(
            m("effect.draw_after", n=1 + (frame[3] if frame and frame[0] == "extend" else 0))
        )
    if a.card == C.LUXURY:
        effects.append(m("effect.luxury", n=1, player=Player(1 - seat)))
    explain = m("explain.extend", height=height, effects=chain(effects))
    return label, explain, m("group.extend")


def _complete(s: SanGimignanoState, seat: int, frame: tuple | None, a: A.Complete):
    tower = s.towers_of(seat)[a.tower]
    return (
        m("act.complete", index=a.tower + 1, kind=tower_kind(tower.cards)),
        m("explain.complete", points=C.COMPLETED_VP),
        m("group.complete"),
    )


def _collapse(s: SanGimignanoState, seat: int, frame: tuple | None, a: A.Collapse):
    owner = seat if a.own else 1 - seat
    tower = s.towers_of(owner)[a.tower]
    key = "act.collapse_own" if a.own else "act.collapse_other"
    return (
        m(key, index=a.tower + 1, kind=tower_kind(tower.cards), player=Player(owner)),
        m("explain.collapse", cards=card_list(tower.cards), player=Player(owner)),
        m("group.collapse"),
    )


def _stone_cancel(s: SanGimignanoState, seat: int, frame: tuple | None, a: A.StoneCancel):
    assert frame is not None
    number = frame[2]
    return (
        m("act.cancel_stone", donation=donation(number)),
        m("explain.cancel_stone", donation=donation(number), player=Player(1 - seat)),
        m("group.answer"),
    )


def _pick(s: SanGimignanoState, seat: int, frame: tuple | None, a: A.Pick):
    towers, nobles = rules.hand_backs(s, 1 - seat)
    key = "noble" if a.noble else "tower"
    return (
        m(f"act.pick_{key}"),
        m(f"explain.pick_{key}", n=nobles if a.noble else towers, player=Player(1 - seat)),
        m("group.donation"),
    )


_ACTION_WORDS = {
    A.StoneCancel: _stone_cancel,
    A.Pick: _pick,
    A.Simple: _simple,
    A.Put: _put,
    A.Take: _take,
    A.Give: _give,
    A.Return: _return,
    A.Play: _play,
    A.Build: _build,
    A.Extend: _extend,
    A.Complete: _complete,
    A.Collapse: _collapse,
}


# -- why an action is not legal now ------------------------------------------------------------
_FRAME_ACTIONS = {
    "draw": "why.must_draw",
    "put": "why.must_put",
    "extend": "why.must_extend",
    "complete": "why.must_complete",
    "salvage": "why.must_salvage",
    "defend": "why.must_answer",
    "collapse": "why.must_collapse",
    "give": "why.must_give",
    "window": "why.must_answer",
    "return": "why.must_return",
    "effect": "why.must_donate",
    "take": "why.must_pick",
}


def _why_in_frame(s: SanGimignanoState, seat: int, frame: tuple, action: Action) -> Msg | None:
    kind = frame[0]
    hand = s.hands[seat]
    if kind == "draw" and isinstance(action, A.Take):
        if action.card not in s.market:
            return m("why.not_in_market", card=card(action.card))
        if action.card in frame[3]:
            return m("why.put_kind", card=card(action.card))
        if action.card in C.NOBLE_COUNTS:
            return m("why.noble_not_drawn_here")
        return m("why.market_closed")
    if kind == "draw" and action == A.DRAW and not s.deck:
        return m("why.deck_empty")
    if kind == "draw" and action == A.DRAW_NOBLE:
        return m("why.no_noble_draw") if s.noble_deck else m("why.noble_deck_empty")
    if (
        kind in ("put", "give", "return")
        and isinstance(action, A.Put | A.Give | A.Return)
        and getattr(action, "card", None) not in hand
    ):
        return m("why.not_in_hand", card=card(action.card))
    if kind == "put" and action == A.DONE:
        return m("why.put_two")
    if kind == "window" and action == A.JOUST:
        if C.JOUSTING not in hand:
            return m("why.no_jousting")
        return m("why.noble_limit")
    if kind == "defend" and action == A.CANCEL:
        return m("why.no_five")
    if kind == "defend" and action == A.CANCEL_STONE:
        if not s.nobles or C.LUXURY not in hand:
            return m("why.no_stone")
        return m("why.noble_limit")
    if kind == "take" and isinstance(action, A.Pick):
        return m("why.no_such_back")
    if kind == "extend" and isinstance(action, A.Extend):
        return _why_extend(s, seat, action, only=frame[2])
    return m(_FRAME_ACTIONS[kind])


def _why_turn(s: SanGimignanoState, seat: int, action: Action) -> Msg | None:
    hand = s.hands[seat]
    if action in (A.BUY, A.EXCHANGE) and s.end_phase:
        return m("why.end_phase_closed")
    if action == A.BUY:
        if not s.deck:
            return m("why.deck_empty")
        return m("why.hand_limit", n=rules.buy_count(s), limit=s.hand_limit(seat), hand=len(hand))
    if action == A.EXCHANGE:
        return m("why.exchange_short") if len(hand) >= 2 else m("why.exchange_two")
    if action == A.DECLARE:
        if s.end_phase:
            return m("why.already_end_phase")
        done = sum(t.completed for t in s.towers_of(seat))
        return m("why.declare_four", n=done)
    if isinstance(action, A.Complete):
        towers = s.towers_of(seat)
        if s.end_phase:
            return m("why.end_phase_complete")
        if action.tower >= len(towers):
            return m("why.no_such_tower", index=action.tower + 1, n=len(towers))
        return m("why.already_completed", index=action.tower + 1)
    if isinstance(action, A.Extend):
        return _why_extend(s, seat, action, only=None)
    if isinstance(action, A.Build):
        return _why_build(s, seat, action)
    if isinstance(action, A.Play):
        if not s.nobles:
            return m("why.no_nobles")
        if action.card not in hand:
            return m("why.not_in_hand", card=card(action.card))
        if not rules.may_use_nobles(s, seat, 1):
            return m("why.noble_limit")
        if action.card == C.PILGRIMAGE:
            return m("why.pilgrimage_end_phase")
        return m("why.ordinance_two")
    if isinstance(
        action, A.Simple | A.Put | A.Take | A.Give | A.Return | A.Collapse | A.StoneCancel | A.Pick
    ):
        return m("why.not_in_turn")
    return None


def _why_extend(s: SanGimignanoState, seat: int, action: A.Extend, only: int | None) -> Msg | None:
    towers = s.towers_of(seat)
    if action.tower >= len(towers):
        return m("why.no_such_tower", index=action.tower + 1, n=len(towers))
    tower = towers[action.tower]
    if only is not None and tower.id != only:
        return m("why.same_tower", index=tower_index(s, s.tower_by_id(only)))
    if tower.completed:
        return m("why.already_completed", index=action.tower + 1)
    need = tower.top if tower.same else tower.top - 1
    if action.card == C.LUXURY:
        if not s.nobles or C.LUXURY not in s.hands[seat]:
            return m("why.not_in_hand", card=card(C.LUXURY))
        if need < C.MULTI_LOW:
            return m("why.run_ends", index=action.tower + 1)
        if not rules.may_use_nobles(s, seat, 1):
            return m("why.noble_limit")
    elif action.card != need:
        if need < C.MULTI_LOW:
            return m("why.run_ends", index=action.tower + 1)
        return m("why.extend_needs", index=action.tower + 1, card=card(need))
    elif need not in s.hands[seat]:
        return m("why.not_in_hand", card=card(need))
    cap = rules.height_cap(s, seat)
    if tower.height + 1 > cap:
        return m("why.ordinance", player=Player(1 - seat), height=cap)
    return None


def _why_build(s: SanGimignanoState, seat: int, action: A.Build) -> Msg | None:
    from collections import Counter

    need = Counter(C.LUXURY if c < 0 else c for c in action.cards)
    have = Counter(s.hands[seat])
    missing = need - have
    if missing:
        return m("why.build_missing", cards=card_list(sorted(missing.elements())))
    if action.luxury:
        if not s.nobles:
            return m("why.no_nobles")
        if not rules.may_use_nobles(s, seat, action.luxury):
            return m("why.noble_limit")
    cap = rules.height_cap(s, seat)
    if len(action.cards) > cap:
        return m("why.ordinance", player=Player(1 - seat), height=cap)
    return None


# -- the log, one describer per event kind: (event view, acting seat) -> message -----------------
def _ev_setup(e: Mapping[str, Any], who: Player | None) -> Msg:
    key = "log.setup_nobles" if e.get("nobles") else "log.setup"
    return m(key, cards=card_list(sorted(e.get("market", []))))


def _ev_card(key: str, hidden_key: str):
    def describe(e: Mapping[str, Any], who: Player | None) -> Msg:
        if e.get("card") is None:
            return m(hidden_key, player=who)
        return m(key, player=who, card=card(e["card"]))

    return describe


def _ev_draw(e: Mapping[str, Any], who: Player | None) -> Msg:
    if e.get("card") is None:
        return m("log.draw_hidden", player=who)
    if e.get("face_up"):
        return m("log.draw_face_up", player=who, card=card(e["card"]))
    return m("log.draw", player=who, card=card(e["card"]))


def _ev_build(e: Mapping[str, Any], who: Player | None) -> Msg | None:
    built = e.get("cards", [])
    if not any(v < 0 for v in built):
        return None  # the "built" line follows at once
    return m("log.build_luxury", player=who, kind=tower_kind(built), cards=card_list(built))


def _tower_in(e: Mapping[str, Any]) -> int:
    ref = _label_ref(e.get("tower"))
    return ref[1] if ref else 0


def _ev_built(e: Mapping[str, Any], who: Player | None) -> Msg:
    built = e.get("cards", [])
    return m(
        "log.built", player=who, index=_tower_in(e), kind=tower_kind(built), cards=card_list(built)
    )


def _ev_extend(e: Mapping[str, Any], who: Player | None) -> Msg:
    return m("log.extend", player=who, card=card(e["card"]), index=_tower_in(e))


def _ev_extended(e: Mapping[str, Any], who: Player | None) -> Msg:
    return m("log.extended", player=who, index=_tower_in(e), height=e.get("height", 0))


def _ev_complete(e: Mapping[str, Any], who: Player | None) -> Msg:
    return m("log.complete", player=who, index=_tower_in(e))


def _ev_donation(e: Mapping[str, Any], who: Player | None) -> Msg:
    number = e.get("number", 0)
    return m("log.donation", player=who, number=number, donation=donation(number))


def _ev_cancel(e: Mapping[str, Any], who: Player | None) -> Msg:
    if e.get("card") == C.LUXURY:
        return m("log.cancel_stone", player=who, donation=donation(e.get("number", 0)))
    return m("log.cancel", player=who, donation=donation(e.get("number", 0)))


def _ev_play(e: Mapping[str, Any], who: Player | None) -> Msg:
    if e.get("against"):
        return m("log.play_stone", player=who, donation=donation(e["against"]))
    return m("log.play", player=who, card=card(e["card"]))


def _ev_aim(e: Mapping[str, Any], who: Player | None) -> Msg:
    ref = _label_ref(e.get("tower"))
    owner, index = ref if ref else (0, 0)
    kind = tower_kind(e.get("cards", []))
    if who is not None and owner == who.seat:
        return m("log.aim_own", player=who, index=index, kind=kind)
    return m("log.aim", player=who, owner=Player(owner), index=index, kind=kind)


def _ev_decline(e: Mapping[str, Any], who: Player | None) -> Msg:
    number = e.get("number", 0)
    return m("log.decline", player=who, donation=donation(number), index=_tower_in(e))


def _ev_trade(e: Mapping[str, Any], who: Player | None) -> Msg:
    assert who is not None
    other = Player(1 - who.seat)
    if "cards" in e:
        return m(
            "log.trade_seen",
            player=who,
            other=other,
            n=e.get("count", 0),
            cards=card_list(e["cards"]),
        )
    if e.get("nobles"):
        return m("log.trade_nobles", player=who, other=other, n=e.get("count", 0), k=e["nobles"])
    return m("log.trade", player=who, other=other, n=e.get("count", 0))


def _ev_give(e: Mapping[str, Any], who: Player | None) -> Msg:
    assert who is not None
    other = Player(1 - who.seat)
    if e.get("card") is None:
        return m("log.give_hidden", player=who, other=other)
    return m("log.give", player=who, other=other, card=card(e["card"]))


def _ev_collapse(e: Mapping[str, Any], who: Player | None) -> Msg:
    fallen = e.get("cards", [])
    return m("log.collapse", player=who, kind=tower_kind(fallen), cards=card_list(fallen))


def _ev_return(e: Mapping[str, Any], who: Player | None) -> Msg:
    deck = m("deck.noble" if e.get("deck") == "noble" else "deck.tower")
    if e.get("card") is None:
        return m("log.return_hidden", player=who, deck=deck)
    return m("log.return", player=who, deck=deck, card=card(e["card"]))


def _ev_game_over(e: Mapping[str, Any], who: Player | None) -> Msg:
    scores = e.get("scores", [])
    return m(
        "log.game_over",
        scores=chain(
            [m("log.score_of", player=Player(i), points=int(v)) for i, v in enumerate(scores)],
            "list",
        ),
    )


def _plain(key: str):
    def describe(e: Mapping[str, Any], who: Player | None) -> Msg:
        return m(key, player=who)

    return describe


_EVENT_WORDS = {
    "setup": _ev_setup,
    "buy": _plain("log.buy"),
    "exchange": _plain("log.exchange"),
    "put": _ev_card("log.put", "log.put"),
    "draw": _ev_draw,
    "draw_noble": _ev_card("log.draw_noble", "log.draw_noble_hidden"),
    "take": _ev_card("log.take", "log.take"),
    "build": _ev_build,
    "built": _ev_built,
    "extend": _ev_extend,
    "extended": _ev_extended,
    "complete": _ev_complete,
    "declare": _plain("log.declare"),
    "pass": _plain("log.pass"),
    "token": _plain("log.token"),
    "donation": _ev_donation,
    "allow": _plain("log.allow"),
    "cancel": _ev_cancel,
    "trade": _ev_trade,
    "give": _ev_give,
    "collapse": _ev_collapse,
    "play": _ev_play,
    "aim": _ev_aim,
    "decline": _ev_decline,
    "ordinance_no_return": _plain("log.ordinance_no_return"),
    "joust": _plain("log.joust"),
    "cancelled": _ev_card("log.cancelled", "log.cancelled"),
    "return": _ev_return,
    "take_back": lambda e, who: m("log.take_back", player=who, cards=card_list(e.get("cards", []))),
    "refill": lambda e, who: m("log.refill", cards=card_list(sorted(e.get("market", [])))),
    "end_phase": lambda e, who: m("log.end_phase"),
    "game_over": _ev_game_over,
}

WORDS = SanGimignanoWords()
