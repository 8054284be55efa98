"""Names that look like another (the UTS #39 confusable skeleton), and text that shows nothing.

Two names whose skeletons are equal look alike on a page: a Cyrillic "а" beside a Latin "a",
a Greek "α", "rn" beside "m", a letter with a combining accent beside its precomposed form,
"l" beside "1" and "I". Names are compared regardless of case as well: the skeleton of the
case-folded skeleton, so "ADA", "Аda" and "аda" are one.

The confusable pairs are Unicode's (``confusables.txt`` of UTS #39) as the
``confusable-homoglyphs`` library ships them. The library lists each pair both ways, so each
set of characters that look alike (a prototype and the characters mapped to it) is gathered
here once, and each character is written as one chosen member of its set: the member most
others point to (the prototype), or on a tie the smallest. UTS #39's skeleton is the same
map: NFD, each character replaced by its prototype, NFD again; two texts get equal skeletons
here exactly when they do there, though the text of the skeleton itself may differ.
"""

from __future__ import annotations

import unicodedata
from functools import cache, lru_cache


@cache
def _prototypes() -> dict[str, str]:
    """Each confusable character (or sequence) and the one member of its set it is written as."""
    # lazy, for start-up cost (issue 34): the library reads its table of some 10,000 pairs
    # when imported, ~0.015 CPU-s that a server pays only when a name is first checked
    from confusable_homoglyphs.confusables import confusables_data

    parent: dict[str, str] = {}

    def root(text: str) -> str:
        while parent.setdefault(text, text) != text:
            parent[text] = parent[parent[text]]
            text = parent[text]
        return text

    degree: dict[str, int] = {}
    for source, entries in confusables_data.items():
        for entry in entries:
            target = entry["c"].replace("\u200e", "")  # the data marks right-to-left with LRM
            if not target or target == source:
                continue
            degree[source] = degree.get(source, 0) + 1
            degree[target] = degree.get(target, 0) + 1
            parent[root(source)] = root(target)
    members: dict[str, list[str]] = {}
    for text in parent:
        members.setdefault(root(text), []).append(text)
    chosen = {}
    for group in members.values():
        best = min(group, key=lambda text: (-degree.get(text, 0), len(text), text))
        for text in group:
            chosen[text] = best
    return chosen


def _skeleton(text: str) -> str:
    prototypes = _prototypes()
    mapped = "".join(prototypes.get(char, char) for char in unicodedata.normalize("NFD", text))
    return unicodedata.normalize("NFD", mapped)


@lru_cache(maxsize=4096)
def skeleton(name: str) -> str:
    """The form two names are compared in: equal for names that look alike."""
    return _skeleton(_skeleton(unicodedata.normalize("NFKC", name)).casefold())


def look_alike(a: str, b: str) -> bool:
    """Two different texts that a reader could take for one another."""
    return a != b and skeleton(a) == skeleton(b)


# Unicode's Default_Ignorable_Code_Point characters that are not format characters or marks
# (those are caught by their category below): the Hangul fillers, and the unassigned ranges
# reserved as ignorable (DerivedCoreProperties.txt)
BLANK_SYMBOLS = {"\u2800", "\u115f", "\u1160", "\u3164", "\uffa0"}
IGNORABLE_RANGES = ((0x2065, 0x2065), (0xFFF0, 0xFFF8), (0xE0000, 0xE0FFF))


def shows_nothing(text: str) -> bool:
    """Whether ``text`` is made only of characters that show nothing: spaces, format
    characters (zero-width spaces and joiners, the word joiner, the byte-order mark), lone
    combining marks, the Hangul fillers, the ignorable reserved ranges and blank symbols."""
    return all(
        char.isspace() or char in BLANK_SYMBOLS
        or unicodedata.category(char) in ("Cc", "Cf", "Zs", "Zl", "Zp", "Mn", "Me")
        or any(low <= ord(char) <= high for low, high in IGNORABLE_RANGES)
        for char in text)
