"""Several machines on this one, for tests of a cluster: each worker in namespaces of its
own, so that it shares nothing with the coordinator or another worker by accident.

A test bed (:class:`SeparateMachines`) makes a bridge on a private subnet of its own
(``10.X.Y.0/24``, one no interface of this machine is on), where the scheduler listens.
Each worker (:meth:`SeparateMachines.start_worker`) gets

- a network namespace of its own, joined to the bridge by a veth pair: it reaches the
  scheduler and the other workers only over that link (which :meth:`Machine.cut` takes
  down and :meth:`Machine.restore` brings back up), and nothing on this machine's
  loopback;
- a mount namespace of its own, with a ``/tmp`` of its own (its working folder is
  ``/tmp/worker``, the Dask worker's files below it), where only what the test ships to
  it is found at the paths the match file names.

It needs root (``ip``, ``unshare``, ``mount``): :func:`unavailable` says why it cannot be
made here. Everything is removed on exit: the workers' namespaces end with their processes,
the bridge and the veth pairs with the bed.
"""

from __future__ import annotations

import contextlib
import os
import shlex
import shutil
import subprocess
import sys
import time
from collections.abc import Iterator, Mapping
from dataclasses import dataclass, field
from pathlib import Path
from types import TracebackType

from arena_kernel.testing.cluster import SAFE_SCHEDULER, STARTUP, ProcessCluster

WORKER_HOME = "/tmp/worker"
"""A worker's working folder, in its own ``/tmp``."""


