"""The key beside every board: what each symbol a renderer draws means, per game.

``KEYS[game]`` lists the key's entries in the order the board reads (top to bottom): the
symbols the renderer draws (as drawn, so the browser test can match them against the board's
text) and the message of the entry, ``board.key.<game>.<slug>`` in the ``board`` catalog
(``palio/server/play/locale/board.<lang>.po``). The legend (``GET /api/catalog/{game}/legend``)
carries the key in the reader's language; the game and replay pages show it under "Key".
"""

from __future__ import annotations

from typing import Any

from palio.core.i18n import Translator
from palio.core.words import msg

# (symbols as drawn, sample as drawn: a text, or message ids whose texts are the signs in the
# reader's language, or "" for the symbols themselves; slug of the message)
KEYS: dict[str, list[tuple[tuple[str, ...], str | tuple[str, ...], str]]] = {
    "signorie": [
        (("ƒ",), "ƒ 5", "florins"),
        (("VP",), "2VP", "vp"),
        (("♂",), "♂", "man"),
        (("♀",), "♀", "woman"),
        (("×",), "×1", "once"),
        ((), "..3", "repeat"),
        (("⇧",), "2⇧", "initiative"),
        (("▲",), "2▲", "advance"),
        (("◆",), "◆ 40", "alliance"),
        (("Σ",), "Σ 9/13", "threshold"),
        (("/",), "2VP/⌂", "per"),
        (("✉",), "✉", "mission"),
        (("♥",), "♥", "marriage"),
        (("⚀",), "⚀", "offspring"),
        (("☺",), "☺", "family"),
        (("Ⅰ", "Ⅱ", "Ⅲ", "Ⅳ", "Ⅴ", "Ⅵ"), "Ⅰ Ⅱ Ⅲ Ⅳ", "rank"),
        (("●",), "●", "helper"),
        (("⌂",), "⌂", "city"),
        (("P", "C", "M"), "P C M", "careers"),
        (("□",), "□", "no_die"),
        (("▣",), "▣ 2", "parked"),
        (("★",), "★", "you"),
    ],
    "troyes": [
        (("÷",), "÷3", "divisor"),
        (("/",), "3 / 1", "event_vp"),
        (("●",), "●", "black"),
        (("VP",), "0 VP", "vp"),
        (("d",), "5d", "deniers"),
        (("✓",), "✓2", "won"),
        (("★",), "★", "you"),
    ],
    "aquileia": [
        (("⚑",), "⚑", "start"),
        (("I", "II", "III", "IV", "V", "VI"), "I II III IV V VI", "order"),
        (("⇄",), "⇄1", "exchange"),
        (("⚔",), "⚔2", "weapon"),
        (("♞",), "♞1", "horse"),
        (("♟",), "♟1", "slave"),
        (("≤",), "♟≤2", "at_most"),
        (("❦",), "❦7", "laurel"),
        (("VP",), "+2 VP", "vp"),
        (("●", "○"), "● ○", "port_coin"),
        (("⌂",), "⌂9", "houses"),
        (("★",), "★", "you"),
    ],
    "tiletum": [
        (("AP",), "4 AP", "ap"),
        (("VP",), "3 VP", "vp"),
        (("▲",), "▲ 3/4", "cathedral"),
        (("/",), "3/4", "cost"),
        (("×",), "▲ ×", "closed"),
        (("★",), "★", "bonus"),
        (("⌂",), "⌂", "roof"),
        (("✓",), "✓", "completed"),
        (("A", "M"), ("ui.tt.architect_letter", "ui.tt.merchant_letter"), "pieces"),
    ],
    "san-gimignano": [
        (("✓",), "✓", "completed"),
        (("L", "P", "J", "O", "F", "W"), "L9 P J O F W", "nobles"),
    ],
}


def key(game_id: str, tr: Translator) -> list[dict[str, Any]]:
    """The key of ``game_id`` in ``tr``'s words: [{"symbols", "sample", "text"}]."""
    slug_game = game_id.replace("-", "_")
    out = []
    for symbols, sample, slug in KEYS.get(game_id, []):
        if isinstance(sample, tuple):  # signs that are words of the reader's language
            sample = " ".join(tr(msg(message_id)) for message_id in sample)
        out.append({"symbols": list(symbols), "sample": sample or " ".join(symbols),
                    "text": tr(msg(f"board.key.{slug_game}.{slug}"))})
    return out
