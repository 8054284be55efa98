"""What the latest move changed, for the board to highlight it.

The "latest move" is the run of consecutive decisions of the seat that moved last (a whole San
Gimignano purchase, a whole Tiletum turn). What it changed is the difference between two views
of one viewer: ``observe(viewer)`` before that run and now. Both are views that viewer may see,
so the difference holds only what that viewer could have watched happen.
"""

from __future__ import annotations

from typing import Any


def changed_paths(before: Any, after: Any, path: str = "") -> list[str]:
    """Dotted paths (``players.1.towers.2``) of the values that differ between two JSON
    values. A changed list or dict is listed with every changed member under it; a list that
    grew or shrank also lists itself."""
    if before == after:
        return []
    here = [path] if path else []
    if isinstance(before, dict) and isinstance(after, dict):
        out = list(here)
        for key in sorted(set(before) | set(after), key=str):
            out += changed_paths(before.get(key), after.get(key), f"{path}.{key}" if path else str(key))
        return out
    if isinstance(before, list) and isinstance(after, list):
        out = list(here)
        for index in range(max(len(before), len(after))):
            old = before[index] if index < len(before) else None
            new = after[index] if index < len(after) else None
            out += changed_paths(old, new, f"{path}.{index}" if path else str(index))
        return out
    return here
