"""Who gets a TCP seat: only a connection proven to be the seat's (fail closed).

Real bot processes and real sockets; strangers are the test process itself or its own
children. Every stranger connects to loopback only, with bounded loops.
"""

from __future__ import annotations

import asyncio
import contextlib
import dataclasses
import os
import resource
import socket
import struct
import subprocess
import sys
import time

import pytest
from transport_helpers import Recorder, run

from arena_kernel.errors import SetupError
from arena_kernel.transports import connection_holders, tcp_listener
from arena_kernel.transports.base import BotProgram, ConnectError
from arena_kernel.transports.connection_holders import Holder, LookupStarved, holders
from arena_kernel.transports.tcp import TcpTransport

HELLO = """
    import os, socket, sys, time
    port = int(os.environ["ARENA_PORT"])
    if len(sys.argv) > 1:
        open(sys.argv[1], "w").write(str(port))
        time.sleep(float(sys.argv[2]))
    sock = socket.create_connection(("127.0.0.1", port))
    sock.sendall(f"I am {os.getpid()} on {port}\\n".encode())
    for line in sock.makefile("rb"):
        sock.sendall(b"echo " + line)
"""


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


def reset(sock: socket.socket) -> None:
    """Close with an RST instead of a FIN: the client end is gone at once."""
    sock.setsockopt(socket.SOL_SOCKET, socket.SO_LINGER, struct.pack("ii", 1, 0))
    sock.close()


async def hears_eof(sock: socket.socket, timeout: float = 5.0) -> bool:
    """Whether the arena closed this client connection (it reads EOF or a reset)."""
    loop = asyncio.get_running_loop()
    sock.setblocking(False)
    try:
        async with asyncio.timeout(timeout):
            return await loop.sock_recv(sock, 1) == b""
    except ConnectionResetError:
        return True
    except TimeoutError:
        return False


async def received(sock: socket.socket) -> bytes:
    return await asyncio.get_running_loop().sock_recv(sock, 100)


async def seated(transport: TcpTransport, launch) -> tuple:
    conn = await transport.connect(launch)
    rec = Recorder()
    conn.start(rec.on_data, rec.on_closed)
    await rec.until(lambda: rec.data.endswith(b"\n"))
    return conn, rec


def test_each_started_bot_gets_a_port_of_its_own_closed_once_it_connected(bot_script, make_launch):
    bot = bot_script(HELLO)

    async def main():
        transport = TcpTransport()
        await transport.prepare()
        assert transport.port is None, "no shared port is opened for started bots"
        (one, rec1), (two, rec2) = await asyncio.gather(
            seated(transport, make_launch(bot)), seated(transport, make_launch(bot))
        )
        ports = []
        for conn, rec in ((one, rec1), (two, rec2)):
            words = rec.data.decode().split()
            assert words[2] == str(conn.pid), "each seat has its own bot's connection"
            ports.append(int(words[4]))
        assert ports[0] != ports[1]
        for port in ports:
            with pytest.raises(ConnectionRefusedError):
                socket.create_connection(("127.0.0.1", port)).close()
        await asyncio.gather(one.close(), two.close())
        await transport.aclose()

    run(main())


def test_a_stranger_on_a_bots_own_port_is_hung_up_on_and_the_bot_seated(
    bot_script, make_launch, tmp_path
):
    port_file = tmp_path / "port"
    bot = bot_script(HELLO)

    async def main():
        transport = TcpTransport()
        launch = make_launch((*bot, str(port_file), "0.5"))
        connecting = asyncio.ensure_future(seated(transport, launch))
        while not port_file.exists() or not port_file.read_text():
            await asyncio.sleep(0.01)
        port = int(port_file.read_text())
        strangers = [socket.create_connection(("127.0.0.1", port)) for _ in range(3)]
        assert all([await hears_eof(sock) for sock in strangers])
        conn, rec = await connecting
        assert rec.data.decode().startswith(f"I am {conn.pid} on {port}")
        for sock in strangers:
            sock.close()
        await conn.close()
        await transport.aclose()

    run(main())


def test_resetting_strangers_on_the_fixed_port_never_get_a_seat(bot_script, make_launch):
    """The attack that took 36 of 36 seats: connect and reset in a loop while bots start."""
    port = free_port()
    bot = bot_script(HELLO)

    async def main():
        transport = TcpTransport(port=port)
        await transport.prepare()
        stop = asyncio.Event()

        async def stranger() -> int:
            loop = asyncio.get_running_loop()
            attempts = 0
            while not stop.is_set() and attempts < 20000:
                sock = socket.socket()
                sock.setblocking(False)
                with contextlib.suppress(OSError):
                    await loop.sock_connect(sock, ("127.0.0.1", port))
                reset(sock)
                attempts += 1
                await asyncio.sleep(0)
            return attempts

        attack = asyncio.ensure_future(stranger())
        seats = []
        for _ in range(6):
            seats.append(await seated(transport, make_launch(bot)))
        stop.set()
        assert await attack > 20, "the stranger was busy while the bots started"
        for conn, rec in seats:
            assert rec.data.decode().startswith(f"I am {conn.pid} on {port}\n")
            conn.write(b"ping\n")
            await rec.until(lambda rec=rec: rec.data.endswith(b"echo ping\n"))
            assert not rec.closed
        await asyncio.gather(*(conn.close() for conn, _ in seats))
        await transport.aclose()

    run(main(), timeout=60)


