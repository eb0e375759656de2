"""How much of a searching player's hand can be learned from its round? A bound by learning.

An experiment, not part of the product. The seer (``experiments/seer_ceiling.py
--hands-only``) shows that a player who knows the other hand wins 92 % of 2-player
advanced matches against `hard`, and `experiments/search_model.py` found that neither the
`greedy` model nor a cheap copy of `hard`'s search tells much of that hand (the share of
it a world holds: 0.172 plain, 0.177 and 0.19 weighted). Those are models of play
written by hand. Here the posterior is *learned* from `hard`'s own games instead: a
network reads what the viewer saw (the observation's vector, ``red7.envs.encoding``,
and the round's decisions in order, who made them and who drew unseen) and predicts,
for each card the viewer cannot place, whether the other player holds it. Trained on
`hard`-against-`hard` matches and measured on other matches, its predicted chance of the
true hand's cards is the share of the hand a world drawn from it would hold, the same
measure as ``search_model.py diagnose`` (a known card counts 1). Whatever the
decisions say about the hand that such a network can read, it shows.

    .venv/bin/python experiments/learned_hand.py collect --matches 400 --out /tmp/hands.npz
    .venv/bin/python experiments/learned_hand.py train --data /tmp/hands.npz --epochs 3 --lr 3e-4 --threads 2

and, as the control that the network reads a hand where the decisions tell of it, the same
with ``--bot medium --matches 600`` (``greedy``'s decisions do tell of its hand). A fifth
of the matches is held out for the measure, another fifth chooses the epoch.
"""

from __future__ import annotations

import argparse
import copy
import random
import time
from concurrent.futures import ProcessPoolExecutor
from typing import Any

import numpy as np

from red7 import Game
from red7.analysis.measures import bootstrap_ratio
from red7.bots import inference, make_bot
from red7.core import actions as A
from red7.core.cards import NUM_CARDS as CARDS
from red7.core.cards import bits_of
from red7.core.model import Config
from red7.envs.encoding import OBS_SIZE, encode
from red7.play import play_game
from red7.solver import solvable

LENGTH = 64
"""The most decisions of a round read (the last ones)."""
CARD_KINDS = A.END // CARDS
"""The actions naming a card: play, canvas, move to canvas, move to deck, take."""
KINDS = CARD_KINDS + A.NUM_ACTIONS - A.END
"""The card kinds, then end, concede, draw, decline."""
STEP = 2 + 7 + 2 * CARDS + 2 + KINDS + CARDS + 2
"""A decision of the round as everyone saw it, from one viewer (:func:`step_vector`)."""


def _mask(cards: int) -> np.ndarray:
    out = np.zeros(CARDS, dtype=bool)
    out[list(bits_of(cards))] = True
    return out


def step_vector(public: np.ndarray, me: int) -> np.ndarray:
    """A row of a round's public record (``Recorder.steps``) as viewer ``me`` reads it:
    [mine, other's], the rule, the palettes and hand sizes (mine first), what was done
    (kind, card) and whether the decider then drew [in public, unseen]."""
    seat, rule, palettes, sizes, done, drew = np.split(
        public, [1, 2, 2 + 2 * CARDS, 4 + 2 * CARDS, 4 + 2 * CARDS + KINDS + CARDS]
    )
    mine = int(seat[0]) == me
    order = (slice(0, CARDS), slice(CARDS, 2 * CARDS)) if me == 0 else (slice(CARDS, 2 * CARDS), slice(0, CARDS))
    return np.concatenate(
        [
            [mine, not mine],
            np.eye(7)[int(rule[0])],
            palettes[order[0]],
            palettes[order[1]],
            sizes[[me, 1 - me]] / 8,
            done,
            drew,
        ]
    ).astype(np.float32)


