"""Aquileia's rules, by phase: placement, the six districts, the round; ``legal`` and ``apply``
dispatch by frame kind and by action type."""