def test_a_bot_opening_two_connections_gets_one_seat_the_other_is_closed(bot_script, make_launch):
    bot = bot_script(
        """
        import os, select, socket, sys
        port = int(os.environ["ARENA_PORT"])
        socks = [socket.create_connection(("127.0.0.1", port))]
        try:
            socks.append(socket.create_connection(("127.0.0.1", port)))
        except ConnectionRefusedError:  # the first one was seated, the port closed
            print("closed by the arena: connection 1", file=sys.stderr, flush=True)
            socks[0].sendall(b"connection 0\\nstill here\\n")
            socks[0].recv(100)
            sys.exit()
        for n, sock in enumerate(socks):
            sock.sendall(f"connection {n}\\n".encode())
        closed = None
        while closed is None:
            for sock in select.select(socks, [], [])[0]:
                try:
                    data = sock.recv(100)
                except ConnectionResetError:  # still in the backlog of the closed port
                    data = b""
                if not data:
                    closed = socks.index(sock)
        socks.pop(closed)
        print(f"closed by the arena: connection {closed}", file=sys.stderr, flush=True)
        socks[0].sendall(b"still here\\n")
        socks[0].recv(100)
        """
    )

    async def main():
        transport = TcpTransport()
        launch = make_launch(bot)
        conn = await transport.connect(launch)
        rec = Recorder()
        conn.start(rec.on_data, rec.on_closed)
        await rec.until(lambda: b"still here\n" in rec.data)
        seat = rec.data.decode().split("\n")[0]
        await conn.close()
        log = (launch.log_dir / f"{launch.identifier}.stderr").read_text()
        other = "connection 1" if seat == "connection 0" else "connection 0"
        assert log == f"closed by the arena: {other}\n"
        await transport.aclose()

    run(main())


def test_a_connect_seat_never_takes_a_connection_made_by_a_process_the_arena_started(
    make_launch,
):
    async def main():
        transport = TcpTransport()
        host, port = await transport.listen()
        # A child of this process (the arena here) with a bot's mark (no_new_privs, which the
        # arena gives every bot it starts): what a started bot's stray connection is.
        child = subprocess.Popen(
            [
                "setpriv",
                "--no-new-privs",
                "--",
                sys.executable,
                "-c",
                "import socket, sys\n"
                f"s = socket.create_connection(('{host}', {port}))\n"
                "s.sendall(b'from a started bot\\n')\n"
                "print('connected', flush=True)\n"
                "try:\n"
                "    print(repr(s.recv(100)))\n"
                "except ConnectionResetError:\n"
                "    print('reset')",
            ],
            stdout=subprocess.PIPE,
            text=True,
        )
        assert await asyncio.to_thread(child.stdout.readline) == "connected\n"
        waiting = asyncio.ensure_future(transport.connect(make_launch(connect=True)))
        await asyncio.sleep(0.5)
        assert not waiting.done()
        stranger = socket.create_connection((host, port))
        stranger.sendall(b"from nobody the arena started\n")
        conn = await waiting
        rec = Recorder()
        conn.start(rec.on_data, rec.on_closed)
        await rec.received(b"from nobody the arena started\n")
        assert await asyncio.to_thread(child.communicate, timeout=60) in (
            ("b''\n", None),
            ("reset\n", None),
        ), "the stray connection was closed"
        stranger.close()
        await conn.close()
        await transport.aclose()

    run(main())


def test_a_connect_seat_bound_to_a_peer_takes_only_connections_from_there(make_launch):
    async def main():
        transport = TcpTransport()
        host, port = await transport.listen()
        launch = dataclasses.replace(
            make_launch(connect=True),
            program=BotProgram("remote", connect=True, peer="127.0.0.2"),
        )
        waiting = asyncio.ensure_future(transport.connect(launch))
        elsewhere = socket.create_connection((host, port))
        await asyncio.sleep(0.3)
        assert not waiting.done(), "127.0.0.1 is not the seat's peer"
        there = socket.create_connection((host, port), source_address=("127.0.0.2", 0))
        there.sendall(b"from 127.0.0.2\n")
        conn = await waiting
        rec = Recorder()
        conn.start(rec.on_data, rec.on_closed)
        await rec.received(b"from 127.0.0.2\n")
        for sock in (elsewhere, there):
            sock.close()
        await conn.close()

        alone = dataclasses.replace(launch, startup=0.2)
        with pytest.raises(ConnectError) as caught:
            await transport.connect(alone)
        assert str(caught.value) == (
            f'bot "remote" did not connect to {host}:{port} from 127.0.0.2 within 0.2 s'
        )
        await transport.aclose()

    run(main())


