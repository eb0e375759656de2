"""Instructions per random game, counted by valgrind's callgrind.

Wall-clock figures on a shared machine move by 10-30 % from run to run; an instruction
count does not (the same program, inputs and interpreter give the same count whatever
else the machine does), so this is how two versions of the engine are compared.

The games are the same for any version of red7 that has ``red7.Game``,
``safe_ids()`` and ``apply_id()``: game ``i`` is seeded ``i`` and its players pick
uniformly among the safe decisions (concede when there is none) with
``random.Random(i)``. The count of a run that only imports red7 is subtracted, so the
figure is the cost of the games alone.

    python -m benchmarks.instructions                      # this checkout, 2 players, basic
    python -m benchmarks.instructions --players 4          # 4 players, advanced with actions
    git worktree add /tmp/before <commit>                  # another version, side by side
    python -m benchmarks.instructions --src /tmp/before/src

Needs valgrind (Debian: ``apt-get install valgrind``).
"""

from __future__ import annotations

import argparse
import os
import re
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

GAMES = """
import random
from red7 import Game
CONCEDE = 246
for i in range({games}):
    game = Game({players}, seed=i{options})
    rng = random.Random(i)
    while not game.is_over:
        choices = game.safe_ids() or [CONCEDE]
        game.apply_id(choices[int(rng.random() * len(choices))])
"""


def count(program: str, src: Path) -> int:
    """The instructions callgrind counts for ``program`` run by this interpreter with the
    red7 of ``src`` (``PYTHONPATH``, which Python searches before the installed packages)."""
    with tempfile.TemporaryDirectory() as tmp:
        script = Path(tmp) / "run.py"
        script.write_text(program, encoding="utf-8")
        out = subprocess.run(
            ["valgrind", "--tool=callgrind", f"--callgrind-out-file={tmp}/out", sys.executable, str(script)],
            capture_output=True, text=True, check=True, env={**os.environ, "PYTHONPATH": str(src)},
        )  # fmt: skip
    found = re.search(r"Collected : (\d+)", out.stderr)
    if found is None:
        raise SystemExit(f"callgrind printed no count:\n{out.stderr[-2000:]}")
    return int(found.group(1))


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description="Instructions per random game (valgrind callgrind).")
    parser.add_argument("--src", type=Path, default=Path(__file__).resolve().parents[1] / "src",
                        help="the source directory holding the red7 package (default: this checkout)")  # fmt: skip
    parser.add_argument("--games", type=int, default=300)
    parser.add_argument("--players", type=int, choices=(2, 4), default=2,
                        help="2: the basic game; 4: the advanced game with actions")  # fmt: skip
    args = parser.parse_args(argv)
    if shutil.which("valgrind") is None:
        parser.error("valgrind is not installed (Debian: apt-get install valgrind)")
    options = ", advanced=True, actions=True" if args.players == 4 else ""
    games = count(GAMES.format(games=args.games, players=args.players, options=options), args.src)
    imports = count("import random\nfrom red7 import Game\n", args.src)
    per_game = (games - imports) / args.games
    config = "4 players, advanced + actions" if args.players == 4 else "2 players, basic"
    print(f"{config}: {per_game:,.0f} instructions per game ({args.games} games, {args.src})")
    return 0


if __name__ == "__main__":
    sys.exit(main())
