"""The namespaces and capabilities bwrap gives a bot (:mod:`.bwrap` says why), apart from
the rest of its command so that the sandbox check of ``arena plugins`` (:mod:`.trial`)
starts the same sandbox without the rest of a bot's."""

from __future__ import annotations

ISOLATION = (
    "--unshare-all",
    "--unshare-user",
    "--disable-userns",
    "--cap-drop",
    "ALL",
    "--die-with-parent",
)
"""The namespaces of an arena run as a user: a user namespace of the bot's own too."""

ROOT_ISOLATION = (
    "--unshare-ipc",
    "--unshare-pid",
    "--unshare-net",
    "--unshare-uts",
    "--unshare-cgroup",
    "--cap-drop",
    "ALL",
    "--cap-add",
    "CAP_SETUID",
    "--cap-add",
    "CAP_SETGID",
    "--cap-add",
    "CAP_SETPCAP",
    "--die-with-parent",
)
"""The namespaces of an arena run as root, whose bot then drops to its own user id."""


def isolation(uid: int | None) -> tuple[str, ...]:
    """The namespace options for a bot run as ``uid`` (None: as the arena's user)."""
    return ISOLATION if uid is None else ROOT_ISOLATION
