"""Codecs: how messages are framed and encoded on a byte stream."""

from arena_kernel.codecs.base import DEFAULT_MAX_MESSAGE, MAX_DEPTH, Codec, Decoded, Decoder

__all__ = ["DEFAULT_MAX_MESSAGE", "MAX_DEPTH", "Codec", "Decoded", "Decoder"]
