"""A referee process's socket to its coordinator: messages arrive whole and in order, a
turn's messages in one frame, and a worker's held for later turns while it has sessions in
hand, never past a turn in which it has none, nor past its end."""

from __future__ import annotations

import asyncio
import pickle
import socket
import struct
from typing import Any

from arena_kernel.executors import referees
from arena_kernel.executors.referees import Wire

_LENGTH = struct.Struct("!I")


def frames(data: bytes) -> list[list[tuple[Any, ...]]]:
    """The messages of each frame in ``data``, as :class:`Wire` wrote them."""
    found = []
    while data:
        (size,) = _LENGTH.unpack_from(data)
        found.append(pickle.loads(data[_LENGTH.size : _LENGTH.size + size]))
        data = data[_LENGTH.size + size :]
    return found


async def written(turns: list[list[str]], held: list[bool], close: bool = True) -> bytes:
    """What a wire writes when each of ``turns`` sends its messages in a turn of its own,
    holding (:attr:`Wire.holding`) as ``held`` says at the end of that turn."""
    ours, theirs = socket.socketpair()
    wire = await Wire.over(ours)
    holding = iter(held)
    state = [False]
    wire.holding = lambda: state[0]
    for turn in turns:
        for kind in turn:
            wire.send(kind)
        state[0] = next(holding)
        await asyncio.sleep(0)  # the turn ends
        await asyncio.sleep(0)
    if close:
        wire.close()
        await wire.writer.wait_closed()
    theirs.setblocking(False)
    data = b""
    try:
        while chunk := theirs.recv(1 << 16):
            data += chunk
    except BlockingIOError:
        pass
    theirs.close()
    return data


def test_each_turn_leaves_in_a_frame_of_its_own_when_not_holding() -> None:
    data = asyncio.run(written([["started"], ["ended", "done"]], [False, False]))
    assert frames(data) == [[("started",)], [("ended",), ("done",)]]


def test_held_turns_leave_together_with_the_first_turn_not_held(monkeypatch: Any) -> None:
    monkeypatch.setattr(referees, "LINGER", 60.0)
    turns = [["started"], ["ended", "done"], ["started"], ["ended", "done"]]
    data = asyncio.run(written(turns, [True, True, False, False], close=False))
    assert frames(data) == [
        [("started",), ("ended",), ("done",), ("started",)],
        [("ended",), ("done",)],
    ]


def test_what_is_held_leaves_when_the_wire_closes(monkeypatch: Any) -> None:
    monkeypatch.setattr(referees, "LINGER", 60.0)
    data = asyncio.run(written([["ended", "done"], ["started"]], [True, True]))
    assert frames(data) == [[("ended",), ("done",), ("started",)]]


def test_what_is_held_leaves_within_the_linger(monkeypatch: Any) -> None:
    monkeypatch.setattr(referees, "LINGER", 0.01)

    async def lingered() -> bytes:
        ours, theirs = socket.socketpair()
        wire = await Wire.over(ours)
        wire.holding = lambda: True
        wire.send("ended")
        reader, _ = await asyncio.open_unix_connection(sock=theirs)
        head = await reader.readexactly(_LENGTH.size)
        body = await reader.readexactly(_LENGTH.unpack(head)[0])
        wire.close()
        return body

    assert pickle.loads(asyncio.run(lingered())) == [("ended",)]


def test_messages_come_out_of_receive_in_order() -> None:
    async def round_trip() -> list[tuple[Any, ...] | None]:
        ours, theirs = socket.socketpair()
        sender, receiver = await Wire.over(ours), await Wire.over(theirs)
        sender.holding = lambda: True
        for number in range(5):
            sender.send("play", number)
            await asyncio.sleep(0)
        sender.close()
        return [await receiver.receive() for _ in range(6)]

    assert asyncio.run(round_trip()) == [("play", n) for n in range(5)] + [None]
