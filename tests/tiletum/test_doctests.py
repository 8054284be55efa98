"""The examples in the Tiletum module docstrings run as written."""

from __future__ import annotations

import doctest

import pytest

from palio.games.tiletum import actions, scenario


@pytest.mark.parametrize("module", [actions, scenario])
def test_docstring_examples(module):
    result = doctest.testmod(module)
    assert result.failed == 0 and result.attempted > 0
