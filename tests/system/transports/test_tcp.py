"""The tcp transport: the arena listens, bots (Python and Node.js) connect as clients."""

from __future__ import annotations

import asyncio
import shutil
import socket
import time

import pytest
from transport_helpers import Recorder, alive, run

from arena_kernel.errors import OptionError, SetupError
from arena_kernel.transports.base import ConnectError
from arena_kernel.transports.tcp import TcpTransport

CLIENT = """
    import os, socket, sys, time
    host, port, ident, delay = sys.argv[1], int(sys.argv[2]), sys.argv[3], float(sys.argv[4])
    time.sleep(delay)
    sock = socket.create_connection((host, port))
    sock.sendall(f"I am {ident} {os.getpid()}\\n".encode())
    for line in sock.makefile("rb"):
        sock.sendall(b"echo " + line)
"""

NODE_CLIENT = """
const net = require("net");
const [host, ident] = process.argv.slice(2);
const sock = net.connect(Number(process.env.ARENA_PORT), host, () => {
  sock.write(`I am ${ident} ${process.pid}\\n`);
});
let pending = "";
sock.on("data", (chunk) => {
  pending += chunk;
  let end;
  while ((end = pending.indexOf("\\n")) >= 0) {
    sock.write("echo " + pending.slice(0, end + 1));
    pending = pending.slice(end + 1);
  }
});
sock.on("end", () => process.exit(0));
"""


async def started(transport, launch):
    conn = await transport.connect(launch)
    rec = Recorder()
    conn.start(rec.on_data, rec.on_closed)
    return conn, rec


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


def test_launched_bots_are_tied_to_their_own_connections(bot_script, make_launch):
    client = bot_script(CLIENT)
    # Later bots connect sooner: only serialized launches keep the pairing right.
    launches = [
        make_launch((*client, "{host}", "{port}", "{identifier}", str(delay)))
        for delay in (0.3, 0.15, 0.0)
    ]

    async def main():
        transport = TcpTransport()
        conns = await asyncio.gather(*(started(transport, launch) for launch in launches))
        for launch, (conn, rec) in zip(launches, conns, strict=True):
            await rec.until(lambda rec=rec: rec.data.endswith(b"\n"))
            assert rec.data.decode() == f"I am {launch.identifier} {conn.pid}\n"
            conn.write(b"ping\n")
            await rec.until(lambda rec=rec: rec.data.endswith(b"echo ping\n"))
        pids = [conn.pid for conn, _ in conns]
        await asyncio.gather(*(conn.close() for conn, _ in conns))
        await transport.aclose()
        assert not any(map(alive, pids))

    run(main())


@pytest.mark.skipif(shutil.which("node") is None, reason="Node.js is not installed")
def test_node_client_bot(tmp_path, make_launch):
    script = tmp_path / "bot.js"
    script.write_text(NODE_CLIENT)
    launch = make_launch(("node", str(script), "{host}", "{identifier}"))

    async def main():
        transport = TcpTransport()
        conn, rec = await started(transport, launch)
        await rec.until(lambda: rec.data.endswith(b"\n"))
        assert rec.data.decode() == f"I am {launch.identifier} {conn.pid}\n"
        conn.write(b"one\ntw")
        conn.write(b"o\n")
        await rec.until(lambda: rec.data.endswith(b"echo two\n"))
        assert rec.data.decode().splitlines()[1:] == ["echo one", "echo two"]
        await conn.close()
        await transport.aclose()

    run(main())


def test_reply_written_just_before_exit_comes_before_on_closed(bot_script, make_launch):
    bot = bot_script(
        """
        import socket, sys
        sock = socket.create_connection(("127.0.0.1", int(sys.argv[1])))
        sock.makefile("rb").readline()
        sock.sendall(b"bye\\n")
        sys.exit(3)
        """
    )

    async def main():
        transport = TcpTransport()
        conn, rec = await started(transport, make_launch((*bot, "{port}")))
        conn.write(b"go\n")
        assert await rec.wait_closed() == "exited with status 3"
        assert rec.events == [("data", b"bye\n"), ("closed", "exited with status 3")]
        await conn.close()
        await transport.aclose()

    run(main())


def test_external_bots_in_arrival_order(make_launch):
    async def main():
        transport = TcpTransport()
        host, port = await transport.listen()
        clients = []
        for word in (b"first\n", b"second\n"):
            reader, writer = await asyncio.open_connection(host, port)
            writer.write(word)
            clients.append((reader, writer))
        first, rec1 = await started(transport, make_launch(connect=True))
        second, rec2 = await started(transport, make_launch(connect=True))
        await rec1.received(b"first\n")
        await rec2.received(b"second\n")
        assert first.pid is None

        # A bot that connects only once a seat waits for it.
        waiting = asyncio.ensure_future(transport.connect(make_launch(connect=True)))
        await asyncio.sleep(0.05)
        assert not waiting.done()
        reader, writer = await asyncio.open_connection(host, port)
        third = await waiting
        rec3 = Recorder()
        third.start(rec3.on_data, rec3.on_closed)
        third.write(b"hello\n")
        assert await reader.readline() == b"hello\n"
        writer.close()
        assert await rec3.wait_closed() == "closed the connection"

        await first.close()
        assert await clients[0][0].read() == b""  # the bot sees the end
        for conn in (second, third):
            await conn.close()
        for _, client in clients:
            client.close()
        await transport.aclose()

    run(main())


