"""Troyes rules, split by phase: set-up and draft, the round's automatic phases, events,
combat, the action turn (dice groups, citizens, activity cards) and final scoring."""
