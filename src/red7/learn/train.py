"""Train the learned player's value network from scratch, on games played in compiled code.

``python -m red7.learn --out runs/learned --minutes 60`` (see :mod:`red7.learn.__main__`
for every option). The network (:func:`make_net`: an MLP over the 873-number observation,
:mod:`red7.bots.encoding`, one logit out) learns the probability that a seat wins the
game from the seat's own view at the end of its turn: the positions
:class:`red7.bots.learned.LearnedBot` scores when it searches its turn.

Each **iteration** plays a fresh chunk of games on the compiled engine (:func:`afterstates`:
every configuration, the compiled greedy player in every seat with one decision in ten a
random safe one, so the positions vary), records each seat's view whenever its turn
ends, and trains one pass over the newest ``--window`` chunks. The **target** of a
position is the seat's outcome if the game ended in that round, else the current
network's value of the seat's first view of the next round (Monte Carlo to the round's
end, bootstrapped across rounds: a position's target does not wait on the noise of a
whole match). This is approximate policy evaluation of greedy's play; the one-turn
search over the learned value is the improvement step, as with TD-Gammon's search.

Every ``--eval-every`` iterations the bot of the network now (:class:`LearnedBot`) plays
fixed deals, each from both seats: against ``medium`` in 2-player basic and advanced
games and against ``hard`` in 2-player basic games. The curve goes to ``curve.json`` and
``curve.png``; ``checkpoint.pt`` (resumable with ``--resume``) and ``learned.npz`` (the
exported weights) are written at every evaluation. A run is a function of ``--seed`` and
its options (one torch thread; time limits only decide where it stops; a resumed run
plays its chunks again from their seeds).

PyTorch is imported inside the functions that need it: the package installs without it
(``pip install 'red7[train]'`` brings it).
"""

from __future__ import annotations

import json
import math
import random
import time
from collections.abc import Sequence
from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import Any, Final

import numpy as np
import numpy.typing as npt

from ..bots.encoding import OBS_SIZE, OFFSETS
from ..bots.learned import LearnedBot, Network, save_weights
from ..bots.spec import make_bot
from ..core import compiled
from ..core.model import TARGETS, Config
from ..play.match import play_game

CHUNK: Final[tuple[tuple[Config, int], ...]] = (
    (Config(2), 24),
    (Config(2, actions=True), 6),
    (Config(2, advanced=True), 3),
    (Config(2, advanced=True, actions=True), 1),
    (Config(3), 6),
    (Config(3, actions=True), 2),
    (Config(3, advanced=True), 1),
    (Config(3, advanced=True, actions=True), 1),
    (Config(4), 6),
    (Config(4, actions=True), 2),
    (Config(4, advanced=True), 1),
    (Config(4, advanced=True, actions=True), 1),
)
"""Games of each configuration in one unit of a chunk (``--games`` units per chunk): the
2-player games weigh most (where Red7 is played and measured); an advanced match gives
some eight times the positions of a basic game."""

SCALE: Final = np.ones(OBS_SIZE, dtype=np.float32)
"""What each input is multiplied by before the first layer: card bits stay 0/1, counts
are brought near 0..1 (folded into the first layer's weights on export): the target by
the largest of the rules' (R8.3), the others by round figures of their usual sizes."""
for _name, _div in (
    ("hand_sizes", 8),
    ("scores", 20),
    ("deck_size", 40),
    ("out_of_round", 20),
    ("round", 20),
    ("target", max(TARGETS.values())),
):
    _size = {"hand_sizes": 4, "scores": 4}.get(_name, 1)
    SCALE[OFFSETS[_name] : OFFSETS[_name] + _size] = 1.0 / _div


@dataclass
class Options:
    """Everything a run depends on (saved in the checkpoint and the weights' meta)."""

    seed: int = 0
    hidden: tuple[int, ...] = (512, 256)
    games: int = 120
    """Units of :data:`CHUNK` per chunk (120: some 150,000 positions)."""
    window: int = 2
    """Chunks trained on at each iteration: the newest and the ones before it."""
    iterations: int = 1_000_000
    """Iterations at most (``minutes`` usually stops the run first)."""
    minutes: float = 0.0
    """Stop after this much more training time (0: no limit); the run ends with an evaluation."""
    lr: float = 5e-4
    batch: int = 1024
    epsilon: float = 0.1
    """The share of the data games' decisions taken at random (among the safe ones)."""
    eval_every: int = 20
    eval_medium: int = 200
    """2-player basic deals against medium (each from both seats); advanced: a quarter as many."""
    eval_hard: int = 12
    """2-player basic deals (each from both seats) against hard (0: none)."""
    eval_seed: int = 10_000