def test_a_connect_seat_bound_to_a_port_listens_there_for_itself(make_launch):
    own = free_port()

    async def main():
        transport = TcpTransport()
        host, shared = await transport.listen()
        launch = dataclasses.replace(
            make_launch(connect=True), program=BotProgram("remote", connect=True, port=own)
        )
        waiting = asyncio.ensure_future(transport.connect(launch))
        await asyncio.sleep(0.1)
        on_shared = socket.create_connection((host, shared))
        await asyncio.sleep(0.2)
        assert not waiting.done(), "the shared port is not the seat's port"
        mine = socket.create_connection((host, own))
        mine.sendall(b"on my port\n")
        conn = await waiting
        rec = Recorder()
        conn.start(rec.on_data, rec.on_closed)
        await rec.received(b"on my port\n")
        for sock in (on_shared, mine):
            sock.close()
        await conn.close()
        await transport.aclose()
        with pytest.raises(ConnectionRefusedError):
            socket.create_connection((host, own)).close()

    run(main())


def test_unclaimed_connections_are_closed_after_a_grace(make_launch, monkeypatch):
    monkeypatch.setattr(tcp_listener, "UNCLAIMED_GRACE", 0.3)

    async def main():
        transport = TcpTransport()
        host, port = await transport.listen()
        sock = socket.create_connection((host, port))
        sock.sendall(b"anyone?\n")
        started = time.monotonic()
        assert await hears_eof(sock)
        assert time.monotonic() - started >= 0.25
        sock.close()
        await transport.aclose()

    run(main())


def close_wait_count(port: int) -> int:
    """Sockets of this machine in CLOSE_WAIT on local port ``port`` (state 08)."""
    hexport = f":{port:04X}"
    with open("/proc/net/tcp") as table:
        return sum(
            1 for row in table if (fields := row.split())[1].endswith(hexport) and fields[3] == "08"
        )


def test_a_connect_close_loop_leaves_no_socket_in_close_wait(make_launch):
    async def main():
        transport = TcpTransport()
        host, port = await transport.listen()
        for _ in range(300):
            socket.create_connection((host, port)).close()
            await asyncio.sleep(0)
        deadline = time.monotonic() + 5
        while close_wait_count(port) and time.monotonic() < deadline:
            await asyncio.sleep(0.05)
        assert close_wait_count(port) == 0
        await transport.aclose()

    run(main())


def test_connections_nobody_claims_are_bounded_first_come_first_kept(make_launch):
    async def main():
        transport = TcpTransport()
        host, port = await transport.listen()
        socks = []
        for _ in range(tcp_listener.MAX_WAITING + 20):
            socks.append(socket.create_connection((host, port)))
            await asyncio.sleep(0)
        late = socks[tcp_listener.MAX_WAITING :]
        assert all([await hears_eof(sock) for sock in late]), "newcomers past the bound"
        early = socks[: tcp_listener.MAX_WAITING]
        assert not any([await hears_eof(sock, timeout=0.01) for sock in early])
        first = await transport.connect(make_launch(connect=True))
        first.write(b"you were first\n")
        assert await received(socks[0]) == b"you were first\n"
        for sock in socks:
            sock.close()
        await first.close()
        await transport.aclose()

    run(main())


def is_open(fd: int) -> bool:
    try:
        os.fstat(fd)
    except OSError:
        return False
    return True


def free_descriptor_limit(free: int) -> int:
    """The open-file limit at which exactly ``free`` more descriptors can be opened (the
    lowest free numbers below it); looked up without opening one."""
    limit = holes = 0
    while holes < free or is_open(limit):
        holes += not is_open(limit)
        limit += 1
    return limit


class DescriptorLimit:
    """Lowers this process's open-file limit so that only ``free`` more descriptors can be
    opened, and puts it back."""

    def __init__(self) -> None:
        self.saved = resource.getrlimit(resource.RLIMIT_NOFILE)

    def lower(self, free: int) -> None:
        resource.setrlimit(resource.RLIMIT_NOFILE, (free_descriptor_limit(free), self.saved[1]))

    def restore(self) -> None:
        resource.setrlimit(resource.RLIMIT_NOFILE, self.saved)


@pytest.fixture
def descriptor_limit():
    limit = DescriptorLimit()
    yield limit
    limit.restore()


