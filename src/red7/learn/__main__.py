"""``python -m red7.learn``: train the learned player from scratch (or resume a run).

    python -m red7.learn --out runs/learned --minutes 60 --seed 0
    python -m red7.learn --out runs/learned --resume --minutes 20   # go on

Writes into ``--out``: ``checkpoint.pt`` (resumable), ``learned.npz`` (the weights the
``learned`` bot reads: copy it to ``src/red7/bots/data/`` to ship it), ``curve.json``
and ``curve.png`` (win rates against ``medium`` and ``hard`` over training positions)
and ``log.txt``. Needs the compiled engine and ``pip install 'red7[train]'``.
"""

from __future__ import annotations

import argparse
from dataclasses import fields
from pathlib import Path

from .train import Options, train


def main(argv: list[str] | None = None) -> int:
    """Parse the options, train, print where the curve ended."""
    defaults = Options()
    p = argparse.ArgumentParser(prog="python -m red7.learn", description=__doc__.splitlines()[0])
    p.add_argument("--out", type=Path, required=True, help="the run's folder")
    p.add_argument("--resume", action="store_true", help="go on from the folder's checkpoint")
    p.add_argument("--quiet", action="store_true", help="no progress bars")
    p.add_argument("--hidden", type=int, nargs="+", default=list(defaults.hidden), help="hidden layer sizes")
    for f in fields(Options):
        if f.name == "hidden":
            continue
        value = getattr(defaults, f.name)
        p.add_argument(f"--{f.name.replace('_', '-')}", type=type(value), default=value, help=f"(default {value})")
    args = p.parse_args(argv)
    values = {f.name: getattr(args, f.name) for f in fields(Options)}
    values["hidden"] = tuple(args.hidden)
    options = Options(**values)
    curve = train(options, args.out, resume=args.resume, quiet=args.quiet)
    last = curve[-1]
    hard = "not measured" if last.hard_basic is None else f"{last.hard_basic:.1%}"
    print(f"after {last.positions:,} positions ({last.seconds:.0f} s): against medium {last.medium_basic:.1%} (basic), "
          f"{last.medium_advanced:.1%} (advanced); against hard {hard} (basic)")  # fmt: skip
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
