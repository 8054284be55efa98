"""Signorie's long property runs are marked ``slow`` and skipped unless asked for:
``pytest tests/signorie -m slow``."""

from __future__ import annotations

from pathlib import Path

import pytest

HERE = Path(__file__).parent


def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    if "slow" in (config.getoption("markexpr") or ""):
        return
    skip = pytest.mark.skip(reason="a long property run: pytest tests/signorie -m slow")
    for item in items:
        if "slow" in item.keywords and HERE in Path(str(item.path)).parents:
            item.add_marker(skip)
