"""Adapters to research frameworks: OpenSpiel, PettingZoo and Gymnasium (optional extras)."""
