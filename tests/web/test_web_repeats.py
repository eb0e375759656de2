"""A message that comes again is never applied again, a take-back notwithstanding
(issue 32, item 14), and a staged turn taken back reaches nobody but its mover (item 1),
against a real ``red7 serve`` process.

A decision carries the sequence number of the frame it was made against. A take-back
used to move that number back to where the turn began, so the turn's first message, sent
again (a resend, a double click, a replay by whoever holds the seat's socket), matched
it and was applied a second time. The mover's number now counts what it took back (twice:
:meth:`red7.web.table.live.LiveTable.seq_for`), so it moves on past every message sent before
the take-back; the count is written to the database, so a restarted server refuses them
too. The other seats' numbers never show it.
"""

from __future__ import annotations

from pathlib import Path

from tests.support.web_live import Client, Game_, comparable, new_game, settle, waiting_for
from tests.support.web_server import WebServer


def stage_and_take_back(game: Game_) -> tuple[Client, list[dict[str, object]]]:
    """The person to move stages a play (not a 3: its draw cannot be taken back) and
    takes it back; the mover, and the two messages it sent."""
    settle(game.clients)
    mover = waiting_for(game.clients)
    assert mover is not None and mover.last is not None
    seq = mover.last["seq"]
    play = next(
        o["action"]
        for o in mover.last["game"]["options"]
        if o["kind"] == "play" and not o["ends_turn"] and not o["action"].endswith("3")
    )
    sent: list[dict[str, object]] = [{"type": "decide", "seq": seq, "action": play}]
    mover.send(sent[0])
    mover.until(lambda c: c.last is not None and c.last["seq"] == seq + 1 and c.last["game"]["staged"] == [play])
    sent.append({"type": "take_back", "seq": seq + 1})
    mover.send(sent[1])
    mover.until(lambda c: c.last is not None and c.last["seq"] == seq + 2 and c.last["game"]["staged"] == [])
    settle(game.clients)
    return mover, sent


def refused_again(game: Game_, mover: Client, sent: list[dict[str, object]]) -> None:
    """Each message of ``sent``, sent again, is refused as stale and changes nothing that
    anyone sees."""
    before = {c.seat: comparable(c.last) for c in game.clients if c.last}
    for message in sent:
        errors = len(mover.errors)
        mover.send(message)
        mover.until(lambda c, errors=errors: len(c.errors) > errors)
        assert mover.errors[-1]["code"] == "stale", mover.errors[-1]
    settle(game.clients)
    assert {c.seat: comparable(c.last) for c in game.clients if c.last} == before


def test_a_message_sent_again_after_a_take_back_is_refused(tmp_path: Path) -> None:
    with WebServer(tmp_path, bot_delay=0) as server:
        game = new_game(server, 2, True, True, people=2, level="easy")
        settle(game.clients)
        heard = {c.seat: len(c.raw) for c in game.clients}
        mover, sent = stage_and_take_back(game)
        others = [c for c in game.clients if c is not mover]
        # R9: the staged card, its log line and its taking back reached nobody but the mover
        # (the others were sent nothing at all), and their numbers are the final decisions'
        assert [len(c.raw) for c in others] == [heard[c.seat] for c in others]
        assert len(mover.raw) == heard[mover.seat] + 2
        assert all(c.last is not None and c.last["seq"] == c.last["game"]["final"] for c in others)
        refused_again(game, mover, sent)

        # a second take-back in the same turn moves the number on again
        more_mover, more = stage_and_take_back(game)
        assert more_mover is mover and more[0]["seq"] == sent[0]["seq"] + 2  # type: ignore[operator]
        refused_again(game, mover, sent + more)

        # the count is kept in the database: a restarted server refuses them too
        game.close()
        server.stop()
        server.start()
        game.connect(server)
        mover = next(c for c in game.clients if c.seat == mover.seat)
        assert mover.last is not None and mover.last["seq"] == more[1]["seq"] + 1  # type: ignore[operator]
        refused_again(game, mover, sent + more)
        # and the person plays on from the number the frame gives
        mover.send({"type": "decide", "seq": mover.last["seq"], "action": more[0]["action"]})
        mover.until(lambda c: c.last is not None and c.last["game"]["staged"] == [more[0]["action"]])
        game.close()
