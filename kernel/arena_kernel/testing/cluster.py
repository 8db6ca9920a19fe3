"""A Dask cluster on this machine, for tests of the dask executor: real worker processes
(each with the referee's event loop, its bots below it) and a real scheduler, in this
process (:func:`local_cluster`) or each in a process of its own started by Dask's own
commands (:func:`process_cluster`)."""

from __future__ import annotations

import contextlib
import json
import logging
import os
import signal
import subprocess
import sys
import time
from collections.abc import Iterator, Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any


def distributed_or_skip() -> Any:
    """The ``distributed`` module; skips the test without it (fails under ``CI=true``)."""
    try:
        import distributed
    except ImportError:
        from arena_kernel.testing.pytest_plugin import skip_unless_ci

        skip_unless_ci("distributed is not installed (pip install 'arena-kernel[dask]')")
    return distributed


@contextlib.contextmanager
def local_cluster(
    workers: int = 2, threads: int = 1, env: Mapping[str, str] | None = None
) -> Iterator[Any]:
    """A ``distributed.LocalCluster`` of ``workers`` processes (``threads`` sessions at
    once each, ``env`` set in them), closed on exit; its ``scheduler_address`` is what
    ``--scheduler`` takes."""
    distributed = distributed_or_skip()
    with distributed.LocalCluster(
        n_workers=workers,
        threads_per_worker=threads,
        processes=True,
        host="127.0.0.1",
        dashboard_address=None,
        scheduler_kwargs={"dashboard_address": "127.0.0.1:0"},  # its health pages: any port
        silence_logs=logging.ERROR,
        env=dict(env or {}),
    ) as cluster:
        yield cluster


def worker_pids(address: str) -> dict[str, int]:
    """The process id of each worker of the scheduler at ``address``, by worker address."""
    distributed = distributed_or_skip()
    with distributed.Client(address, timeout=30) as client:
        pids: dict[str, int] = client.run(os.getpid)
        return pids


def busy_workers(address: str) -> dict[str, int]:
    """How many tasks each worker of the scheduler at ``address`` is playing right now."""
    distributed = distributed_or_skip()
    with distributed.Client(address, timeout=30) as client:
        return {worker: len(tasks) for worker, tasks in client.processing().items()}


SAFE_SCHEDULER = {
    "distributed.scheduler.worker-saturation": "1.0",
    "distributed.scheduler.allowed-failures": "2",
}
"""What a scheduler of the user's own should set for the dask executor (its default
``tries`` of 3), as the README's commands set it."""


def dask_environment(settings: Mapping[str, object]) -> dict[str, str]:
    """Dask settings (``"distributed.scheduler.allowed-failures": 2``) as the environment
    variables a ``dask`` command reads them from (``DASK_DISTRIBUTED__SCHEDULER__...``)."""
    return {
        "DASK_" + "__".join(part.upper().replace("-", "_") for part in key.split(".")): str(value)
        for key, value in settings.items()
    }


@dataclass(frozen=True)
class TlsFiles:
    """A certificate authority's certificate, and a key with a certificate it signed: what
    every process of a cluster started with TLS presents, and checks the others' against."""

    ca: Path
    cert: Path
    key: Path

    def flags(self) -> list[str]:
        """The ``dask scheduler`` and ``dask worker`` options that use them."""
        return [
            *("--tls-ca-file", str(self.ca)),
            *("--tls-cert", str(self.cert)),
            *("--tls-key", str(self.key)),
        ]

    def client_environment(self) -> dict[str, str]:
        """What a client of the cluster (the coordinator) needs in its environment."""
        return dask_environment(
            {
                "distributed.comm.tls.ca-file": self.ca,
                "distributed.comm.tls.client.cert": self.cert,
                "distributed.comm.tls.client.key": self.key,
            }
        )


def tls_files(folder: Path) -> TlsFiles:
    """A certificate authority of its own and a key with a certificate it signs, made in
    ``folder`` by the ``openssl`` command."""

    def openssl(*args: str) -> None:
        subprocess.run(["openssl", *args], cwd=folder, check=True, capture_output=True)

    folder.mkdir(parents=True, exist_ok=True)
    openssl(
        *("req", "-x509", "-newkey", "rsa:2048", "-nodes", "-days", "2"),
        *("-subj", "/CN=arena test CA", "-keyout", "ca-key.pem", "-out", "ca.pem"),
    )
    openssl(
        *("req", "-newkey", "rsa:2048", "-nodes", "-subj", "/CN=arena test cluster"),
        *("-keyout", "key.pem", "-out", "request.pem"),
    )
    (folder / "names.ext").write_text("subjectAltName = IP:127.0.0.1, DNS:localhost\n")
    openssl(
        *("x509", "-req", "-in", "request.pem", "-CA", "ca.pem", "-CAkey", "ca-key.pem"),
        *("-CAcreateserial", "-days", "2", "-extfile", "names.ext", "-out", "cert.pem"),
    )
    return TlsFiles(folder / "ca.pem", folder / "cert.pem", folder / "key.pem")


