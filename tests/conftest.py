"""Settings for the whole suite."""

from __future__ import annotations

import pytest
from hypothesis import settings

# no time limit per example: the suite runs on shared machines, where a loaded moment made an
# example of a pure function exceed hypothesis's default 200 ms and fail; speed is measured in
# benchmarks, never in tests
settings.register_profile("palio", deadline=None)
settings.load_profile("palio")


@pytest.hookimpl(trylast=True)  # after tests/server/conftest.py marks its slow repeats
def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    """The long runs behind ``slow`` are not held to the default run's per-test timeout
    (pyproject's ``timeout``, which catches a hung test): they may take longer by design."""
    for item in items:
        if item.get_closest_marker("slow") is not None:
            item.add_marker(pytest.mark.timeout(0))
