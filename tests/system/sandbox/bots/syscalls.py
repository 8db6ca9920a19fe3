"""A Nim bot that first makes the system calls the sandbox's filter refuses, for
tests/system/sandbox/test_syscall_filter.py; then it plays Nim correctly (the test game's
protocol, kernel/arena_kernel/testing/nim.py).

Each attempt its arguments name runs in a process of its own (a kill or a new namespace
ends with it) and writes one ``<attempt>: <outcome>`` line to stderr: ``ok``, the error's
name (``EPERM``), or ``killed by <signal>``. Its first line says how many seccomp filters
it runs under (``filters: <n>``). The arguments are chosen so that the kernel, when the
call reaches it, answers something else than the filter would, and changes nothing outside
the attempt's process: a mount on a path that does not exist, a clone with flags it
rejects.

Call numbers come from the kernel's own tables for x86_64 and aarch64, not from libseccomp:
the filter's numbers are what this checks.
"""

import ctypes
import errno
import mmap
import os
import signal
import sys
import threading
import time

NUMBERS = {
    "x86_64": {
        "io_uring_setup": 425,
        "userfaultfd": 323,
        "perf_event_open": 298,
        "keyctl": 250,
        "bpf": 321,
        "ptrace": 101,
        "process_vm_readv": 310,
        "kcmp": 312,
        "mount": 165,
        "unshare": 272,
        "clone": 56,
        "clone3": 435,
        "setns": 308,
        "personality": 135,
        "getpid": 39,
    },
    "aarch64": {
        "io_uring_setup": 425,
        "userfaultfd": 282,
        "perf_event_open": 241,
        "keyctl": 219,
        "bpf": 280,
        "ptrace": 117,
        "process_vm_readv": 270,
        "kcmp": 272,
        "mount": 40,
        "unshare": 97,
        "clone": 220,
        "clone3": 435,
        "setns": 268,
        "personality": 92,
        "getpid": 172,
    },
}[os.uname().machine]

X32_BIT = 0x40000000
"""What marks an x32 call's number on x86_64."""
I386_GETPID = b"\xb8\x14\x00\x00\x00\xcd\x80\xc3"
"""``mov eax, 20; int 0x80; ret``: getpid through the 32-bit entry, from 64-bit code."""

CLONE_FS = 0x00000200
CLONE_NEWUSER = 0x10000000
PTRACE_ATTACH = 16
READ_IMPLIES_EXEC = 0x0400000
UFFD_USER_MODE_ONLY = 1
KEY_SPEC_PROCESS_KEYRING = -2
KEYCTL_GET_KEYRING_ID = 0
KCMP_VM = 1

libc = ctypes.CDLL(None, use_errno=True)
libc.syscall.restype = ctypes.c_long
sibling = 0
"""A process the bot forks that sleeps, for the ``ptrace`` attempt (made by another child)."""


def call(name, *args, number_bits=0):
    """Make call ``name`` (its number with ``number_bits`` set); what it returned, or
    OSError."""
    result = libc.syscall(ctypes.c_long(NUMBERS[name] | number_bits), *args)
    if result == -1:
        number = ctypes.get_errno()
        raise OSError(number, os.strerror(number))
    return result


def io_uring():
    params = ctypes.create_string_buffer(120)  # struct io_uring_params, zeroed
    os.close(call("io_uring_setup", ctypes.c_uint(4), params))


def userfaultfd():
    os.close(call("userfaultfd", ctypes.c_int(UFFD_USER_MODE_ONLY | os.O_CLOEXEC)))


def perf_event_open():
    attr = ctypes.create_string_buffer(128)  # struct perf_event_attr
    ctypes.c_uint32.from_buffer(attr, 0).value = 1  # PERF_TYPE_SOFTWARE
    ctypes.c_uint32.from_buffer(attr, 4).value = 64  # PERF_ATTR_SIZE_VER0
    ctypes.c_uint64.from_buffer(attr, 8).value = 1  # PERF_COUNT_SW_TASK_CLOCK
    ctypes.c_uint64.from_buffer(attr, 40).value = 0x60  # exclude_kernel, exclude_hv
    fd = call("perf_event_open", attr, ctypes.c_int(0), ctypes.c_int(-1), ctypes.c_int(-1), 0)
    os.close(fd)


