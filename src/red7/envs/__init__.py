"""Red7 for learning agents (``pip install 'red7[rl]'``).

- :mod:`red7.envs.red7_v0`: PettingZoo AEC environment, ``red7_v0.env(players=2, ...)``.
- :class:`red7.envs.SingleAgentRed7`: Gymnasium environment against the project's bots,
  registered as ``Red7-v0`` when this package is imported.
- :mod:`red7.envs.openspiel`: ``import red7.envs.openspiel`` registers ``python_red7``.
- :mod:`red7.envs.encoding`: the observation vector shared by all of them.
- :mod:`red7.envs.seeding`: the game seed of each episode (PettingZoo, Gymnasium).

Nothing here is imported by the core package; each module imports its framework only
when it is itself imported.
"""

from __future__ import annotations

from types import ModuleType
from typing import Any

_gym: ModuleType | None
try:
    import gymnasium as _gym
except ImportError:  # gymnasium is optional: the other environments work without it
    _gym = None

if _gym is not None and "Red7-v0" not in _gym.registry:
    _gym.register(id="Red7-v0", entry_point="red7.envs.single_agent:SingleAgentRed7")


def __getattr__(name: str) -> Any:
    if name == "SingleAgentRed7":
        from .single_agent import SingleAgentRed7

        return SingleAgentRed7
    raise AttributeError(f"module 'red7.envs' has no attribute {name!r}")
