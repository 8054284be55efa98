"""Look-alike names (UTS #39 skeletons from Unicode's confusables) and text that shows nothing."""

from __future__ import annotations

import pytest

from palio.server.base.names import look_alike, shows_nothing, skeleton


@pytest.mark.parametrize(("a", "b"), [
    ("ada", "\u0430da"),  # Cyrillic а
    ("Ada", "\u03b1da"),  # Greek α
    ("Ada", "\u0410DA"),  # Cyrillic А, other case
    ("modern", "rnodern"),  # m and rn
    ("l1", "1I"),  # l, 1 and I
    ("Ana\u0301", "An\u00e1"),  # a combining accent and the precomposed letter
    ("Ａda", "Ada"),  # full width
])
def test_names_that_look_alike_share_a_skeleton(a: str, b: str) -> None:
    assert skeleton(a) == skeleton(b) and look_alike(a, b)


@pytest.mark.parametrize(("a", "b"), [("Ann", "Anne"), ("Ada", "Adam"), ("Bob", "Rob"),
                                      ("Ana", "An\u00e1")])
def test_names_that_differ_do_not(a: str, b: str) -> None:
    assert skeleton(a) != skeleton(b) and not look_alike(a, b)


def test_a_name_does_not_look_like_itself() -> None:
    assert not look_alike("Ada", "Ada")


@pytest.mark.parametrize("text", ["\u200b", "\u200b\u200d\u2060", "\ufeff", "\u3164\u115f",
                                  "\u2800", " \u0301", "\u00ad"])
def test_invisible_text_shows_nothing(text: str) -> None:
    assert shows_nothing(text)


@pytest.mark.parametrize("text", ["a", "\u200bhi", "\u3042", "."])
def test_visible_text_shows_something(text: str) -> None:
    assert not shows_nothing(text)
