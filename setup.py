"""The line and jsonl codecs' usual messages and the referee's usual round trip, compiled:
an optional extension. Where it cannot be built (no C compiler, no Python headers) the
kernel still installs, and its Python code does the work (see
``kernel/arena_kernel/codecs/compiled.py``)."""

from setuptools import Extension, setup

setup(
    ext_modules=[
        Extension(
            "arena_kernel.codecs._fast",
            sources=["kernel/arena_kernel/codecs/_fast.c"],
            extra_compile_args=["-O2"],
            optional=True,
        )
    ]
)
