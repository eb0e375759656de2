"""Measuring games: simulation and speed, tournaments between bots, design statistics."""