class ProcessCluster:
    """A Dask scheduler and workers started with Dask's own commands, each an OS process
    of its own (a worker with its nanny), as on machines of their own: what a user who
    runs ``dask scheduler`` and ``dask worker`` as the README says has (every web page
    on loopback; with ``tls``, TLS between them all). Their output goes to files in
    ``folder``. :meth:`close` ends every one of them."""

    def __init__(
        self,
        folder: Path,
        host: str = "127.0.0.1",
        env: Mapping[str, str] = {},
        tls: TlsFiles | None = None,
    ):
        self.folder = folder
        self.host = host
        self.env = {**os.environ, **env}
        self.tls = tls
        self.secure = [] if tls is None else tls.flags()
        self.scheduler: subprocess.Popen[bytes] | None = None
        self.workers: list[subprocess.Popen[bytes]] = []
        self.scheduler_file = folder / "scheduler.json"
        self.scheduler_address = ""

    def start_scheduler(self, settings: Mapping[str, object] = SAFE_SCHEDULER) -> str:
        """Start the scheduler (on port 0: one the system picks) and return its address."""
        self.scheduler_file.unlink(missing_ok=True)
        command = [
            sys.executable,
            "-m",
            "distributed.cli.dask_scheduler",
            "--host",
            self.host,
            "--port",
            "0",
            "--no-dashboard",
            "--dashboard-address",
            "127.0.0.1:0",
            "--scheduler-file",
            str(self.scheduler_file),
            *(["--protocol", "tls"] if self.tls else []),
            *self.secure,
        ]
        self.scheduler = self._start(command, "scheduler", dask_environment(settings))
        deadline = time.monotonic() + STARTUP
        while not self.scheduler_file.exists() or not self.scheduler_file.stat().st_size:
            if self.scheduler.poll() is not None or time.monotonic() > deadline:
                raise RuntimeError(f"the scheduler did not start: see {self.folder}")
            time.sleep(0.05)
        self.scheduler_address = str(json.loads(self.scheduler_file.read_text())["address"])
        return self.scheduler_address

    def add_worker(
        self,
        threads: int = 1,
        env: Mapping[str, str] = {},
        prefix: Sequence[str] = (),
        host: str | None = None,
        local_directory: str | None = None,
    ) -> subprocess.Popen[bytes]:
        """Start a worker (with its nanny) for the scheduler: ``prefix`` is put before
        its command (to start it in namespaces of its own), ``host`` is the address it
        listens on, ``local_directory`` where it keeps its files (a folder of its own in
        the cluster's by default)."""
        number = len(self.workers)
        if local_directory is None:
            local = self.folder / f"worker-{number}"
            local.mkdir(exist_ok=True)
            local_directory = str(local)
        command = [
            *prefix,
            sys.executable,
            "-m",
            "distributed.cli.dask_worker",
            self.scheduler_address,
            "--host",
            host or self.host,
            "--no-dashboard",
            "--dashboard-address",
            "127.0.0.1:0",
            *self.secure,
            "--nthreads",
            str(threads),
            "--name",
            f"worker-{number}",
            "--local-directory",
            local_directory,
        ]
        worker = self._start(command, f"worker-{number}", env)
        self.workers.append(worker)
        return worker

    def wait_for_workers(self, count: int) -> dict[str, int]:
        """Wait until the scheduler has ``count`` workers; each one's process id."""
        distributed = distributed_or_skip()
        security = None
        if self.tls is not None:
            tls = self.tls
            security = distributed.Security(
                tls_ca_file=str(tls.ca),
                tls_client_cert=str(tls.cert),
                tls_client_key=str(tls.key),
                require_encryption=True,
            )
        with distributed.Client(
            self.scheduler_address, timeout=STARTUP, security=security
        ) as client:
            client.wait_for_workers(count, timeout=STARTUP)
            pids: dict[str, int] = client.run(os.getpid)
            return pids

    def _start(
        self, command: list[str], name: str, env: Mapping[str, str]
    ) -> subprocess.Popen[bytes]:
        with open(self.folder / f"{name}.log", "ab") as log:
            return subprocess.Popen(
                command,
                stdin=subprocess.DEVNULL,
                stdout=log,
                stderr=log,
                env={**self.env, **env},
                start_new_session=True,
            )

    def close(self) -> None:
        """End the workers, then the scheduler: each asked to stop, killed (with all of its
        process group) if it has not after a while."""
        processes = [*self.workers, *([self.scheduler] if self.scheduler else [])]
        for process in processes:
            if process.poll() is None:
                process.terminate()
        deadline = time.monotonic() + 20
        for process in processes:
            with contextlib.suppress(subprocess.TimeoutExpired):
                process.wait(max(0.1, deadline - time.monotonic()))
            with contextlib.suppress(ProcessLookupError):  # what is left of its group
                os.killpg(process.pid, signal.SIGKILL)
            process.wait()


STARTUP = 120.0
"""Seconds a test cluster's processes get to start, on a loaded machine."""


@contextlib.contextmanager
def process_cluster(
    folder: Path,
    workers: int = 2,
    threads: int = 1,
    env: Mapping[str, str] = {},
    settings: Mapping[str, object] = SAFE_SCHEDULER,
    tls: TlsFiles | None = None,
) -> Iterator[ProcessCluster]:
    """A :class:`ProcessCluster` on loopback with ``workers`` workers of ``threads``
    threads each (``env`` set in them), its scheduler started with ``settings``, ready;
    ended on exit."""
    distributed_or_skip()
    folder.mkdir(parents=True, exist_ok=True)
    cluster = ProcessCluster(folder, env=env, tls=tls)
    try:
        cluster.start_scheduler(settings)
        for _ in range(workers):
            cluster.add_worker(threads)
        cluster.wait_for_workers(workers)
        yield cluster
    finally:
        cluster.close()
