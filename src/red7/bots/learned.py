"""``learned``: a one-turn search whose evaluation is a value network learned from games.

Where ``greedy`` (level ``medium``) scores the end of its turn with a hand-written sum
(cards in hand, lead under the rule, rules it would win under), this bot scores it with
a network that learned, from millions of games, how likely the seat is to win the game
from there: the route of TD-Gammon (a learned evaluation behind a shallow search). The
network was trained by ``python -m red7.learn`` (:mod:`red7.learn.train`, PyTorch) and
ships with the package (``red7/bots/data/learned.npz``, float16); playing reads it with
numpy alone.

**Search** (:func:`red7.bots.greedy.search_turn`, shared with ``greedy``): in a few worlds
sampled from the bot's observation, every sequence of its own decisions is played to the
end of its turn; the bot keeps the first decision whose best continuation has the
highest average value. **Value** of a turn's end, for the bot's seat: 1 if the game is
over and the seat among its winners, 0 if it is over otherwise or the seat is out of a
basic game, else the network's win probability read from the seat's own observation
there (:func:`red7.bots.encoding.encode`, R9: never the world's hidden cards). One
network plays every table (2, 3 or 4 players, basic or advanced, with or without action
cards): the encoding is padded to four seats and rotated to the observer.

File format (:func:`save_weights` / :func:`load_weights`): arrays ``w0, b0, w1, b1, ...``
for the hidden layers (ReLU; ``w`` as [inputs, outputs]), ``wv, bv`` for the output (one
logit: the win probability is its logistic), and ``meta`` (a JSON text: how it was
trained).
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

from ..core.actions import Action
from ..core.game import Game
from ..core.observation import Observation
from ..core.worlds import WorldSampler
from .base import Bot, Option
from .encoding import OBS_SIZE, encode
from .greedy import TurnSearch, search_turn, turn_choices, whole_worlds

WEIGHTS: Final = "learned.npz"
"""The shipped weights, in the package's ``red7/bots/data`` folder."""

Array = npt.NDArray[np.float32]


class Network:
    """The value network, in numpy (float32 arithmetic).

    ``layers``: the hidden layers' (weights [in, out], bias [out]); ``value``: the output
    layer (weights [last, 1], bias [1]). Inputs are the int8 observation vectors (any
    scaling of them was folded into the first layer's weights when it was exported).
    """

    def __init__(self, layers: Sequence[tuple[Array, Array]], value: tuple[Array, Array], meta: dict[str, Any]) -> None:
        if not layers or layers[0][0].shape[0] != OBS_SIZE:
            raise ValueError(f"the first layer must read {OBS_SIZE} inputs")
        if value[0].shape != (layers[-1][0].shape[1], 1):
            raise ValueError(f"the output layer must read the last hidden layer and give one number: {value[0].shape}")
        self.layers = [(w.astype(np.float32), b.astype(np.float32)) for w, b in layers]
        self.value = (value[0].astype(np.float32), value[1].astype(np.float32))
        self.meta = meta

    def win_probability(self, obs: npt.NDArray[Any]) -> Array:
        """The win probabilities [N] of the observation vectors ``obs`` [N, 873]."""
        h = np.asarray(obs, dtype=np.float32)
        for w, b in self.layers:
            h = np.maximum(h @ w + b, 0.0)
        logit = (h @ self.value[0] + self.value[1])[:, 0]
        result: Array = 1.0 / (1.0 + np.exp(-logit))
        return result


def save_weights(path: str | Path, network: Network) -> None:
    """Write ``network`` as the compressed ``.npz`` this module reads (float16 arrays)."""
    arrays: dict[str, Any] = {}
    for i, (w, b) in enumerate(network.layers):
        arrays[f"w{i}"], arrays[f"b{i}"] = w.astype(np.float16), b.astype(np.float16)
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
            return Network(layers, (data["wv"], data["bv"]), json.loads(str(data["meta"])))
        except KeyError as err:
            raise ValueError(f"{source} is not a red7 network: {err} is missing") from None


@cache
def shipped() -> Network:
    """The shipped network, read once per process."""
    return load_weights()


class ValueSearch(TurnSearch):
    """One world's turn search scored by the network (see the module's docstring)."""

    def __init__(self, me: int, game: Game, network: Network) -> None:
        super().__init__(me, game)
        self.network = network

    def leaf_value(self, g: Game) -> float:
        me = self.me
        if g.result is not None:
            return 1.0 if me in g.result.winners else 0.0
        obs = g.observe(me)
        if not obs.alive[me] and not obs.advanced:
            return 0.0  # out of a basic game: lost
        vector = encode(obs)
        key = vector.tobytes()  # lines that end in the same view score the same
        value = self.leaves.get(key)
        if value is None:
            value = self.leaves[key] = float(self.network.win_probability(vector[None, :])[0])
        return value


class LearnedBot(Bot):
    """The one-turn search with the learned value (see the module's docstring).

    options: worlds=N, the number of sampled worlds averaged (default 8, at most 64).
    ``network``: another :class:`Network` (from Python, e.g. one being trained; the spec
    ``learned`` plays the shipped one).
    """

    name = "learned"

    def __init__(self, worlds: int = 8, network: Network | None = None) -> None:
        self.worlds = whole_worlds(worlds)
        self.network = network if network is not None else shipped()

    def choose(self, observation: Observation, options: Sequence[Option], rng: random.Random) -> Action:
        choices, gamble = turn_choices(options)
        if len(choices) == 1:
            return choices[0]
        me = observation.seat
        assert me is not None, "a bot plays a seat"
        sampler = WorldSampler(observation)
        network = self.network

        def search(seat: int, world: Game) -> ValueSearch:
            return ValueSearch(seat, world, network)

        return search_turn(search, me, sampler, sampler.sample(rng), choices, gamble, self.worlds, rng)
