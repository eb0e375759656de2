"""The compiled core (red7.native) against the Python engine: the same answers, its boundary
and fuzz, its sources, and what the game says where it is not in use."""
