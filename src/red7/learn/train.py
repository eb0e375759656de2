"""Train the learned player from scratch: imitation of ``medium``, then PPO with a league.

``python -m red7.learn --out runs/learned --minutes 50`` (see :mod:`red7.learn.__main__`
for every option). Two phases, one network (:class:`PolicyNet`: an MLP with a policy and
a value head over the 873-number observation, :mod:`red7.bots.encoding`):

1. **Imitation** (``--imitation`` decisions): games of the compiled greedy player
   (level ``medium``, fair: its worlds are re-dealt from the mover's view) against
   itself in every configuration, a decision in ten replaced by a random legal one so
   the positions vary; the network learns greedy's decision (cross-entropy over the
   legal decisions) and the mover's final return (the value).
2. **PPO** (Schulman et al., 2017) on :class:`red7.envs.vector.Red7VectorEnv`: groups of
   games against the compiled greedy player and self-play groups where the other seats
   are a past self drawn from a league (a snapshot is added every ``--league-every``
   iterations, the last ``--league-size`` kept) or the current network. The learner's
   seat is drawn per game; generalized advantage estimates run over the learner's own
   decisions only (the others' decisions are the environment's), its return arriving at
   the end of the game.

Every ``--eval-every`` iterations the network's most likely decisions are measured on
fixed deals: against ``medium`` (the compiled greedy) in 2-player basic and advanced
games on the vectorized environment, and against ``hard`` in 2-player basic games
(``play_game``, both seats of each deal, the numpy bot of the exported weights). The
curve goes to ``curve.json`` and ``curve.png``; ``checkpoint.pt`` (resumable with
``--resume``) and ``learned.npz`` (the exported weights, what the ``learned`` bot reads)
are written at each evaluation. A run is a function of ``--seed`` and its options (one
torch thread; time limits only decide where it stops).

PyTorch is imported inside the functions that need it: the package installs without it
(``pip install 'red7[train]'`` brings it).
"""

from __future__ import annotations

import json
import math
import random
import time
from collections.abc import Callable, Sequence
from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import Any, Final

import numpy as np
import numpy.typing as npt

from ..bots.encoding import OBS_SIZE, OFFSETS
from ..bots.learned import LearnedBot, Network, save_weights
from ..bots.spec import make_bot
from ..core import compiled
from ..core.actions import NUM_ACTIONS
from ..core.model import Config
from ..envs.returns import zero_sum_returns
from ..envs.vector import Red7VectorEnv
from ..play.match import play_game

CONFIGS: Final = [Config(n, advanced=a, actions=x) for n in (2, 3, 4) for a in (False, True) for x in (False, True)]
"""The 12 configurations (players, advanced, actions)."""

SCALE: Final = np.ones(OBS_SIZE, dtype=np.float32)
"""What each input is multiplied by before the first layer: card bits stay 0/1, counts
are brought near 0..1 (folded into the first layer's weights on export)."""
for _name, _div in (
    ("hand_sizes", 8),
    ("scores", 20),
    ("deck_size", 40),
    ("out_of_round", 20),
    ("round", 20),
    ("target", 40),
):
    _size = {"hand_sizes": 4, "scores": 4}.get(_name, 1)
    SCALE[OFFSETS[_name] : OFFSETS[_name] + _size] = 1.0 / _div


@dataclass
class Options:
    """Everything a run depends on (saved in the checkpoint and the weights' meta)."""

    seed: int = 0
    hidden: tuple[int, ...] = (384, 256)
    imitation: int = 200_000
    """Decisions of greedy to imitate before PPO (0: none)."""
    imitation_epochs: int = 3
    iterations: int = 1_000_000
    """PPO iterations at most (``minutes`` usually stops the run first)."""
    minutes: float = 0.0
    """Stop after this much more training time (0: no limit); the run ends with an evaluation."""
    horizon: int = 64
    envs_greedy: int = 96
    """Games per group against the greedy player (2-player basic, 2-player advanced)."""
    envs_self: int = 64
    """Games per self-play group (2-player basic, 2-player advanced)."""
    envs_multi: int = 16
    """Games per group of 3 and 4 players (advanced with actions) against greedy."""
    lr: float = 2.5e-4
    epochs: int = 2
    minibatch: int = 1024
    clip: float = 0.2
    entropy: float = 0.01
    gamma: float = 0.995
    lam: float = 0.95
    league_every: int = 10
    league_size: int = 8
    eval_every: int = 10
    eval_medium: int = 300
    """Deals per configuration (2-player basic and advanced) against medium."""
    eval_hard: int = 12
    """2-player basic deals (each played from both seats) against hard (0: none)."""
    eval_seed: int = 10_000


