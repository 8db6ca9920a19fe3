"""How a failing plugin is reported: a warning of its own category, in one line.

A plugin that cannot be imported, or an observer that raises, must not cost the user the
command they ran; but they must learn which plugin failed, and why, without a traceback
that buries the output. The kernel issues a :class:`PluginWarning` (library users may
filter it; the ``arena`` command prints it as one ``arena: warning: ...`` line).

This module imports nothing heavy: the command line needs it before it knows whether any
plugin will be loaded at all.
"""

from __future__ import annotations

import importlib
import os
import warnings

DISABLE_VARIABLE = "ARENA_DISABLE_PLUGINS"
"""Comma-separated entry point or distribution names of installed plugins not to load: how
a user silences a broken one (every command's warning names it)."""

_MACHINERY = tuple(os.path.dirname(path) + os.sep for path in (importlib.__file__, __file__))
"""Where frames say nothing about the plugin: the import system and this loader."""


class PluginWarning(UserWarning):
    """A plugin failed and was left out; what arena was doing goes on without it."""


def warn(message: str) -> None:
    warnings.warn(PluginWarning(message), stacklevel=3)


def one_line(exc: BaseException) -> str:
    """``Type: message (at file:line)``: what went wrong and where, in one line.

    The place is the innermost frame of a real file outside the import system and this
    loader, which is the plugin's own code (or a library it calls); a syntax error names
    its place in its message already.
    """
    text = " ".join(str(exc).split())
    described = f"{type(exc).__name__}: {text}" if text else type(exc).__name__
    if isinstance(exc, SyntaxError):
        return described
    import traceback  # only once a plugin failed

    frames = [
        frame
        for frame in traceback.extract_tb(exc.__traceback__)
        if not frame.filename.startswith(("<", *_MACHINERY))
    ]
    if frames:
        described += f" (at {frames[-1].filename}:{frames[-1].lineno})"
    return described