def test_external_bot_that_never_connects(make_launch):
    async def main():
        transport = TcpTransport()
        _, port = await transport.listen()
        with pytest.raises(ConnectError) as caught:
            await transport.connect(make_launch(connect=True, startup=0.2))
        assert str(caught.value) == (f'bot "bot" did not connect to 127.0.0.1:{port} within 0.2 s')
        await transport.aclose()

    run(main())


def test_launched_bot_that_never_connects_is_killed(bot_script, make_launch, tmp_path):
    pidfile = tmp_path / "pid"
    bot = bot_script(
        f"""
        import os, signal, time
        signal.signal(signal.SIGTERM, signal.SIG_IGN)
        open({str(pidfile)!r}, "w").write(str(os.getpid()))
        time.sleep(30)
        """
    )

    async def main():
        transport = TcpTransport()
        before = time.monotonic()
        with pytest.raises(ConnectError) as caught:
            await transport.connect(make_launch(bot, startup=0.5, kill_grace=0.2))
        assert str(caught.value) == 'bot "bot" did not connect within 0.5 s'
        assert time.monotonic() - before < 1.5
        assert not alive(int(pidfile.read_text()))
        await transport.aclose()

    run(main())


def test_launched_bot_that_exits_before_connecting(bot_script, make_launch):
    async def main():
        transport = TcpTransport()
        with pytest.raises(ConnectError) as caught:
            await transport.connect(make_launch(bot_script("raise SystemExit(1)")))
        assert str(caught.value) == 'bot "bot" exited with status 1 before connecting'
        await transport.aclose()

    run(main())


def test_fixed_port_and_port_in_use(bot_script, make_launch):
    port = free_port()
    client = bot_script(CLIENT)

    async def main():
        transport = TcpTransport(port=port)
        # A bot that hard-codes the port ignores the placeholders.
        conn, rec = await started(
            transport, make_launch((*client, "127.0.0.1", str(port), "fixed", "0"))
        )
        assert transport.port == port
        await rec.until(lambda: rec.data.endswith(b"\n"))
        assert rec.data.startswith(b"I am fixed ")

        # Another arena on the same port: its set-up fails, before any game or seat.
        other = TcpTransport(port=port)
        expected = f"tcp transport: cannot listen on 127.0.0.1:{port}: Address already in use"
        with pytest.raises(SetupError) as caught:
            await other.prepare()
        assert str(caught.value) == expected
        with pytest.raises(SetupError):
            await other.connect(make_launch(connect=True))
        await conn.close()
        await transport.aclose()

    run(main())


def test_bot_without_command_or_connect(make_launch):
    async def main():
        transport = TcpTransport()
        with pytest.raises(ConnectError, match="has no command to run and does not connect"):
            await transport.connect(make_launch())
        await transport.aclose()

    run(main())


@pytest.mark.parametrize(
    ("options", "key"),
    [({"port": 70000}, "port"), ({"port": "80"}, "port"), ({"host": ""}, "host"), ({"x": 1}, "x")],
)
def test_invalid_options(options, key):
    with pytest.raises(OptionError) as caught:
        TcpTransport(**options)
    assert caught.value.key == key


def test_a_stranger_connecting_during_a_launch_is_not_taken_for_the_bot(bot_script, make_launch):
    client = bot_script(CLIENT)
    launch = make_launch((*client, "{host}", "{port}", "{identifier}", "0.4"))

    async def main():
        transport = TcpTransport()
        host, port = await transport.listen()

        async def stranger():
            await asyncio.sleep(0.1)  # inside the launched bot's 0.4 s before it connects
            reader, writer = await asyncio.open_connection(host, port)
            writer.write(b"I am nobody\n")
            await writer.drain()
            return reader, writer

        (conn, rec), (_reader, writer) = await asyncio.gather(
            started(transport, launch), stranger()
        )
        await rec.until(lambda: rec.data.endswith(b"\n"))
        assert rec.data.decode() == f"I am {launch.identifier} {conn.pid}\n"
        outsider = make_launch(None, connect=True)
        other = await transport.connect(outsider)
        seen = Recorder()
        other.start(seen.on_data, seen.on_closed)
        await seen.received(b"I am nobody\n")
        writer.close()
        await asyncio.gather(conn.close(), other.close())
        await transport.aclose()

    run(main())
