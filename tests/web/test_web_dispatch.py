"""The WebSocket's dispatch is exhaustive: a message type added to the protocol without its
handler in :func:`red7.web.socket._handle` fails ``mypy --strict`` (its ``match`` ends in
``assert_never``), where a chain of ``isinstance`` ending in a bare ``else`` would have
handed the new message to the last handler (a take-back) and passed."""

from __future__ import annotations

import shutil
import subprocess
import sys
from pathlib import Path

import pytest

import red7

PACKAGE = Path(red7.__file__).parent
SENT = "Sent = Decide | TakeBack | Again | Decline | Say | Hint | Speak\n"
POKE = '''

class Poke(Request):
    """A message type the dispatch does not know (added by the test)."""

    type: Literal["poke"]


Sent = Decide | TakeBack | Again | Decline | Say | Hint | Speak | Poke
'''


def mypy(folder: Path, module: str) -> subprocess.CompletedProcess[str]:
    """``mypy --strict`` on the copy of the package in ``folder``, reporting ``module`` only."""
    target = folder / "red7" / Path(*module.split(".")[1:]).with_suffix(".py")
    return subprocess.run(
        [sys.executable, "-m", "mypy", "--strict", "--follow-imports=silent", "--no-incremental", str(target)],
        cwd=folder,
        capture_output=True,
        text=True,
        timeout=600,
    )


@pytest.mark.slow
def test_a_message_type_without_its_handler_fails_the_type_check(tmp_path: Path) -> None:
    shutil.copytree(PACKAGE, tmp_path / "red7", ignore=shutil.ignore_patterns("*.so", "__pycache__", "data"))
    protocol = tmp_path / "red7" / "web" / "protocol.py"
    text = protocol.read_text()
    assert SENT in text, "the union of the messages is written another way: update this test"
    protocol.write_text(text.replace(SENT, POKE).replace("from typing import ", "from typing import Literal, ", 1))
    checked = mypy(tmp_path, "red7.web.socket")
    assert checked.returncode == 1, checked.stdout + checked.stderr
    errors = [line for line in checked.stdout.splitlines() if ": error:" in line]
    assert len(errors) == 1, checked.stdout
    assert "socket.py" in errors[0] and '"assert_never"' in errors[0] and '"Poke"' in errors[0], errors