def test_out_of_descriptors_the_owner_of_a_connection_is_unknown_not_a_stranger(
    descriptor_limit,
):
    with socket.create_server(("127.0.0.1", 0)) as server:
        client = socket.create_connection(server.getsockname())
        accepted, _ = server.accept()
        try:
            assert holders([accepted], [], arena=True) == [Holder.STRANGER]
            descriptor_limit.lower(0)
            with pytest.raises(LookupStarved, match="Too many open files"):
                holders([accepted], [], arena=True)
        finally:
            for sock in (client, accepted):
                sock.close()


@pytest.mark.parametrize(
    "lookup", [connection_holders.client_inodes, connection_holders._proc_inodes]
)
@pytest.mark.parametrize(
    ("family", "host"), [(socket.AF_INET, "127.0.0.1"), (socket.AF_INET6, "::1")]
)
def test_the_client_socket_of_each_connection_is_found(lookup, family, host):
    """Both ways of asking the kernel (sock_diag, and /proc/net/tcp where a sandbox has no
    sock_diag) name the client's socket, for IPv4, IPv6 and IPv4 clients of a dual-stack
    listener."""
    try:
        server = socket.create_server((host, 0), family=family, dualstack_ipv6=False)
    except OSError as exc:  # e.g. a container without ::1
        pytest.skip(f"cannot listen on {host}: {exc}")
    with server:
        clients = [socket.create_connection(server.getsockname()[:2])]
        if family == socket.AF_INET6:
            dual = socket.create_server(("::", 0), family=family, dualstack_ipv6=True)
            clients.append(socket.create_connection(("127.0.0.1", dual.getsockname()[1])))
            listeners = [server, dual]
        else:
            listeners = [server]
        accepted = [listener.accept()[0] for listener in listeners]
        try:
            ends = [connection_holders._ends(sock) for sock in accepted]
            assert lookup(ends) == [os.fstat(c.fileno()).st_ino for c in clients]
        finally:
            for sock in (*clients, *accepted, *listeners[1:]):
                sock.close()


def test_a_reset_connection_is_gone_whoever_made_it():
    with socket.create_server(("127.0.0.1", 0)) as server:
        client = socket.create_connection(server.getsockname())
        accepted, _ = server.accept()
        reset(client)
        time.sleep(0.05)
        assert holders([accepted], [os.getpid()], arena=True) == [Holder.GONE]
        accepted.close()


def test_out_of_descriptors_no_seat_is_given_and_the_loss_is_the_arenas(
    make_launch, descriptor_limit
):
    async def main():
        transport = TcpTransport()
        host, port = await transport.listen()
        client = socket.create_connection((host, port))
        client.sendall(b"hello\n")
        await asyncio.sleep(0.2)  # the connection waits, accepted, for a seat
        descriptor_limit.lower(0)
        try:
            with pytest.raises(SetupError) as caught:
                await transport.connect(make_launch(connect=True, startup=0.5))
        finally:
            descriptor_limit.restore()
        assert str(caught.value) == (
            'tcp transport: bot "bot" could not be seated: '
            "cannot tell who made a connection: Too many open files"
        )
        assert await hears_eof(client, timeout=0.01) is False, "kept, undecided"
        conn = await transport.connect(make_launch(connect=True))
        rec = Recorder()
        conn.start(rec.on_data, rec.on_closed)
        await rec.received(b"hello\n")
        client.close()
        await conn.close()
        await transport.aclose()

    run(main())


def test_out_of_descriptors_accepting_backs_off_and_nothing_is_taken(make_launch, descriptor_limit):
    async def main():
        transport = TcpTransport()
        host, port = await transport.listen()
        descriptor_limit.lower(1)
        try:
            client = socket.create_connection((host, port))  # the one free descriptor
            with pytest.raises(SetupError, match="cannot accept connections: Too many open"):
                await transport.connect(make_launch(connect=True, startup=0.5))
        finally:
            descriptor_limit.restore()
        client.sendall(b"waited in the backlog\n")
        conn = await transport.connect(make_launch(connect=True))
        rec = Recorder()
        conn.start(rec.on_data, rec.on_closed)
        await rec.received(b"waited in the backlog\n")
        client.close()
        await conn.close()
        await transport.aclose()

    run(main())


def test_prepare_checks_the_host_without_opening_a_port(make_launch):
    async def main():
        good = TcpTransport()
        await good.prepare()
        assert good.port is None
        bad = TcpTransport(host="192.0.2.1")  # TEST-NET-1: no interface of this machine
        with pytest.raises(SetupError) as caught:
            await bad.prepare()
        assert str(caught.value) == (
            "tcp transport: cannot listen on 192.0.2.1:0: Cannot assign requested address"
        )
        with pytest.raises(SetupError, match='for bot "bot": Cannot assign'):
            await bad.connect(make_launch((sys.executable, "-c", "pass")))

    run(main())