def _done(action: int) -> np.ndarray:
    out = np.zeros(KINDS + CARDS)
    if action < A.END:
        out[action // CARDS] = 1
        out[KINDS + action % CARDS] = 1
    else:
        out[CARD_KINDS + action - A.END] = 1
    return out


class Recorder:
    """The before-decision hook of ``collect``. ``steps`` keeps each round's public record,
    a row per decision: seat, rule, palettes (seat 0 first), hand sizes, what was done,
    who drew; ``rows`` one row at each decision where the search decides (more than one
    option, the solver does not answer, cards still drawn), with the number of the
    round's decisions before it."""

    def __init__(self) -> None:
        self.rows: list[tuple[Any, ...]] = []
        self.steps: list[list[np.ndarray]] = []
        self._start = -1

    def __call__(self, game: Game) -> None:
        me = game.current_player
        assert me is not None
        obs = game.observe(me)
        log = obs.round_log
        if log.start != self._start:
            self._start = log.start
            self.steps.append([])
        steps = self.steps[-1]
        if steps:  # the previous decision of the round is now known, and whether it drew
            seat, a = obs.history[-1]
            drew = [0.0, 0.0]
            for i, who, card in log.draws:
                if i == len(obs.history) - 1 and who == seat:
                    drew[card < 0] = 1.0
            steps[-1][-(KINDS + CARDS + 2) :] = np.concatenate([_done(a), drew])
        palettes = np.concatenate([_mask(p) for p in obs.palettes])
        steps.append(np.concatenate([[me, obs.rule], palettes, obs.hand_sizes, np.zeros(KINDS + CARDS + 2)]))
        if len(game.options()) == 1 or solvable(obs, fast=True) or not inference.applies(obs):
            return
        other = 1 - me
        truth = game.observe(other).hand
        assert truth is not None
        if not truth:
            return
        known = obs.known_hand_cards[other]
        pool = sum(1 << card for card in inference.round_past(obs).pool)
        assert truth & ~known & ~pool == 0, "the other hand's unseen cards are among those nobody has seen"
        round_ = len(self.steps) - 1
        self.rows.append((encode(obs), round_, len(steps) - 1, _mask(pool), _mask(known), _mask(truth), me))


def collect_match(task: tuple[str, int, int]) -> tuple[list[tuple[Any, ...]], list[np.ndarray]]:
    """The rows of one match of the bot against itself, and its rounds' public records."""
    bot, match, seed = task
    recorder = Recorder()
    play_game([make_bot(bot), make_bot(bot)], seed + match, Config(2, advanced=True), before_decision=recorder)
    return [(*row, match) for row in recorder.rows], [np.stack(steps) for steps in recorder.steps]


def collect(args: argparse.Namespace) -> None:
    started = time.perf_counter()
    rows: list[tuple[Any, ...]] = []
    rounds: list[np.ndarray] = []
    with ProcessPoolExecutor(args.jobs) as pool:
        tasks = [(args.bot, m, args.seed) for m in range(args.matches)]
        for done, (part, steps) in enumerate(pool.map(collect_match, tasks), 1):
            rows.extend((*row[:1], row[1] + len(rounds), *row[2:]) for row in part)
            rounds.extend(steps)
            if done % 20 == 0:
                print(f"{done} matches, {len(rows)} decisions, {time.perf_counter() - started:.0f} s", flush=True)
    columns = list(zip(*rows, strict=True))
    names = ("static", "round", "before", "pool", "known", "truth", "seat", "match")
    arrays: dict[str, Any] = {
        n: np.stack(c) if c and isinstance(c[0], np.ndarray) else np.array(c)
        for n, c in zip(names, columns, strict=True)
    }
    offsets = np.cumsum([0] + [len(r) for r in rounds])
    arrays.update(steps=np.concatenate(rounds).astype(np.int8), offsets=offsets)
    np.savez_compressed(args.out, allow_pickle=False, **arrays)
    print(f"{len(rows)} decisions of {args.matches} matches -> {args.out}")


def shares(p: np.ndarray, pool: np.ndarray, known: np.ndarray, truth: np.ndarray) -> np.ndarray:
    """The share of the true hand a world drawn from the card chances ``p`` holds, per row:
    ``p`` is scaled over the pool so that it places exactly the hand's unknown cards."""
    unknown = truth.sum(1) - known.sum(1)
    p = np.where(pool, p, 0.0)
    p = p * (unknown / np.maximum(p.sum(1), 1e-9))[:, None]
    held: np.ndarray = (known.sum(1) + (p * (truth & pool)).sum(1)) / truth.sum(1)
    return held


def prior_logit(pool: np.ndarray, known: np.ndarray, truth: np.ndarray) -> np.ndarray:
    """Per row, the logit of the plain chance of each unseen card being in the other hand
    (its unseen cards spread evenly over the pool)."""
    p = np.clip((truth.sum(1) - known.sum(1)) / np.maximum(pool.sum(1), 1), 1e-4, 1 - 1e-4)
    logits: np.ndarray = np.log(p / (1 - p))
    return logits


def train(args: argparse.Namespace) -> None:
    import torch
    from torch import nn

    torch.manual_seed(args.seed)
    torch.set_num_threads(args.threads)
    data = np.load(args.data)
    matches = np.unique(data["match"])
    rng = random.Random(args.seed)
    shuffled = rng.sample(sorted(matches.tolist()), len(matches))
    fifth = len(matches) // 5
    test_matches, valid_matches = sorted(shuffled[:fifth]), shuffled[fifth : 2 * fifth]
    test, valid = np.isin(data["match"], test_matches), np.isin(data["match"], valid_matches)
    print(
        f"{len(data['match'])} decisions of {len(matches)} matches; {test.sum()} of {len(test_matches)} held out "
        f"for the measure, {valid.sum()} of {len(valid_matches)} to choose the epoch"
    )

    steps, offsets = data["steps"].astype(np.float32), data["offsets"]
    viewed = [np.stack([step_vector(row, me) for row in steps]) for me in (0, 1)]  # each step, as each seat reads it

    def tensors(rows: np.ndarray) -> tuple[torch.Tensor, ...]:
        """The inputs of ``rows`` (plain-chance logits, observation vector, the round's
        decisions before, padded at the end, and their number), then the pool and the target."""
        pool, known, truth = (data[n][rows] for n in ("pool", "known", "truth"))
        before = np.minimum(data["before"][rows], LENGTH)
        sequences = np.zeros((len(rows), max(1, before.max()), STEP), dtype=np.float32)
        for k, (r, b, me) in enumerate(zip(data["round"][rows], before, data["seat"][rows], strict=True)):
            end = offsets[r] + data["before"][rows[k]]
            sequences[k, :b] = viewed[me][end - b : end]
        return (
            torch.tensor(prior_logit(pool, known, truth), dtype=torch.float32),
            torch.tensor(data["static"][rows], dtype=torch.float32),
            torch.tensor(sequences),
            torch.tensor(before),
            torch.tensor(pool),
            torch.tensor(truth & pool, dtype=torch.float32),
        )

    class Net(nn.Module):
        def __init__(self) -> None:
            super().__init__()
            self.gru = nn.GRU(STEP, args.width, batch_first=True)
            self.static = nn.Sequential(nn.Linear(OBS_SIZE, args.width), nn.ReLU())
            self.head = nn.Sequential(nn.Linear(2 * args.width, args.width), nn.ReLU(), nn.Linear(args.width, CARDS))

        def forward(
            self, prior: torch.Tensor, static: torch.Tensor, sequences: torch.Tensor, lengths: torch.Tensor
        ) -> torch.Tensor:
            """The logits of each card being in the other hand: the plain chance's, corrected."""
            packed = nn.utils.rnn.pack_padded_sequence(
                sequences, lengths.clamp(min=1), batch_first=True, enforce_sorted=False
            )
            _, hidden = self.gru(packed)
            seen = (lengths > 0).float()[:, None]  # no decision yet: the GRU's state says nothing
            corrected: torch.Tensor = prior[:, None] + self.head(torch.cat([hidden[-1] * seen, self.static(static)], 1))
            return corrected

    net = Net()
    optimiser = torch.optim.Adam(net.parameters(), lr=args.lr, weight_decay=1e-5)
    train_rows, valid_rows, test_rows = np.flatnonzero(~test & ~valid), np.flatnonzero(valid), np.flatnonzero(test)
    x_valid, x_test = tensors(valid_rows), tensors(test_rows)

    def loss_of(logits: torch.Tensor, pool: torch.Tensor, target: torch.Tensor) -> torch.Tensor:
        loss = nn.functional.binary_cross_entropy_with_logits(logits, target, reduction="none")
        return (loss * pool).sum() / pool.sum()

    def held_out(x: tuple[torch.Tensor, ...]) -> tuple[torch.Tensor, float]:
        net.eval()
        with torch.no_grad():
            logits = net(*x[:4])
            return logits, loss_of(logits, x[4], x[5]).item()

    def plain_loss(x: tuple[torch.Tensor, ...]) -> float:
        return loss_of(x[0][:, None].expand(-1, CARDS), x[4], x[5]).item()

    print(f"plain chances: validation loss {plain_loss(x_valid):.4f}")
    best, kept = float("inf"), copy.deepcopy(net.state_dict())
    for epoch in range(args.epochs):
        net.train()
        order = np.random.default_rng(args.seed + epoch).permutation(train_rows)
        for start in range(0, len(order), args.batch):
            *inputs, pool, target = tensors(order[start : start + args.batch])
            optimiser.zero_grad()
            loss = loss_of(net(*inputs), pool, target)
            loss.backward()  # type: ignore[no-untyped-call]
            optimiser.step()
        _, loss_valid = held_out(x_valid)
        print(f"epoch {epoch + 1}: validation loss {loss_valid:.4f}", flush=True)
        if loss_valid < best:  # the epoch measured is the one the validation matches choose
            best, kept = loss_valid, copy.deepcopy(net.state_dict())
    net.load_state_dict(kept)
    logits, held = held_out(x_test)

    pool, known, truth = (data[n][test_rows] for n in ("pool", "known", "truth"))
    learned = shares(torch.sigmoid(logits).numpy().astype(np.float64), pool, known, truth)
    plain = shares(np.ones(pool.shape), pool, known, truth)
    by_match = data["match"][test_rows]
    sums = [learned[by_match == m].sum() - plain[by_match == m].sum() for m in test_matches]
    counts = [int((by_match == m).sum()) for m in test_matches]
    lo, hi = bootstrap_ratio(sums, counts)
    print(f"held-out loss: plain chances {plain_loss(x_test):.4f}, learned {held:.4f}")
    print(
        f"share of the other hand a world holds, {len(test_rows)} held-out decisions: plain {plain.mean():.3f}, "
        f"learned {learned.mean():.3f} (minus plain {learned.mean() - plain.mean():+.3f}, 95 % CI over matches "
        f"{lo:+.3f} to {hi:+.3f})"
    )
    seat0 = data["seat"][test_rows] == 0
    print(f"at seat 0's decisions only: plain {plain[seat0].mean():.3f}, learned {learned[seat0].mean():.3f}")


def main() -> None:
    parser = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    parser.add_argument("what", choices=("collect", "train"))
    parser.add_argument("--matches", type=int, default=600, help="collect: matches of the bot against itself")
    parser.add_argument("--bot", default="hard", help="collect: the bot playing both seats")
    parser.add_argument("--out", default="hands.npz")
    parser.add_argument("--data", default="hands.npz")
    parser.add_argument("--epochs", type=int, default=12)
    parser.add_argument("--batch", type=int, default=256)
    parser.add_argument("--width", type=int, default=128)
    parser.add_argument("--lr", type=float, default=1e-3)
    parser.add_argument("--threads", type=int, default=1)
    parser.add_argument("--seed", type=int, default=2026)
    parser.add_argument("--jobs", type=int, default=1)
    args = parser.parse_args()
    (collect if args.what == "collect" else train)(args)


if __name__ == "__main__":
    main()
