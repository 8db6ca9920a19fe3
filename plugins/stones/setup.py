"""The compiled engine of the built-in ``search`` bot, an optional extension: where it
cannot be built (no C compiler, no Python headers) the plugin still installs, and the bot
plays the Python search instead, saying so on its stderr."""

from setuptools import Extension, setup

setup(
    ext_modules=[
        Extension(
            "arena_stones._engine",
            sources=["arena_stones/_engine.c"],
            extra_compile_args=["-O3"],
            optional=True,
        )
    ]
)