EVALUATION: Final = ("eval_every", "eval_medium", "eval_hard", "eval_seed")
"""The options that only say how the run is measured (a resumed run takes the command's)."""


@dataclass
class Point:
    """One evaluation on the learning curve."""

    iteration: int
    steps: int
    seconds: float
    medium_basic: float
    medium_advanced: float
    hard_basic: float | None
    games: dict[str, int] = field(default_factory=dict)


Net = Any
"""A PyTorch network of :func:`make_net` (typed loosely: torch is imported lazily)."""


def _torch() -> Any:
    import torch

    torch.set_num_threads(1)  # other processes share the machine; one thread is also reproducible
    return torch


def make_net(hidden: Sequence[int]) -> Net:
    """The policy and value network (PyTorch), its inputs scaled by :data:`SCALE`."""
    torch = _torch()
    from torch import nn

    class PolicyNet(nn.Module):
        def __init__(self) -> None:
            super().__init__()
            sizes = [OBS_SIZE, *hidden]
            self.hidden = nn.ModuleList(nn.Linear(a, b) for a, b in zip(sizes, sizes[1:], strict=False))
            self.policy = nn.Linear(sizes[-1], NUM_ACTIONS)
            self.value = nn.Linear(sizes[-1], 1)
            self.register_buffer("scale", torch.from_numpy(SCALE.copy()))
            nn.init.orthogonal_(self.policy.weight, 0.01)  # a near-uniform policy to start
            nn.init.zeros_(self.policy.bias)

        def forward(self, obs: Any, mask: Any) -> tuple[Any, Any]:
            h = obs * self.scale
            for layer in self.hidden:
                h = torch.relu(layer(h))
            logits = self.policy(h).masked_fill(~mask, -1e9)  # illegal decisions: never chosen
            return logits, self.value(h).squeeze(-1)

    return PolicyNet()


def export(net: Net, meta: dict[str, Any]) -> Network:
    """The numpy :class:`~red7.bots.learned.Network` of ``net`` (scaling folded in)."""
    scale = net.scale.detach().numpy()
    layers = []
    for i, layer in enumerate(net.hidden):
        w = layer.weight.detach().numpy().T.copy()
        if i == 0:
            w = w * scale[:, None]
        layers.append((w, layer.bias.detach().numpy().copy()))
    policy = (net.policy.weight.detach().numpy().T.copy(), net.policy.bias.detach().numpy().copy())
    value = (net.value.weight.detach().numpy().T.copy(), net.value.bias.detach().numpy().copy())
    return Network(layers, policy, value, meta)


# --- phase 1: imitation of the compiled greedy player -------------------------------------


def greedy_decisions(count: int, seed: int, configs: Sequence[tuple[Config, float]]) -> dict[str, npt.NDArray[Any]]:
    """``count`` decision points of greedy-vs-greedy games: observation, legal mask,
    greedy's decision and the mover's final return. ``configs``: (configuration, weight)."""
    rng = random.Random(seed)
    obs = np.zeros((count, OBS_SIZE), dtype=np.int8)
    mask = np.zeros((count, NUM_ACTIONS), dtype=bool)
    label = np.zeros(count, dtype=np.int64)
    ret = np.zeros(count, dtype=np.float32)
    weights = [w for _, w in configs]
    n = 0
    game = 0
    while n < count:
        config = rng.choices([c for c, _ in configs], weights)[0]
        engine = compiled.engine(config, seed * 1_000_003 + game)
        game += 1
        start, movers = n, []
        while not engine.is_over and n < count:
            mover = engine.current
            assert mover is not None  # the game is not over
            legal = engine.legal_ids()
            choice = engine.greedy(rng.getrandbits(63), 8)
            obs[n] = np.frombuffer(engine.encode(mover), dtype=np.int8)
            mask[n, legal] = True
            label[n] = choice
            movers.append(mover)
            n += 1
            engine.apply_id(rng.choice(legal) if rng.random() < 0.1 else choice)
        if engine.is_over:
            returns = zero_sum_returns(engine.winners or (), config.players)
            ret[start:n] = [returns[m] for m in movers]
        else:  # cut short by the count: no outcome, drop it
            n = start
            break
    return {"obs": obs[:n], "mask": mask[:n], "label": label[:n], "return": ret[:n]}