EVALUATION: Final = ("eval_every", "eval_medium", "eval_hard", "eval_seed")
"""The options that only say how the run is measured (a resumed run takes the command's)."""


@dataclass
class Point:
    """One evaluation on the learning curve."""

    iteration: int
    positions: int
    """Positions trained on so far (a position counts once per pass)."""
    seconds: float
    medium_basic: float
    medium_advanced: float
    hard_basic: float | None
    games: dict[str, int] = field(default_factory=dict)


@dataclass
class Chunk:
    """The positions of one chunk of games.

    ``obs`` [N, 873] int8: a seat's view at the end of its turn; ``won`` [N]: whether
    that seat won the game; ``next_round`` [N]: the index of the same seat's first
    position in a later round of the game (the next one it had a turn in), -1 if the
    game ended in this round.
    """

    obs: npt.NDArray[np.int8]
    won: npt.NDArray[np.float32]
    next_round: npt.NDArray[np.int64]


def afterstates(seed: str, units: int, epsilon: float) -> Chunk:
    """The chunk of games ``seed`` names (``units`` of :data:`CHUNK`), played by the
    compiled greedy player in every seat (one decision in ``1/epsilon`` a random safe one)."""
    rng = random.Random(seed)
    obs: list[bytes] = []
    won: list[float] = []
    next_round: list[int] = []
    for config, count in CHUNK:
        for _ in range(count * units):
            engine = compiled.engine(config, rng.getrandbits(63))
            start = len(obs)
            seats: list[int] = []
            rounds: list[int] = []
            mover: int | None = None
            before = engine.round
            while not engine.is_over:
                current = engine.current
                if mover is not None and (current != mover or engine.round != before):
                    obs.append(engine.encode(mover))  # the mover's turn just ended
                    seats.append(mover)
                    rounds.append(before)
                before = engine.round
                safe = engine.safe_ids() or engine.legal_ids()
                if rng.random() < epsilon:
                    engine.apply_id(rng.choice(safe))
                else:
                    engine.apply_id(engine.greedy(rng.getrandbits(63), 8))
                mover = current
            winners = engine.winners or ()
            won.extend(1.0 if s in winners else 0.0 for s in seats)
            # Each position's link to its seat's first position in a later round (read
            # backwards: the last one seen of a seat is its earliest so far).
            links = [-1] * len(seats)
            latest: dict[int, tuple[int, int]] = {}  # seat -> (index, round) seen last
            later: dict[int, int] = {}  # seat -> its first index in a later round
            for i in range(len(seats) - 1, -1, -1):
                seat, r = seats[i], rounds[i]
                if seat in latest and latest[seat][1] != r:
                    later[seat] = latest[seat][0]
                links[i] = later.get(seat, -1)
                latest[seat] = (start + i, r)
            next_round.extend(links)
    return Chunk(
        np.frombuffer(b"".join(obs), dtype=np.int8).reshape(-1, OBS_SIZE).copy(),
        np.array(won, dtype=np.float32),
        np.array(next_round, dtype=np.int64),
    )


Net = Any
"""A PyTorch network of :func:`make_net` (typed loosely: torch is imported lazily)."""


def _torch() -> Any:
    import torch

    torch.set_num_threads(1)  # other processes share the machine; one thread is also reproducible
    return torch


def make_net(hidden: Sequence[int]) -> Net:
    """The value network (PyTorch): its inputs scaled by :data:`SCALE`, one logit out."""
    torch = _torch()
    from torch import nn

    class ValueNet(nn.Module):
        def __init__(self) -> None:
            super().__init__()
            sizes = [OBS_SIZE, *hidden]
            self.hidden = nn.ModuleList(nn.Linear(a, b) for a, b in zip(sizes, sizes[1:], strict=False))
            self.value = nn.Linear(sizes[-1], 1)
            self.register_buffer("scale", torch.from_numpy(SCALE.copy()))

        def forward(self, obs: Any) -> Any:
            h = obs * self.scale
            for layer in self.hidden:
                h = torch.relu(layer(h))
            return self.value(h).squeeze(-1)

    return ValueNet()


def export(net: Net, meta: dict[str, Any]) -> Network:
    """The numpy :class:`~red7.bots.learned.Network` of ``net`` (scaling folded in)."""
    scale = net.scale.detach().numpy()
    layers = []
    for i, layer in enumerate(net.hidden):
        w = layer.weight.detach().numpy().T.copy()
        if i == 0:
            w = w * scale[:, None]
        layers.append((w, layer.bias.detach().numpy().copy()))
    value = (net.value.weight.detach().numpy().T.copy(), net.value.bias.detach().numpy().copy())
    return Network(layers, value, meta)


