"""Observations as fixed-size int8 vectors, for learning agents (all environments).

The encoding itself lives in :mod:`red7.bots.encoding`, where the learned bot
(:mod:`red7.bots.learned`, which sits below the environments) reads it too; this module
keeps its name for the environments and their users. The layout, field by field, is in
that module's docstring.
"""

from __future__ import annotations

from ..bots.encoding import CARDS, FIELDS, MAX_SEATS, OBS_SIZE, OFFSETS, describe, encode

__all__ = ["CARDS", "FIELDS", "MAX_SEATS", "OBS_SIZE", "OFFSETS", "describe", "encode"]
