"""libseccomp, called through ctypes: the few functions that compile a seccomp filter into
the BPF program bwrap loads (``--seccomp FD``).

libseccomp knows every architecture's system call numbers and writes the checks a filter
needs around them (which architecture a call comes from; on x86_64, the x32 numbers); the
caller names calls and conditions only. It is the C library systemd itself uses, so it is on
every Debian and Ubuntu machine (``libseccomp2``). Its few functions called through ctypes
keep arena free of a compiled dependency; a missing library is an :class:`Unavailable` with
the reason.
"""

from __future__ import annotations

import ctypes
import errno
import os
import tempfile
from collections.abc import Iterable
from dataclasses import dataclass
from types import TracebackType

SONAME = "libseccomp.so.2"
"""The library's name in every Debian and Ubuntu release since 2014 (package ``libseccomp2``)."""

ALLOW = 0x7FFF0000
"""``SCMP_ACT_ALLOW``: the call runs."""
KILL_PROCESS = 0x80000000
"""``SCMP_ACT_KILL_PROCESS``: the whole process dies of SIGSYS."""


def fail_with(number: int) -> int:
    """``SCMP_ACT_ERRNO(number)``: the call does nothing and fails with ``number``."""
    return 0x00050000 | (number & 0xFFFF)


_MASKED_EQ = 7
"""``SCMP_CMP_MASKED_EQ`` of ``enum scmp_compare``."""
_BAD_ARCH = 2
"""``SCMP_FLTATR_ACT_BADARCH`` of ``enum scmp_filter_attr``: the action for calls made
with an architecture the filter was not built for."""
_UNKNOWN = -1
"""``__NR_SCMP_ERROR``: a name libseccomp does not know. A name it knows that this
architecture lacks resolves to another negative number."""


class Unavailable(Exception):
    """libseccomp is missing, or failed to build a filter; the message says which."""


@dataclass(frozen=True)
class Masked:
    """A condition on a call's argument: ``argument & mask == value`` (``argument`` counts
    from 0)."""

    argument: int
    mask: int
    value: int


class _Compare(ctypes.Structure):
    """``struct scmp_arg_cmp``."""

    _fields_ = (
        ("arg", ctypes.c_uint),
        ("op", ctypes.c_int),
        ("datum_a", ctypes.c_uint64),
        ("datum_b", ctypes.c_uint64),
    )


class _Version(ctypes.Structure):
    """``struct scmp_version``."""

    _fields_ = (("major", ctypes.c_uint), ("minor", ctypes.c_uint), ("micro", ctypes.c_uint))


class Library:
    """The loaded library, its functions declared."""

    def __init__(self) -> None:
        try:
            lib = ctypes.CDLL(SONAME)
        except OSError as exc:
            raise Unavailable(
                f"{SONAME} cannot be loaded ({exc}); install libseccomp2 (Debian/Ubuntu: "
                "apt-get install libseccomp2)"
            ) from None
        lib.seccomp_version.restype = ctypes.POINTER(_Version)
        lib.seccomp_version.argtypes = ()
        lib.seccomp_init.restype = ctypes.c_void_p
        lib.seccomp_init.argtypes = (ctypes.c_uint32,)
        lib.seccomp_release.restype = None
        lib.seccomp_release.argtypes = (ctypes.c_void_p,)
        lib.seccomp_attr_set.restype = ctypes.c_int
        lib.seccomp_attr_set.argtypes = (ctypes.c_void_p, ctypes.c_int, ctypes.c_uint32)
        lib.seccomp_syscall_resolve_name.restype = ctypes.c_int
        lib.seccomp_syscall_resolve_name.argtypes = (ctypes.c_char_p,)
        lib.seccomp_rule_add_array.restype = ctypes.c_int
        lib.seccomp_rule_add_array.argtypes = (
            ctypes.c_void_p,
            ctypes.c_uint32,
            ctypes.c_int,
            ctypes.c_uint,
            ctypes.POINTER(_Compare),
        )
        lib.seccomp_export_bpf.restype = ctypes.c_int
        lib.seccomp_export_bpf.argtypes = (ctypes.c_void_p, ctypes.c_int)
        self._lib = lib

    def version(self) -> str:
        found = self._lib.seccomp_version().contents
        return f"{found.major}.{found.minor}.{found.micro}"

    def number(self, name: str) -> int | None:
        """The number of call ``name`` on this machine's architecture; None where the
        architecture has no such call, or this libseccomp does not know it (:meth:`knows`)."""
        number: int = self._lib.seccomp_syscall_resolve_name(name.encode())
        return number if number >= 0 else None

    def knows(self, name: str) -> bool:
        """Whether this libseccomp knows call ``name`` (a call newer than the library it
        does not), on any architecture."""
        number: int = self._lib.seccomp_syscall_resolve_name(name.encode())
        return number != _UNKNOWN

    def filter(self, default: int, bad_arch: int) -> Filter:
        """A new filter for this machine's architecture: ``default`` is the action of a call
        no rule matches, ``bad_arch`` that of a call made with another architecture's
        numbers (a 32-bit call on a 64-bit machine, x32 on x86_64)."""
        context: int | None = self._lib.seccomp_init(default)
        if context is None:
            raise Unavailable("seccomp_init failed")
        made = Filter(self._lib, context)
        try:
            _check("seccomp_attr_set", self._lib.seccomp_attr_set(context, _BAD_ARCH, bad_arch))
        except BaseException:
            made.close()
            raise
        return made


class Filter:
    """A filter being built (:meth:`Library.filter`); :meth:`close` frees it."""

    def __init__(self, lib: ctypes.CDLL, context: int) -> None:
        self._lib = lib
        self._context: int | None = context

    def __enter__(self) -> Filter:
        return self

    def __exit__(
        self,
        kind: type[BaseException] | None,
        value: BaseException | None,
        traceback: TracebackType | None,
    ) -> None:
        self.close()

    def add(self, action: int, number: int, conditions: Iterable[Masked] = ()) -> None:
        """A rule: call ``number`` takes ``action`` when every condition holds (or always,
        without conditions). libseccomp accepts one condition per argument in a rule."""
        compares = [_Compare(c.argument, _MASKED_EQ, c.mask, c.value) for c in conditions]
        array = (_Compare * len(compares))(*compares)
        done = self._lib.seccomp_rule_add_array(self._context, action, number, len(compares), array)
        _check("seccomp_rule_add", done)

    def export(self) -> bytes:
        """The filter as the BPF program the kernel (and bwrap's ``--seccomp``) loads."""
        with tempfile.TemporaryFile() as out:
            _check("seccomp_export_bpf", self._lib.seccomp_export_bpf(self._context, out.fileno()))
            out.seek(0)
            return out.read()

    def close(self) -> None:
        if self._context is not None:
            self._lib.seccomp_release(self._context)
            self._context = None


def _check(function: str, returned: int) -> None:
    """Raise :class:`Unavailable` for a libseccomp function's negative errno."""
    if returned < 0:
        name = errno.errorcode.get(-returned, str(-returned))
        raise Unavailable(f"{function} failed: {name} ({os.strerror(-returned)})")
