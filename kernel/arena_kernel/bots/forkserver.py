"""A warm parent for arena's own Python bots: started once per bot and run, in the bot's
sandbox, it imports the bot's module and then forks a ready bot for each game.

    python -P -m arena_kernel.bots.forkserver MODULE      (stdin: a Unix socket)

A built-in bot started as a program pays the interpreter's start and its imports, some
0.1 s of CPU each time; a child forked from a process that has done both is ready to
answer in a few milliseconds. The arena (:mod:`arena_kernel.transports.warm_start`) starts
this program as it would start the bot, so it runs confined as the bot would (its
sandbox, its user id, its system-call filter, ``no_new_privs``), and every child inherits
that. What the arena asks for on the socket, one request a datagram:

- ``start`` with the child's stdin, stdout and stderr and a *go* pipe (``SCM_RIGHTS``) and,
  as JSON, its arguments, environment and resource limits. The child takes a session of
  its own (its own process group, as every bot has), a parent-death signal, the
  descriptors as its 0, 1 and 2 and nothing else of this process's, the limits (lowered
  from this process's: its CPU time starts at zero), the environment; then it waits for a
  byte on the go pipe, which the arena writes once it has put the child in its cgroups,
  and runs the module as ``python -m MODULE ARGS`` would. This process answers
  ``started PID`` (the child's pid here) with a pidfd of the child, whose pid the arena
  reads in its own namespace.
- ``reap PID``: the arena has ended the child; this process reaps it. Until then the
  child stays a zombie, so that its pid (its process group's id, which the arena
  signals) cannot be taken by another process.

When a child exits this process says ``exited PID CODE STATUS`` (``waitid``'s ``si_code``
and ``si_status``). When the socket ends (the arena is done, or gone) this process exits,
and its children get their parent-death signal.

Everything the arena reads here is a line of text it checks: the bot's own code runs in
this process, so nothing it sends is unpickled or trusted.
"""

from __future__ import annotations

import contextlib
import ctypes
import gc
import importlib
import importlib.util
import json
import os
import resource
import select
import signal
import socket
import sys
import types
from typing import Any

PR_SET_PDEATHSIG = 1

LIMITS = {
    "cpu": resource.RLIMIT_CPU,
    "data": resource.RLIMIT_DATA,
    "nproc": resource.RLIMIT_NPROC,
    "fsize": resource.RLIMIT_FSIZE,
    "core": resource.RLIMIT_CORE,
}
"""The resource limits a request may set, by the name it gives them."""

REQUEST_SIZE = 1 << 20

_LIBC = ctypes.CDLL(None)


def serve(module: str, control: socket.socket) -> None:
    """Warm up on ``module``, say ``ready``, then answer the arena's requests."""
    importlib.import_module(module)
    _warm_up()
    code = _main_code(module)
    # What is made now is every child's: the collector is never to walk it (and so write
    # to each of its pages, which a child would then copy).
    gc.collect()
    gc.freeze()
    wake_r, wake_w = os.pipe2(os.O_NONBLOCK | os.O_CLOEXEC)
    signal.set_wakeup_fd(wake_w)
    signal.signal(signal.SIGCHLD, lambda *_: None)
    running: set[int] = set()
    """Children not yet exited."""
    exited: set[int] = set()
    """Children exited, not yet reaped."""
    reap: set[int] = set()
    """Running children to reap once they exit."""
    control.sendall(b"ready\n")
    while True:
        readable, _, _ = select.select([control.fileno(), wake_r], [], [])
        if wake_r in readable:
            while _drained(wake_r):
                pass
            for pid in sorted(running):
                info = os.waitid(os.P_PID, pid, os.WEXITED | os.WNOHANG | os.WNOWAIT)
                if info is None:
                    continue
                running.discard(pid)
                exited.add(pid)
                control.sendall(f"exited {pid} {info.si_code} {info.si_status}".encode())
                if pid in reap:
                    reap.discard(pid)
                    exited.discard(pid)
                    os.waitpid(pid, 0)
        if control.fileno() in readable:
            data, fds, _flags, _addr = socket.recv_fds(control, REQUEST_SIZE, 4)
            if not data:
                return
            words = data.split(b" ", 1)
            if words[0] == b"start" and len(fds) == 4:
                try:
                    pid = _fork(code, json.loads(words[1]), fds, control)
                except OSError as exc:
                    control.sendall(f"failed {exc}".encode())
                else:
                    running.add(pid)
                    pidfd = os.pidfd_open(pid)
                    socket.send_fds(control, [f"started {pid}".encode()], [pidfd])
                    os.close(pidfd)
            elif words[0] == b"reap" and words[1].isdigit():
                pid = int(words[1])
                if pid in exited:
                    exited.discard(pid)
                    os.waitpid(pid, 0)
                elif pid in running:
                    reap.add(pid)
            for fd in fds:
                os.close(fd)


