"""Message catalogs: English and Japanese text for the messages of :mod:`palio.core.words`.

Catalogs are gettext PO files, read with Babel (the Python convention for translations; PO
files are what translators' tools such as Poedit and Weblate edit, and Babel also gives us
each language's plural rules and list joining). Message ids are stable keys, not English text,
so English is a catalog like any other and a test can check that both languages have every
message with the same placeholders.

Where the catalogs live (one domain each, the first part of a message id):

* ``palio/locale/<lang>.po``: domain ``core`` (shared words) and ``ui`` (the clients' own
  buttons and headings, which the server hands to the browser);
* ``palio/cli/locale/<lang>.po``: domain ``cli``, the terminal client's own words;
* ``palio/games/<package>/locale/<lang>.po``: domain ``<package>``, one game's words;
* ``palio/server/<concern>/locale/<domain>.<lang>.po``: the words of one server concern
  (``accounts``, ``timing`` and ``board`` of ``play``, ``chat``, ...), in the concern's own
  package; the browser gets them with ``ui``.

>>> from palio.core.words import msg, Player
>>> Translator("en", ["Alice", "Bruno"])(msg("core.player_n", n=3))
'Player 3'
"""

from __future__ import annotations

import gettext
import io
import re
from collections.abc import Hashable, Sequence
from functools import cache, lru_cache
from importlib import resources
from pathlib import Path
from typing import Any

from palio.core.words import Msg, Player

LANGUAGES = {"en": "English", "ja": "日本語"}
DEFAULT_LANGUAGE = "en"
PLACEHOLDER = re.compile(r"{(\w+)}")


def normalize_language(text: str | None) -> str:
    """A language we have, from a code like ``ja``, ``ja-JP``, ``en_US.UTF-8``, or the
    ``Accept-Language`` header's list; English when nothing matches."""
    if not text:
        return DEFAULT_LANGUAGE
    for part in text.split(","):
        code = part.split(";")[0].strip().lower().replace("_", "-").split("-")[0].split(".")[0]
        if code in LANGUAGES:
            return code
    return DEFAULT_LANGUAGE


SERVER = Path(__file__).resolve().parent.parent / "server"


@cache
def server_catalogs() -> dict[str, Path]:
    """Each server domain and the folder of its catalogs (``palio/server/*/locale``): found
    by their files, so the words stay in their concern's package and this layer imports none."""
    return {p.name.removesuffix(".en.po"): p.parent
            for p in sorted(SERVER.glob("*/locale/*.en.po"))}


def server_domains() -> list[str]:
    """The server domains that have their own catalog (``palio/server/*/locale/*.en.po``)."""
    return sorted(server_catalogs())


def catalog_path(domain: str, lang: str) -> Path:
    """The PO file of ``domain`` in ``lang`` (it may not exist)."""
    if domain in server_catalogs():
        return server_catalogs()[domain] / f"{domain}.{lang}.po"
    if domain in ("core", "ui"):
        base = resources.files("palio") / "locale"
    elif domain == "cli":
        base = resources.files("palio.cli") / "locale"
    else:
        base = resources.files(f"palio.games.{domain}") / "locale"
    return Path(str(base / f"{lang}.po"))


class Catalog:
    """One PO file: its messages (id -> text, or plural forms) and its plural rule."""

    def __init__(self, path: Path, lang: str) -> None:
        # lazy, for start-up cost (issue 34): Babel's catalog readers (~0.005 CPU-s with its
        # lists) are needed when the first catalog is read, not to import a program
        from babel.messages.mofile import write_mo
        from babel.messages.pofile import read_po

        with path.open("rb") as handle:
            po = read_po(handle, locale=lang)
        self.path = path
        self.texts: dict[str, str | tuple[str, ...]] = {}
        for message in po:
            if not message.id:
                continue  # the header
            key = message.id[0] if isinstance(message.id, tuple) else message.id
            self.texts[key] = message.string
        # gettext evaluates the catalog's own Plural-Forms rule
        buffer = io.BytesIO()
        write_mo(buffer, po)
        buffer.seek(0)
        self._plural = gettext.GNUTranslations(buffer).plural

    def lookup(self, message_id: str, n: Any) -> str | None:
        text = self.texts.get(message_id)
        if isinstance(text, tuple):
            count = int(n) if isinstance(n, int | float) else 1
            return text[min(self._plural(count), len(text) - 1)] or None
        return text or None