def _ip(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(["ip", *args], capture_output=True, text=True, check=False)


def unavailable() -> str | None:
    """Why a test bed cannot be made on this machine, or None."""
    if os.geteuid() != 0:
        return "the test bed of separate machines needs root (network and mount namespaces)"
    for tool in ("ip", "unshare", "mount"):
        if shutil.which(tool) is None:
            return f"the test bed of separate machines needs `{tool}`"
    probe = subprocess.run(
        ["unshare", "--net", "--mount", "sh", "-c", "mount -t tmpfs arena-probe /mnt"],
        capture_output=True,
        text=True,
        check=False,
    )
    if probe.returncode != 0:
        return f"cannot make network and mount namespaces here: {probe.stderr.strip()}"
    name = f"arprobe{os.getpid() % 100000}"  # at most 15 characters, as every name
    made = _ip("link", "add", name, "type", "bridge")
    if made.returncode != 0:
        return f"cannot make a network bridge here: {made.stderr.strip()}"
    _ip("link", "del", name)
    return None


def _free_subnet() -> str:
    """A ``10.X.Y`` prefix that no interface of this machine is on."""
    used = _ip("-o", "addr").stdout
    start = os.getpid()
    for step in range(2000):
        n = (start + step * 7919) % 50000
        prefix = f"10.{200 + n // 1000 % 50}.{n % 250}"
        if f" {prefix}." not in used:
            return prefix
    raise RuntimeError("no free 10.x.y.0/24 subnet for the test bed")


@dataclass
class Machine:
    """One worker's machine: its number, its address on the test bed's subnet, its
    worker's process (the nanny) and the host's end of its link."""

    number: int
    address: str
    process: subprocess.Popen[bytes]
    link: str
    inside: str = field(repr=False)

    def cut(self) -> None:
        """Take the machine's link down: nothing reaches it, nothing leaves it."""
        _check(_ip("link", "set", self.link, "down"))

    def restore(self) -> None:
        """Bring the machine's link back up."""
        _check(_ip("link", "set", self.link, "up"))


class SeparateMachines:
    """Workers on machines of their own on this one (see the module); use as a context
    manager, then start a :class:`~arena_kernel.testing.cluster.ProcessCluster` whose
    scheduler listens on :attr:`scheduler_host`."""

    def __init__(self) -> None:
        tag = os.getpid() % 100000
        self.tag = tag
        self.bridge = f"arena-br{tag}"
        self.prefix = _free_subnet()
        self.scheduler_host = f"{self.prefix}.1"
        self.machines: list[Machine] = []

    def __enter__(self) -> SeparateMachines:
        _check(_ip("link", "add", self.bridge, "type", "bridge"))
        try:
            _check(_ip("addr", "add", f"{self.scheduler_host}/24", "dev", self.bridge))
            _check(_ip("link", "set", self.bridge, "up"))
        except BaseException:
            _ip("link", "del", self.bridge)
            raise
        return self

    def __exit__(
        self,
        kind: type[BaseException] | None,
        error: BaseException | None,
        trace: TracebackType | None,
    ) -> None:
        for machine in self.machines:
            _ip("link", "del", machine.link)  # gone already if its namespace has ended
        _ip("link", "del", self.bridge)

    @contextlib.contextmanager
    def cluster(
        self,
        folder: Path,
        machines: int = 2,
        shipped: Mapping[Path, Path] = {},
        settings: Mapping[str, object] = SAFE_SCHEDULER,
        env: Mapping[str, str] = {},
    ) -> Iterator[tuple[ProcessCluster, list[Machine]]]:
        """A scheduler on the bed's bridge and a worker on each of ``machines`` machines
        (each with a copy of ``shipped``), ready; ended on exit."""
        folder.mkdir(parents=True, exist_ok=True)
        cluster = ProcessCluster(folder, host=self.scheduler_host)
        try:
            cluster.start_scheduler(settings)
            started = [self.start_worker(cluster, shipped, env=env) for _ in range(machines)]
            cluster.wait_for_workers(machines)
            yield cluster, started
        finally:
            cluster.close()

    def start_worker(
        self,
        cluster: ProcessCluster,
        shipped: Mapping[Path, Path] = {},
        threads: int = 1,
        env: Mapping[str, str] = {},
    ) -> Machine:
        """Start a worker of ``cluster`` on a machine of its own, which has a copy of
        each folder of ``shipped`` (where it is on the machine -> the folder to copy)."""
        number = len(self.machines)
        address = f"{self.prefix}.{10 + number}"
        link, inside = f"ah{self.tag}-{number}", f"ag{self.tag}-{number}"
        home = cluster.folder / f"machine-{number}"
        home.mkdir()
        copies = []
        for i, (target, source) in enumerate(shipped.items()):
            copy = home / f"shipped-{i}"
            shutil.copytree(source, copy, symlinks=True)
            copies.append((copy, target))
        script = _boot_script(inside, address, home, copies + _installation_under_tmp())
        process = cluster.add_worker(
            threads,
            env={"TMPDIR": WORKER_HOME, **env},
            prefix=["unshare", "--net", "--mount", "sh", "-c", script, "machine"],
            host=address,
            local_directory=f"{WORKER_HOME}/dask",
        )
        machine = Machine(number, address, process, link, inside)
        self.machines.append(machine)
        _wait_for_own_network(process)
        _check(_ip("link", "add", link, "type", "veth", "peer", "name", inside))
        _check(_ip("link", "set", inside, "netns", str(process.pid)))
        _check(_ip("link", "set", link, "master", self.bridge))
        _check(_ip("link", "set", link, "up"))
        return machine


def _installation_under_tmp() -> list[tuple[Path, Path]]:
    """The folders of this Python and arena's code that lie under ``/tmp`` (a checkout
    made in a temporary folder), each to be seen at its own path on a machine too: its own
    ``/tmp`` would hide them, and a worker could not even start."""
    import arena_kernel

    found = {Path(sys.prefix), Path(sys.base_prefix), Path(arena_kernel.__file__).parents[2]}
    under = sorted(path.resolve() for path in found if path.resolve().is_relative_to("/tmp"))
    outermost = [p for p in under if not any(p != o and p.is_relative_to(o) for o in under)]
    return [(path, path) for path in outermost]


def _boot_script(nic: str, address: str, home: Path, copies: list[tuple[Path, Path]]) -> str:
    """What a machine runs before its worker, in its new namespaces: wait for its end of
    the link, bring it up at ``address``; a ``/tmp`` of its own with ``home`` as its
    working folder; the shipped copies at their paths; then the worker (``"$@"``)."""
    q = shlex.quote
    lines = [
        "set -e",
        f"while ! ip link show {q(nic)} >/dev/null 2>&1; do sleep 0.02; done",
        "ip link set lo up",
        f"ip addr add {q(address)}/24 dev {q(nic)}",
        f"ip link set {q(nic)} up",
        # Staged outside /tmp first: the machine's own /tmp hides the test's folders.
        "mount -t tmpfs arena-stage /mnt",
        f"mkdir /mnt/home && mount --bind {q(str(home))} /mnt/home",
    ]
    for i, (copy, _target) in enumerate(copies):
        lines.append(f"mkdir /mnt/{i} && mount --bind {q(str(copy))} /mnt/{i}")
    lines += [
        "mount -t tmpfs arena-tmp /tmp",
        f"mkdir -p {WORKER_HOME} && mount --bind /mnt/home {WORKER_HOME}",
    ]
    for i, (_copy, target) in enumerate(copies):
        lines.append(f"mkdir -p {q(str(target))} && mount --bind /mnt/{i} {q(str(target))}")
    lines += ["umount -l /mnt", f"cd {WORKER_HOME}", 'exec "$@"']
    return "\n".join(lines)


def _wait_for_own_network(process: subprocess.Popen[bytes]) -> None:
    """Wait until ``process`` is in a network namespace of its own (``unshare`` makes it
    after it has started): a link moved to it before would stay in this one."""
    ours = os.readlink("/proc/self/ns/net")
    deadline = time.monotonic() + STARTUP
    while os.readlink(f"/proc/{process.pid}/ns/net") == ours:
        if process.poll() is not None or time.monotonic() > deadline:
            raise RuntimeError(f"machine process {process.pid} made no network of its own")
        time.sleep(0.005)


def _check(done: subprocess.CompletedProcess[str]) -> None:
    if done.returncode != 0:
        raise RuntimeError(f"{' '.join(done.args)}: {done.stderr.strip()}")


@contextlib.contextmanager
def separate_machines() -> Iterator[SeparateMachines]:
    """Separate machines for a test; skips it with the reason where none can be made
    (fails it instead under ``CI=true``)."""
    why = unavailable()
    if why is not None:
        from arena_kernel.testing.pytest_plugin import skip_unless_ci

        skip_unless_ci(why)
    with SeparateMachines() as bed:
        yield bed
