"""Tiletum rules, split by phase."""
