"""Simulation, tournaments and benchmarks over the engine contract."""
