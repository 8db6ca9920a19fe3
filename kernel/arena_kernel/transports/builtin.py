"""The built-in transports, registered through the same hook as any plugin's."""

from __future__ import annotations

from arena_kernel.hookspecs import Register
from arena_kernel.markers import hookimpl
from arena_kernel.transports.inproc import InprocTransport
from arena_kernel.transports.stdio import StdioTransport
from arena_kernel.transports.tcp import TcpTransport


@hookimpl
def arena_register_transports(register: Register) -> None:
    register(StdioTransport)
    register(TcpTransport)
    register(InprocTransport)
