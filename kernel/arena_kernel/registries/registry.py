"""Named registries (hatch style): the classes plugins register, keyed by their ``name``."""

from __future__ import annotations

from collections.abc import Iterator, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from arena_kernel.errors import PluginError, did_you_mean
from arena_kernel.registries.installed import Unavailable
from arena_kernel.registries.kinds import KINDS


@dataclass(frozen=True)
class Entry:
    """One registered class and where it came from (shown by ``arena plugins``)."""

    name: str
    cls: type[Any]
    plugin: str
    source: str


class Registry(Mapping[str, Entry]):
    """Classes of one :class:`~.kinds.Kind` by name.

    A duplicate name is a load-time error naming both plugins: silently letting the
    second win would make a match file mean different things on different machines.
    ``unavailable`` are the installed plugins left out (broken or disabled): one of them
    may be why a name is missing.
    """

    def __init__(self, kind: str, unavailable: Sequence[Unavailable] = ()) -> None:
        self.kind = kind
        self.unavailable = tuple(unavailable)
        self._entries: dict[str, Entry] = {}

    def add(self, entry: Entry) -> None:
        name = entry.name
        if not isinstance(name, str) or not name:
            raise PluginError(
                f"{self.kind} class {entry.cls.__qualname__} from {entry.source} has no `name`"
            )
        if name in self._entries:
            first = self._entries[name]
            raise PluginError(
                f'{self.kind} "{name}" is registered twice: by {first.source} '
                f"({first.cls.__module__}.{first.cls.__qualname__}) and by {entry.source} "
                f"({entry.cls.__module__}.{entry.cls.__qualname__})"
            )
        self._entries[name] = entry

    def cls(self, name: str) -> type[Any]:
        """The class registered as ``name``; an unknown name is a clear user error."""
        try:
            return self._entries[name].cls
        except KeyError:
            known = ", ".join(sorted(self._entries)) or "none"
            raise PluginError(
                f'unknown {self.kind} "{name}"{did_you_mean(name, self._entries)}; '
                f"installed: {known}{self.left_out_note(name)}"
            ) from None

    def left_out_note(self, name: str) -> str:
        """``"; ..."``, the left-out plugins that may be why ``name`` is missing (the one
        named after it, with its reason, or else all of them), or ``""``."""
        for left_out in self.unavailable:
            if left_out.plugin.named((name, f"arena-{name}")):
                return f"; its {left_out}"
        if not self.unavailable:
            return ""
        listed = ", ".join(
            f"{u.plugin.source} ({'broken' if u.broken else 'disabled'})" for u in self.unavailable
        )
        return f"; plugins left out: {listed}"

    def __getitem__(self, name: str) -> Entry:
        return self._entries[name]

    def __iter__(self) -> Iterator[str]:
        return iter(self._entries)

    def __len__(self) -> int:
        return len(self._entries)


@dataclass(frozen=True)
class Registries:
    """The registries of every kind, filled once from the plugin manager: the four a run's
    games need, the executors that play them, and the renderers a report needs."""

    transports: Registry
    codecs: Registry
    games: Registry
    scorers: Registry
    renderers: Registry
    executors: Registry

    @classmethod
    def empty(cls, unavailable: Sequence[Unavailable] = ()) -> Registries:
        return cls(**{kind.plural: Registry(kind.name, unavailable) for kind in KINDS})

    def by_kind(self) -> dict[str, Registry]:
        """Each kind's name (``game``) to its registry, in :data:`~.kinds.KINDS`' order."""
        return {kind.name: getattr(self, kind.plural) for kind in KINDS}