@cache
def load_catalog(domain: str, lang: str) -> Catalog | None:
    try:
        path = catalog_path(domain, lang)
    except ModuleNotFoundError:
        return None
    return Catalog(path, lang) if path.is_file() else None


def domain_of(message_id: str) -> str:
    return message_id.split(".", 1)[0]


def lookup(message_id: str, lang: str, n: Any = None) -> str | None:
    """The template of ``message_id`` in ``lang``, English when ``lang`` lacks it."""
    # the template depends on n only through its plural count (Catalog.lookup's rule)
    return _lookup(message_id, lang, int(n) if isinstance(n, int | float) else 1)


@lru_cache(maxsize=8192)
def _lookup(message_id: str, lang: str, count: int) -> str | None:
    """:func:`lookup`, kept: a view's words ask for the same few hundred templates over and
    over (catalogs never change once loaded; bounded, as ids and counts come from callers)."""
    for code in dict.fromkeys((lang, DEFAULT_LANGUAGE)):
        catalog = load_catalog(domain_of(message_id), code)
        text = catalog.lookup(message_id, count) if catalog is not None else None
        if text is not None:
            return text
    return None


def _format_list(parts: list[str], lang: str) -> str:
    """``parts`` joined as a list in ``lang`` ("a, b and c"), by Babel's CLDR rules."""
    # lazy, for start-up cost (issue 34): Babel is needed when the first list is put in
    # words, not to import a program
    from babel.lists import format_list

    return format_list(parts, locale=lang)


class _Keep(dict):
    """Leaves an unknown placeholder as it is, so a missing parameter shows (and a test
    catches it) instead of breaking a whole page."""

    def __missing__(self, key: str) -> str:
        return "{" + key + "}"


@lru_cache(maxsize=1024)
def _bare(template: str) -> str:
    """A template with no parameters in words, as :meth:`Translator.__call__` writes it
    (``{{`` unescaped, unknown fields kept), once per template."""
    return template.format_map(_Keep())


@lru_cache(maxsize=8192)
def _plain(lang: str, message_id: str, params: tuple[tuple[str, str | int], ...]) -> str:
    """A message whose parameters are all strings and integers (a card, a count) in words
    of ``lang``, as :meth:`Translator.__call__` writes it: no parameter is a seat, so no
    translator's names or ``you`` change it; kept, as views say the same few hundred over and
    over (bounded: the parameters come from games)."""
    values = dict(params)
    template = lookup(message_id, lang, values.get("n"))
    if template is None:
        return message_id
    return template.format_map(_Keep({key: str(value) for key, value in params}))


@lru_cache(maxsize=256)
def _player_n(lang: str, seat: int) -> str:
    """An unnamed seat's name ("Player 2") in ``lang``: its message names no seat, so it is
    the same for every translator of that language."""
    return Translator(lang)(Msg("core.player_n", {"n": seat + 1}))


def _key(value: Any) -> Hashable | None:
    """A hashable value that is equal for two message values exactly when
    :meth:`Translator.value` words them alike under any one translator (each kind tagged:
    ``True``, ``1`` and ``1.0`` are equal in Python, not in words); None for a value of
    any other kind (such a message is worded each time)."""
    kind = type(value)
    if kind is str or kind is int:
        return value if kind is str else ("i", value)
    if kind is Msg:
        items = []
        for name, item in value.params.items():
            key = _key(item)
            if key is None:
                return None
            items.append((name, key))
        return ("m", value.id, tuple(items))
    if kind is Player:
        return ("p", value.seat)
    if kind is list or kind is tuple:
        keys = []
        for item in value:
            key = _key(item)
            if key is None:
                return None
            keys.append(key)
        return ("l", tuple(keys))
    if kind is bool:
        return ("b", value)
    if kind is float:
        return ("f", repr(value))
    return None


