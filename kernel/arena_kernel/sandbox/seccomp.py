"""The system calls a sandboxed bot may not make, and the seccomp filter that refuses them.

Namespaces decide what a bot can see; the kernel it talks to is the machine's, and most of
its exploits start from a call that a game-playing program never needs: making namespaces,
io_uring, userfaultfd, eBPF, perf events, the key store, a debugger's powers over another
process. The filter refuses those (``EPERM``, as the kernel itself refuses a call the
caller may not make) and lets every other call through, so that any runtime a contestant
writes in works unchanged. It is built for this machine's architecture only: a call made
with another one's numbers (a 32-bit call on a 64-bit machine, x32 on x86_64, where the
numbers differ and the list would not hold) kills the bot.

libseccomp (:mod:`.libseccomp`) turns the names into this architecture's numbers and the
checks into the BPF program bwrap loads with ``--seccomp``; it is compiled once per arena
process. An organiser who must run a bot that needs one of these calls turns the filter off
for it (``syscalls = "all"``).
"""

from __future__ import annotations

import errno
import functools
import os
from collections.abc import Iterator
from dataclasses import dataclass

from arena_kernel.sandbox.libseccomp import (
    ALLOW,
    KILL_PROCESS,
    Filter,
    Library,
    Masked,
    Unavailable,
    fail_with,
)


@dataclass(frozen=True)
class Denied:
    """Calls refused outright, and why."""

    why: str
    calls: tuple[str, ...]


DENIED = (
    Denied(
        "a debugger's powers over another process (those of the bot's own sandbox, its "
        "init among them), and a long record of exploits",
        (
            "ptrace",
            "process_vm_readv",
            "process_vm_writev",
            "process_madvise",
            "pidfd_getfd",
            "kcmp",
            "migrate_pages",
            "move_pages",
        ),
    ),
    Denied(
        "joining a namespace (making one is refused below): where unprivileged exploits of "
        "the kernel start",
        ("setns",),
    ),
    Denied(
        "changing what the bot sees of the file system",
        (
            "mount",
            "umount2",
            "umount",
            "pivot_root",
            "chroot",
            "move_mount",
            "open_tree",
            "fsopen",
            "fsmount",
            "fsconfig",
            "fspick",
            "mount_setattr",
        ),
    ),
    Denied(
        "opening a file by its handle, around the folders the sandbox shows",
        ("open_by_handle_at", "name_to_handle_at"),
    ),
    Denied(
        "kernel interfaces no game needs, each with a record of exploits (io_uring's "
        "operations, besides, are out of a filter's sight)",
        (
            "io_uring_setup",
            "io_uring_enter",
            "io_uring_register",
            "userfaultfd",
            "perf_event_open",
            "bpf",
            "keyctl",
            "add_key",
            "request_key",
            "fanotify_init",
        ),
    ),
    Denied(
        "the machine's own business: its kernel and modules, swap, accounting, quotas, "
        "kernel log, terminals, I/O ports",
        (
            "reboot",
            "kexec_load",
            "kexec_file_load",
            "init_module",
            "finit_module",
            "delete_module",
            "swapon",
            "swapoff",
            "acct",
            "quotactl",
            "quotactl_fd",
            "syslog",
            "vhangup",
            "iopl",
            "ioperm",
        ),
    ),
    Denied(
        "setting the machine's clock",
        ("settimeofday", "stime", "clock_settime", "clock_adjtime", "adjtimex"),
    ),
    Denied("obsolete calls", ("uselib", "_sysctl", "nfsservctl", "lookup_dcookie")),
)
"""The calls refused whatever their arguments (those this architecture lacks are skipped)."""

NAMESPACE_FLAGS = {
    "CLONE_NEWNS": 0x00020000,
    "CLONE_NEWCGROUP": 0x02000000,
    "CLONE_NEWUTS": 0x04000000,
    "CLONE_NEWIPC": 0x08000000,
    "CLONE_NEWUSER": 0x10000000,
    "CLONE_NEWPID": 0x20000000,
    "CLONE_NEWNET": 0x40000000,
}
"""The flags with which ``clone`` and ``unshare`` make a namespace; without them, ``clone``
makes threads and processes as always."""
CLONE_NEWTIME = 0x00000080
"""The time namespace's flag, for ``unshare`` only (to ``clone`` those bits are the exit
signal)."""

CLONE_FLAGS_ARGUMENT = {"s390": 1, "s390x": 1}
"""Where ``clone`` takes its flags, on the architectures where they are not its first
argument (``os.uname().machine``)."""

