"""A real terminal for the tests: tmux runs a command, a test types keys and reads the
screen, waiting on what it shows (with generous deadlines), as a person would."""

from __future__ import annotations

import subprocess
import time

DEADLINE = 120.0
"""Seconds to wait for the screen to show something (a busy machine is slow, never wrong)."""


class Terminal:
    """A detached tmux session (100×32 unless told) running one command; the pane stays
    30 s after it ends, so what it printed last can be read."""

    def __init__(self, name: str, command: list[str], env: dict[str, str], size: tuple[int, int] = (100, 32)) -> None:
        self.name = name
        exports = " ".join(f"{k}={v}" for k, v in env.items())
        line = f"env {exports} {' '.join(command)}; sleep 30"
        width, height = (str(n) for n in size)
        subprocess.run(["tmux", "new-session", "-d", "-s", name, "-x", width, "-y", height, line], check=True)

    def screen(self) -> str:
        done = subprocess.run(["tmux", "capture-pane", "-p", "-t", self.name], capture_output=True, text=True)
        return done.stdout

    def keys(self, *keys: str) -> None:
        for key in keys:
            subprocess.run(["tmux", "send-keys", "-t", self.name, key], check=True)

    def wait_for(self, text: str, gone: str | None = None) -> str:
        """The screen once it shows ``text`` (and no longer shows ``gone``, if given)."""
        deadline = time.monotonic() + DEADLINE
        while time.monotonic() < deadline:
            shown = self.screen()
            if text in shown and (gone is None or gone not in shown):
                return shown
            time.sleep(0.2)
        raise AssertionError(f"{text!r} never showed; the screen:\n{self.screen()}")

    def select(self, key: str, shown: str) -> None:
        """Press ``key`` (a choice that is the same pressed twice) until the screen shows
        ``shown``: the first key after a dialog closes may come before the board listens."""
        deadline = time.monotonic() + DEADLINE
        while time.monotonic() < deadline:
            self.keys(key)
            again = time.monotonic() + 5
            while time.monotonic() < again:
                if shown in self.screen():
                    return
                time.sleep(0.2)
        raise AssertionError(f"{shown!r} never showed; the screen:\n{self.screen()}")

    def close(self) -> None:
        subprocess.run(["tmux", "kill-session", "-t", self.name], capture_output=True)
