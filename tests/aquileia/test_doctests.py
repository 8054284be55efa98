"""The examples in the Aquileia module docstrings run as written."""

from __future__ import annotations

import doctest

import pytest

import palio.games.aquileia as package
from palio.games.aquileia import actions, scenario


@pytest.mark.parametrize("module", [package, actions, scenario])
def test_docstring_examples(module):
    result = doctest.testmod(module)
    assert result.failed == 0 and result.attempted > 0
