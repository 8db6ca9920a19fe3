"""The built-in codecs, registered through the same hook as any third-party codec (and
imported only when registered)."""

from __future__ import annotations

from arena_kernel.hookspecs import Register
from arena_kernel.markers import hookimpl


@hookimpl
def arena_register_codecs(register: Register) -> None:
    from arena_kernel.codecs.jsonl import JsonlCodec
    from arena_kernel.codecs.line import LineCodec
    from arena_kernel.codecs.raw import RawCodec
    from arena_kernel.codecs.sexpr import SexprCodec

    for codec in (LineCodec, JsonlCodec, SexprCodec, RawCodec):
        register(codec)
