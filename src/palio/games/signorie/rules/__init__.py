"""Signorie rules, split by phase: set-up and rounds, legal decisions, applying them."""