def _drained(fd: int) -> bool:
    try:
        return bool(os.read(fd, 512))
    except BlockingIOError:
        return False


def _warm_up() -> None:
    """Do once what every built-in bot's start does besides its module's imports: its
    command line (:func:`arena_kernel.bots.serve.main`) is read by ``argparse``, which
    imports ``shutil`` and ``gettext`` and compiles its patterns on first use."""
    import argparse

    import arena_kernel.bots.serve  # noqa: F401  (every built-in bot's main)

    parser = argparse.ArgumentParser(description="warm-up")
    parser.add_argument("--tcp", nargs=2, metavar=("HOST", "PORT"))
    parser.add_argument("--seed", type=int, default=None)
    parser.add_argument("choice", choices=["a", "b"])
    parser.parse_args(["--seed", "1", "a"])


def _main_code(module: str) -> tuple[Any, Any]:
    """The code ``python -m module`` runs and the spec it runs it with, read once."""
    spec = importlib.util.find_spec(module)
    if spec is None or spec.loader is None:
        raise SystemExit(f"forkserver: no module {module}")
    code = spec.loader.get_code(module)  # type: ignore[attr-defined]
    return code, spec


def _fork(
    code: tuple[Any, Any], request: dict[str, Any], fds: list[int], control: socket.socket
) -> int:
    pid = os.fork()
    if pid != 0:
        return pid
    status = 1
    try:
        status = _child(code, request, fds, control)
    finally:
        os._exit(status)


def _child(
    code: tuple[Any, Any], request: dict[str, Any], fds: list[int], control: socket.socket
) -> int:
    """The forked bot, up to its end: its exit status."""
    parent = os.getppid()
    os.setsid()
    _LIBC.prctl(PR_SET_PDEATHSIG, signal.SIGKILL, 0, 0, 0)
    if os.getppid() != parent:
        return 1  # the parent died before its death could be signalled: so must this
    stdin, stdout, stderr, go = fds
    signal.set_wakeup_fd(-1)
    signal.signal(signal.SIGCHLD, signal.SIG_DFL)
    control.detach()  # its descriptor (0) is about to be the bot's stdin
    for fd, target in ((stdin, 0), (stdout, 1), (stderr, 2)):
        os.dup2(fd, target)
    os.closerange(3, go)
    os.closerange(go + 1, os.sysconf("SC_OPEN_MAX"))
    for name, (soft, hard) in request["limits"].items():
        resource.setrlimit(LIMITS[name], (soft, hard))
    os.environ.clear()
    os.environ.update(request["env"])
    if os.read(go, 1) != b"g":
        return 1  # the arena gave up on this start
    os.close(go)
    main_code, spec = code
    sys.argv = [spec.origin, *request["args"]]
    main = types.ModuleType("__main__")
    main.__dict__.update(__file__=spec.origin, __spec__=spec, __loader__=spec.loader)
    main.__dict__.update(__package__=spec.parent, __builtins__=__builtins__)
    sys.modules["__main__"] = main
    try:
        exec(main_code, main.__dict__)
    except SystemExit as stop:
        return _status(stop.code)
    finally:
        for stream in (sys.stdout, sys.stderr):
            with contextlib.suppress(OSError, ValueError):
                stream.flush()
    return 0


def _status(code: object) -> int:
    """The exit status ``sys.exit(code)`` gives a Python program."""
    if code is None:
        return 0
    if isinstance(code, int):
        return code & 0xFF
    print(code, file=sys.stderr)
    return 1


def main() -> None:
    control = socket.socket(fileno=0)
    serve(sys.argv[1], control)


if __name__ == "__main__":
    main()
