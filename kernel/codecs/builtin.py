"""The built-in codecs, registered through the same hook as any third-party codec."""

from __future__ import annotations

from kernel import hookimpl
from kernel.codecs.jsonl import JsonlCodec
from kernel.codecs.line import LineCodec
from kernel.codecs.raw import RawCodec
from kernel.codecs.sexpr import SexprCodec
from kernel.hookspecs import Register


@hookimpl
def arena_register_codecs(register: Register) -> None:
    for codec in (LineCodec, JsonlCodec, SexprCodec, RawCodec):
        register(codec)