def win_probabilities(net: Net, obs: npt.NDArray[np.int8]) -> npt.NDArray[np.float32]:
    """The network's win probabilities of the observation vectors ``obs``."""
    torch = _torch()
    out = np.empty(len(obs), dtype=np.float32)
    with torch.no_grad():
        for i in range(0, len(obs), 65_536):
            out[i : i + 65_536] = torch.sigmoid(net(torch.from_numpy(obs[i : i + 65_536]).float())).numpy()
    return out


def targets(net: Net, chunk: Chunk) -> npt.NDArray[np.float32]:
    """Each position's target: its seat's outcome if the game ended in that round, else
    the network's value of the seat's first position of a later round."""
    later = chunk.next_round >= 0
    result = chunk.won.copy()
    if later.any():
        result[later] = win_probabilities(net, chunk.obs[chunk.next_round[later]])
    return result


def fit(net: Net, optimizer: Any, chunks: Sequence[Chunk], options: Options, rng: np.random.Generator) -> int:
    """One pass over the positions of ``chunks`` (shuffled, targets from the network as it
    is now); returns how many positions it trained on."""
    torch = _torch()
    obs = torch.from_numpy(np.concatenate([c.obs for c in chunks]))
    target = torch.from_numpy(np.concatenate([targets(net, c) for c in chunks]))
    loss_of = torch.nn.BCEWithLogitsLoss()
    for idx in torch.from_numpy(rng.permutation(len(target))).split(options.batch):
        loss = loss_of(net(obs[idx].float()), target[idx])
        optimizer.zero_grad()
        loss.backward()
        optimizer.step()
    return len(target)


# --- evaluation ---------------------------------------------------------------------------


def win_rate(network: Network, opponent: str, deals: int, config: Config, seed: int) -> float:
    """The share of games won by the bot of ``network`` against ``opponent`` over
    ``deals`` fixed deals, each played from both seats (2 players)."""
    wins = 0
    bot = LearnedBot(network=network)
    for deal in range(deals):
        for seat in (0, 1):
            bots = [make_bot(opponent), make_bot(opponent)]
            bots[seat] = bot
            wins += seat in play_game(bots, seed + deal, config).winners
    return wins / (2 * deals)