def imitate(
    net: Net, optimizer: Any, data: dict[str, npt.NDArray[Any]], epochs: int, seed: int, progress: Any
) -> list[float]:
    """Fit the policy to greedy's decisions and the value to the returns; returns the
    share of greedy's decisions the network makes on the held-out twentieth of the
    decisions after each epoch."""
    torch = _torch()
    gen = torch.Generator().manual_seed(seed)
    obs = torch.from_numpy(data["obs"])  # int8: made float a batch at a time (memory)
    mask = torch.from_numpy(data["mask"])
    label = torch.from_numpy(data["label"])
    ret = torch.from_numpy(data["return"])
    held = max(1, len(label) // 20)  # the last games' decisions: held out
    train_size = len(label) - held
    accuracy = []
    for _ in range(epochs):
        net.train()
        for idx in torch.randperm(train_size, generator=gen).split(512):
            logits, value = net(obs[idx].float(), mask[idx])
            loss = torch.nn.functional.cross_entropy(logits, label[idx]) + 0.5 * (value - ret[idx]).pow(2).mean()
            optimizer.zero_grad()
            loss.backward()
            optimizer.step()
            progress.update(len(idx))
        with torch.no_grad():
            logits, _ = net(obs[train_size:].float(), mask[train_size:])
            accuracy.append(float((logits.argmax(dim=1) == label[train_size:]).float().mean()))
    return accuracy


# --- phase 2: PPO against greedy and a league of past selves ------------------------------


@dataclass
class Group:
    """Games stepped together: one configuration, one kind of opponent."""

    env: Red7VectorEnv
    selfplay: bool
    players: int
    learner: npt.NDArray[np.int8]
    """Self-play: the learner's seat in each game (drawn when it is dealt)."""


def make_groups(options: Options, seed: int) -> list[Group]:
    """The groups of games of a run (seeds derived from ``seed``)."""
    rng = np.random.default_rng(seed)
    groups = []
    specs: list[tuple[int, bool, bool, bool, int]] = [
        (2, False, False, False, options.envs_greedy),
        (2, True, False, False, options.envs_greedy),
        (2, False, False, True, options.envs_self),
        (2, True, False, True, options.envs_self),
        (3, True, True, False, options.envs_multi),
        (4, True, True, False, options.envs_multi),
    ]
    for i, (players, advanced, actions, selfplay, count) in enumerate(specs):
        if count <= 0:
            continue
        env = Red7VectorEnv(
            num_envs=count, players=players, advanced=advanced, actions=actions,
            seat="self" if selfplay else "random", opponent="random" if selfplay else "greedy",
            seed=seed * 100 + i,
        )  # fmt: skip
        env.reset()
        groups.append(Group(env, selfplay, players, rng.integers(0, players, count).astype(np.int8)))
    return groups


def ppo_iteration(
    net: Net,
    opponents: Sequence[Net],
    optimizer: Any,
    groups: Sequence[Group],
    options: Options,
    rng: np.random.Generator,
) -> int:
    """One rollout of ``options.horizon`` steps in every group, then the PPO update;
    returns the learner decisions it trained on."""
    torch = _torch()
    T = options.horizon
    buffers = []
    with torch.no_grad():
        for group in groups:
            env, n = group.env, group.env.num_envs
            opponent = opponents[int(rng.integers(len(opponents)))] if group.selfplay else None
            buf = {
                "obs": np.zeros((T, n, OBS_SIZE), np.int8),
                "mask": np.zeros((T, n, NUM_ACTIONS), bool),
                "action": np.zeros((T, n), np.int64),
                "logp": np.zeros((T, n), np.float32),
                "value": np.zeros((T, n), np.float32),
                "mine": np.zeros((T, n), bool),
                "done": np.zeros((T, n), bool),
                "reward": np.zeros((T, n), np.float32),
            }
            obs_np, mask_np, seats = env.obs, env.mask, env.seats
            for t in range(T):
                mine = seats == group.learner if group.selfplay else np.ones(n, bool)
                obs = torch.from_numpy(obs_np.astype(np.float32))
                mask = torch.from_numpy(mask_np.astype(bool))
                logits, value = net(obs, mask)
                dist = torch.distributions.Categorical(logits=logits)
                action = dist.sample()
                if opponent is not None and not mine.all():
                    other_logits, _ = opponent(obs, mask)
                    other = torch.distributions.Categorical(logits=other_logits).sample()
                    action = torch.where(torch.from_numpy(mine), action, other)
                buf["obs"][t], buf["mask"][t] = obs_np, mask_np
                buf["action"][t] = action.numpy()
                buf["logp"][t] = dist.log_prob(action).numpy()
                buf["value"][t] = value.numpy()
                buf["mine"][t] = mine
                _, rewards, terminated, _, info = env.step(action.numpy())
                buf["done"][t] = terminated
                if group.selfplay:
                    buf["reward"][t] = info["returns"][np.arange(n), group.learner]
                    ended = np.flatnonzero(terminated)
                    group.learner[ended] = rng.integers(0, group.players, len(ended))
                else:
                    buf["reward"][t] = rewards
            # Bootstrap: the value of the learner's next decision, if it is to move now;
            # otherwise its last decision's value (the game goes on between them).
            mine = seats == group.learner if group.selfplay else np.ones(n, bool)
            _, last = net(torch.from_numpy(obs_np.astype(np.float32)), torch.from_numpy(mask_np.astype(bool)))
            following = np.where(mine, last.numpy(), 0.0).astype(np.float32)
            for t in range(T):
                following = np.where(buf["mine"][t] & ~mine, buf["value"][t], following)
            buf["advantage"] = _advantages(buf, following, options.gamma, options.lam)
            buffers.append(buf)
    keep = [np.flatnonzero(b["mine"].ravel()) for b in buffers]
    cat = {
        k: np.concatenate([b[k].reshape(-1, *b[k].shape[2:])[i] for b, i in zip(buffers, keep, strict=True)])
        for k in ("obs", "mask", "action", "logp", "value", "advantage")
    }
    obs = torch.from_numpy(cat["obs"]).float()
    mask = torch.from_numpy(cat["mask"])
    act = torch.from_numpy(cat["action"])
    old_logp = torch.from_numpy(cat["logp"])
    adv = torch.from_numpy(cat["advantage"])
    ret = adv + torch.from_numpy(cat["value"])
    adv = (adv - adv.mean()) / (adv.std() + 1e-8)
    gen = torch.Generator().manual_seed(int(rng.integers(1 << 62)))
    for _ in range(options.epochs):
        for idx in torch.randperm(len(act), generator=gen).split(options.minibatch):
            logits, value = net(obs[idx], mask[idx])
            dist = torch.distributions.Categorical(logits=logits)
            ratio = (dist.log_prob(act[idx]) - old_logp[idx]).exp()
            clipped = torch.clamp(ratio, 1 - options.clip, 1 + options.clip) * adv[idx]
            loss = -torch.min(ratio * adv[idx], clipped).mean()
            loss = loss + 0.5 * (value - ret[idx]).pow(2).mean() - options.entropy * dist.entropy().mean()
            optimizer.zero_grad()
            loss.backward()
            torch.nn.utils.clip_grad_norm_(net.parameters(), 0.5)
            optimizer.step()
    return len(act)


def _advantages(
    buf: dict[str, npt.NDArray[Any]], following: npt.NDArray[np.float32], gamma: float, lam: float
) -> npt.NDArray[np.float32]:
    """GAE over each game's learner decisions only (``mine``), read backwards: a game's
    end (``done``, on anyone's step) brings the learner's return to its last decision
    before it and cuts the bootstrap from the next game."""
    T, n = buf["mine"].shape
    advantage = np.zeros((T, n), np.float32)
    value_next = following.copy()
    gae = np.zeros(n, np.float32)
    carry = np.zeros(n, np.float32)
    for t in reversed(range(T)):
        done = buf["done"][t]
        carry = np.where(done, buf["reward"][t], carry)
        value_next = np.where(done, 0.0, value_next).astype(np.float32)
        gae = np.where(done, 0.0, gae).astype(np.float32)
        mine = buf["mine"][t]
        delta = carry + gamma * value_next - buf["value"][t]
        new_gae = delta + gamma * lam * gae
        advantage[t] = np.where(mine, new_gae, 0.0)
        gae = np.where(mine, new_gae, gae).astype(np.float32)
        value_next = np.where(mine, buf["value"][t], value_next).astype(np.float32)
        carry = np.where(mine, 0.0, carry).astype(np.float32)
    return advantage


# --- evaluation ---------------------------------------------------------------------------


def win_rate_vs_greedy(
    choose: Callable[[npt.NDArray[Any], npt.NDArray[Any]], npt.NDArray[np.int64]], games: int, advanced: bool, seed: int
) -> float:
    """The share of ``games`` fixed 2-player deals (the learner's seat drawn per deal)
    won against the compiled greedy player (``medium``) by ``choose(obs, mask)``."""
    env = Red7VectorEnv(num_envs=games, players=2, advanced=advanced, seat="random", opponent="greedy", seed=seed)
    obs, info = env.reset()
    won = np.zeros(games, bool)
    done = np.zeros(games, bool)
    while not done.all():
        obs, rewards, terminated, _, info = env.step(choose(obs, info["action_mask"]))
        first = terminated & ~done
        won[first] = rewards[first] > 0
        done |= terminated
    return float(won.mean())


def win_rate_vs_bot(network: Network, opponent: str, deals: int, config: Config, seed: int) -> float:
    """The share of games won by the numpy bot of ``network`` against ``opponent`` over
    ``deals`` fixed deals, each played from both seats (2 players)."""
    wins = 0
    for deal in range(deals):
        for seat in (0, 1):
            bots = [make_bot(opponent), make_bot(opponent)]
            bots[seat] = LearnedBot(network=network)
            wins += seat in play_game(bots, seed + deal, config).winners
    return wins / (2 * deals)


def evaluate(net: Net, options: Options, iteration: int, steps: int, seconds: float, meta: dict[str, Any]) -> Point:
    """The learning curve's point now (most likely decisions, fixed deals)."""
    torch = _torch()

    def greedy_policy(obs: npt.NDArray[Any], mask: npt.NDArray[Any]) -> npt.NDArray[np.int64]:
        with torch.no_grad():
            logits, _ = net(torch.from_numpy(obs.astype(np.float32)), torch.from_numpy(mask.astype(bool)))
        chosen: npt.NDArray[np.int64] = logits.argmax(dim=1).numpy()
        return chosen

    basic = win_rate_vs_greedy(greedy_policy, options.eval_medium, False, options.eval_seed)
    advanced = win_rate_vs_greedy(greedy_policy, options.eval_medium, True, options.eval_seed + 1)
    hard = None
    if options.eval_hard:
        hard = win_rate_vs_bot(export(net, meta), "hard", options.eval_hard, Config(2), options.eval_seed)
    games = {
        "medium_basic": options.eval_medium,
        "medium_advanced": options.eval_medium,
        "hard_basic": 2 * options.eval_hard,
    }
    return Point(iteration, steps, seconds, basic, advanced, hard, games)


def plot(curve: Sequence[Point], path: Path) -> None:
    """The learning curve: win rates against medium and hard over training steps."""
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    fig, ax = plt.subplots(figsize=(7, 4))
    steps = [p.steps for p in curve]
    ax.plot(steps, [p.medium_basic for p in curve], "o-", label="vs medium, 2-player basic")
    ax.plot(steps, [p.medium_advanced for p in curve], "s-", label="vs medium, 2-player advanced")
    hard = [(p.steps, p.hard_basic) for p in curve if p.hard_basic is not None]
    if hard:
        ax.plot(*zip(*hard, strict=True), "^-", label="vs hard, 2-player basic")
    ax.axhline(0.5, color="grey", lw=0.8, ls="--")
    ax.set_xlabel("training decisions (imitation + PPO learner steps)")
    ax.set_ylabel("win rate (fixed deals)")
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


def train(options: Options, out: Path, resume: bool = False, quiet: bool = False) -> list[Point]:
    """Train (or resume) a run in ``out``; returns its learning curve. Writes
    ``checkpoint.pt``, ``learned.npz``, ``curve.json``, ``curve.png`` and ``log.txt``."""
    torch = _torch()
    out.mkdir(parents=True, exist_ok=True)
    torch.manual_seed(options.seed)
    rng = np.random.default_rng(options.seed)
    net = make_net(options.hidden)
    optimizer = torch.optim.Adam(net.parameters(), lr=options.lr)
    league: list[dict[str, Any]] = []
    curve: list[Point] = []
    iteration = steps = 0
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
        league, iteration, steps, seconds = state["league"], state["iteration"], state["steps"], state["seconds"]
        curve = [Point(**p) for p in state["curve"]]
        rng = np.random.default_rng()
        rng.bit_generator.state = state["rng"]
        torch.set_rng_state(state["torch_rng"])

    def meta() -> dict[str, Any]:
        return {"options": asdict(options), "iteration": iteration, "steps": steps, "seconds": round(seconds, 1),
                "trainer": "red7.learn.train"}  # fmt: skip

    def save() -> None:
        state = {"options": asdict(options), "net": net.state_dict(), "optimizer": optimizer.state_dict(),
                 "league": league, "iteration": iteration, "steps": steps, "seconds": seconds,
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
        p = evaluate(net, options, iteration, steps, seconds, meta())
        curve.append(p)
        hard = "-" if p.hard_basic is None else f"{p.hard_basic:.3f}"
        log(f"iteration {iteration} steps {steps} seconds {seconds:.0f}: medium basic {p.medium_basic:.3f} "
            f"advanced {p.medium_advanced:.3f}, hard basic {hard}")  # fmt: skip
        save()

    if iteration == 0 and not curve:
        point()  # the untrained network
        if options.imitation:
            started = time.perf_counter()
            configs = [(c, 6.0 if c.players == 2 and not c.actions else 1.0) for c in CONFIGS]
            data = greedy_decisions(options.imitation, options.seed, configs)
            with Bar(
                "imitating medium", (len(data["label"]) - len(data["label"]) // 20) * options.imitation_epochs, 0, quiet
            ) as bar:
                accuracy = imitate(net, optimizer, data, options.imitation_epochs, options.seed, bar)
            log(f"imitation: {len(data['label'])} decisions, held-out agreement with greedy by epoch {accuracy}")
            steps += len(data["label"])
            seconds += time.perf_counter() - started
            point()
    groups = make_groups(options, options.seed * 7919 + iteration)
    deadline = seconds + options.minutes * 60 if options.minutes else math.inf  # from now on
    total = options.iterations if math.isinf(deadline) else None
    with Bar("PPO iterations", total, iteration, quiet) as bar:
        while iteration < options.iterations and seconds < deadline:
            started = time.perf_counter()
            snapshots = []
            for state in league:
                snapshot = make_net(options.hidden)
                snapshot.load_state_dict(state)
                snapshots.append(snapshot)
            snapshots.append(net)  # the current self too
            steps += ppo_iteration(net, snapshots, optimizer, groups, options, rng)
            iteration += 1
            seconds += time.perf_counter() - started
            if iteration % options.league_every == 0:
                league = [*league, {k: v.clone() for k, v in net.state_dict().items()}][-options.league_size :]
            bar.update(1, f"{steps:,} decisions, {steps / max(seconds, 1e-9):,.0f}/s, {seconds / 60:.1f} min")
            if iteration % options.eval_every == 0:
                point()
    if not curve or curve[-1].iteration != iteration:
        point()
    return curve