# whole messages in words (``Translator.kept``), by language, ``you``, the seats' names and
# the message (``_key``): a board says the same lines, and a seat's choices the same labels,
# move after move and seat after seat; bounded (emptied when full: keys come from positions)
_LINES: dict[Hashable, str] = {}
LINES_KEPT = 4096  # about 2 KiB each with its key: at most some 8 MiB


class Translator:
    """Turns messages into text in one language, naming seats as the client does.

    ``names[i]`` is seat ``i``'s name; seats without one are "Player 1", "Player 2"...
    ``you`` is the seat the client calls "You" (the terminal's player): a message about that
    seat is said in the second person where the catalog has a variant for it (see
    :meth:`template`), so English reads "You place", not "You places".
    """

    def __init__(
        self,
        lang: str = DEFAULT_LANGUAGE,
        names: Sequence[str | None] | None = None,
        you: int | None = None,
    ):
        self.lang = normalize_language(lang)
        self.names = list(names or [])
        self.you = you

    def template(self, message: Msg) -> str | None:
        """The message's template: its second-person variant when a seat parameter is ``you``
        and this language has one (``<id>@you`` for ``player``, ``<id>@you.<param>`` for
        another parameter; a language that needs no variant, such as Japanese, simply has
        none), else the message itself."""
        n = message.params.get("n")
        if self.you is not None:
            catalog = load_catalog(domain_of(message.id), self.lang)
            you = Player(self.you)
            for name, value in message.params.items():
                if value == you and catalog is not None:
                    suffix = "@you" if name == "player" else f"@you.{name}"
                    text = catalog.lookup(message.id + suffix, n)
                    if text is not None:
                        return text
        return lookup(message.id, self.lang, n)

    def __call__(self, message: Msg | None) -> str:
        if message is None:
            return ""
        params = message.params
        if params and all(type(v) is str or type(v) is int for v in params.values()):
            # no seat, no nested message: the words depend on the language alone
            return _plain(self.lang, message.id, tuple(params.items()))
        template = self.template(message)
        if template is None:
            return message.id  # the words tests fail on any id that reaches the text
        if not message.params:
            return _bare(template)
        values = _Keep({key: self.value(value) for key, value in message.params.items()})
        return template.format_map(values)  # C-speed; _Keep leaves unknown fields as they are

    def value(self, value: Any) -> str:
        kind = type(value)
        if kind is str or kind is int:  # the commonest, first (a bool is neither)
            return str(value)
        if isinstance(value, Msg):
            return self(value)
        if isinstance(value, Player):
            return self.player(value.seat)
        if isinstance(value, list | tuple):
            parts = [self.value(v) for v in value]
            return _format_list(parts, self.lang) if parts else self(Msg("core.none"))
        if isinstance(value, bool):
            return self(Msg("core.yes" if value else "core.no"))
        if isinstance(value, float) and value.is_integer():
            return str(int(value))
        return str(value)

    def player(self, seat: int) -> str:
        name = self.names[seat] if 0 <= seat < len(self.names) else None
        return name or _player_n(self.lang, seat)

    def kept(self, message: Msg | None) -> str:
        """``self(message)``, kept once worded (``_LINES``) under everything its words depend
        on: this language, ``you``, every seat's name, and the message itself with every
        parameter's kind and value (``_key``). For what a view words over and over (a board's
        lines, the choices); a message with a parameter of another kind is worded each time."""
        key = _key(message)
        if key is None:
            return self(message)
        key = (self.lang, self.you, tuple(self.names), key)
        text = _LINES.get(key)
        if text is None:
            text = self(message)
            if len(_LINES) >= LINES_KEPT:
                _LINES.clear()
            _LINES[key] = text
        return text

    def lines(self, messages: Sequence[Msg]) -> str:
        """The messages in words, one a line, each kept once worded (:meth:`kept`)."""
        return "\n".join(self.kept(m) for m in messages)