def evaluate(network: Network, options: Options, iteration: int, positions: int, seconds: float) -> Point:
    """The learning curve's point now (fixed deals, both seats of each)."""
    advanced_deals = max(1, options.eval_medium // 4)
    basic = win_rate(network, "medium", options.eval_medium, Config(2), options.eval_seed)
    advanced = win_rate(network, "medium", advanced_deals, Config(2, advanced=True), options.eval_seed + 1)
    hard = win_rate(network, "hard", options.eval_hard, Config(2), options.eval_seed) if options.eval_hard else None
    games = {
        "medium_basic": 2 * options.eval_medium,
        "medium_advanced": 2 * advanced_deals,
        "hard_basic": 2 * options.eval_hard,
    }
    return Point(iteration, positions, seconds, basic, advanced, hard, games)


def plot(curve: Sequence[Point], path: Path) -> None:
    """The learning curve: win rates against medium and hard over training positions."""
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    fig, ax = plt.subplots(figsize=(7, 4))
    positions = [p.positions for p in curve]
    ax.plot(positions, [p.medium_basic for p in curve], "o-", label="vs medium, 2-player basic")
    ax.plot(positions, [p.medium_advanced for p in curve], "s-", label="vs medium, 2-player advanced")
    hard = [(p.positions, p.hard_basic) for p in curve if p.hard_basic is not None]
    if hard:
        ax.plot(*zip(*hard, strict=True), "^-", label="vs hard, 2-player basic")
    ax.axhline(0.5, color="grey", lw=0.8, ls="--")
    ax.set_xlabel("positions trained on")
    ax.set_ylabel("win rate (fixed deals, both seats)")
    ax.set_ylim(0, 1)
    ax.legend(loc="lower right", fontsize=8)
    ax.grid(alpha=0.3)
    fig.tight_layout()
    fig.savefig(path, dpi=100)
    plt.close(fig)


class Bar:
    """A progress bar on standard error (rich), or nothing when ``quiet``."""

    def __init__(self, description: str, total: int | None, done: int, quiet: bool) -> None:
        from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeElapsedColumn

        self.progress = Progress(
            TextColumn("{task.description}"), BarColumn(), MofNCompleteColumn(), TimeElapsedColumn(),
            TextColumn("{task.fields[note]}"), disable=quiet,
        )  # fmt: skip
        self.task = self.progress.add_task(description, total=total, completed=done, note="")

    def __enter__(self) -> Bar:
        self.progress.start()
        return self

    def __exit__(self, *_: object) -> None:
        self.progress.stop()

    def update(self, advance: int, note: str = "") -> None:
        """``advance`` more done; ``note`` shown beside the bar."""
        self.progress.update(self.task, advance=advance, note=note)


# --- the run ------------------------------------------------------------------------------


def chunk_seed(seed: int, iteration: int) -> str:
    """The name of iteration ``iteration``'s chunk of games in the run of ``seed``."""
    return f"red7.learn:{seed}:{iteration}"


def train(options: Options, out: Path, resume: bool = False, quiet: bool = False) -> list[Point]:
    """Train (or resume) a run in ``out``; returns its learning curve. Writes
    ``checkpoint.pt``, ``learned.npz``, ``curve.json``, ``curve.png`` and ``log.txt``."""
    torch = _torch()
    out.mkdir(parents=True, exist_ok=True)
    torch.manual_seed(options.seed)
    rng = np.random.default_rng(options.seed)
    net = make_net(options.hidden)
    optimizer = torch.optim.Adam(net.parameters(), lr=options.lr)
    curve: list[Point] = []
    iteration = positions = 0
    seconds = 0.0
    checkpoint = out / "checkpoint.pt"
    if resume and checkpoint.exists():
        state = torch.load(checkpoint, weights_only=False)
        # The run goes on as it was set up; where it stops and how often it is measured
        # are the command's (measuring draws nothing from the training's random streams).
        stops = {name: getattr(options, name) for name in ("iterations", "minutes", *EVALUATION)}
        options = Options(**{**state["options"], "hidden": tuple(state["options"]["hidden"]), **stops})
        net.load_state_dict(state["net"])
        optimizer.load_state_dict(state["optimizer"])
        iteration, positions, seconds = state["iteration"], state["positions"], state["seconds"]
        curve = [Point(**p) for p in state["curve"]]
        rng = np.random.default_rng()
        rng.bit_generator.state = state["rng"]
        torch.set_rng_state(state["torch_rng"])

    def meta() -> dict[str, Any]:
        return {"options": asdict(options), "iteration": iteration, "positions": positions,
                "seconds": round(seconds, 1), "trainer": "red7.learn.train"}  # fmt: skip

    def save() -> None:
        state = {"options": asdict(options), "net": net.state_dict(), "optimizer": optimizer.state_dict(),
                 "iteration": iteration, "positions": positions, "seconds": seconds,
                 "curve": [asdict(p) for p in curve], "rng": rng.bit_generator.state,
                 "torch_rng": torch.get_rng_state()}  # fmt: skip
        torch.save(state, out / "checkpoint.tmp")
        (out / "checkpoint.tmp").replace(checkpoint)
        save_weights(out / "learned.npz", export(net, meta()))
        (out / "curve.json").write_text(json.dumps([asdict(p) for p in curve], indent=1))
        plot(curve, out / "curve.png")

    def log(text: str) -> None:
        with open(out / "log.txt", "a") as file:
            file.write(text + "\n")

    def point() -> None:
        p = evaluate(export(net, meta()), options, iteration, positions, seconds)
        curve.append(p)
        hard = "-" if p.hard_basic is None else f"{p.hard_basic:.3f}"
        log(f"iteration {iteration} positions {positions} seconds {seconds:.0f}: medium basic "
            f"{p.medium_basic:.3f} advanced {p.medium_advanced:.3f}, hard basic {hard}")  # fmt: skip
        save()

    if iteration == 0 and not curve:
        point()  # the untrained network
    # The window's earlier chunks, played again from their seeds when a run resumes.
    window = [
        afterstates(chunk_seed(options.seed, i), options.games, options.epsilon)
        for i in range(max(0, iteration - options.window + 1), iteration)
    ]
    deadline = seconds + options.minutes * 60 if options.minutes else math.inf  # from now on
    total = options.iterations if math.isinf(deadline) else None
    with Bar("training", total, iteration, quiet) as bar:
        while iteration < options.iterations and seconds < deadline:
            started = time.perf_counter()
            window = [*window, afterstates(chunk_seed(options.seed, iteration), options.games, options.epsilon)]
            window = window[-options.window :]
            positions += fit(net, optimizer, window, options, rng)
            iteration += 1
            seconds += time.perf_counter() - started
            bar.update(1, f"{positions:,} positions, {positions / max(seconds, 1e-9):,.0f}/s, {seconds / 60:.1f} min")
            if iteration % options.eval_every == 0:
                point()
    if not curve or curve[-1].iteration != iteration:
        point()
    return curve
