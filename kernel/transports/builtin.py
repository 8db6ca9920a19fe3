"""The built-in transports, registered through the same hook as any plugin's."""

from __future__ import annotations

from kernel import hookimpl
from kernel.hookspecs import Register
from kernel.transports.inproc import InprocTransport
from kernel.transports.stdio import StdioTransport
from kernel.transports.tcp import TcpTransport


@hookimpl
def arena_register_transports(register: Register) -> None:
    register(StdioTransport)
    register(TcpTransport)
    register(InprocTransport)