def keyctl():
    call("keyctl", KEYCTL_GET_KEYRING_ID, KEY_SPEC_PROCESS_KEYRING, 1)


def bpf():
    call("bpf", 0x7FFF, None, 0)  # no such command


def ptrace():
    call("ptrace", PTRACE_ATTACH, sibling, None, None)


def process_vm_readv():
    data = ctypes.create_string_buffer(b"mine")
    into = ctypes.create_string_buffer(4)
    local = (ctypes.c_void_p * 2)(ctypes.addressof(into), 4)
    remote = (ctypes.c_void_p * 2)(ctypes.addressof(data), 4)
    call("process_vm_readv", os.getpid(), local, 1, remote, 1, 0)


def kcmp():
    call("kcmp", os.getpid(), os.getpid(), KCMP_VM, 0, 0)


def mount():
    call("mount", b"none", b"/no-such-folder-for-arena", b"tmpfs", 0, None)


def unshare():
    call("unshare", CLONE_NEWUSER)


def clone():
    call("clone", CLONE_NEWUSER | CLONE_FS | signal.SIGCHLD, None, None, None, None)


def clone3():
    call("clone3", None, 0)


def setns():
    call("setns", -1, 0)


def personality():
    call("personality", READ_IMPLIES_EXEC)


def personality_query():
    call("personality", 0xFFFFFFFF)


def thread():
    started = threading.Thread(target=time.sleep, args=(0,))
    started.start()
    started.join()


def x32():
    call("getpid", number_bits=X32_BIT)


def i386():
    code = mmap.mmap(-1, mmap.PAGESIZE, prot=mmap.PROT_READ | mmap.PROT_WRITE | mmap.PROT_EXEC)
    code.write(I386_GETPID)
    address = ctypes.addressof(ctypes.c_char.from_buffer(code))
    ctypes.CFUNCTYPE(ctypes.c_int)(address)()


ATTEMPTS = {
    "io_uring": io_uring,
    "userfaultfd": userfaultfd,
    "perf_event_open": perf_event_open,
    "keyctl": keyctl,
    "bpf": bpf,
    "ptrace": ptrace,
    "process_vm_readv": process_vm_readv,
    "kcmp": kcmp,
    "mount": mount,
    "unshare": unshare,
    "clone": clone,
    "clone3": clone3,
    "setns": setns,
    "personality": personality,
    "personality_query": personality_query,
    "thread": thread,
    "x32": x32,
    "i386": i386,
}


def attempt(name):
    """Run one attempt in a child process; its outcome."""
    child = os.fork()
    if child == 0:
        try:
            ATTEMPTS[name]()
            outcome = "ok"
        except OSError as exc:
            outcome = errno.errorcode.get(exc.errno, str(exc.errno))
        print(f"{name}: {outcome}", file=sys.stderr, flush=True)
        os._exit(0)
    _, status = os.waitpid(child, 0)
    if os.WIFSIGNALED(status):
        killer = signal.Signals(os.WTERMSIG(status)).name
        print(f"{name}: killed by {killer}", file=sys.stderr, flush=True)


def filters():
    with open("/proc/self/status") as status:
        for line in status:
            if line.startswith("Seccomp_filters:"):
                return int(line.split()[1])
    return 0


def main():
    global sibling
    print(f"filters: {filters()}", file=sys.stderr, flush=True)
    sibling = os.fork()
    if sibling == 0:
        time.sleep(60)
        os._exit(0)
    try:
        for name in sys.argv[1:]:
            attempt(name)
    finally:
        os.kill(sibling, signal.SIGKILL)
        os.waitpid(sibling, 0)
    for line in sys.stdin:
        words = line.split()
        if words[:1] == ["move"]:
            print(f"take {int(words[1]) % 4 or 1}", flush=True)


if __name__ == "__main__":
    main()