PER_LINUX32 = 0x0008
UNAME26 = 0x0020000
PERSONALITY_QUERY = 0xFFFFFFFF
PERSONALITIES = (0, PER_LINUX32, UNAME26, PER_LINUX32 | UNAME26, PERSONALITY_QUERY)
"""The ``personality`` values allowed: Linux, 32-bit Linux (what ``setarch i686`` asks),
either with a 2.6 kernel version (``UNAME26``), and the query that changes nothing. The
others switch off address-space randomisation, make readable memory executable or map page
zero: help for an exploit, none for a game."""


@dataclass(frozen=True)
class Compiled:
    """This machine's filter: ``program`` (None: none can be made here, ``problem`` says
    why), libseccomp's ``version``, the names of the ``refused`` calls (outright or with
    some arguments), and the ``unknown`` ones of :data:`DENIED` this libseccomp does not
    know (calls newer than it), which stay open."""

    program: bytes | None
    problem: str | None = None
    version: str | None = None
    refused: tuple[str, ...] = ()
    unknown: tuple[str, ...] = ()


def personality_conditions() -> Iterator[Masked]:
    """Conditions on ``personality``'s argument (its low 32 bits, all the kernel reads) of
    which one holds exactly when the value is not one of :data:`PERSONALITIES`.

    libseccomp takes one condition per argument in a rule, so "none of these values" is
    said bit by bit. A value is refused when it has a bit set outside ``PER_LINUX32 |
    UNAME26`` and is not the query (all bits set). Going up from such a bit (past bit 31,
    bit 0), some set bit comes before a clear one; that set bit is outside the two, or is
    one of them with the bit before it set, and outside (the two are not adjacent, and
    neither is bit 0). Hence one rule per bit: this bit set and the next one clear, and
    for the two allowed bits, the bit before set too. Every rule needs a bit outside set
    and a bit clear, so no allowed value matches one."""
    allowed = PER_LINUX32 | UNAME26
    for bit in range(32):
        here, after, before = 1 << bit, 1 << (bit + 1) % 32, 1 << (bit - 1) % 32
        if here & allowed:
            yield Masked(0, before | here | after, before | here)
        else:
            yield Masked(0, here | after, here)


def _rules(library: Library, into: Filter) -> Iterator[str]:
    """Add the refusals to a filter; the names of the calls refused."""
    refused = fail_with(errno.EPERM)
    for group in DENIED:
        for name in group.calls:
            number = library.number(name)
            if number is not None:
                into.add(refused, number)
                yield name
    # clone3 takes its flags in memory a filter cannot read: it is refused as a kernel
    # without it would, and the C libraries fall back on clone, whose flags it can.
    into.add(fail_with(errno.ENOSYS), _number(library, "clone3"))
    clone_flags = CLONE_FLAGS_ARGUMENT.get(os.uname().machine, 0)
    for flag in NAMESPACE_FLAGS.values():
        into.add(refused, _number(library, "clone"), [Masked(clone_flags, flag, flag)])
    for flag in (*NAMESPACE_FLAGS.values(), CLONE_NEWTIME):
        into.add(refused, _number(library, "unshare"), [Masked(0, flag, flag)])
    for condition in personality_conditions():
        into.add(refused, _number(library, "personality"), [condition])
    yield from ("clone3", "clone", "unshare", "personality")


def _number(library: Library, name: str) -> int:
    number = library.number(name)
    if number is None:
        raise Unavailable(f"libseccomp has no number for {name} on this machine")
    return number


@functools.cache
def compiled() -> Compiled:
    """The filter of this machine, made once per process."""
    try:
        library = Library()
        with library.filter(default=ALLOW, bad_arch=KILL_PROCESS) as made:
            refused = tuple(_rules(library, made))
            program = made.export()
    except Unavailable as exc:
        return Compiled(None, str(exc))
    unknown = tuple(name for group in DENIED for name in group.calls if not library.knows(name))
    return Compiled(program, None, library.version(), refused, unknown)


def program_fd(program: bytes) -> int:
    """A descriptor to read ``program`` from, from its start, for one bwrap (each reads
    its own to the end); the caller passes it to the child and closes it."""
    fd = os.memfd_create("arena-seccomp")
    try:
        os.write(fd, program)
        os.lseek(fd, 0, os.SEEK_SET)
    except BaseException:
        os.close(fd)
        raise
    return fd
