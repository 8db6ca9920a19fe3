"""The built-in transports, registered through the same hook as any plugin's (and, as a
plugin's, imported only when registered: a command that needs no transport pays nothing
for them)."""

from __future__ import annotations

from arena_kernel.hookspecs import Register
from arena_kernel.markers import hookimpl


@hookimpl
def arena_register_transports(register: Register) -> None:
    from arena_kernel.transports.inproc import InprocTransport
    from arena_kernel.transports.stdio import StdioTransport
    from arena_kernel.transports.tcp import TcpTransport

    register(StdioTransport)
    register(TcpTransport)
    register(InprocTransport)
