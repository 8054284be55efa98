"""Names that look like another (the UTS #39 confusable skeleton), and text that shows nothing.

Two names whose skeletons are equal look alike on a page: a Cyrillic "а" beside a Latin "a",
a Greek "α", "rn" beside "m", a letter with a combining accent beside its precomposed form,
"l" beside "1" and "I". The skeleton is ICU's (PyICU's ``SpoofChecker.getSkeleton``, the
reference implementation of Unicode Technical Standard #39, with the Unicode data of the ICU
it is built on). Names are compared regardless of case as well: the skeleton of the case-folded
skeleton, so "ADA", "Аda" and "аda" are one.
"""

from __future__ import annotations

import unicodedata
from functools import lru_cache

import icu  # PyICU: ICU's confusable data and skeleton (UTS #39)

_CHECKER = icu.SpoofChecker()


@lru_cache(maxsize=4096)
def skeleton(name: str) -> str:
    """The form two names are compared in: equal for names that look alike."""
    folded = _CHECKER.getSkeleton(0, unicodedata.normalize("NFKC", name)).casefold()
    return _CHECKER.getSkeleton(0, folded)


def look_alike(a: str, b: str) -> bool:
    """Two different texts that a reader could take for one another."""
    return a != b and skeleton(a) == skeleton(b)


BLANK_SYMBOLS = {"\u2800"}  # the braille blank: a symbol that shows nothing


def shows_nothing(text: str) -> bool:
    """Whether ``text`` is made only of characters that show nothing: spaces, format
    characters (zero-width spaces and joiners, the word joiner, the byte-order mark), lone
    combining marks, the default-ignorable fillers (Hangul fillers...) and blank symbols."""
    return all(
        char.isspace() or char in BLANK_SYMBOLS
        or unicodedata.category(char) in ("Cc", "Cf", "Zs", "Zl", "Zp", "Mn", "Me")
        or icu.Char.hasBinaryProperty(char, icu.UProperty.DEFAULT_IGNORABLE_CODE_POINT)
        for char in text)
