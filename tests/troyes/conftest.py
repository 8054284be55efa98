"""Troyes' long property runs (``@pytest.mark.slow``) run only when asked for:
``pytest -m slow tests/troyes`` (about 9,000 games; several minutes on one core)."""

from __future__ import annotations

from pathlib import Path

import pytest

HERE = Path(__file__).parent


def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    if "slow" in (config.getoption("-m") or ""):
        return
    skip = pytest.mark.skip(reason="long property run: pytest -m slow tests/troyes")
    for item in items:
        if "slow" in item.keywords and HERE in Path(str(item.fspath)).parents:
            item.add_marker(skip)
