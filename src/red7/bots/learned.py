"""``learned``: a player whose policy network learned Red7 from games (numpy inference).

The network was trained by ``python -m red7.learn`` (:mod:`red7.learn.train`, PyTorch):
first imitating the compiled greedy player (level ``medium``), then by PPO against the
greedy player and a league of its own past selves on the vectorized environment
(:mod:`red7.envs.vector`). Its weights ship with the package
(``red7/bots/data/learned.npz``, float16) and are read here with numpy alone: playing
needs no PyTorch.

The bot encodes the observation it is given (:func:`red7.bots.encoding.encode`, R9: the
seat's own view, never the game) into the same 873 numbers the environments give a
learner, runs the multilayer perceptron, and picks the legal decision with the highest
probability (``sample=1``: draws one from the policy's distribution with the bot's RNG).
The network plays any table (2, 3 or 4 players, basic or advanced, with or without
action cards): the encoding is padded to four seats and rotated to the observer.

File format (:func:`save_weights` / :func:`load_weights`): arrays ``w0, b0, w1, b1, ...``
for the hidden layers (ReLU; ``w`` as [inputs, outputs]), ``wp, bp`` for the 249 logits,
``wv, bv`` for the value, and ``meta`` (a JSON text: how it was trained).
"""

from __future__ import annotations

import json
import random
from collections.abc import Sequence
from functools import cache
from importlib import resources
from pathlib import Path
from typing import Any, Final

import numpy as np
import numpy.typing as npt

from ..core.actions import NUM_ACTIONS, Action
from ..core.observation import Observation
from .base import Bot, Option
from .encoding import OBS_SIZE, encode

WEIGHTS: Final = "learned.npz"
"""The shipped weights, in the package's ``red7/bots/data`` folder."""

Array = npt.NDArray[np.float32]


class Network:
    """The policy and value network, in numpy (float32 arithmetic).

    ``layers``: the hidden layers' (weights [in, out], bias [out]); ``policy`` and
    ``value``: the heads. Inputs are the int8 observation vectors (any scaling of them
    was folded into the first layer's weights when the network was exported).
    """

    def __init__(
        self,
        layers: Sequence[tuple[Array, Array]],
        policy: tuple[Array, Array],
        value: tuple[Array, Array],
        meta: dict[str, Any],
    ) -> None:
        if not layers or layers[0][0].shape[0] != OBS_SIZE:
            raise ValueError(f"the first layer must read {OBS_SIZE} inputs")
        if policy[0].shape[1] != NUM_ACTIONS:
            raise ValueError(f"the policy head must give {NUM_ACTIONS} logits, not {policy[0].shape[1]}")
        self.layers = [(w.astype(np.float32), b.astype(np.float32)) for w, b in layers]
        self.policy = (policy[0].astype(np.float32), policy[1].astype(np.float32))
        self.value = (value[0].astype(np.float32), value[1].astype(np.float32))
        self.meta = meta

    def forward(self, obs: npt.NDArray[Any]) -> tuple[Array, Array]:
        """(logits [N, 249], values [N]) of the observation vectors ``obs`` [N, 873]."""
        h = np.asarray(obs, dtype=np.float32)
        for w, b in self.layers:
            h = np.maximum(h @ w + b, 0.0)
        return h @ self.policy[0] + self.policy[1], (h @ self.value[0] + self.value[1])[:, 0]

    def probabilities(self, obs: npt.NDArray[Any], mask: npt.NDArray[Any]) -> Array:
        """The policy over the decisions allowed by ``mask`` [N, 249] (zero elsewhere)."""
        logits, _ = self.forward(obs)
        logits = np.where(mask.astype(bool), logits, -np.inf)
        logits -= logits.max(axis=1, keepdims=True)
        p = np.exp(logits)
        result: Array = (p / p.sum(axis=1, keepdims=True)).astype(np.float32)
        return result


def save_weights(path: str | Path, network: Network) -> None:
    """Write ``network`` as the compressed ``.npz`` this module reads (float16 arrays)."""
    arrays: dict[str, Any] = {}
    for i, (w, b) in enumerate(network.layers):
        arrays[f"w{i}"], arrays[f"b{i}"] = w.astype(np.float16), b.astype(np.float16)
    arrays["wp"], arrays["bp"] = (a.astype(np.float16) for a in network.policy)
    arrays["wv"], arrays["bv"] = (a.astype(np.float16) for a in network.value)
    arrays["meta"] = np.array(json.dumps(network.meta, sort_keys=True))
    with open(path, "wb") as file:
        np.savez_compressed(file, **arrays)


def load_weights(path: str | Path | None = None) -> Network:
    """The network in ``path`` (default: the shipped weights). Raises ValueError if the
    file is not a network of this shape."""
    source = resources.files("red7.bots").joinpath("data", WEIGHTS) if path is None else Path(path)
    with source.open("rb") as file, np.load(file, allow_pickle=False) as data:
        try:
            count = sum(1 for name in data.files if name.startswith("w") and name[1:].isdigit())
            layers = [(data[f"w{i}"], data[f"b{i}"]) for i in range(count)]
            return Network(layers, (data["wp"], data["bp"]), (data["wv"], data["bv"]), json.loads(str(data["meta"])))
        except KeyError as err:
            raise ValueError(f"{source} is not a red7 network: {err} is missing") from None


@cache
def shipped() -> Network:
    """The shipped network, read once per process."""
    return load_weights()


class LearnedBot(Bot):
    """The learned player: the shipped network's most likely legal decision.

    ``sample=1``: draw the decision from the network's policy with the bot's RNG instead
    (weaker, less predictable). ``network``: another :class:`Network` (from Python, e.g.
    one being trained; the spec ``learned`` plays the shipped one).
    """

    name = "learned"

    def __init__(self, sample: int = 0, network: Network | None = None) -> None:
        if sample not in (0, 1):
            raise ValueError(f"sample is 0 (the most likely decision) or 1 (drawn from the policy), not {sample}")
        self.sample = bool(sample)
        self.network = network if network is not None else shipped()

    def choose(self, observation: Observation, options: Sequence[Option], rng: random.Random) -> Action:
        ids = [option.action.id for option in options]
        mask = np.zeros((1, NUM_ACTIONS), dtype=np.int8)
        mask[0, ids] = 1
        p = self.network.probabilities(encode(observation)[None, :], mask)[0]
        if self.sample:
            # Drawn with the bot's own RNG so a seeded game replays: the cumulative
            # probabilities of the legal ids, in id order, against one uniform draw.
            legal = sorted(ids)
            weights = p[legal].astype(np.float64)
            chosen = legal[min(int(np.searchsorted(np.cumsum(weights), rng.random() * weights.sum())), len(legal) - 1)]
        else:
            chosen = max(ids, key=lambda i: (p[i], -i))  # ties: the lowest id, for determinism
        return Action.from_id(chosen)
